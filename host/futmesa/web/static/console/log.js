// The match's log in its sheet: loaded when it changes, holding still under the referee's
// thumb, each correctable entry with "Anular" and "Corrigir".

import { $, LANG, _, view } from "./page.js";
import { openFix } from "./corrections.js";
import { renderSigning } from "./questions.js";

// ---- log and corrections ---------------------------------------------------------
let logTimer = null;
export function refreshLog() {
  clearTimeout(logTimer);
  logTimer = setTimeout(loadLog, 150);
}

// What the console holds of the live match's log: a console asks only for what changed since
// the revision it holds (GET /api/log?epoch=&since=), so a new entry costs one entry; a long
// log comes as its newest entries, older ones a page at a time ("Older entries")
const PAGE = 200;
const held = { match: null, epoch: "", rev: 0, byId: new Map(), order: [], older: 0 };

function currentMatch() {
  return view.state && view.state.match_id != null ? view.state.match_id : null;
}

async function fetchLog(params) {
  const match = currentMatch();
  const query = new URLSearchParams({ lang: LANG, limit: String(PAGE), ...params });
  if (match !== null) query.set("match", String(match));
  try {
    const r = await fetch(`/api/log?${query}`);
    const body = await r.json();
    if (!r.ok) {
      renderLogMessage(body.error || `HTTP ${r.status}`);
      return null;
    }
    return match === currentMatch() ? body : null; // a new match since: its own log follows
  } catch (e) {
    return null;
  }
}

// One request for the log at a time, each asking from what the one before brought: two
// answers in flight could land out of order, a whole log arriving after "Registros anteriores"
// and dropping the page the referee had just asked for (the button pulled from under the thumb)
let queue = Promise.resolve();
function inTurn(job) {
  queue = queue.then(job).catch(() => {});
  return queue;
}

export function loadLog() {
  return inTurn(loadNewest);
}

async function loadNewest() {
  // before the page knows the match it asks nothing: the match's first state asks for it
  if (!view.state) return;
  const match = currentMatch();
  if (match !== held.match) Object.assign(held, { match, epoch: "", rev: 0, byId: new Map(), order: [], older: 0 });
  const body = await fetchLog({ epoch: held.epoch, since: String(held.rev) });
  if (!body) return;
  view.closed = Boolean(body.closed);
  if (view.state) renderSigning();
  renderLog(hold(body));
}

function loadOlder() {
  return inTurn(loadOlderNow);
}

async function loadOlderNow() {
  const oldest = held.order.find((id) => held.byId.has(id));
  if (oldest == null) return;
  const body = await fetchLog({ before: String(oldest) });
  if (!body || body.epoch !== held.epoch) return loadNewest();
  for (const e of body.entries || []) held.byId.set(e.id, e);
  held.older = body.older || 0;
  renderLog(shown());
}

// the answer merged into what the console holds; the log in its order
function hold(body) {
  const stale = body.epoch && body.epoch === held.epoch && (body.rev || 0) < held.rev;
  if (stale) return shown(); // an older answer, late
  if (body.full !== false) {
    held.byId = new Map();
    held.order = [];
    held.older = body.older || 0;
  }
  for (const e of body.entries || []) {
    if (!held.order.includes(e.id)) held.order.push(e.id);
    held.byId.set(e.id, e);
  }
  if (body.order) held.order = body.order;
  held.epoch = body.epoch || "";
  held.rev = body.rev || 0;
  return shown();
}

function shown() {
  return held.order.filter((id) => held.byId.has(id)).map((id) => held.byId.get(id));
}

// The camera's clip an entry can be corrected with (docs/camera.md): its own clip (a goal
// line's), else the newest clip whose seconds hold the entry's moment (``covers``: a Rever
// after it)
export function clipOf(e) {
  const clips = [...held.byId.values()].filter((c) => c.kind === "clip" && c.data && c.data.sha256);
  const own = clips.filter((c) => c.data.shows === e.id);
  if (own.length) return own[own.length - 1];
  const around = clips.filter((c) => (c.covers || []).includes(e.id));
  return around.length ? around[around.length - 1] : null;
}

export function renderLogMessage(text) {
  const ol = $("log");
  ol.textContent = "";
  const li = document.createElement("li");
  li.className = "muted";
  li.textContent = text;
  ol.append(li);
}

export function describe(e) {
  return e.text || _("entry");
}

// The log holds still under the referee's thumb: the entry at the top of the open sheet
// stays where it was when newer entries arrive above it (issue 31 §4)
export function logAnchor() {
  const box = $("sheet-log");
  if (box.hidden) return null;
  const top = box.getBoundingClientRect().top + $("sheet-log").querySelector(".sheet-head").offsetHeight;
  for (const li of $("log").children) {
    const r = li.getBoundingClientRect();
    if (li.dataset.id && r.bottom > top) return { id: li.dataset.id, at: r.top };
  }
  return null;
}

export function holdLog(anchor) {
  if (!anchor) return;
  const li = $("log").querySelector(`li[data-id="${anchor.id}"]`);
  if (li) $("sheet-log").scrollTop += li.getBoundingClientRect().top - anchor.at;
}

// The sheet just opened shows the newest entry at its top: the page's copy of the log may be
// a moment old, and the entries that arrive as it opens go above, in view — holding the old
// top still would push the newest out of sight (walk50c L3: the goal cut off above the fold)
let opened = false;
export function openLog() {
  opened = true;
  $("sheet-log").scrollTop = 0;
  loadLog();
}

export function renderLog(entries) {
  const anchor = opened ? null : logAnchor();
  opened = false;
  try {
    fillLog(entries);
  } finally {
    holdLog(anchor);
  }
}

// the lance timer's rows (lance started, warnings, expiries) stay in the log, folded away
// unless the referee asks for them
function foldToggle(ol, count) {
  const li = document.createElement("li");
  li.className = "fold-toggle";
  const b = document.createElement("button");
  b.type = "button";
  b.id = "log-timekeeping";
  const label = () => (ol.classList.contains("show-folded")
    ? _("Hide the lance timer ({n})", { n: count }) : _("Show the lance timer ({n})", { n: count }));
  b.textContent = label();
  b.addEventListener("click", () => {
    ol.classList.toggle("show-folded");
    b.textContent = label();
  });
  li.append(b);
  return li;
}

export function fillLog(entries) {
  const ol = $("log");
  ol.textContent = "";
  view.lastReferee = null;
  for (const e of entries) {
    if (e.source === "referee" && e.correctable) view.lastReferee = e;
  }
  if (!entries.length) renderLogMessage(_("nothing logged yet"));

  for (const e of [...entries].reverse()) {
    const li = document.createElement("li");
    li.dataset.id = e.id;
    li.className = `entry${e.voided ? " voided" : ""}${e.folded ? " folded" : ""}`;
    const when = document.createElement("div");
    when.className = "when";
    // an entry made between two periods is placed in the interval, not at the half's clock
    // one made after the final whistle is placed after the match, never at the last half's clock
    const place = e.after_match ? [_("After the match")] : e.shootout ? [_("Penalty shoot-out")] : e.interval ? [_("Interval")] : [e.period ? _("Half {n}", { n: e.period }) : "",
      e.clock_ms != null && !e.no_clock ? FM.mmss(e.clock_ms) : ""]; // no_clock: no period
    when.textContent = [_("no. {disc}", { disc: e.no ?? "?" }), ...place, e.origin || ""].filter(Boolean).join(" · ");
    const what = document.createElement("div");
    what.className = "what";
    const said = (e.meaning || []).length ? ` — ${e.meaning.join("; ")}` : "";
    what.textContent = describe(e) + said;
    li.append(when);
    for (const text of e.fact_lines || []) {
      const fact = document.createElement("div");
      fact.className = "fact";
      fact.textContent = text;
      li.append(fact);
    }
    li.append(what);
    if (e.status_text) {
      const st = document.createElement("div");
      st.className = "status";
      st.textContent = e.status_text;
      li.append(st);
    }
    if (e.correctable || e.undo) {
      const row = document.createElement("div");
      row.className = "fixes";
      // a correction in effect is undone as it was made: a void of it ("Desfazer anulação")
      // the goalkeeper's secret choice: only voided, for him to choose again (walk51a H1)
      const offers = e.undo ? [["void", e.undo]] : e.ask_again ? [["void", e.ask_again]]
        : [["void", _("Void it")], ["amend", _("Correct")]];
      for (const [mode, label] of offers) {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = label;
        b.dataset.fix = mode;
        b.addEventListener("click", () => openFix(e, mode));
        row.append(b);
      }
      li.append(row);
    }
    ol.append(li);
  }
  // under the newest entries' list, beside the older pages: the lance timer's rows, on demand
  const folded = entries.filter((e) => e.folded).length;
  if (folded) ol.append(foldToggle(ol, folded));
  if (held.older > 0) {
    // the oldest entries are at the bottom: the console asks for them a page at a time
    const li = document.createElement("li");
    li.className = "older";
    const b = document.createElement("button");
    b.type = "button";
    b.id = "log-older";
    b.textContent = _("Older entries ({n})", { n: held.older });
    b.addEventListener("click", loadOlder);
    li.append(b);
    ol.append(li);
  }
}
