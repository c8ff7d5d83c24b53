// The goal's replay on the TV (docs/camera.md): when the table's state brings a new clip
// (`replay`: {entry, shows, url, match_id}, the camera's newest, served at /clips/…), the
// kiosk plays it in slow motion (0.5×) once the GOL! celebration is over, then goes back
// to the score by itself (at the clip's end, on an error, or after REPLAY_MAX_MS at most).
// A screen that opens, or comes back, with a clip already in the state does not replay it.
// A goal the referee voids whose clip this screen saw (the clip `shows` the goal's entry) is
// played again under "GOL ANULADO", once the GOL ANULADO frame is over.
(function () {
  "use strict";
  const RATE = 0.5;
  const REPLAY_MAX_MS = 40000;
  const box = document.getElementById("replay");
  const video = document.getElementById("replay-video");
  if (!box || !video) return;
  const q = new URLSearchParams(location.search);
  const shown = { seen: new Set(), first: true, waiting: null, playing: null, played: [],
                  clips: new Map(), goals: null };
  window.futmesaReplay = shown;

  function celebrating() {
    const ann = window.futmesaAnnouncements;
    const cur = ann && ann.current;
    return !!(cur && cur.goal && Date.now() - cur.shownAt < cur.hold);
  }

  function take(st) {
    const r = st && st.replay;
    const table = q.get("table");
    if (!r || !r.url || (table && st.table_id !== table)) return;
    const key = `${r.match_id}/${r.entry}`;
    shown.clips.set(`${r.match_id}/${r.shows}`, r);
    if (shown.seen.has(key)) return;
    shown.seen.add(key);
    if (shown.first) return; // already in the state when the screen opened: not news
    shown.waiting = r;
  }

  // the goals the engine counts now: one counted before and gone was voided
  function takeVoids(st) {
    const table = q.get("table");
    if (!st || (table && st.table_id !== table)) return;
    const m = st.match || {};
    const entries = (Array.isArray(m.goals) ? m.goals : []).filter((g) => g && typeof g === "object")
      .map((g) => g.entry);
    const before = shown.goals;
    shown.goals = { match: st.match_id, entries };
    if (!before || before.match !== st.match_id) return;
    for (const e of before.entries) {
      const r = !entries.includes(e) && shown.clips.get(`${st.match_id}/${e}`);
      if (r) shown.waiting = { ...r, voided: true };
    }
  }

  function stop() {
    if (!shown.playing) return;
    shown.played.push({ ...shown.playing, ended: Date.now() });
    shown.playing = null;
    video.pause();
    video.removeAttribute("src");
    video.load();
    box.classList.add("hidden");
  }

  function start(r) {
    shown.playing = { ...r, started: Date.now() };
    shown.waiting = null;
    box.classList.toggle("voided", Boolean(r.voided));
    video.defaultPlaybackRate = RATE;
    video.src = r.url;
    video.playbackRate = RATE;
    box.classList.remove("hidden");
    const p = video.play();
    if (p && p.catch) p.catch(stop);
  }

  video.addEventListener("loadedmetadata", () => { video.playbackRate = RATE; });
  video.addEventListener("ended", stop);
  video.addEventListener("error", stop);

  document.addEventListener("futmesa:message", (e) => {
    const msg = e.detail || {};
    if (msg.type === "state") {
      take(msg.state);
      takeVoids(msg.state);
    }
    else if (msg.type === "tables" && Array.isArray(msg.tables)) msg.tables.forEach(take);
    shown.first = false;
  });

  setInterval(() => {
    if (shown.playing && Date.now() - shown.playing.started > REPLAY_MAX_MS) stop();
    // the TV's scoreboard only: the venue board and the stream's overlay show no video
    if (!document.body.classList.contains("mode-scoreboard")) shown.waiting = null;
    if (shown.waiting && !shown.playing && !celebrating()) start(shown.waiting);
  }, 200);
})();
