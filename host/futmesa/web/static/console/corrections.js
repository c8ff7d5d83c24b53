// The correction form: void or amend an entry, its fields named in words and its times in
// min:s, with a reason.

import { $, _, view } from "./page.js";
import { send } from "./keypad.js";
import { clipOf, describe } from "./log.js";

// ---- the correction form: pick void or amend, change fields, give a reason ----------
let fixing = null;
export function openFix(e, mode) {
  fixing = e;
  $("fix-title").textContent = _("Entry no. {id}", { id: e.no ?? "?" })  // the match's number; e.id is what is sent;
  // what the entry meant, first: a sensor's trip is named as the goal it gave (walk #45 M10)
  // (its facts and its sentence each said once, by the matchbook: walk 50a L3)
  $("fix-what").textContent = e.named || [...(e.fact_lines || []), describe(e)].join(" — ");
  // undoing a correction is one thing, not a choice between voiding and correcting: the form
  // says what it does and offers nothing else (walk #45 M10)
  // so is asking the goalkeeper to choose again (his secret choice voided, walk51a H1)
  $("fix-modes").hidden = Boolean(e.undo || e.ask_again);
  $("fix-send").textContent = e.undo || e.ask_again || _("Send correction");
  $("fix-reason").value = "";
  // a goal the referee entered himself, voided: most likely a wrong tap, the ball never went
  // in (walk50a H1); a sensor's trip: the ball went in, the goal disallowed
  $("fix-false-trip").checked = e.kind === "goal_by_hand";
  $("fix-clock-count").checked = true;
  // a clip of the entry or of its moment: the correction may cite it (issue 46 §2)
  const clip = clipOf(e);
  $("fix-clip").checked = false;
  $("fix-clip").dataset.clip = clip ? String(clip.id) : "";
  $("fix-clip-row").hidden = !clip;
  $("fix-clip-text").textContent = clip
    ? _("Cite the video no. {id} (SHA-256 {hash})", { id: clip.no ?? "?", hash: String(clip.data.sha256).slice(0, 12) })
    : "";
  const fields = $("fix-fields");
  fields.textContent = "";
  for (const f of e.fields || []) {
    const label = document.createElement("label");
    label.append(`${f.label} `);
    let input;
    if (f.type === "choice") {
      input = document.createElement("select");
      for (const o of f.options) {
        const opt = document.createElement("option");
        opt.value = JSON.stringify(o.value);
        opt.textContent = o.label;
        if (JSON.stringify(o.value) === JSON.stringify(f.value)) opt.selected = true;
        input.append(opt);
      }
    } else if (f.type === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = Boolean(f.value);
    } else if (f.type === "duration") {
      // a time is read and typed as min:s ("3:00"), stored in ms
      input = document.createElement("input");
      input.type = "text";
      input.inputMode = "numeric";
      input.pattern = "\\d{1,3}:[0-5]\\d";
      input.value = FM.mmss(Number(f.value) || 0);
    } else {
      input = document.createElement("input");
      input.type = f.type === "number" ? "number" : "text";
      input.value = f.value == null ? "" : String(f.value);
    }
    input.dataset.key = f.key;
    input.dataset.type = f.type;
    label.append(input);
    fields.append(label);
  }
  $("fix-amend").disabled = !(e.fields || []).length;
  (mode === "amend" && (e.fields || []).length ? $("fix-amend") : $("fix-void")).checked = true;
  showFixFields();
  $("fix").showModal();
}

export function showFixFields() {
  $("fix-fields").hidden = !$("fix-amend").checked;
  // voiding a goal (the sensor's trip, or one entered by hand): the ball went in but no goal
  // (goal kick), or it never went in (rules/corrections.py: false_trip)
  const goal = isGoal(fixing);
  $("fix-trip-row").hidden = !(goal && $("fix-void").checked);
  $("fix-trip-sensor").hidden = !goal || fixing.kind !== "goal_line";
  $("fix-trip-hand").hidden = !goal || fixing.kind !== "goal_by_hand";
  // a ball-in-play clock standing stopped on this entry: its void counts the time since the
  // stop as played — said, and asked, before it is sent (walk49a M3; rules/resync.py); a goal
  // the ball went into stays a dead ball: asked only when the ball did not go in
  const back = goal && !$("fix-false-trip").checked ? null : givesBack();
  $("fix-clock-row").hidden = !(back && $("fix-void").checked);
  if (back) {
    const time = FM.mmss(Math.max(0, FM.hostNow() - back.stopped_at));
    $("fix-clock-text").textContent = _("Voiding this counts {time} as played: was the ball rolling?", { time });
    $("fix-clock-count-text").textContent = _("Yes: count {time} as played", { time });
  }
}

// the rows whose void says whether the ball went in (the engine's `false_trip`)
function isGoal(e) {
  return Boolean(e && (e.kind === "goal_line" || e.kind === "goal_by_hand"));
}

// the engine's word that voiding the entry being fixed gives the stopped clock its time back
function givesBack() {
  const back = view.state && view.state.match && view.state.match.void_gives_back;
  return back && fixing && !fixing.undo && back.entry === fixing.id ? back : null;
}

export function fixData() {
  const data = { ...(fixing.data || {}) };
  for (const input of $("fix-fields").querySelectorAll("[data-key]")) {
    const k = input.dataset.key;
    if (input.dataset.type === "choice") data[k] = JSON.parse(input.value);
    else if (input.dataset.type === "bool") data[k] = input.checked;
    // an empty number box is no number (a foul with no disc named), never 0 nor ""
    else if (input.dataset.type === "number") data[k] = input.value.trim() === "" ? null : Number(input.value);
    else if (input.dataset.type === "duration") {
      const [min, sec] = input.value.split(":").map(Number);
      data[k] = ((min || 0) * 60 + (sec || 0)) * 1000;
    }
    else data[k] = input.value;
  }
  return data;
}

export function submitFix(ev) {
  ev.preventDefault();
  if (!fixing) return;
  const reason = $("fix-reason").value.trim();
  const target = fixing.id;
  const cited = $("fix-clip").checked && $("fix-clip").dataset.clip
    ? { clip: Number($("fix-clip").dataset.clip) } : {};
  if ($("fix-amend").checked) {
    send("amend", { target, data: fixData(), ...cited, ...(reason ? { reason } : {}) }, _("correct no. {id}", { id: fixing.no ?? "?" }));
  } else {
    const trip = isGoal(fixing) ? { false_trip: $("fix-false-trip").checked } : {};
    // the ball stayed dead: the void gives the clock nothing back
    if (!$("fix-clock-row").hidden && $("fix-clock-keep").checked) trip.keep_clock = true;
    // undoing a correction is said as what it does: "✓ anulação desfeita", not "anular nº 54"
    const said = fixing.ask_again ? fixing.ask_again : fixing.kind === "void" ? _("void undone")
      : fixing.kind === "amend" ? _("correction undone") : _("void no. {id}", { id: fixing.no ?? "?" });
    send("void", { target, ...trip, ...cited, ...(reason ? { reason } : {}) }, said);
  }
  $("fix").close();
  fixing = null;
}


export function cancelFix() {
  $("fix").close();
  fixing = null;
}
