// The input: the team the buttons serve (the one with the lance unless the referee picks the
// other), the disc number and the ball's field set for one action, and sending that action
// (which uses them up).

import { $, _, LANG, author, name, say, view } from "./page.js";
import { renderRuleInputs } from "./ruleinputs.js";

// One action, one input: the disc typed for it is used up, and the team buttons go back to
// the team with the lance (the referee picks the other team again for its next action)
export function send(kind, data, label) {
  const sent = Referee.send(kind, data, label || kind, author());
  // the restart the act was made on: its answer closes a sheet when it brings another (main.js)
  view.sentRestart = { id: sent, restart: view.restartShown };
  view.disc = "";
  view.freshDisc = true;
  view.pickedAt = 0;
  showDisc();
  setBall(BALL_DEFAULT);
  setSide(home());
  return sent;
}

// where the ball is for the shot asked (the chips "campo adversário" — the default —, "linha
// central", "próprio campo") qualifies one action, like the disc: after it, and when the team
// or the restart changes, it is the default again (walk46a M2: "próprio campo" pressed for one
// lance stayed pressed, and four actions later a penalty's shot was refused for it)
export const BALL_DEFAULT = "opponent_half";
export function setBall(where) {
  $("shot-ball").value = where;
  for (const b of document.querySelectorAll("[data-ball]")) {
    b.setAttribute("aria-pressed", String(b.dataset.ball === where));
  }
}

// the team the buttons serve unless the referee picks the other: the one with the lance
// (the engine's published possession), else the one on turn, else (no ball in play: a new
// match, the interval) the one the engine says kicks off next — never the last match's pick
// (walk50b L2: «Democrata: sem chute agora» after «Nova partida», Cruzeiro do Sul kicking off)
export function home() {
  const m = (view.state && view.state.match) || {};
  const p = m.possession;
  const so = m.phase === "shootout" && m.shootout;
  // in a shoot-out, the team whose kick is next
  const s = (so && (so.next || (so.in_progress && so.in_progress.side))) || (p && p.side) || m.turn
    || (m.kickoff && m.kickoff.next);
  return s === "A" || s === "B" ? s : view.side;
}

// what the engine allows each team now (state.match.possession.allowed); a console of a
// host without it allows everything and lets the engine refuse
export function allows(s, play) {
  const p = view.state && view.state.match && view.state.match.possession;
  const allowed = p && p.allowed && p.allowed[s];
  return !Array.isArray(allowed) || allowed.includes(play);
}

export function renderPlays() {
  const shot = $("act-shot");
  if (!shot) return;
  const ok = allows(view.side, "shot_asked");
  // why not, in the engine's words (state.match.possession.why_not): the lance is the other
  // team's, or another reason (a rebound, an indirect kick's pass first, the alarm…)
  const p = view.state && view.state.match && view.state.match.possession;
  const why = !ok && p && p.why_not && p.why_not[view.side] && p.why_not[view.side].shot_asked;
  const m = (view.state && view.state.match) || {};
  // which it is, in short on the button: a shot already asked, the other team's vez, the
  // match over, or another reason
  const over = Boolean(view.state && view.state.finished);
  const other = !over && !m.shot_asked && (!why || why.lance);
  const short = ok ? name(view.side)
    : over ? _("{team}: the match is over", { team: name(view.side) })
      : m.shot_asked ? _("{team}: a shot is pending", { team: name(view.side) })
        : other ? _("{team}: not this team's turn", { team: name(view.side) })
          : _("{team}: no shot now", { team: name(view.side) });
  $("act-shot-team").textContent = short;
  // grey, never `disabled`: a finger's tap on it is answered with the reason (refuseShot),
  // which a disabled button would swallow in silence (walk 48b M2)
  shot.disabled = false;
  if (ok) shot.removeAttribute("aria-disabled");
  else shot.setAttribute("aria-disabled", "true");
  const full = ok ? "" : why ? String(why[LANG] || why.pt || "")
    : _("Only the team with the lance asks for a shot: {team} does not have it now", { team: name(view.side) });
  shot.title = full;
  // the reason, visible under the button (a phone shows no tooltip): the other team's vez
  // in the engine's first sentence, short enough for a 390 px phone (the tap's answer says
  // what to do: walk 45f, M9); any other reason (a restart's limit, the alarm…) in full
  const holder = (p && p.side) || home();
  const line = $("act-shot-why");
  line.textContent = other && why && holder !== view.side
    ? _("The lance is {team}'s: only the team with the lance asks for a shot", { team: name(holder) })
    : full;
  line.hidden = ok || over || Boolean(m.shot_asked);
  shot.classList.toggle("other-team", view.side !== home());
}
// a tap on the grey Chute pedido answers in the result line, as a refused touch does: the
// engine's reason (possession.why_not, the words under the button), never silence; like any
// action, it gives the choice back to the team with the lance (docs/operating.md)
export const isGrey = (b) => Boolean(b && (b.disabled || b.getAttribute("aria-disabled") === "true"));

// Every grey action button, one way (docs/operating.md §5 item 4): grey to the eye, never an
// HTML `disabled` that takes a finger's tap in silence, and `why` (the engine's words) answers
// that tap (refuseGrey, from main.js's pointerdown) — walk49a L2: after the final whistle
// "Chute sem gol" looked as in play. An empty `why` makes it an ordinary button again.
export function grey(b, why) {
  b.disabled = false;
  if (why) {
    b.setAttribute("aria-disabled", "true");
    b.dataset.why = why;
  } else {
    b.removeAttribute("aria-disabled");
    delete b.dataset.why;
  }
}
// what a grey button would have done, in the words its answer uses
function greyWhat(b) {
  if (/^[0-9]$/.test(b.dataset.key || "")) return _("no. {disc}", { disc: b.dataset.key });
  const label = b.cloneNode(true);
  for (const k of label.querySelectorAll("kbd")) k.remove();
  const text = label.textContent.trim();
  return b.dataset.outcome ? _("shot without a goal: {outcome}", { outcome: text }) : text;
}
export function refuseGrey(b) {
  if (b.id === "act-shot") return refuseShot();
  if (!b.dataset.why) return undefined;
  return say(_("✗ {what} refused: {why}", { what: greyWhat(b), why: b.dataset.why }), "bad");
}
export function refuseShot() {
  const shot = $("act-shot");
  const d = discNumber();
  const what = d != null ? _("shot asked {team} {disc}", { team: name(view.side), disc: d })
    : _("shot asked {team}", { team: name(view.side) });
  const why = shot.title || $("act-shot-team").textContent;
  say(_("✗ {what} refused: {why}", { what, why }), "bad");
  view.pickedAt = 0;
  setBall(BALL_DEFAULT);
  setSide(home(), true);
}
// ---- the disc keypad and the side ---------------------------------------------------
export function discNumber() {
  return view.disc === "" ? null : Number(view.disc);
}

export function showDisc() {
  $("disc").value = view.disc;
  // the first screen's keypad and each sheet's show the one number
  for (const el of document.querySelectorAll(".disc-shown")) {
    el.textContent = view.disc === "" ? _("no. —") : _("no. {disc}", { disc: view.disc });
  }
  $("rc-taker").textContent = view.disc === "" ? _("Who takes it: key in the no.") : _("Taken by no. {disc}", { disc: view.disc });
  if (view.state) renderRuleInputs((view.state && view.state.match) || {});
}

// the keypad starts afresh: after a team switch or an action that was not sent, the next
// digit never joins an old one ("2", team switched, "9" is no. 9, never no. 29)
export function clearDisc() {
  view.disc = "";
  view.freshDisc = true;
  showDisc();
}

// a disc the team does not have in play now (sent off, out of the field, substituted out:
// the engine's possession.barred and substitutions), or no. 0: refused on the phone as keyed
// (a lone "1" waits: it may be the start of 10–19)
function notInPlay(side, disc) {
  if (disc === 0) return true;
  const m = (view.state && view.state.match) || {};
  const barred = m.possession && m.possession.barred && m.possession.barred[side];
  if (Array.isArray(barred) && barred.includes(disc)) return true;
  const subs = (m.substitutions && m.substitutions[side]) || [];
  let out = false;
  for (const x of subs) {
    if (x && Number(x.out) === disc) out = true;
    if (x && Number(x.in) === disc) out = false;
  }
  return out;
}

export function key(k) {
  view.pickedAt = Date.now(); // a disc keyed for the team shown: it stays (main.js followLance)
  if (k === "back") {
    view.disc = view.freshDisc ? "" : view.disc.slice(0, -1);
  } else {
    view.disc = ((view.freshDisc ? "" : view.disc) + k).slice(-2).replace(/^0(?=\d)/, "");
  }
  view.freshDisc = false;
  if (view.disc !== "" && view.disc !== "1"
      && notInPlay(view.side, Number(view.disc))) {
    say(_("✗ no. {disc}: {team} has no such disc in play — key in another",
          { disc: view.disc, team: name(view.side) }), "bad");
    clearDisc();
    return;
  }
  showDisc();
}

// a team switch: the next digit starts a new number ("2", switch, "9" is no. 9, never 29);
// on the main screen (`clear`) the number keyed for the other team goes at once, while in a
// sheet (number first, then the offending team: "Disc: no. 4") it stays for that action
export function setSide(s, clear) {
  if (s !== view.side) {
    view.freshDisc = true;
    if (clear) { view.disc = ""; showDisc(); }
    setBall(BALL_DEFAULT);
  }
  view.side = s;
  for (const b of document.querySelectorAll(".side[data-side]")) {
    b.setAttribute("aria-pressed", String(b.dataset.side === s));
  }
  $("act-keeper-foul").textContent = _("Foul by {team} on the goalkeeper", { team: name(s) });
  $("act-goal-by-hand").textContent = _("Goal by {team} (the sensor missed it)", { team: name(s) });
  renderPlays();
  if (view.state) renderRuleInputs(view.state.match || {}); // their labels name the team
}
