// futmesa shared browser code: live connection to /ws, local clocks, i18n, formatting.
// Plain ES2017, no build step, no network beyond the daemon that served the page.
"use strict";

const FM = (() => {
  // The pages' words come from the gettext catalogs (host/futmesa/locale), served as
  // /i18n/words.js (FM_WORDS, loaded ahead of this file): msgids are the English source text.
  const WORDS = (typeof FM_WORDS !== "undefined" && FM_WORDS) || {};
  const catalogOf = (lang) => WORDS[lang === "en" ? "en" : "pt_BR"] || {};
  // "{team}'s goal sensor" with {team: "Botafogo"}: the catalog's placeholders filled in
  function fmt(text, values) {
    return String(text).replace(/\{(\w+)\}/g, (m, k) => (values && k in values ? String(values[k]) : m));
  }
  // the words of one language: tr("pt")("Interval") is the catalog's Portuguese for it
  function tr(lang) {
    const catalog = catalogOf(lang);
    return (msgid, values) => fmt(catalog[msgid] || msgid, values);
  }
  function words(lang) {
    const _ = tr(lang);
    return {
      period: (p, n) => (p > n ? _("Extra time {n}", { n: p - n }) : _("Half {n}", { n: p })),
      interval: _("Interval"),
      waiting: _("Waiting for the table"),
      finished: _("Full time"),
      paused: _("Stopped"),
      turn: _("on turn"),
      touchCount: (n, limit) => _("{n} of {limit} touches", { n, limit }),
      touchesShort: (n, limit) => _("Touches: {n}/{limit}", { n, limit }),
      shot: (side, disc) => (disc != null ? _("SHOT ASKED — {team}, disc {disc}", { team: side, disc })
        : _("SHOT ASKED — {team}", { team: side })),
      shootout: _("Shootout"),
      expelled: _("sent off"),
      disconnected: _("TABLE DISCONNECTED"),
      tableReset: _("TABLE RESET — clock restored, the referee checks the time"),
      serverGone: _("NO CONNECTION TO THE SERVER"),
      tableSilent: (s) => _("no signal from the table for {ago}", { ago: s }),
      tableNeverHeard: _("the table has not been heard yet"),
      serverSilent: (s) => _("no signal from the server for {ago}", { ago: s }),
      lanceOver: _("TIME!"),
      board: _("Tables"),
      table: _("Table"),
      added: _("added"),
      pending: _("awaiting the referee"),
      sensor: _("sensor"),
      fouls: _("Fouls"),
      technical: _("technical"),
      disciplinary: _("disciplinary"),
      ownGoal: _("own goal"),
      penalty: _("penalty"),
      disc: _("disc"),
      goalBig: _("GOAL!"),
      ownGoalBig: _("OWN GOAL!"),
      goalVoidBig: _("GOAL VOIDED"),
      goalRestoredBig: _("GOAL RESTORED"),
      clipCard: _("▶ video of the lance recorded"),
      pointFor: (team) => _("point to {team}", { team }),
      half: (n) => _("{n}H", { n }),
      ownGoalBy: (team) => _("own goal by {team}", { team }),
      lanceShort: _("lance"),
      sideSensor: _("side-net sensor"),
      goalSensor: (team) => _("{team}'s goal sensor", { team }),
      memory: _("the table's memory"),
      faults: { stuck: _("blocked for too long"), no_answer: _("not answering"),
                out_of_range: _("reading out of range"), drift: _("baseline drifted"),
                other: _("faulty") },
      status: {
        not_started: _("not started"),
        last_lance: _("last lance"),
        awaiting_dead_ball: _("time up — until the ball goes out"),
      },
    };
  }
  const TEXT = { pt: words("pt"), en: words("en") };

  // Host wall clock minus ours. Each message says when the host sent it; the
  // largest (sent - received) is the least delayed sample, so keep the best of
  // the recent ones. On the same machine this stays ~0.
  const offsets = [];
  function noteServerNow(serverNow) {
    if (typeof serverNow !== "number") return;
    offsets.push({ v: serverNow - Date.now(), t: Date.now() });
    while (offsets.length > 20 || (offsets.length && Date.now() - offsets[0].t > 120000)) {
      offsets.shift();
    }
  }
  function hostNow() {
    let best = null;
    for (const o of offsets) if (best === null || o.v > best) best = o.v;
    return Date.now() + (best || 0);
  }

  // A device timer as published: value ms at host time `at`, counting at `rate` while running.
  function timerMs(t, now) {
    if (!t || typeof t.ms !== "number") return null;
    if (!t.running) return t.ms;
    const at = typeof t.at === "number" ? t.at : now;
    const rate = typeof t.rate === "number" ? t.rate : 1;
    return t.ms + (now - at) * rate;
  }

  // The per-move timer counts DOWN: `ms` is the time left at `at`, spent at `rate`
  // (a negative rate is read the same way, as already signed).
  function countdownMs(t, now) {
    if (!t || typeof t.ms !== "number") return null;
    if (!t.running) return t.ms;
    const at = typeof t.at === "number" ? t.at : now;
    const rate = typeof t.rate === "number" ? Math.abs(t.rate) : 1;
    return t.ms - (now - at) * rate;
  }

  // The device restarts an overrun lance's countdown (the same player goes on, 000 Art. 26
  // §1 A): a screen keeps showing the lance as run out ("TEMPO!") until a new lance starts,
  // instead of a fresh "15" beside "jogue imediatamente". One watcher per screen (it keeps
  // the lance it last saw); the kiosk and the console both ask it, so they agree.
  // A new period (or the match's start) is a fresh lance: an overrun never carries across.
  // So is the other team's lance, however near its deadline to the overrun's next one: in
  // gaúcha the overrun is the foul itself and the host starts the other team's lance within
  // ms of it, so a side change must be read as a new lance (walk 52c finding 2).
  function lanceWatch() {
    const memo = { deadline: null, side: null, expired: false, period: null };
    return (l, left, period) => {
      if (period !== undefined && period !== memo.period) {
        memo.deadline = null;
        memo.side = null;
        memo.expired = false;
        memo.period = period;
      }
      const rate = typeof l.rate === "number" && l.rate ? Math.abs(l.rate) : 1;
      if (l.running && typeof l.at === "number") {
        const deadline = l.at + l.ms / rate;
        if (memo.deadline == null || memo.side !== l.side
            || Math.abs(deadline - memo.deadline) > 300) {
          const goesOn = memo.deadline != null && memo.side === l.side &&
            Math.abs(deadline - (memo.deadline + (l.length_ms || 0) / rate)) < 500;
          memo.expired = goesOn || (memo.expired && memo.side === l.side &&
                                    deadline < memo.deadline + 300);
          memo.deadline = deadline;
          memo.side = l.side;
        }
        if (left <= 0) memo.expired = true;
      } else if (memo.side !== l.side || (l.ms >= (l.length_ms || 0) && !memo.expired)) {
        memo.expired = false;
        memo.deadline = null;
      }
      return memo.expired;
    };
  }

  // The interval counted down: from when the table's clock went into it (clock.interval_at,
  // host ms) for the match's interval (match.clock_profile.interval_ms); null when not in an
  // interval or when the screen cannot tell.
  // Whether the match times its lances at all (mesa-posta has no lance timer: length 0).
  function lanceTimed(st) {
    const l = st && st.lance;
    return !!l && (l.length_ms > 0 || l.running);
  }

  function intervalLeftMs(st, now) {
    const c = st && st.clock;
    const p = st && st.match && st.match.clock_profile;
    if (!st || st.finished || st.status !== "interval" || !c || typeof c.interval_at !== "number"
        || !p || !(p.interval_ms > 0)) return null;
    const rate = typeof c.rate === "number" && c.rate > 0 ? c.rate : 1;
    return Math.max(0, p.interval_ms - (now - c.interval_at) * rate);
  }

  function mmss(ms) {
    const total = Math.max(0, Math.floor(ms / 1000));
    const m = Math.floor(total / 60);
    const s = total % 60;
    return `${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
  }

  function ago(ms) {
    const s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return `${s} s`;
    const m = Math.floor(s / 60);
    if (m < 60) return `${m} min ${s % 60} s`;
    return `${Math.floor(m / 60)} h ${m % 60} min`;
  }

  function params() {
    return new URLSearchParams(location.search);
  }

  // A colour from the state is only ever used as a CSS colour value, never as markup.
  function safeColor(c, fallback) {
    return typeof c === "string" && /^#[0-9a-fA-F]{3,8}$/.test(c) ? c : fallback;
  }

  // Live connection: reconnects by itself with a growing pause, and treats
  // silence longer than three host pings as a dead connection.
  function connect(path, handlers) {
    let ws = null;
    let current = path;
    let switching = false; // closing on purpose to reopen on another path
    let retry = 500;
    let lastMessage = 0;
    let timer = null;
    const status = { up: false, since: Date.now(), lastMessage: 0 };
    function open() {
      const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + current;
      ws = new WebSocket(url);
      ws.onopen = () => {
        retry = 500;
        // silence is counted from this connection's opening, not from the last message of
        // the one before (else a slow first message would close it again at once)
        lastMessage = Date.now();
        status.up = true;
        status.since = Date.now();
        handlers.onStatus && handlers.onStatus(status);
      };
      ws.onmessage = (ev) => {
        lastMessage = Date.now();
        status.lastMessage = lastMessage;
        let msg;
        try {
          msg = JSON.parse(ev.data);
        } catch (e) {
          return;
        }
        noteServerNow(msg.now);
        handlers.onMessage(msg);
      };
      ws.onclose = () => {
        if (switching) {
          // closed on purpose to listen elsewhere: no "connection lost" flash on the screen
          switching = false;
          clearTimeout(timer);
          open();
          return;
        }
        const wasUp = status.up;
        status.up = false;
        if (wasUp) status.since = Date.now();
        handlers.onStatus && handlers.onStatus(status);
        clearTimeout(timer);
        timer = setTimeout(open, retry);
        retry = Math.min(Math.max(retry * 2, 500), 5000);
      };
      ws.onerror = () => {
        try { ws.close(); } catch (e) { /* already closing */ }
      };
    }
    setInterval(() => {
      if (status.up && Date.now() - lastMessage > 16000) {
        try { ws.close(); } catch (e) { /* reconnect follows */ }
      }
    }, 2000);
    // listen somewhere else (the kiosk: one table, or every table for the venue board)
    status.setPath = (next) => {
      if (next === current) return;
      current = next;
      status.path = next;
      switching = status.up;
      try { ws.close(); } catch (e) { switching = false; /* reconnects on the new path */ }
    };
    status.path = current;
    open();
    return status;
  }

  // A table as people name it: the host names every table it knows (table_name, made by
  // matchbook/wording.py: table_name, the one rule); a table it does not know yet is
  // "Mesa N" by its place on the screen, never a board uid.
  function tableName(st, index, lang) {
    if (st && typeof st.table_name === "string" && st.table_name) return st.table_name;
    return `${TEXT[lang === "en" ? "en" : "pt"].table} ${index || 1}`;
  }

  return { TEXT, tr, fmt, hostNow, noteServerNow, timerMs, countdownMs, lanceWatch, lanceTimed, intervalLeftMs, mmss, ago, params, safeColor, connect,
           tableName };
})();
