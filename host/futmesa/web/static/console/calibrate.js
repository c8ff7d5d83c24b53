// The camera's calibration on the phone (docs/camera.md, "Calibration"): the newest picture
// of the table, the field's four corners tapped on it in the drawing's order, saved on the
// server; a corner tapped twice or a shape that is not a field is refused in words.

import { $, _, view } from "./page.js";
import { openSheet } from "./actions.js";

// the order calibration.py reads them in: goal line 0 / side 0, goal line 1 / side 0,
// goal line 1 / side 1, goal line 0 / side 1 (the simulated camera: goal 0 on the left)
const NAMES = () => [_("top left: goal 0's end, upper side"), _("top right: goal 1's end, upper side"),
  _("bottom right: goal 1's end, lower side"), _("bottom left: goal 0's end, lower side")];
const GUIDE = [[10, 10], [150, 10], [150, 90], [10, 90]]; // the drawing's corners (viewBox 160×100)
const TWICE_PX = 12; // on the screen: closer than this to a tapped corner is that corner again
const cal = { corners: [], shown: [] };

function say(text, bad = false) {
  $("cal-status").textContent = text;
  $("cal-status").className = bad ? "cal-status bad" : "cal-status";
}

function drawGuide() {
  const next = cal.corners.length;
  for (let i = 0; i < 4; i += 1) {
    const dot = $(`cal-dot-${i}`);
    dot.setAttribute("class", i < next ? "cal-dot done" : i === next ? "cal-dot next" : "cal-dot");
  }
  $("cal-step").textContent = next < 4
    ? _("Tap corner {n} of 4: {name}", { n: next + 1, name: NAMES()[next] })
    : _("The four corners are tapped: save them");
  $("cal-save").disabled = next < 4;
  $("cal-undo").disabled = next === 0;
  const box = $("cal-marks");
  box.textContent = "";
  cal.shown.forEach(([x, y], i) => {
    const m = document.createElement("span");
    m.className = "cal-mark";
    m.textContent = String(i + 1);
    m.style.left = `${x}px`;
    m.style.top = `${y}px`;
    box.append(m);
  });
}

function tap(ev) {
  const img = $("cal-img");
  if (!img.naturalWidth || cal.corners.length >= 4) return;
  const r = img.getBoundingClientRect();
  const sx = ev.clientX - r.left;
  const sy = ev.clientY - r.top;
  const again = cal.shown.findIndex(([x, y]) => Math.hypot(x - sx, y - sy) < TWICE_PX);
  if (again >= 0) {
    say(_("Corner {n} is already there: tap corner {next}, {name}", { n: again + 1, next: cal.corners.length + 1, name: NAMES()[cal.corners.length] }), true);
    return;
  }
  cal.shown.push([sx, sy]);
  cal.corners.push([Math.round((sx * img.naturalWidth) / r.width * 10) / 10,
    Math.round((sy * img.naturalHeight) / r.height * 10) / 10]);
  say("");
  drawGuide();
}

function reset() {
  cal.corners = [];
  cal.shown = [];
  drawGuide();
}

async function loadFrame() {
  reset();
  say(_("Loading the camera's picture…"));
  const img = $("cal-img");
  try {
    const r = await fetch(`/api/camera/frame?t=${Date.now()}`, { cache: "no-store" });
    if (!r.ok) {
      const body = await r.json().catch(() => ({}));
      say(body.error || _("the camera has no picture now"), true);
      return;
    }
    const url = URL.createObjectURL(await r.blob());
    img.onload = () => { say(""); URL.revokeObjectURL(url); };
    img.src = url;
  } catch (e) {
    say(_("no connection to the server"), true);
  }
}

async function save() {
  const img = $("cal-img");
  const body = { width: img.naturalWidth, height: img.naturalHeight, corners: cal.corners };
  try {
    const r = await fetch("/api/camera/calibration", { method: "POST", headers: Referee.headers(), body: JSON.stringify(body) });
    const answer = await r.json().catch(() => ({}));
    if (r.ok && answer.ok) {
      say("✓ " + _("Calibration saved"));
      return;
    }
    reset();
    say(answer.error || `HTTP ${r.status}`, true);
  } catch (e) {
    say(_("no connection to the server"), true);
  }
}

export function renderCalibrate() {
  $("cal-open").hidden = !(view.state && view.state.camera);
}

function wire() {
  GUIDE.forEach(([x, y], i) => {
    const dot = $(`cal-dot-${i}`);
    dot.setAttribute("cx", String(x));
    dot.setAttribute("cy", String(y));
  });
  $("cal-open").addEventListener("click", () => { openSheet("sheet-calibrate"); loadFrame(); });
  $("cal-img").addEventListener("click", tap);
  $("cal-undo").addEventListener("click", () => {
    cal.corners.pop();
    cal.shown.pop();
    say("");
    drawGuide();
  });
  $("cal-again").addEventListener("click", loadFrame);
  $("cal-save").addEventListener("click", save);
  drawGuide();
}

wire();
