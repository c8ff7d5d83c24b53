// futmesa kiosk at a venue: a full-screen button, keeping the screen awake (Wake Lock
// API) and optional sounds for a goal, the lance warning and the end of a period.
// Sounds are off by default: `?sound=on` in the address, or "Som ligado" in the console
// (a display setting, like the theme). They are synthesised (Web Audio), no files.
// It also shrinks a team name whose longest word would not fit its box (a long club name
// on a phone or on the venue board), so no name is cut or broken inside a word.
// Listens to the kiosk's messages ("futmesa:message" events from kiosk.js).
"use strict";

(() => {
  const q = FM.params();
  const fixedSound = q.get("sound"); // a parameter in the address wins over the console
  const venue = {
    sound: fixedSound === "on",
    wakeLock: "not requested", // "active", "released", "unsupported", or the refusal
    played: [], // the sounds played (name, host ms), newest last: kept short
  };
  window.futmesaVenue = venue;

  // -- full screen -------------------------------------------------------------------
  const btn = document.createElement("button");
  btn.id = "fullscreen";
  btn.type = "button";
  btn.className = "venue-btn";
  btn.textContent = "Tela cheia";
  btn.setAttribute("aria-label", "tela cheia / full screen");
  document.body.appendChild(btn);
  let hideTimer = null;
  function showButton() {
    const kiosk = window.futmesaKiosk;
    const _ = FM.tr(kiosk ? kiosk.view.lang : "pt");
    const label = _("Full screen");
    if (btn.textContent !== label) btn.textContent = label;
    const full = !!document.fullscreenElement;
    btn.classList.toggle("hidden", full || !document.documentElement.requestFullscreen);
    btn.classList.remove("faded");
    clearTimeout(hideTimer);
    hideTimer = setTimeout(() => btn.classList.add("faded"), 6000); // out of the way on a TV
  }
  btn.addEventListener("click", async () => {
    unlockAudio();
    try {
      await document.documentElement.requestFullscreen({ navigationUI: "hide" });
    } catch (e) { /* refused (e.g. not from a tap): the button stays */ }
    requestWakeLock();
  });
  document.addEventListener("fullscreenchange", showButton);
  for (const ev of ["pointerdown", "pointermove", "keydown"]) {
    document.addEventListener(ev, showButton, { passive: true });
  }
  showButton();

  // Q: the admin screen (the console's QR code), on the host's own screen
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "q" && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      location.href = `/admin?back=key&to=${encodeURIComponent(location.pathname + location.search)}`;
    }
  });

  // -- keep the screen awake -----------------------------------------------------------
  let lock = null;
  async function requestWakeLock() {
    if (!("wakeLock" in navigator)) {
      // plain http from a phone is not a secure context: the browser offers no Wake Lock
      venue.wakeLock = "unsupported";
      return;
    }
    if (lock && !lock.released) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      venue.wakeLock = "active";
      lock.addEventListener("release", () => { venue.wakeLock = "released"; });
    } catch (e) {
      venue.wakeLock = `refused: ${e.name}`;
    }
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") requestWakeLock(); // lost when hidden
  });
  requestWakeLock();

  // -- sounds --------------------------------------------------------------------------
  let audio = null;
  function unlockAudio() {
    try {
      if (!audio) audio = new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
    } catch (e) { audio = null; }
  }
  document.addEventListener("pointerdown", unlockAudio, { passive: true });

  const SOUNDS = {
    goal: [[523, 0, 0.18], [659, 0.18, 0.18], [784, 0.36, 0.45]], // rising: a goal
    lance_warning: [[880, 0, 0.1], [880, 0.2, 0.1], [880, 0.4, 0.1]], // three short pips
    period_end: [[440, 0, 1.2]], // one long tone
  };
  function play(name) {
    if (!venue.sound) return;
    venue.played.push({ name, at: Date.now() });
    if (venue.played.length > 20) venue.played.shift();
    unlockAudio();
    if (!audio) return;
    const t0 = audio.currentTime + 0.02;
    for (const [freq, start, dur] of SOUNDS[name]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "square";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + start);
      gain.gain.exponentialRampToValueAtTime(0.3, t0 + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + dur);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0 + start);
      osc.stop(t0 + start + dur + 0.05);
    }
  }
  venue.play = play;
  venue.fitNames = () => fitNames();

  const PLAYING = new Set(["running", "last_lance", "awaiting_dead_ball"]);
  let last = null; // { match, goals, status }
  let lanceArmed = false; // a lance with more than 5 s left: warn when it crosses 5 s
  function onState(st) {
    const kiosk = window.futmesaKiosk;
    if (kiosk && kiosk.state && st.table_id && kiosk.state.table_id !== st.table_id) return;
    const goals = st.score ? Number(st.score.A || 0) + Number(st.score.B || 0) : 0;
    const now = { match: st.match_id, goals, status: st.status };
    if (last && last.match === now.match) {
      if (PLAYING.has(last.status) && (now.status === "interval" || now.status === "finished")) {
        play("period_end");
      }
    }
    last = now;
  }
  // the goal's chime sounds with the GOL! screen (kiosk.js), not with a quiet catch-up
  document.addEventListener("futmesa:goal", () => play("goal"));
  function tick() {
    const kiosk = window.futmesaKiosk;
    const st = kiosk && kiosk.state;
    const left = st && st.lance && st.lance.running ? FM.countdownMs(st.lance, FM.hostNow()) : null;
    if (left == null) { lanceArmed = false; return; }
    if (left > 5000) { lanceArmed = true; return; }
    if (lanceArmed && left > 0) {
      lanceArmed = false;
      play("lance_warning");
    }
  }
  setInterval(tick, 100);

  // -- team names that fit -------------------------------------------------------------
  const ruler = document.createElement("canvas").getContext("2d");
  function textWidth(text, cs) {
    ruler.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    return ruler.measureText(text).width;
  }
  function fitNames() {
    const layout = `${innerWidth}x${innerHeight}:${document.body.className}`;
    for (const el of document.querySelectorAll(".name, .card-name")) {
      const key = `${layout}:${el.textContent}`;
      if (el.dataset.fit === key || !el.offsetParent) continue;
      el.style.fontSize = "";
      const cs = getComputedStyle(el);
      const base = parseFloat(cs.fontSize);
      // every name may wrap between words: only its longest word has to fit the box
      const words = el.textContent.split(/\s+/);
      const need = Math.max(0, ...words.map((w) => textWidth(w, cs)));
      const room = el.clientWidth;
      let size = need > room ? (base * room) / need * 0.97 : base;
      size = Math.max(size, base * 0.4);
      el.style.fontSize = size === base ? "" : `${size}px`;
      // a two-line name (the scoreboard clamps at two lines): smaller until it all shows
      for (let i = 0; i < 8 && el.scrollHeight > el.clientHeight + 1 && size > base * 0.4; i++) {
        size *= 0.9;
        el.style.fontSize = `${size}px`;
      }
      el.dataset.fit = key;
    }
    // the overlay's bar: each name on one line, smaller until it fits (never below 45%)
    for (const el of document.querySelectorAll(".bug-name")) {
      const key = `${layout}:${el.textContent}`;
      if (el.dataset.fit === key || !el.offsetParent) continue;
      el.style.fontSize = "";
      const cs = getComputedStyle(el);
      if (cs.whiteSpace !== "nowrap") { el.dataset.fit = key; continue; } // a phone: it wraps
      const base = parseFloat(cs.fontSize);
      const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      const need = textWidth(el.textContent, cs);
      const size = need > room ? Math.max(base * 0.45, (base * room) / need * 0.97) : base;
      el.style.fontSize = size === base ? "" : `${size}px`;
      el.dataset.fit = key;
    }
  }
  addEventListener("resize", () => requestAnimationFrame(fitNames));

  document.addEventListener("futmesa:message", (ev) => {
    requestAnimationFrame(fitNames); // after kiosk.js has drawn this message
    if (ev.detail && ev.detail.type === "display") requestAnimationFrame(showButton);
    const msg = ev.detail || {};
    if (msg.type === "state" && msg.state) onState(msg.state);
    if (msg.type === "display" && !fixedSound && (msg.sound === "on" || msg.sound === "off")) {
      venue.sound = msg.sound === "on";
    }
  });
})();
