// futmesa referee console: the moment first (the question to answer, the side on turn, the
// shot asked with its disc, the outcome), everything else one tap away in a sheet. Input goes
// through Referee (referee.js): an id and a press time on each, kept until the host answers.
// This module draws the state and starts the page; the others each do one job.

import { $, KEEP_PICK_MS, LANG, _, ask, dropStaleRefusal, forTable, name, say, sayBeside, show, table, view } from "./page.js";
import { BALL_DEFAULT, clearDisc, grey, home, isGrey, key, refuseGrey, renderPlays, send, setBall, setSide, showDisc } from "./keypad.js";
import { checkToken, keepLastState, lastState, showQueue } from "./link.js";
import { actions, closePlaySheets, closeSheets, openSheet } from "./actions.js";
import { renderFoulPlace, renderRuleInputs, restartTap, restartWords } from "./ruleinputs.js";
import { layoutJustShifted, renderPending, renderSigning } from "./questions.js";
import { describe, loadLog, refreshLog } from "./log.js";
import { cancelFix, showFixFields, submitFix } from "./corrections.js";
import { renderReview, reviewApplied } from "./review.js";
import { renderCalibrate } from "./calibrate.js";
import { renderPlayStop, wirePlayStop } from "./playstop.js";
import { showKeeperPass } from "./keeperpass.js";

// ---- live state -------------------------------------------------------------------
function render() {
  if (!view.state) return;
  dropStaleRefusal(); // a refusal of a state the match has left (page.js)
  for (const s of ["A", "B"]) {
    $(`c-name-${s}`).textContent = name(s);
    const t = view.state.teams && view.state.teams[s];
    $(`sw-${s}`).style.background = FM.safeColor(t && t.color, "#888");
    for (const b of document.querySelectorAll(`.side[data-side="${s}"]`)) {
      b.querySelector(".label").textContent = name(s);
      b.style.setProperty("--team", FM.safeColor(t && t.color, "#888"));
    }
  }
  if (table) $("c-table").textContent = view.state.table_name || _("Table") + " " + table;
  // the match form: the current teams as a hint
  for (const s of ["A", "B"]) document.querySelector(`#setup input[name=name${s}]`).placeholder = name(s);
  const sc = view.state.score || {};
  $("c-score").textContent = `${sc.A || 0} × ${sc.B || 0}`;
  const T = FM.TEXT[LANG];
  $("c-period").textContent = view.state.finished ? T.finished
    : view.state.status === "interval" ? T.interval
      // the penalty shoot-out, as the TV says it (kiosk.js periodText)
      : view.state.status === "shootout" ? T.shootout
      : view.state.period ? T.period(view.state.period, view.state.periods || 2) : (T.status[view.state.status] || "");
  const m = view.state.match || {};
  // a penalty shootout: its kick and result take the place of the lance's actions
  const shootout = m.phase === "shootout";
  document.body.classList.toggle("in-shootout", shootout);
  $("shootout-box").hidden = !shootout;
  // the goalkeepers' page, with a key that makes only their choice (keeperpass.js)
  if (shootout) showKeeperPass("", $("shootout-box"), $("keeper-link"));
  $("c-turn").textContent = m.turn ? name(m.turn) : "—";
  renderTouches(m);
  for (const b of document.querySelectorAll(".side[data-side]")) b.classList.toggle("on-turn", b.dataset.side === m.turn);
  const held = followLance(home());
  // another restart (called, or taken): the ball's field set for the play before it is gone
  const r0 = m.restart;
  const restartNow = restartKey(r0);
  if (restartNow !== view.restartShown) {
    view.restartShown = restartNow;
    setBall(BALL_DEFAULT);
  }
  renderPlays();
  // the draw: the goal each side defends now, named by the team
  const ends = m.ends || { A: 0, B: 1 };
  for (const opt of $("draw-goal").options) {
    const owner = Number(opt.value) === ends.A ? "A" : "B";
    opt.textContent = _("defends the goal where {team} is", { team: name(owner) });
  }
  const link = $("c-link");
  const off = view.state.link && view.state.link.connected === false;
  const faults = view.state.sensor_faults && typeof view.state.sensor_faults === "object"
    ? Object.values(view.state.sensor_faults).map((f) => _("table sensor {fault}", { fault: SENSOR_FAULTS[f] || _("faulty") })) : [];
  const health = view.state.health && !view.state.health.ok ? (view.state.health.faults || []).map((f) => (LANG === "en" && f.en) || f.pt || f.code) : [];
  link.textContent = (off ? " ⚠ " + _("table disconnected") : "") + health.map((h) => ` ⚠ ${h}`).join("")
    + (faults.length ? ` ⚠ ${faults.join(", ")}` : "");
  // a Raspberry Pi table: no microcontroller, this computer keeps the official time (a fact,
  // not a warning: said calmly beside the link's warnings)
  $("c-timekeeper").textContent = view.state.link && view.state.link.host_clock ? _("clock: this computer") : "";
  // a new question is never left behind an open sheet (docs/operating.md §3): the sheet closes
  if (renderPending(m.pending, view.state.link && view.state.link.reset)) closePlaySheets();
  sayStoppedClock(m);
  renderRuleInputs(m);
  renderSigning();
  renderReview();
  renderCalibrate();
  // the venue desk's next match for this table: one press starts it, settings filled in
  // before a kick-off the first thing to do is on the first screen: start the period
  // never while the result waits for the referee's answer (the engine's decision_pending: the
  // period that ended is the last one unless the answer says otherwise)
  const startable = periodStartable(m);
  $("start-main").classList.toggle("hidden", !startable);
  if (startable) {
    const n = (view.state.period || 1) + (view.state.status === "interval" ? 1 : 0);
    $("start-main").textContent = "▶ " + _("Start period {n}", { n });
  }
  renderTimeUp(m);
  renderClockStopped(m);
  const news = sayTableNews(m);
  if (held) sayHeld(held, news);
  sayGoals();
  // after the final whistle nothing more is played: the keypad and the shot's outcomes rest,
  // grey, a tap answered with why (the engine's words)
  const over = view.state.finished ? _("The match is over") : "";
  for (const b of document.querySelectorAll(".keypad button, .ball-pick button, #act-outcome button")) grey(b, over);
  renderOutcomes();
  const nxt = view.state.next;
  $("start-next").classList.toggle("hidden", !nxt);
  $("start-next").textContent = nxt ? "▶ " + _("Start next: {title}", { title: nxt.title }) + (nxt.label ? ` (${nxt.label})` : "") : "";
  // a refusal answers one input (the result line, the Registro), never the state of play: the
  // newest thing the rules said that is not one (walk 45h-a A5: "» Não há confirmação
  // pendente com esse número" after a void, an entry refused on the replay)
  const said = Array.isArray(m.announcements) ? m.announcements.filter((a) => !a || a.code !== "refused") : [];
  const newest = said.length ? said[said.length - 1] : null;
  // said before the restart was taken (m.restart.taken_at): no longer the state of play
  const r = m.restart;
  const gone = newest && typeof newest.entry === "number" && (
    (r && r.taken && typeof r.taken_at === "number" && newest.entry < r.taken_at)
    // said before the vez passed (m.turn_at): of the other team's lance (walk45i-a M2)
    || (typeof m.turn_at === "number" && newest.entry < m.turn_at));
  // the restart in force is said by its card above ("Cobrança: lateral para …"): not twice
  // (walk45g, low)
  const carded = newest && typeof newest === "object" && r && !r.taken && newest.code === `restart_${r.kind}`;
  const ann = gone || carded ? null : newest;
  $("c-announce").dataset.log = String(m.log_length); // the state it was drawn from
  $("c-announce").textContent = ann ? `» ${typeof ann === "string" ? ann : (LANG === "en" ? ann.en || ann.pt : ann.pt || ann.en) || ""}` : "";
  tick();
}

// The touches of the team on turn, where the rules count them (003 Art. 47 §3: each técnico
// counts aloud; walk52c M4), beside its name on the "Vez:" line: "· Toques: 5/8"
function renderTouches(m) {
  const tc = m.turn && m.touches && m.touches[m.turn];
  const limit = tc ? Number(tc.limit) : 0;
  const count = tc ? Number(tc.count || 0) : 0;
  const el = $("c-touches");
  el.hidden = !(limit > 0);
  el.textContent = limit > 0 ? `· ${FM.TEXT[LANG].touchesShort(count, limit)}` : "";
  el.classList.toggle("last", limit > 0 && count >= limit - 1);
}

// A new lance (or a new match): the buttons serve the team with the lance, and never with a
// disc keyed for the other team — unless the referee is entering an act for the team shown
// (he picked it, keyed its disc or opened Falta / toque or Disciplina for it, KEEP_PICK_MS
// ago at most): that team stays under his thumb, and if the lance left it the console says
// so (sayHeld). Walk51b M2: Internacional's disc 10 keyed in the sheet, its lance ran out
// (001 Art. XXIX e), the sheet followed the lance and the Toque was stored as Grêmio's disc 10.
// Returns the team the lance went to while his stays, else "".
function followLance(holder) {
  const shown = `${view.state.match_id}/${holder}`;
  if (shown === view.shownTurn) return "";
  const sameMatch = Boolean(view.shownTurn) && view.shownTurn.startsWith(`${view.state.match_id}/`);
  view.shownTurn = shown;
  // an act of this phone on its way: the lance it moves is the referee's own doing, and a
  // disc keyed since (send() used up the one before) is for the team with the lance after it
  const own = view.queued > 0;
  if (!own && sameMatch && Date.now() - view.pickedAt <= KEEP_PICK_MS) return holder !== view.side ? holder : "";
  setSide(holder, !own);
  return "";
}
// the lance moved while the referee keyed an act for the other team: said before the table's
// news that moved it (`news`, as sayTableNews said it), on the result line a sheet leaves in sight
function sayHeld(holder, news) {
  const words = _("The turn passed to {team}: check the team — the buttons stay on {kept}",
                  { team: name(holder), kept: name(view.side) });
  say(news ? `${words} · ${news}` : words, "news");
}

// time is up and a last lance is played (or the period waits for a dead ball): said on the
// first screen as the TV says it, with the one button that ends it
function renderTimeUp(m) {
  const st = view.state;
  const status = st.finished ? "" : (m.status || st.status);
  const line = $("c-timeup");
  const ask = m.decision_pending && Array.isArray(m.pending) && m.pending.length ? m.pending[0] : null;
  const question = ask && typeof ask === "object" ? ((LANG === "en" && ask.en) || ask.pt || ask.text || "") : String(ask || "");
  line.textContent = m.decision_pending && !st.finished
    ? (question ? _("The result waits for your answer: {question}", { question })
      : _("The result waits for the referee's confirmation"))
    : status === "last_lance" ? _("Time is up: the last lance is being played")
      : status === "awaiting_dead_ball" ? _("Time is up: play on until the ball goes out") : "";
  line.hidden = !line.textContent;
  $("lance-done-main").classList.toggle("hidden", status !== "last_lance");
  // in the Clock sheet the button that applies now is the highlighted one: "Iniciar período"
  // only when a period can start, the stop (or resume) during a half (walk49b L1), the last
  // lance's end while it is played
  $("act-start").classList.toggle("primary", periodStartable(m));
  $("act-pause").classList.toggle("primary", status === "running");
  $("act-lance-done").classList.toggle("primary", status === "last_lance");
  // …and what the engine would refuse now is grey, its refusal's words the tap's answer
  grey($("act-start"), periodStartable(m) ? "" : _("There is no period to start now"));
  grey($("act-lance-done"), status === "last_lance" ? "" : _("No last lance is being played"));
}

// a period can start now: never while the result waits for the referee's answer (the engine's
// decision_pending: the period that ended is the last one unless the answer says otherwise)
function periodStartable(m) {
  const st = view.state;
  return !st.finished && !m.decision_pending && (st.status === "not_started" || st.status === "interval");
}

// The clock the referee stopped (Relógio → Parar: the engine's clock stands while its half is
// on) is said on the first screen as the TV's PARADO says it: the header's clock in its stopped
// style, a line with the resume one tap away; and the sheet's button says what it will do
// (walk49b M1: play went on for minutes, the phone never said the clock stood). A ball-in-play
// clock (mesa-posta) stands at every dead ball: its card says why (sayStoppedClock).
function renderClockStopped(m) {
  const st = view.state;
  const mode = m.clock_profile && m.clock_profile.clock_mode;
  const stopped = !st.finished && m.status === "running" && m.clock_running === false;
  const shown = stopped && mode !== "ball-in-play";
  $("c-stopped").hidden = !shown;
  $("c-clock").classList.toggle("stopped", shown);
  $("act-pause-words").textContent = stopped ? _("Resume the clock") : _("Stop the clock");
  // «A mesa está posta» times no lance: no lance count in the header (guide §2, walk49a L1)
  const profile = m.clock_profile || {};
  $("c-lance-part").hidden = profile.lance_ms === 0;
}

// a ball-in-play clock (mesa-posta) standing still with nothing to answer: the card says so,
// and what runs it again (the restart taken, as the engine's state.match.restart names it).
// The table not heard (its cable, its power), in any rules: that is why the clock stands on
// the screens, and the card says it first (walk 49a M6: it read "volta a correr quando a bola
// voltar ao jogo" with the ball in play and the table off)
function sayStoppedClock(m) {
  const st = view.state;
  const mode = m.clock_profile && m.clock_profile.clock_mode;
  const playing = ["running", "last_lance", "awaiting_dead_ball"].includes(m.status || st.status);
  const off = st.link && st.link.connected === false;
  if (!playing || st.finished || !st.clock || st.clock.running) return;
  if (mode !== "ball-in-play" && !off) return;
  if (Array.isArray(m.pending) && m.pending.length) return;
  if (off) {
    const li = $("pending").firstElementChild;
    if (li && li.classList.contains("muted")) {
      li.textContent = _("Clock stopped on the screens: the table is disconnected — check its cable and its power");
    }
    return;
  }
  const r = m.restart && !m.restart.taken ? m.restart : null;
  const restart = r ? restartWords(r) : "";
  const li = $("pending").firstElementChild;
  if (!li) return;
  // the card's "▶ Restart taken" named, where the engine offers it (walk48a M1)
  const words = { team: name(r && r.side), restart };
  li.textContent = !(r && restart && (r.side === "A" || r.side === "B"))
    ? _("Clock stopped: it runs again when the ball is back in play")
    : restartTap() === r.side
      ? _("Clock stopped: it runs again when {team} takes the {restart} — tap «▶ Restart taken» once it is taken", words)
      : _("Clock stopped: it runs again when {team} takes the {restart}", words);
}

// the goals of the state shown taken as seen: what is new since the goals last seen
// (fresh, gone), or null for a page just opened (old news)
function seeGoals() {
  const goals = view.state.match && view.state.match.goals;
  // the state kept for a reload without the network has no goals: it says nothing of them,
  // so the live state that follows is not taken for new goals (walk #45 low: an old goal)
  if (!Array.isArray(goals)) return null;
  const key = String(view.state.match_id);
  const entries = goals.map((g) => g && g.entry);
  const seen = view.goalsSeen;
  const length = view.state.match.log_length;
  // a state older than the goals seen (one sent before the referee's answer came) is no news
  if (seen && seen.key === key && typeof length === "number" && length < seen.length) return null;
  view.goalsSeen = { key, entries, length };
  if (!seen || seen.key !== key) return null;
  return { fresh: goals.filter((g) => g && !seen.entries.includes(g.entry)),
           gone: seen.entries.filter((e) => !entries.includes(e)) };
}

// The referee's answer line stays until something happens after his act (walk #45g G9):
// the goals his act made (or voided), as the host answered it (result.goals), are taken as
// seen, so the state that brings them by the WebSocket after the answer is no news; a goal
// the table sees later is (an answer older than the state shown changes nothing)
// an act of the sheet whose answer brings a restart to take closes the sheet, as an act that
// always brings one does (data-closes): the card (▶ Cobrança dada) is what comes next —
// «Último toque desta equipe» answering a goal question gives a goal kick (walk50a M1). The
// engine's restart in the answer (referee_inbox.outcome_of) says so; a restart the table
// brings later leaves it open
function closeForRestart(item, body) {
  const sent = view.sentRestart;
  const r = body && body.result && body.result.restart;
  if (!sent || !item || sent.id !== item.input_id || !r || r.taken) return;
  if (restartKey(r) !== sent.restart) closePlaySheets();
}

function restartKey(r) {
  return r ? `${r.kind}|${r.side}|${Boolean(r.taken)}` : "";
}

function answerSeen(body) {
  const g = body && body.result && body.result.goals;
  if (!g || !Array.isArray(g.entries) || !view.state || g.match_id !== view.state.match_id) return;
  const shown = view.state.match && view.state.match.log_length;
  if (typeof shown === "number" && typeof g.log_length === "number" && g.log_length < shown) return;
  view.goalsSeen = { key: String(g.match_id), entries: g.entries, length: g.log_length };
}

// the table's words that only say what became of an earlier question (rules/lance_questions.py
// QUESTION_CLOSED): a side effect, said beside the referee's ✓ (walk52b M2)
const SIDE_EFFECTS = new Set(["lance_question_closed"]);
// The result line says the newest fact: a word of the rules on an entry newer than the one
// the line answered (the table's lance that ran out, "Alvorada passou de 15 s no lance: falta
// técnica", 001 Art. XXIX e) takes it at once, as the TV says it — never the referee's older
// "✓ Toque de …" beside the card's bare "Falta técnica para …" (walk 45i-b M-c); a side effect
// of his act is said beside his ✓, and any news beside his ✗ until it is read (sayBeside).
// Refusals are answers, not facts; while an act of this phone is on its way its answer speaks
// next.
const entryOf = (a) => (a && typeof a === "object" && typeof a.entry === "number" ? a.entry : 0);
function sayTableNews(m) {
  const said = Array.isArray(m.announcements) ? m.announcements.filter((a) => a && a.code !== "refused") : [];
  const newest = said.reduce((n, a) => Math.max(n, entryOf(a)), 0);
  const key = String(view.state.match_id);
  if (!view.news || view.news.key !== key) { view.news = { key, entry: newest }; return ""; }
  if (newest <= view.news.entry || $("result").classList.contains("busy")) return "";
  view.news.entry = newest;
  // every word of the rules on that entry, in order, as the TV says them one after the other:
  // "Bola fora · Fim de jogo: 2–1, vitória de …" — the result too (walk 48a L3: only the first).
// Returns what it said, else "".
  const fresh = said.filter((x) => entryOf(x) === newest);
  const words = fresh
    .map((a) => (typeof a === "string" ? a : (LANG === "en" ? a.en || a.pt : a.pt || a.en) || ""))
    .filter(Boolean).join(" · ");
  // beside the referee's own answer, never in its place (page.js sayBeside, walk52b M2)
  if (words && !sayBeside(`» ${words}`, fresh.every((a) => a && SIDE_EFFECTS.has(a.code)))) {
    say(`» ${words}`, "news");
  }
  return words ? `» ${words}` : "";
}
function answered(body) {
  const id = Number(body && body.result && body.result.entry_id);
  if (view.news && Number.isFinite(id) && id > view.news.entry) view.news.entry = id;
}

// a goal the table saw (or one voided) is said on the result line, as the TV says it
function sayGoals() {
  const news = seeGoals();
  if (!news) return;
  const { fresh, gone } = news;
  const sc = view.state.score || {};
  const score = `${sc.A || 0} × ${sc.B || 0}`;
  if (fresh.length) {
    const g = fresh[fresh.length - 1];
    say(g.disc != null && !g.own_goal
      ? _("⚽ Goal for {team} (no. {disc}) — {score}", { team: name(g.side), disc: g.disc, score })
      : _("⚽ Goal for {team} — {score}", { team: name(g.side), score }), "ok");
  } else if (gone.length) {
    say(_("Goal voided — {score}", { score }), "ok");
  }
}

// the header's clock and lance say what the TV says: the interval counted down, an overrun
// lance "TEMPO!" until a new lance starts (never a fresh count), no lance out of play
const lanceExpired = FM.lanceWatch();
function tick() {
  if (!view.state) return;
  renderPlayStop(); // the Registro's lance line: its seconds count down with the header's
  const st = view.state;
  const now = FM.hostNow();
  const rest = FM.intervalLeftMs(st, now);
  const c = rest != null ? rest : FM.timerMs(st.clock, now);
  $("c-clock").textContent = c == null ? "--:--" : FM.mmss(c);
  const l = FM.countdownMs(st.lance, now);
  const el = $("c-lance");
  if (l == null || !FM.lanceTimed(st) || st.finished || st.status === "interval") {
    el.textContent = "—";
    el.classList.remove("over");
    return;
  }
  const left = Math.max(0, l);
  const over = lanceExpired(st.lance, left, `${st.match_id}/${st.period}`) || (st.lance.running && left <= 0);
  el.textContent = over ? FM.TEXT[LANG].lanceOver : String(Math.ceil(left / 1000));
  el.classList.toggle("over", over);
}

const SENSOR_FAULTS = {
  stuck: _("stuck"), no_answer: _("no answer"), out_of_range: _("out of range"),
  drift: _("drifted"), storage: _("with a faulty memory"),
};

// ---- forms, display, shortcuts ------------------------------------------------------
function wire() {
  $("fix-form").addEventListener("submit", submitFix);
  $("fix-cancel").addEventListener("click", cancelFix);
  wirePlayStop();
  for (const r of document.querySelectorAll("input[name=fix-mode]")) r.addEventListener("change", showFixFields);
  $("fix-false-trip").addEventListener("change", showFixFields);
  for (const b of document.querySelectorAll("[data-act]")) {
    // each act starts with its sheet free to close: only this act keeps it (keptSheetAt)
    b.addEventListener("click", () => { view.keptSheetAt = 0; actions[b.dataset.act](); });
  }
  $("c-resume").addEventListener("click", () => actions.pause()); // the stopped clock's line
  for (const b of document.querySelectorAll(".side")) {
    b.addEventListener("click", () => { view.pickedAt = Date.now(); setSide(b.dataset.side, !b.closest(".sheet")); });
  }
  for (const b of document.querySelectorAll("[data-discipline]")) {
    b.addEventListener("click", () => actions.discipline(b.dataset.discipline));
  }
  for (const b of document.querySelectorAll("[data-outcome]")) {
    b.addEventListener("click", () => actions.shot_result(b.dataset.outcome));
  }
  // a short list as buttons (one tap): the chosen one is pressed, its value in the field
  for (const group of document.querySelectorAll(".chips[data-field]")) {
    for (const b of group.querySelectorAll("button[data-value]")) {
      b.addEventListener("click", () => {
        $(group.dataset.field).value = b.dataset.value;
        for (const x of group.querySelectorAll("button")) x.setAttribute("aria-pressed", String(x === b));
        if (group.dataset.field === "foul-type") renderFoulPlace(); // its place asked or not
      });
    }
  }
  for (const b of document.querySelectorAll("[data-restart]")) {
    b.addEventListener("click", () => actions.restart(b.dataset.restart));
  }
  // an act after which a restart or a question follows closes its sheet (after the act
  // itself, which reads the sheet's team and fields): the first screen shows what comes next,
  // and a second tap can never land in the sheet, whose team has gone back to the one with
  // the lance ("Gol de Alvorada (o sensor não viu)", then "Gol de Botafogo": walk 45h-a A8)
  // — unless the act was not sent and the sheet must say what is missing (a foul's place)
  for (const b of document.querySelectorAll(".sheet [data-closes]")) {
    b.addEventListener("click", () => { if (Date.now() - view.keptSheetAt > 300) closeSheets(); });
  }
  for (const b of document.querySelectorAll("[data-ball]")) {
    b.addEventListener("click", () => setBall(b.dataset.ball));
  }
  // a tap on an action that cannot be sent now (Chute pedido grey): the number keyed for
  // it is not kept for the next action, and the result line says why (the engine's words).
  // That answer grows the result line above the thumb: the same tap's click, which comes
  // after, would land on whatever moved under the finger (issue 44's walk: "linha central"
  // picked, the next shot refused as asked from the halfway line) — it is swallowed; the
  // next tap's own pointerdown ends that
  let greyTap = false;
  document.addEventListener("pointerdown", (ev) => {
    const b = ev.target instanceof Element && ev.target.closest("button");
    // the first screen moved under the finger (a question card came or went, questions.js):
    // its buttons took no tap — say why, once
    // (the card itself is not: its answers stay put or wait by themselves, below)
    if (!b && layoutJustShifted() && ev.target instanceof Element && ev.target.closest(".now")
        && !ev.target.closest("#pending-card")) {
      say(_("✗ the screen has just changed: read it, then tap again"), "bad");
      return;
    }
    greyTap = isGrey(b);
    if (!greyTap) return;
    // a question that has just replaced the one the thumb went for (questions.js ARRIVE_MS)
    if (b.closest("#pending")) say(_("✗ the question has just changed: read it, then tap again"), "bad");
    else refuseGrey(b); // its reason (keypad.js grey)
    clearDisc();
  }, true);
  document.addEventListener("click", (ev) => {
    if (!greyTap) return;
    greyTap = false;
    ev.stopPropagation();
    ev.preventDefault();
  }, true);
  document.addEventListener("keydown", () => { greyTap = false; }, true);
  for (const b of document.querySelectorAll("[data-key]")) {
    b.addEventListener("click", () => key(b.dataset.key));
  }
  for (const b of document.querySelectorAll("[data-sheet]")) {
    b.addEventListener("click", () => {
      openSheet(b.dataset.sheet);
      if (b.dataset.sheet === "sheet-more") fillSetup();
    });
  }
  for (const b of document.querySelectorAll("[data-close]")) b.addEventListener("click", closeSheets);
  $("scrim").addEventListener("click", closeSheets);
  for (const b of document.querySelectorAll("[data-display]")) {
    b.addEventListener("click", async () => {
      try {
        const r = await fetch(`/api/display${forTable ? `?${forTable}` : ""}`, { method: "POST", headers: Referee.headers(), body: b.dataset.display });
        const body = await r.json();
        say(r.ok ? _("✓ screens: {what}", { what: b.textContent }) : _("✗ screens: {error}", { error: body.error }), r.ok ? "ok" : "bad");
      } catch (e) {
        say(_("✗ screens: no connection to the server; try again"), "bad");
      }
    });
  }
  $("setup").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const what = (ev.submitter && ev.submitter.value) || "new_match";
    localStorage.setItem("futmesa.referee", f.get("referee") || "");
    const teams = {
      A: { name: f.get("nameA"), color: f.get("colorA") },
      B: { name: f.get("nameB"), color: f.get("colorB") },
    };
    if (what === "set_up") {
      send("set_up", { teams }, _("teams"));
      closeSheets();
      return;
    }
    // laid over the organiser's settings file (the table's name, the interval...): a field
    // left empty keeps the file's value (docs/operating.md, "Mais")
    const settings = { teams, competition: f.get("competition") };
    if (f.get("referee")) settings.referee = f.get("referee");
    if (f.get("event")) settings.event = f.get("event");
    if (f.get("half_min")) settings.period_ms = Number(f.get("half_min")) * 60000;
    ask(endingWords(_("End the current match and open a new one?")), _("New match")).then((yes) => {
      if (!yes) return;
      send("new_match", { ruleset: f.get("ruleset"), settings }, _("new match"));
      closeSheets();
    });
  });
  $("start-next").addEventListener("click", () => {
    if (!view.state || !view.state.next) return;
    const playing = !view.state.finished && view.state.status !== "not_started";
    const question = playing ? _("The current match is not over yet. End it and open the next one?")
      : unsigned() ? _("End the current match and open a new one?") : "";
    const next = view.state.next;
    const go = () => send("new_match", next.start, _("next match: {title}", { title: next.title }));
    if (!question) { go(); return; }
    ask(endingWords(question), _("Start next")).then((yes) => { if (yes) go(); });
  });
  $("referee").value = localStorage.getItem("futmesa.referee") || "";
  document.addEventListener("keydown", onKey);
}

// a match played and not signed by the referee: "Nova partida" says so before it closes it,
// as the guide asks to sign first (walk #45 M8)
function unsigned() {
  const st = view.state;
  return Boolean(st && st.status && st.status !== "not_started" && !view.closed);
}
function endingWords(question) {
  if (!unsigned()) return question;
  const unsignedWords = _("The match report of this match is not signed yet (the signatures page: Sign the match report).");
  return unsignedWords + "\n\n" + question;
}

// "Mais" shows the current match: its teams (names, colours), rules, event, format, referee
// and the period length its settings set (empty: the rules'), for the referee to change what
// differs
function fillSetup() {
  const st = view.state;
  if (!st) return;
  const form = $("setup");
  for (const s of ["A", "B"]) {
    const t = (st.teams && st.teams[s]) || {};
    form.elements[`name${s}`].value = t.name ? String(t.name) : "";
    const color = FM.safeColor(t.color, "");
    if (/^#[0-9a-fA-F]{6}$/.test(color)) form.elements[`color${s}`].value = color.toLowerCase();
  }
  if (st.ruleset && [...form.elements.ruleset.options].some((o) => o.value === st.ruleset)) {
    form.elements.ruleset.value = st.ruleset;
  }
  form.elements.event.value = st.event ? String(st.event) : "";
  // the match's referee (else who last used this phone); its settings' period, whole minutes
  form.elements.referee.value = st.referee ? String(st.referee) : (localStorage.getItem("futmesa.referee") || "");
  const min = st.period_ms ? Number(st.period_ms) / 60000 : 0;
  form.elements.half_min.value = Number.isInteger(min) && min >= 1 && min <= 45 ? String(min) : "";
  // the format the match was opened with (its settings), never the rules' reading of it:
  // mesa-posta sends any draw to penalties and calls every match "knockout" (walk 45i-b M-a)
  const kind = st.competition || (st.match && st.match.competition && st.match.competition.type);
  form.elements.competition.value = kind === "knockout" ? "knockout" : "league";
}

function onKey(ev) {
  const tag = (ev.target && ev.target.tagName) || "";
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag)) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key;
  if (k === "Escape") { closeSheets(); return; }
  if (/^[0-9]$/.test(k)) { key(k); ev.preventDefault(); return; }
  if (k === "Backspace") { key("back"); ev.preventDefault(); return; }
  const map = {
    s: "start", d: "lance_done", l: "last_touch", Enter: "shot", c: "shot", f: "foul", t: "touch", x: "discipline", r: "restart",
    k: "kickoff", n: "shot_result", p: "pause",
  };
  const lower = k.length === 1 ? k.toLowerCase() : k;
  if (lower === "a" || lower === "b") { view.pickedAt = Date.now(); setSide(lower.toUpperCase(), !document.querySelector(".sheet:not([hidden])")); ev.preventDefault(); return; }
  if (lower === "?") { $("help").showModal(); ev.preventDefault(); return; }
  if (lower === "u") {
    ev.preventDefault();
    if (view.closed) return say(_("match report signed — reopen it on the signatures page"), "bad");
    const last = view.lastReferee;
    if (!last) return say(_("nothing to void"), "bad");
    ask(_("Void entry no. {id} ({what})?", { id: last.no ?? "?", what: describe(last) }), _("Void it")).then((yes) => {
      if (yes) send("void", { target: last.id }, _("void no. {id}", { id: last.no ?? "?" }));
    });
    return;
  }
  if (map[lower]) {
    ev.preventDefault();
    if (view.closed) return say(_("match report signed — reopen it on the signatures page"), "bad");
    if (ev.repeat) return;
    actions[map[lower]]();
  }
}


Referee.on("say", say);
Referee.on("applied", (item, body) => {
  closeForRestart(item, body);
  answerSeen(body);
  answered(body);
  refreshLog();
  // every input is answered alike, by referee.js: what the rules stored, in the Registro's
  // words (walk 45h-b B6: not "✓ falta Botafogo", "✓ anular nº 22")
  reviewApplied(item, body);
  // a substitution taken: Sai/Entra are empty again (never the same one sent twice)
  if (item && item.kind === "substitution") {
    $("sub-out").value = "";
    $("sub-in").value = "";
  }
});
Referee.on("token", () => {
  checkToken();
});
Referee.on("queue", (items, offline) => {
  view.queued = items.length;
  showQueue(items, offline);
  renderOutcomes();
});
wire();
showDisc();
if (table) { // a host serving several tables: say which one this console commands
  $("c-table").textContent = _("Table");
  $("c-table").hidden = false;
}
checkToken();
setSide("A");
FM.connect(table ? `/ws?table=${encodeURIComponent(table)}` : "/ws", {
  onMessage: (msg) => {
    if (msg.type === "state" && msg.state) {
      const before = view.state && view.state.match ? `${view.state.match_id}:${view.state.match.log_length}` : null;
      view.state = msg.state;
      keepLastState(view.state);
      render();
      if ($("token-status").classList.contains("bad") && !view.tokenWorked) checkToken();
      // the log changes only with a new entry (device event, input or correction); a
      // clock status alone does not ask the host to rebuild it
      const after = view.state.match ? `${view.state.match_id}:${view.state.match.log_length}` : null;
      if (after !== before || after === null || after.endsWith("undefined")) refreshLog();
      Referee.pump(); // the link is back: deliver what waited
    }
  },
  onStatus: (st) => {
    if (!st.up) {
      $("c-link").textContent = " ⚠ " + _("no connection to the server");
      view.linkLost = true;
    } else if (view.linkLost || $("token-status").classList.contains("bad")) {
      // back: ask again (a futmesa serve restarted with --new-referee-token has retired this
      // link: say so now, not at the referee's next action)
      view.linkLost = false;
      checkToken();
    }
  },
});
// a page reloaded without the network shows the match as it last saw it, not "0 × 0"
if (!view.state) {
  const last = lastState();
  if (last) {
    view.state = last;
    render();
  }
}
setInterval(tick, 200);
loadLog();
showQueue(Referee.queued(), false);
// installable, and opens without the network (the service worker keeps the pages)
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/console/sw.js", { scope: "/console" }).catch(() => {});
}
// every module has loaded and run (a test opening the console offline waits for this)
document.documentElement.dataset.console = "ready";

// "Chute sem gol" waits for a shot: with none asked (and none waiting in the outbox) its
// buttons rest dimmed and the title says when they serve (walk45i-a M6: they looked ready)
// "Shot without a goal" rests dimmed with no shot asked, and says when it serves; after the
// final whistle it rests too and says why (nothing more is played, walk 45j)
function renderOutcomes() {
  const m = (view.state && view.state.match) || {};
  const over = Boolean(view.state && view.state.finished);
  const idle = !over && !m.shot_asked && !view.queued;
  $("act-outcome").classList.toggle("idle", idle || over);
  $("outcome-why").hidden = !idle;
  $("outcome-over").hidden = !over;
}
