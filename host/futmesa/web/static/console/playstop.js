// The lance still running while the referee works in the Registro (issue 45): the table keeps
// counting the lance of the team on it while he voids or corrects an entry, and a lance run
// out then is the técnico's overrun (a foul: 001 Art. XXIX e) — so the Registro and the
// correction form say it plainly, with one tap that stops play (the referee's pause, which
// the engine allows while the clock runs in play: rules/timekeeping.py on_pause). Play
// stopped, they say the lance time does not run (the table's lance waits with its clock;
// no lance time counts then: rules/lance_questions.py) and offer to resume it.

import { _, name, view } from "./page.js";
import { send } from "./keypad.js";

const IN_PLAY = ["running", "last_lance", "awaiting_dead_ball"];

// what the line says now: "run" (the lance counts), "stopped" (the referee stopped play) or
// nothing
function moment() {
  const st = view.state;
  const m = (st && st.match) || {};
  if (!st || st.finished || !FM.lanceTimed(st) || !IN_PLAY.includes(m.status)) return null;
  if (m.clock_running && st.lance && st.lance.running) return "run";
  if (!m.clock_running && m.status === "running") return "stopped";
  return null;
}

function words(now) {
  const st = view.state;
  if (now === "stopped") return _("Play stopped: the lance time is not running");
  const left = Math.max(0, Math.ceil((FM.countdownMs(st.lance, FM.hostNow()) || 0) / 1000));
  const side = st.lance.side === "A" || st.lance.side === "B" ? st.lance.side : st.match.turn;
  return _("{team}'s lance is still running ({secs} s): the table counts it while you correct",
           { team: name(side), secs: left });
}

// every line with its button (the Registro's, the correction form's), drawn from the state
export function renderPlayStop() {
  const now = moment();
  for (const line of document.querySelectorAll("[data-play-stop]")) {
    line.hidden = !now;
    if (!now) continue;
    line.dataset.moment = now;
    line.querySelector(".words").textContent = words(now);
    line.querySelector("button").textContent = now === "run" ? _("Stop play") : _("Resume play");
  }
}

export function wirePlayStop() {
  for (const line of document.querySelectorAll("[data-play-stop]")) {
    line.querySelector("button").addEventListener("click", () => {
      const now = moment();
      if (now === "run") send("pause", {}, _("stop clock"));
      else if (now === "stopped") send("resume", {}, _("resume clock"));
    });
  }
}
