// What the rules ask the referee ("A confirmar", docs/rulesets.md "Pending confirmations"),
// one question at a time; and, in the same card, the table-reset offer of the time its clock
// did not count (one place for questions, walk48b M3).

import { $, LANG, _, name, say, show, table, view } from "./page.js";
import { send } from "./keypad.js";
import { playClip } from "./review.js";

// A card never changes under the referee's thumb (walk #45g G9): the same question drawn
// again keeps its card and buttons (only the count of those after it is redrawn); a new
// question's answers take no tap for a moment (ARRIVE_MS), so a tap aimed at the card it
// replaced — or at what its arrival moved — answers nothing (main.js says why)
export const ARRIVE_MS = 700;
let drawn = null; // the key of the question card on screen, null for none

function questionKey(list) {
  const p = list[0];
  const target = p && typeof p === "object" ? (p.id ?? p.entry ?? p.target) : p;
  const pr = view.state && view.state.proposal;
  return JSON.stringify([LANG, p, pr && pr.target === target ? pr : null, name("A"), name("B")]);
}

// When the card grows or shrinks (a question comes or goes: the table's news, another
// console's answer, the next lance withdrawing it), everything under it on the first screen
// moves: for ARRIVE_MS its buttons take no tap ("settling": a tap aimed at what was there
// before lands on nothing; main.js says why)
let shiftedAt = 0;
let settle = null;
export function layoutJustShifted() {
  return Date.now() - shiftedAt < ARRIVE_MS;
}

// `reset`: the table's last reset (the link's): its question is the card's too (walk48b M3)
// Returns true when a question new since the last drawing is asked (the rules' oldest one, or
// the table's power cut): main.js closes an open sheet for it, so it is never hidden behind
// one (walk49b M2: the overrun's question under Falta / toque, closed unanswered by the foul)
let shownList = null;
let shownReset = null;
let askedShown = null; // the question last drawn on the card (its identity), null for none
export function renderPending(list, reset) {
  shownList = list;
  shownReset = reset;
  const card = $("pending-card");
  const before = card.offsetHeight;
  renderResetOffer(reset);
  drawPending(list);
  const p = Array.isArray(list) && list.length ? list[0] : null;
  const asked = p != null || !$("reset-offer").hidden
    ? JSON.stringify([p && typeof p === "object" ? [p.id ?? p.entry ?? p.target, p.pt, Boolean(p.reopened)] : p,
                      $("reset-offer").hidden ? null : reset && reset.at])
    : null;
  const fresh = asked !== null && asked !== askedShown;
  askedShown = asked;
  if (card.offsetHeight === before) return fresh;
  shiftedAt = Date.now();
  const now = card.closest(".now");
  if (!now) return fresh;
  now.classList.add("settling");
  clearTimeout(settle);
  settle = setTimeout(() => now.classList.remove("settling"), ARRIVE_MS);
  return fresh;
}

function drawPending(list) {
  const ul = $("pending");
  const asking = Array.isArray(list) && list.length > 0;
  const fact = factShown();
  const reset = !$("reset-offer").hidden; // the table's power cut asked above the list
  const key = asking || fact || reset
    ? JSON.stringify([asking ? questionKey(list) : null, fact && [LANG, fact], reset]) : null;
  if (key !== null && key === drawn) return asking ? renderMore(ul, list) : undefined;
  drawn = key;
  ul.textContent = "";
  const factBox = fact ? renderFactProposal(fact) : null;
  if (factBox) {
    const li = document.createElement("li");
    li.append(factBox);
    ul.append(li);
  }
  $("pending-card").classList.toggle("asking", asking || Boolean(factBox) || reset);
  if (!asking) {
    if (factBox) return arriving(ul); // a new box: its button waits like a question's answers
    if (reset) return; // never "nada pendente" under the power cut's question
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = _("nothing pending");
    ul.append(li);
    return;
  }
  // one question at a time (the oldest first), the others counted: the team, the keypad
  // and "Chute pedido" stay on the first screen of a phone (issue 31 §11)
  for (const p of list.slice(0, 1)) {
    const li = document.createElement("li");
    const target = p && typeof p === "object" ? (p.id ?? p.entry ?? p.target) : p;
    const text = p && typeof p === "object" ? ((LANG === "en" && p.en) || p.pt || p.text || _("confirm the entry")) : String(p);
    const q = document.createElement("p");
    q.className = "question";
    q.textContent = _("To confirm: {text}", { text });
    const answers = document.createElement("div");
    answers.className = "answers";
    li.append(q);
    if (p && p.reopened) {
      // its answer was voided in the Registro: the question is back, and says why (issue 45)
      const again = document.createElement("p");
      again.className = "reopened";
      again.textContent = _("Answer voided in the Registro: answer again.");
      li.append(again);
    }
    li.append(answers);
    const options = p && Array.isArray(p.options) ? p.options : null;
    // each answer in the words the engine gave it (rules/answers.py): the ones its question
    // names, so the card never says an answer it has no button for (walk45h-b B1)
    const said = (p && p.answers && p.answers[LANG === "en" ? "en" : "pt"]) || {};
    // an own goal says whose it is, a corner of a big area whose area it is ("Área de …, bico
    // esquerdo", 000 Art. 26 §2 II B), in the engine's words: the Registro's row says them too
    const label = (c) => (c === "A" || c === "B" ? name(c) : said[c] || c);
    const proposed = renderProposal(target, label);
    if (proposed) answers.before(proposed);
    if (p && p.input === "disc") {
      // a free answer: the number of a disc (e.g. which disc is sent off)
      const input = document.createElement("input");
      input.type = "number";
      input.min = "0";
      input.max = "99";
      input.inputMode = "numeric";
      input.placeholder = _("disc no.");
      input.className = "pending-disc";
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = _("Confirm disc");
      b.addEventListener("click", () => {
        if (input.value.trim() === "") return say(_("✗ give the disc's number"), "bad");
        send("confirm", { target, choice: Number(input.value) }, _("confirmed: disc {disc}", { disc: input.value }));
      });
      answers.append(input, b);
    } else if (options) {
      // one button per answer the ruleset offers; the rules' suggestion is outlined with a
      // "sugerido" badge — never a ✓, the console's sign of what is recorded (walk 48a L4)
      for (const choice of options) {
        if (choice === "foul" && p.kind === "lance_timeout" && p.foul === "cera") {
          // 003 Art. 84 "conforme o caso": where the ball was decides the kick (Art. 74). Each
          // field named by the team whose field it is, and the kick by whom it is taken — never
          // "the favoured team's defence field", which the referee had to turn round (walk45i-a)
          const fav = p.side === "A" ? "B" : "A";
          for (const [where, word] of [
            ["own_half", _("cera — ball in {field_team}'s field: indirect for {team}", { field_team: name(fav), team: name(fav) })],
            ["opponent_half", _("cera — ball in {field_team}'s field: direct or indirect for {team}", { field_team: name(p.side), team: name(fav) })]]) {
            const w = document.createElement("button");
            w.type = "button";
            w.textContent = word;
            w.dataset.where = where;
            w.dataset.choice = choice;
            w.addEventListener("click", () => send("confirm", { target, choice, where }, _("confirmed: {choice}", { choice: word })));
            answers.append(w);
          }
          // no bare "falta" beside them: it would store a cera whose kick names no field
          // (walk45g G7: "✓ falta" — which foul? which kick?)
          continue;
        }
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = label(choice);
        if (choice === p.default) {
          b.classList.add("suggested");
          const badge = document.createElement("span");
          badge.className = "suggested-badge";
          badge.textContent = _("suggested");
          b.append(" ", badge);
        }
        b.dataset.choice = choice;
        b.addEventListener("click", () => send("confirm", { target, choice }, _("confirmed: {choice}", { choice: label(choice) })));
        answers.append(b);
      }
    } else {
      for (const [accept, word, said] of [[true, _("Accept"), _("accept")], [false, _("Reject"), _("reject")]]) {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = word;
        b.addEventListener("click", () => send("confirm", { target, accept }, `${said}: ${text}`));
        answers.append(b);
      }
    }
    ul.append(li);
  }
  renderMore(ul, list);
  arriving(ul);
}

// the new card's answers wait ARRIVE_MS before they take a tap (a disabled button: main.js
// swallows the tap and says the question changed)
function arriving(ul) {
  const buttons = [...ul.querySelectorAll("button")];
  for (const b of buttons) b.disabled = true;
  ul.classList.add("arriving");
  setTimeout(() => {
    for (const b of buttons) b.disabled = false;
    ul.classList.remove("arriving");
  }, ARRIVE_MS);
}

// how many questions wait after the one shown
function renderMore(ul, list) {
  for (const old of ul.querySelectorAll("li.more")) old.remove();
  if (list.length > 1) {
    const more = document.createElement("li");
    more.className = "more";
    more.textContent = list.length === 2 ? _("1 more question after this one")
      : _("{count} more questions after this one", { count: list.length - 1 });
    ul.append(more);
  }
}

// the camera's proposal for this question (docs/camera.md, "The camera's proposals"): what
// the ball's path shows, its clip (↺), and one tap sending the ordinary answer citing the clip
function renderProposal(target, label) {
  const pr = view.state && view.state.proposal;
  if (!pr || pr.target !== target) return null;
  const box = proposalBox(pr);
  if (pr.unavailable) return box;
  if (pr.choice != null) {
    const ok = document.createElement("button");
    ok.type = "button";
    ok.className = "proposal-confirm";
    ok.textContent = _("✓ confirm: {answer}", { answer: label(pr.choice) });
    ok.addEventListener("click", () => send("confirm", { target, choice: pr.choice, clip: pr.clip, proposed: "camera" },
      _("confirmed from the video: {answer}", { answer: label(pr.choice) })));
    box.append(ok);
  }
  return box;
}

// a fact the referee enters himself, seen on a clip no question asks about (his Rever): the
// ball stopped in an area, a restart short of the midline (docs/camera.md, "The camera's
// proposals"). Shown while the match stands as it was judged (in play, the same restart) and
// until tapped; the tap sends his ordinary input, citing the clip.
const IN_PLAY = ["running", "last_lance", "awaiting_dead_ball"];
const tapped = new Set();
function factShown() {
  const pr = view.state && view.state.proposal;
  const m = view.state && view.state.match;
  if (!pr || !pr.input || !pr.kind || !m || tapped.has(pr.clip)) return null;
  if (!IN_PLAY.includes(m.status) || view.state.finished) return null;
  if (((m.restart && m.restart.kind) || null) !== (pr.restart || null)) return null;
  return pr;
}
// the proposal's box: what the ball's path shows, in the camera's words, and its clip (↺)
function proposalBox(pr) {
  const box = document.createElement("div");
  box.className = "proposal";
  box.id = "camera-proposal";
  const words = document.createElement("p");
  words.textContent = pr.unavailable
    ? _("Camera without calibration: no proposal from the video (Calibrate the camera, in the menu)")
    : (LANG === "en" && pr.en) || pr.pt;
  box.append(words);
  if (pr.url && !pr.unavailable) {
    const play = document.createElement("button");
    play.type = "button";
    play.className = "proposal-clip";
    // the clip's number in the Registro (pr.clip_no); pr.clip, its stored id, is what is sent
    play.textContent = _("↺ clip no. {number}", { number: pr.clip_no ?? "?" });
    play.addEventListener("click", () => playClip(pr.url));
    box.append(play);
  }
  return box;
}

function renderFactProposal(pr) {
  const box = proposalBox(pr);
  const ok = document.createElement("button");
  ok.type = "button";
  ok.className = "proposal-confirm";
  ok.textContent = _("✓ record");
  ok.addEventListener("click", () => {
    tapped.add(pr.clip);
    send(pr.kind, { ...pr.input, clip: pr.clip, proposed: "camera" },
      _("recorded, citing clip no. {number}", { number: pr.clip_no ?? "?" }));
  });
  box.append(ok);
  return box;
}

// the table was reset (its power lost): its clock, restored from its last saved point, did
// not count the time it was off. The clock counts up: added time would end the period that
// much later again (walk47b M2). Play went on: its clock is advanced by that time, the period
// ends on time; play stopped: the clock is right as it is (stored too). A ball-in-play clock (004) counts
// only while the ball rolls: the question is whether it rolled.
let resetHandled = null;
function renderResetOffer(reset) {
  const box = $("reset-offer");
  const secs = reset && reset.restored ? Math.round((reset.lost_ms || 0) / 1000) : 0;
  const open = secs >= 1 && resetHandled !== reset.at;
  box.hidden = !open;
  if (!open) return;
  const m = (view.state && view.state.match) || {};
  const rolling = (m.clock_profile && m.clock_profile.clock_mode) === "ball-in-play";
  const time = FM.mmss(secs * 1000);
  // where its clock came back, as the Resumo says it: the referee checks both against what
  // his screens showed (walk50b M1)
  const back = typeof reset.clock_ms === "number" ? FM.mmss(reset.clock_ms) : null;
  $("reset-text").textContent = back === null
    ? (rolling
      ? _("⚠ The table was off for {time}: its clock did not count it. Did the ball keep rolling?", { time })
      : _("⚠ The table was off for {time}: its clock did not count it. Did play go on?", { time }))
    : (rolling
      ? _("⚠ The table was off for {time}: its clock came back at {clock} and did not count it. Did the ball keep rolling?", { time, clock: back })
      : _("⚠ The table was off for {time}: its clock came back at {clock} and did not count it. Did play go on?", { time, clock: back }));
  $("reset-add").textContent = _("Yes: advance the clock {time} (the period ends on time)", { time });
  $("reset-dismiss").textContent = rolling
    ? _("No: the ball stopped, the clock is right")
    : _("No: play stopped, the clock is right");
  $("reset-add").onclick = () => {
    resetHandled = reset.at;
    renderPending(shownList, shownReset);
    send("clock_catch_up", { ms: secs * 1000 }, _("clock advanced {time}", { time }));
  };
  // "Não" is an answer stored like "Sim" (walk50b M2: it stored nothing, said nothing): its ✓
  // and the Registro say the clock was kept, and the súmula tells it from no answer
  $("reset-dismiss").onclick = () => {
    resetHandled = reset.at;
    renderPending(shownList, shownReset);
    send("clock_kept", { ms: secs * 1000 }, _("clock kept as restored"));
  };
}

// after the final whistle: the súmula is signed; once the referee has, it is closed
export const signUrl = () => `/assinar${table ? `?table=${encodeURIComponent(table)}` : ""}`;
export function renderSigning() {
  const finished = Boolean(view.state && view.state.finished);
  $("sign-link").href = signUrl();
  $("closed-link").href = signUrl();
  show("sign-card", finished && !view.closed);
  show("closed-card", view.closed);
  document.body.classList.toggle("closed", view.closed);
}
