// "Rever" (docs/camera.md): on a table with a camera (the state's `camera`), one tap sends
// the `review` input; the camera writes the last seconds before the press as a clip, the
// table's state brings it as `replay` (its `shows` is the review's entry) and it plays here,
// with a scrubber, one-frame steps, play/pause and 0.5× / 1×. A clip that could not be made
// is said in words.

import { $, _, author, view } from "./page.js";
import { openSheet } from "./actions.js";

const ABSENT = {
  camera_lost: _("No video: the camera was disconnected"),
  camera_disk_full: _("No video: the disk is full"),
};
const review = { entry: null, match: null, shown: null, frame: 1 / 30, rate: 0.5 };
window.futmesaReview = review;

const video = () => $("review-video");
const seconds = (s) => `${(Math.max(0, s) || 0).toFixed(1).replace(".", ",")} s`;

function status(text) { $("review-status").textContent = text; }

function ask() {
  if (view.closed) return;
  review.entry = null;
  review.shown = null;
  review.match = view.state && view.state.match_id;
  const v = video();
  v.pause();
  v.removeAttribute("src");
  v.load();
  v.hidden = true;
  $("review-controls").hidden = true;
  status(_("Recording the last seconds…"));
  Referee.send("review", {}, _("Review"), author());
  openSheet("sheet-review");
}

// the console's answer to its own review: the entry the clip will show
export function reviewApplied(item, body) {
  if (!item || item.kind !== "review") return;
  const id = body && body.result && body.result.entry_id;
  if (id != null) review.entry = Number(id);
  renderReview();
}

export function renderReview() {
  const st = view.state || {};
  const on = Boolean(st.camera) && !view.closed;
  $("review-ask").hidden = !on;
  document.body.classList.toggle("has-camera", on);
  const r = st.replay;
  if (review.entry == null || !r || Number(r.shows) !== review.entry || review.shown === r.entry) return;
  if (st.match_id !== review.match) return;
  review.shown = r.entry;
  if (!r.url) {
    status(ABSENT[r.absent] || ABSENT.camera_lost);
    return;
  }
  review.frame = (Number(r.frame_ms) || 1000 / 30) / 1000;
  status("");
  const v = video();
  v.src = r.url;
  v.hidden = false;
  $("review-controls").hidden = false;
  setRate(review.rate);
  const p = v.play();
  if (p && p.catch) p.catch(() => {});
}

// a clip the console points at (the camera's proposal): the same player, at once
export function playClip(url) {
  review.entry = null;
  status("");
  const v = video();
  v.src = url;
  v.hidden = false;
  $("review-controls").hidden = false;
  openSheet("sheet-review");
  setRate(review.rate);
  const p = v.play();
  if (p && p.catch) p.catch(() => {});
}

function setRate(rate) {
  review.rate = rate;
  const v = video();
  v.defaultPlaybackRate = rate;
  v.playbackRate = rate;
  for (const b of document.querySelectorAll("#sheet-review [data-rate]")) {
    b.setAttribute("aria-pressed", String(Number(b.dataset.rate) === rate));
  }
}

function step(frames) {
  const v = video();
  v.pause();
  const end = Number.isFinite(v.duration) ? v.duration : 0;
  v.currentTime = Math.min(end, Math.max(0, v.currentTime + frames * review.frame));
}

function showTime() {
  const v = video();
  const d = Number.isFinite(v.duration) ? v.duration : 0;
  $("review-time").textContent = `${seconds(v.currentTime)} / ${seconds(d)}`;
  if (d > 0 && !review.scrubbing) $("review-scrub").value = String(Math.round((v.currentTime / d) * 1000));
}

function wire() {
  const v = video();
  $("review-ask").addEventListener("click", ask);
  $("review-play").addEventListener("click", () => {
    if (v.paused || v.ended) {
      if (v.ended) v.currentTime = 0;
      v.play().catch(() => {});
    } else v.pause();
  });
  $("review-back").addEventListener("click", () => step(-1));
  $("review-fwd").addEventListener("click", () => step(1));
  for (const b of document.querySelectorAll("#sheet-review [data-rate]")) {
    b.addEventListener("click", () => setRate(Number(b.dataset.rate)));
  }
  const scrub = $("review-scrub");
  scrub.addEventListener("input", () => {
    review.scrubbing = true;
    v.pause();
    if (Number.isFinite(v.duration)) v.currentTime = (Number(scrub.value) / 1000) * v.duration;
  });
  scrub.addEventListener("change", () => { review.scrubbing = false; });
  for (const ev of ["timeupdate", "seeked", "loadedmetadata", "durationchange"]) v.addEventListener(ev, showTime);
  v.addEventListener("loadedmetadata", () => { v.playbackRate = review.rate; });
  const said = () => { $("review-play").textContent = v.paused || v.ended ? "▶ " + _("Play") : _("Pause"); };
  for (const ev of ["play", "pause", "ended"]) v.addEventListener(ev, said);
  for (const b of [$("scrim"), ...document.querySelectorAll("#sheet-review [data-close]")]) {
    b.addEventListener("click", () => v.pause());
  }
  v.addEventListener("error", () => { if (v.getAttribute("src")) status(_("The video could not be played on this phone")); });
}

wire();
