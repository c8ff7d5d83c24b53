// futmesa kiosk: scoreboard, venue board and blank screen. Read-only; every
// piece of text from the state is set with textContent, never as markup.
"use strict";

(() => {
  const q = FM.params();
  const fixed = {
    mode: q.get("mode"),
    theme: q.get("theme"),
    lang: q.get("lang"),
  };
  const view = {
    mode: fixed.mode || "scoreboard",
    theme: fixed.theme || "default",
    lang: fixed.lang || "pt",
  };
  const LANCE_WARN_MS = 5000; // last seconds of the per-move timer get the warning look
  let state = null; // the table this kiosk shows
  const tables = new Map(); // venue board: table_id -> state
  let conn = null;
  const rendered = { clockMs: null, lanceMs: null, at: null }; // last values drawn
  const $ = (id) => document.getElementById(id);
  const T = () => FM.TEXT[view.lang] || FM.TEXT.pt;

  function applyView() {
    const body = document.body;
    body.className = `mode-${view.mode} theme-${view.theme}`;
    document.documentElement.lang = view.lang === "en" ? "en" : "pt-BR";
    renderAll();
  }

  function setText(el, text) {
    const s = text == null ? "" : String(text);
    if (el.textContent !== s) el.textContent = s;
  }

  function show(el, on) {
    el.classList.toggle("hidden", !on);
  }

  function teamName(st, side) {
    const t = st && st.teams && st.teams[side];
    return t && t.name != null ? String(t.name) : side;
  }

  function renderTeam(st, side) {
    const team = (st.teams && st.teams[side]) || {};
    const box = $(`team-${side}`);
    box.style.setProperty("--team", FM.safeColor(team.color, side === "A" ? "#1f5fd1" : "#c62828"));
    setText($(`name-${side}`), teamName(st, side));
    const score = st.score && st.score[side] != null ? st.score[side] : 0;
    setText($(`score-${side}`), score);
    // the club logo, if the host has one for this team (hidden when it answers 404)
    const logo = box.querySelector(".logo");
    const table = st.table_id ? `&table=${encodeURIComponent(st.table_id)}` : "";
    const src = `/logo/${side}?team=${encodeURIComponent(teamName(st, side) + (team.logo || ""))}${table}`;
    if (logo.getAttribute("src") !== src) {
      show(logo, false);
      logo.onload = () => show(logo, true);
      logo.onerror = () => show(logo, false);
      logo.setAttribute("src", src);
    }
    const m = st.match || {};
    const onTurn = m.turn === side;
    box.classList.toggle("on-turn", onTurn);
    show($(`turn-${side}`), onTurn);
    setText($(`turn-${side}`).querySelector(".turn-text"), T().turn);
    const ex = m.expelled && m.expelled[side];
    let exText = "";
    if (Array.isArray(ex) && ex.length) exText = `${T().expelled}: ${ex.join(", ")}`;
    else if (typeof ex === "number" && ex > 0) exText = `${T().expelled}: ${ex}`;
    setText($(`expelled-${side}`), exText ? `✖ ${exText}` : "");
  }

  function periodText(st) {
    const t = T();
    if (st.status === "waiting" && !st.teams) return t.waiting;
    if (st.finished || st.status === "finished") return t.finished;
    if (st.status === "interval") return t.interval;
    if (st.status === "shootout") return t.shootout;
    if (st.period) return t.period(st.period, st.periods || 2);
    return "";
  }

  function shotText(st) {
    const s = st.match && st.match.shot_asked;
    if (!s) return "";
    if (typeof s === "string") return T().shot(teamName(st, s), null);
    const side = s.side ? teamName(st, s.side) : "";
    return T().shot(side, s.disc != null ? s.disc : null);
  }

  function kicksOf(so, side) {
    // Accepts {A: [true, false], B: [...]} or {kicks: [{side, scored}]}.
    let list = [];
    if (Array.isArray(so[side])) list = so[side];
    else if (so[side] && Array.isArray(so[side].kicks)) list = so[side].kicks;
    else if (Array.isArray(so.kicks)) list = so.kicks.filter((k) => k.side === side);
    return list.map((k) => {
      if (typeof k === "boolean") return k;
      if (k && typeof k === "object") {
        if ("scored" in k) return !!k.scored;
        if ("goal" in k) return !!k.goal;
        if ("result" in k) return k.result === "goal" || k.result === true;
      }
      return k === "goal" || k === 1;
    });
  }

  function renderShootout(st) {
    const so = st.match && st.match.shootout;
    const box = $("shootout");
    if (!so || typeof so !== "object" || (so.active === false && !so.A && !so.kicks)) {
      show(box, false);
      return;
    }
    show(box, true);
    setText($("shootout-title"), T().shootout);
    for (const side of ["A", "B"]) {
      const kicks = kicksOf(so, side);
      const rounds = Math.max(5, kicksOf(so, "A").length, kicksOf(so, "B").length);
      let marks = "";
      for (let i = 0; i < rounds; i++) {
        marks += i < kicks.length ? (kicks[i] ? "● " : "✕ ") : "○ ";
      }
      setText($(`so-name-${side}`), teamName(st, side));
      setText($(`so-${side}`), marks.trim());
      const tally = so.tally || so.score;
      const total = tally && tally[side] != null ? tally[side] : kicks.filter(Boolean).length;
      setText($(`so-total-${side}`), total);
    }
  }

  // An announcement stays up for ANNOUNCE_MS after this screen first saw it.
  const ANNOUNCE_MS = 30000;
  const firstSeen = new Map();
  function announceText(st) {
    const list = st.match && st.match.announcements;
    if (!Array.isArray(list) || !list.length) return "";
    const a = list[list.length - 1];
    const key = a && typeof a === "object" ? `${st.match_id}:${a.id ?? a.code}` : String(a);
    if (!firstSeen.has(key)) firstSeen.set(key, Date.now());
    if (firstSeen.size > 200) firstSeen.delete(firstSeen.keys().next().value);
    if (Date.now() - firstSeen.get(key) > ANNOUNCE_MS) return "";
    if (typeof a === "string") return a;
    return (a && (a[view.lang] || a.pt || a.en || a.code)) || "";
  }

  function faultText(st) {
    const faults = st.sensor_faults;
    if (!faults || typeof faults !== "object") return "";
    const items = Object.entries(faults).map(([s, f]) => `${T().sensor} ${s}: ${f}`);
    return items.length ? `⚠ ${items.join(" · ")}` : "";
  }

  // the table's health (faults around the match: the event log cannot be written...)
  function healthText(st) {
    const faults = st && st.health && !st.health.ok ? st.health.faults || [] : [];
    return faults.map((f) => (view.lang === "en" ? f.en : f.pt) || f.code).join(" · ");
  }

  // the table was reset: shown at once, for RESET_SHOW_MS (its clock restores from flash)
  const RESET_SHOW_MS = 10000;
  function recentReset(st) {
    const r = st && st.link && st.link.reset;
    return !!(r && r.at && FM.hostNow() - r.at < RESET_SHOW_MS);
  }

  function renderBanner() {
    const t = T();
    const banner = $("banner");
    let text = "";
    const fault = healthText(state);
    if (conn && !conn.up) text = t.serverGone;
    else if (state && state.link && state.link.connected === false) text = t.disconnected;
    else if (recentReset(state)) text = t.tableReset;
    else if (fault) text = fault;
    show(banner, !!text);
    document.body.classList.toggle("disconnected", !!text);
    if (!text) return;
    setText($("banner-text"), text);
    if (text === fault || text === t.tableReset) {
      setText($("banner-age"), "");
      return;
    }
    const last = state && state.link && state.link.last_event_at;
    setText($("banner-age"), last ? `— ${t.lastEvent(FM.ago(FM.hostNow() - last))}` : `— ${t.never}`);
  }

  function renderScoreboard() {
    if (!state) return;
    const st = state;
    renderTeam(st, "A");
    renderTeam(st, "B");
    setText($("period"), periodText(st));
    const clock = st.clock || {};
    const added = clock.added_ms ? Math.round(clock.added_ms / 60000) : 0;
    show($("added"), added > 0);
    setText($("added"), added > 0 ? `+${added} ${T().added}` : "");
    const paused = st.status === "paused" || (clock && clock.running === false && st.status === "running");
    const pending = st.match && Array.isArray(st.match.pending) && st.match.pending.length > 0;
    const phase = T().status[st.status] || "";
    setText($("status"), [phase || (paused ? T().paused : ""), pending ? `⚑ ${T().pending}` : ""]
      .filter(Boolean).join(" · "));
    const shot = shotText(st);
    show($("shot"), !!shot);
    setText($("shot"), shot);
    renderShootout(st);
    // the venue desk's next match for this table (docs/operating.md, "Dia de torneio")
    const nxt = st.next;
    show($("next"), !!nxt);
    setText($("next"), nxt ? `${view.lang === "en" ? "next" : "próxima"}: ${nxt.title}${nxt.label ? ` · ${nxt.label}` : ""}` : "");
    const ann = announceText(st);
    show($("announce"), !!ann);
    setText($("announce"), ann);
    setText($("table-id"), st.table_id ? `${T().table} ${st.table_id}` : "");
    setText($("faults"), faultText(st));
    setText($("ruleset"), st.ruleset || "");
    tick();
  }

  function tick() {
    const now = FM.hostNow();
    if (state && view.mode === "scoreboard") {
      const clockEl = $("clock");
      const ms = FM.timerMs(state.clock, now);
      if (ms == null) {
        setText(clockEl, "--:--");
      } else {
        // kept in JS, not in DOM attributes, so a tick writes to the DOM only when the
        // shown second changes (ten kiosks on a small host add up)
        rendered.clockMs = ms;
        rendered.at = now;
        setText(clockEl, FM.mmss(ms));
      }
      clockEl.classList.toggle("stopped", !(state.clock && state.clock.running));
      const lance = $("lance");
      const lms = FM.countdownMs(state.lance, now);
      if (lms == null || !state.lance) {
        show(lance, false);
      } else {
        show(lance, true);
        const left = Math.max(0, lms);
        rendered.lanceMs = left;
        const warn = state.lance.running && left <= LANCE_WARN_MS && left > 0;
        const over = state.lance.running && left <= 0;
        lance.classList.toggle("warn", warn);
        lance.classList.toggle("over", over);
        lance.classList.toggle("idle", !state.lance.running);
        setText($("lance-value"), over ? T().lanceOver : String(Math.ceil(left / 1000)));
      }
    }
    if (view.mode === "board") tickBoard(now);
    renderBanner();
    if (state && view.mode === "scoreboard") {
      // announcements expire by time, not only by new states
      const ann = announceText(state);
      show($("announce"), !!ann);
      setText($("announce"), ann);
    }
  }

  // ---- venue board ------------------------------------------------------------
  function boardCard(id) {
    let card = document.getElementById(`card-${id}`);
    if (card) return card;
    card = document.createElement("article");
    card.className = "card";
    card.id = `card-${id}`;
    card.innerHTML =
      '<header class="card-table"></header>' +
      '<div class="card-row"><span class="sw a"></span><span class="card-name a"></span><span class="card-score a"></span></div>' +
      '<div class="card-row"><span class="sw b"></span><span class="card-name b"></span><span class="card-score b"></span></div>' +
      '<footer><span class="card-period"></span> <span class="card-clock"></span> <span class="card-link"></span></footer>';
    $("board").appendChild(card);
    return card;
  }

  function renderBoard() {
    const ids = [...tables.keys()].sort();
    for (const id of ids) {
      const st = tables.get(id);
      const card = boardCard(id);
      setText(card.querySelector(".card-table"), `${T().table} ${id}`);
      for (const [side, cls] of [["A", "a"], ["B", "b"]]) {
        setText(card.querySelector(`.card-name.${cls}`), teamName(st, side));
        setText(card.querySelector(`.card-score.${cls}`), st.score ? st.score[side] : 0);
        const team = st.teams && st.teams[side];
        card.querySelector(`.sw.${cls}`).style.background = FM.safeColor(team && team.color, "#888");
      }
      setText(card.querySelector(".card-period"), periodText(st));
      const off = st.link && st.link.connected === false;
      card.classList.toggle("off", off);
      const sick = healthText(st);
      setText(card.querySelector(".card-link"), off ? `⚠ ${T().disconnected}` : sick ? `⚠ ${sick}` : "");
    }
    tickBoard(FM.hostNow());
  }

  function tickBoard(now) {
    for (const [id, st] of tables) {
      const card = document.getElementById(`card-${id}`);
      if (!card) continue;
      const ms = FM.timerMs(st.clock, now);
      setText(card.querySelector(".card-clock"), ms == null ? "" : FM.mmss(ms));
    }
  }

  function renderAll() {
    if (view.mode === "scoreboard") renderScoreboard();
    else if (view.mode === "board") renderBoard();
    renderBanner();
  }

  // The kiosk hears every table (so the console can switch it to the venue board) and
  // shows on the scoreboard the one named in the address, else the host's default table.
  let primary = q.get("table");
  function onMessage(msg) {
    document.dispatchEvent(new CustomEvent("futmesa:message", { detail: msg })); // kiosk-venue.js
    if (msg.type === "state" && msg.state) {
      const st = msg.state;
      if (st.table_id) tables.set(st.table_id, st);
      if (!primary && st.table_id) primary = st.table_id;
      if (!st.table_id || st.table_id === primary) state = st;
      renderAll();
    } else if (msg.type === "tables" && Array.isArray(msg.tables)) {
      tables.clear();
      for (const st of msg.tables) if (st.table_id) tables.set(st.table_id, st);
      if (!q.get("table")) primary = msg.default || (msg.tables[0] && msg.tables[0].table_id) || null;
      state = (primary && tables.get(primary)) || { status: "waiting", link: { connected: false } };
      renderAll();
    } else if (msg.type === "display") {
      for (const key of ["mode", "theme", "lang"]) {
        if (!fixed[key] && msg[key]) view[key] = msg[key];
      }
      applyView();
    }
  }

  conn = FM.connect("/ws?all=1", { onMessage, onStatus: renderBanner });
  applyView();
  setInterval(tick, 50);
  document.addEventListener("keydown", (ev) => {
    // An operator with a keyboard on the kiosk: F full screen, H theme, L language.
    if (ev.key === "f") document.documentElement.requestFullscreen && document.documentElement.requestFullscreen();
    if (ev.key === "h") { view.theme = view.theme === "contrast" ? "default" : "contrast"; applyView(); }
    if (ev.key === "l") { view.lang = view.lang === "en" ? "pt" : "en"; applyView(); }
  });
  window.futmesaKiosk = { view, get state() { return state; }, tables, conn, rendered };
})();
