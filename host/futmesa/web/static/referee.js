// futmesa referee input, for the console pages: the token, the phone's clock synced to the
// host's, and an outbox that survives the venue's Wi-Fi. Every press gets an id made here and
// the moment it was pressed; it is kept (localStorage) until the host has answered it, sent
// in order, and sent again with the same id when an answer is lost: the host applies it once
// and answers the same. Pressed while offline, it waits ("aguardando conexão") and is
// delivered with its press time when the link comes back.
"use strict";

const Referee = (() => {
  const _ = FM.tr(document.documentElement.lang === "en" ? "en" : "pt"); // the page's language
  const q = new URLSearchParams(location.search);
  const table = q.get("table"); // a host running several tables: /console?table=ID
  const KEY = table ? `futmesa.token.${table}` : "futmesa.token";
  const OUTBOX = table ? `futmesa.outbox.${table}` : "futmesa.outbox";
  const forTable = table ? `table=${encodeURIComponent(table)}` : "";
  if (q.get("token")) {
    localStorage.setItem(KEY, q.get("token"));
    const rest = new URLSearchParams(location.search);
    rest.delete("token"); // keep the token out of the address bar (and its history)
    history.replaceState(null, "", location.pathname + (rest.toString() ? `?${rest}` : ""));
  }
  let token = localStorage.getItem(KEY) || "";

  // an id for each press: random, made on the phone (crypto.randomUUID needs HTTPS)
  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
  // this console, so the host can tell two consoles' same press from one console's two
  let consoleId = localStorage.getItem("futmesa.console");
  if (!consoleId) {
    consoleId = newId();
    localStorage.setItem("futmesa.console", consoleId);
  }

  // ---- the host's clock: offset from the best of a few round trips (/api/time) ---------
  const samples = [];
  async function syncClock() {
    for (let i = 0; i < 3; i++) {
      const t0 = Date.now();
      try {
        const r = await fetch("/api/time", { cache: "no-store" });
        const body = await r.json();
        const t1 = Date.now();
        if (typeof body.now === "number") samples.push({ rtt: t1 - t0, offset: body.now - (t0 + t1) / 2, at: t1 });
      } catch (e) { return; }
    }
    while (samples.length > 12) samples.shift();
  }
  function hostOffset() {
    let best = null;
    for (const s of samples) if (!best || s.rtt < best.rtt) best = s;
    return best ? best.offset : null;
  }

  // ---- listeners: what the page shows -------------------------------------------------
  const hooks = { say: () => {}, queue: () => {}, applied: () => {}, token: () => {} };
  function on(name, fn) { hooks[name] = fn; }

  function headers() {
    // the host answers in the page's language (<html lang>), never the phone's own
    const h = { "Content-Type": "application/json",
                "Accept-Language": document.documentElement.lang === "en" ? "en" : "pt-BR" };
    if (token) h.Authorization = `Bearer ${token}`;
    return h;
  }

  function adoptToken(t) {
    token = t;
    localStorage.setItem(KEY, t);
    hooks.token(t);
  }

  // ---- the outbox -------------------------------------------------------------------------
  function load() {
    try { return JSON.parse(localStorage.getItem(OUTBOX) || "[]"); } catch (e) { return []; }
  }
  function save(items) { localStorage.setItem(OUTBOX, JSON.stringify(items)); }
  let offline = false;
  let attempts = 0; // deliveries that found no link (for the page and its tests)
  let offlineSaid = false;

  function queued() { return load(); }

  function send(kind, data, label, author) {
    const now = Date.now();
    const off = hostOffset();
    const item = {
      input_id: newId(), kind, data: data || {}, label: label || kind, author: author || "árbitro",
      pressed_local: now, pressed_at: off == null ? null : Math.round(now + off),
    };
    const items = load();
    items.push(item);
    save(items);
    hooks.say(offline ? _("⚠ {what}: kept on this device, waiting for the connection", { what: item.label }) : `… ${item.label}`, "busy");
    hooks.queue(items, offline);
    pump();
    return item.input_id;
  }

  let pumping = false;
  let retryTimer = null;
  async function pump() {
    if (pumping) return;
    pumping = true;
    clearTimeout(retryTimer);
    try {
      for (;;) {
        const items = load();
        if (!items.length) break;
        const item = items[0];
        let outcome;
        try {
          outcome = await deliver(item);
        } catch (e) {
          // no answer (offline, Wi-Fi lost, host away): keep it, in order, and try again
          offline = true;
          attempts += 1;
          hooks.queue(load(), true);
          if (attempts === 1 || !offlineSaid) {
            offlineSaid = true;
            hooks.say(_("⚠ {what}: kept on this device, waiting for the connection", { what: item.label }), "busy");
          }
          retryTimer = setTimeout(pump, 2000);
          return;
        }
        offline = false;
        offlineSaid = false;
        save(load().filter((x) => x.input_id !== item.input_id));
        hooks.queue(load(), false);
        report(item, outcome);
      }
    } finally {
      pumping = false;
    }
  }

  async function post(item) {
    const body = {
      kind: item.kind, data: item.data, author: item.author, input_id: item.input_id,
      console: consoleId, age_ms: Math.max(0, Date.now() - item.pressed_local),
      ...(item.pressed_at != null ? { pressed_at: item.pressed_at } : {}),
      ...(table ? { table } : {}),
    };
    const r = await fetch("/api/referee", { method: "POST", headers: headers(), body: JSON.stringify(body) });
    let answer = {};
    try { answer = await r.json(); } catch (e) { answer = { error: `HTTP ${r.status}` }; }
    return { status: r.status, body: answer };
  }

  // one input, until the host has a final answer (a lost answer: the same id again)
  async function deliver(item) {
    let first = await post(item);
    if (first.status !== 202 || !first.body.pending) return first;
    const already = Boolean(first.body.already);
    hooks.say(_("… {what}: received, applying", { what: item.label }), "busy");
    for (let i = 0; ; i++) {
      await new Promise((res) => setTimeout(res, 200));
      if (i === 50) hooks.say(_("… {what}: still applying (the table computer is slow)", { what: item.label }), "busy");
      let r;
      try {
        r = await fetch(`/api/referee/${first.body.id}`, { headers: headers() });
      } catch (e) {
        throw e; // offline: the item stays queued, sent again with its id
      }
      const body = await r.json().catch(() => ({}));
      if (r.status === 404) { // the host restarted: send it again (same id)
        first = await post(item);
        if (first.status !== 202 || !first.body.pending) return first;
        continue;
      }
      if (body.ok === true || body.ok === false) return { status: body.ok ? 200 : 409, body: { ...body, already } };
    }
  }

  function report(item, { status, body }) {
    const ms = Math.round(Date.now() - item.pressed_local);
    if (status < 300 && body.ok) {
      if (body.token) adoptToken(body.token); // our own "Nova partida": keep refereeing
      // what the rules stored, in the Registro's words (the host's answer, result.said:
      // matchbook/answer.py — the fact and its consequence), else the button's own words
      const said = body.result && body.result.said;
      const what = (said && (document.documentElement.lang === "en" ? said.en : said.pt)) || item.label;
      if (body.already || (body.result && body.result.already)) hooks.say(_("✓ {what}: done already (it was already logged)", { what: item.label }), "ok");
      // in the referee's words: no milliseconds; a late one (queued offline) says how late
      else if (ms < 3000) hooks.say(_("✓ {what}", { what }), "ok");
      else hooks.say(_("✓ {what} (sent {seconds} s after the tap)", { what, seconds: Math.round(ms / 1000) }), "ok");
      hooks.applied(item, body);
    } else {
      hooks.say(_("✗ {what} refused: {why}", { what: item.label, why: body.error || `HTTP ${status}` }), "bad");
    }
  }

  window.addEventListener("online", () => pump());
  syncClock();
  setInterval(syncClock, 30000);
  setTimeout(pump, 0); // what an earlier visit left in the outbox

  return {
    table, forTable, send, pump, queued, on, headers, adoptToken, syncClock, hostOffset,
    get token() { return token; },
    get offline() { return offline; },
    get attempts() { return attempts; },
    consoleId,
  };
})();
