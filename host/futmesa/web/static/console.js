// futmesa referee console: the moment first (the question to answer, the side on turn, the
// shot asked with its disc, the outcome), everything else one tap away in a sheet. Input goes
// through Referee (referee.js): an id and a press time on each, kept until the host answers.
"use strict";

const Console = (() => {
  const $ = (id) => document.getElementById(id);
  // the page's language: the host rendered it (?lang=, the browser's), <html lang> says which
  const LANG = document.documentElement.lang === "en" ? "en" : "pt";
  const _ = FM.tr(LANG);
  const table = Referee.table;
  const forTable = Referee.forTable;
  const keeperLink = (t, keeperSide) => `/console/keeper?${forTable ? `${forTable}&` : ""}${
    keeperSide ? `side=${keeperSide}&` : ""}token=${encodeURIComponent(t || "")}`;
  let tokenWorked = false; // accepted earlier on this page: a refusal now means a new match
  let side = "A";
  let shownTurn = null; // the turn the side buttons last followed
  let pickedAt = 0; // when the referee last picked a side himself
  const KEEP_PICK_MS = 15000;
  let disc = ""; // the disc number typed on the keypad
  let freshDisc = true; // the next digit starts a new number
  let state = null;
  let lastReferee = null; // id of the last live referee entry, for U (void last)
  const author = () => ($("referee").value || localStorage.getItem("futmesa.referee") || _("referee"));

  // The last state seen, slimmed to what the first screen shows, for a reload while offline
  const LAST_KEY = `futmesa.console.last.${table || "-"}`;
  let lastKept = "";
  function keepLastState(st) {
    const m = st.match || {};
    const slim = {
      match_id: st.match_id, table_name: st.table_name, teams: st.teams, score: st.score,
      period: st.period, periods: st.periods, status: st.status, finished: st.finished,
      match: { turn: m.turn, possession: m.possession, ends: m.ends, restart: m.restart,
               shot_asked: m.shot_asked, phase: m.phase, ruleset: m.ruleset },
    };
    const text = JSON.stringify(slim);
    if (text === lastKept) return;
    lastKept = text;
    try { localStorage.setItem(LAST_KEY, text); } catch (e) { /* full or private: no cache */ }
  }
  function lastState() {
    try { return JSON.parse(localStorage.getItem(LAST_KEY) || "null"); } catch (e) { return null; }
  }

  function say(text, kind) {
    const el = $("result");
    el.textContent = text;
    el.className = `result ${kind || ""}`;
  }

  // One action, one input: the disc typed for it is used up, and the team buttons go back to
  // the team with the lance (the referee picks the other team again for its next action)
  function send(kind, data, label) {
    const sent = Referee.send(kind, data, label || kind, author());
    disc = "";
    freshDisc = true;
    pickedAt = 0;
    showDisc();
    setSide(home());
    return sent;
  }

  // the team the buttons serve unless the referee picks the other: the one with the lance
  // (the engine's published possession), else the one on turn
  function home() {
    const m = (state && state.match) || {};
    const p = m.possession;
    const so = m.phase === "shootout" && m.shootout;
    // in a shoot-out, the team whose kick is next
    const s = (so && (so.next || (so.in_progress && so.in_progress.side))) || (p && p.side) || m.turn;
    return s === "A" || s === "B" ? s : side;
  }

  // what the engine allows each team now (state.match.possession.allowed); a console of a
  // host without it allows everything and lets the engine refuse
  function allows(s, play) {
    const p = state && state.match && state.match.possession;
    const allowed = p && p.allowed && p.allowed[s];
    return !Array.isArray(allowed) || allowed.includes(play);
  }

  function renderPlays() {
    const shot = $("act-shot");
    if (!shot) return;
    const ok = allows(side, "shot_asked");
    $("act-shot-team").textContent = ok ? name(side) : _("{team}: not their lance", { team: name(side) });
    shot.disabled = !ok;
    shot.title = ok ? "" : _("Only the team with the lance asks for a shot: {team} does not have it now", { team: name(side) });
    shot.classList.toggle("other-team", side !== home());
  }

  Referee.on("say", say);
  Referee.on("applied", () => refreshLog());
  Referee.on("token", (t) => {
    $("keeper-link").href = keeperLink(t);
    checkToken();
  });
  Referee.on("queue", (items, offline) => showQueue(items, offline));
  function showQueue(items, offline) {
    const el = $("outbox");
    el.hidden = !items.length;
    if (!items.length) return;
    const n = items.length;
    const what = items.map((i) => i.label).join(" · ");
    el.textContent = offline
      ? (n === 1 ? _("⚠ waiting for the connection — 1 action kept ({what}); it will be sent with the time it was made", { what })
        : _("⚠ waiting for the connection — {n} actions kept ({what}); they will be sent in order, with the time each was made", { n, what }))
      : (n === 1 ? _("… sending 1 action: {what}", { what }) : _("… sending {n} actions: {what}", { n, what }));
    el.className = `outbox ${offline ? "offline" : ""}`;
  }

  async function checkToken() {
    const el = $("token-status");
    el.textContent = "";
    el.className = "token";
    try {
      const r = await fetch(`/api/token${forTable ? `?${forTable}` : ""}`, { headers: Referee.headers() });
      if (r.ok) {
        // the words go on a narrow phone (the ✓ stays): the header keeps to one line
        const words = document.createElement("span");
        words.className = "wide";
        words.textContent = ` ${_("✓ referee access").replace(/^✓\s*/, "")}`;
        el.textContent = "✓";
        el.append(words);
        el.title = _("✓ referee access");
        el.className = "token ok";
        tokenWorked = true;
        return;
      }
      const body = await r.json();
      el.className = "token bad";
      if (r.status === 403 && tokenWorked) {
        el.append(_("✗ A new match was started on another device: this link no longer works. Scan the new QR code (on the table computer's screen)") + " ");
      } else el.append(`✗ ${body.error} `);
      const a = document.createElement("a");
      a.href = `/console/recover${forTable ? `?${forTable}` : ""}`;
      a.textContent = _("recover (on the table computer only)");
      el.append(a);
    } catch (e) {
      el.textContent = Referee.queued().length ? "" : _("✗ server unreachable");
      el.className = "token bad";
    }
  }

  // ---- the disc keypad and the side ---------------------------------------------------
  function discNumber() {
    return disc === "" ? null : Number(disc);
  }

  function showDisc() {
    $("disc").value = disc;
    $("disc-shown").textContent = disc === "" ? _("no. —") : _("no. {disc}", { disc });
    for (const el of document.querySelectorAll(".who-disc")) el.textContent = disc === "" ? "—" : disc;
    $("rc-taker").textContent = disc === "" ? _("Who takes it: key in the no.") : _("Taken by no. {disc}", { disc });
    if (state) renderRuleInputs((state && state.match) || {});
  }

  function key(k) {
    if (k === "back") {
      disc = freshDisc ? "" : disc.slice(0, -1);
    } else {
      disc = ((freshDisc ? "" : disc) + k).slice(-2).replace(/^0(?=\d)/, "");
    }
    freshDisc = false;
    showDisc();
  }

  function setSide(s) {
    side = s;
    for (const b of document.querySelectorAll(".side[data-side]")) {
      b.setAttribute("aria-pressed", String(b.dataset.side === s));
    }
    $("act-keeper-foul").textContent = _("Foul by {team} on the goalkeeper", { team: name(s) });
    renderPlays();
  }

  const actions = {
    start: () => send("start_period", {}, _("start period")),
    pause: () => (state && state.clock && state.clock.running
      ? send("pause", {}, _("stop clock")) : send("resume", {}, _("resume clock"))),
    kickoff: () => send("kickoff", { side }, _("kick-off {team}", { team: name(side) })),
    shot_result: (outcome) => {
      const o = typeof outcome === "string" ? outcome : "saved";
      const b = document.querySelector(`[data-outcome="${o}"]`);
      return send("shot_result", { outcome: o }, _("shot without a goal: {outcome}", { outcome: b ? b.textContent : o }));
    },
    lance_done: () => send("lance_done", {}, _("last lance over")),
    last_touch: () => send("last_touch", { side }, _("last touch {team}", { team: name(side) })),
    added: () => send("added_time", { ms: Math.round(Number($("added-min").value || 0) * 60000) },
      _("added time")),
    shot: () => {
      const d = discNumber();
      return send("shot_asked", { side, disc: d, ball: $("shot-ball").value },
        (d != null ? _("shot asked {team} {disc}", { team: name(side), disc: d }) : _("shot asked {team}", { team: name(side) })));
    },
    touch: () => send("touch", { side, disc: discNumber() }, _("touch {team}", { team: name(side) })),
    // a lance that did not touch the ball: passes the vez (004), counts a touch (003), and
    // from a kick-off or an infraction's kick a technical foul (000 Art. 23 I A, IV A)
    touch_miss: () => send("touch", { side, disc: discNumber(), hit: false },
      _("touch that missed the ball {team}", { team: name(side) })),
    touch_out_of_turn: () => send("touch", { side, disc: discNumber(), out_of_turn: true },
      _("touch out of turn {team}", { team: name(side) })),
    ball_stopped: () => send("ball_stopped", { side, area: "small" },
      _("ball stopped in the goal area of {team}", { team: name(side) })),
    midline_deflection: () => send("midline_deflection", {}, _("deflection on the halfway line")),
    restart_failed: () => send("restart_failed", {
      reason: $("failed-reason").value, choice: $("failed-choice").value,
    }, _("restart failed")),
    draw_choice: () => send("draw_choice", {
      winner: side, choice: $("draw-choice").value, goal: Number($("draw-goal").value),
    }, _("draw: {team}", { team: name(side) })),
    foul: () => send("foul", { side, disc: discNumber(), type: $("foul-type").value, where: $("foul-where").value },
      _("foul {team}", { team: name(side) })),
    discipline: () => send("discipline", { side, disc: discNumber(), type: $("disc-action").value },
      _("discipline {team}", { team: name(side) })),
    restart: (kind) => {
      if (typeof kind !== "string") return openSheet("sheet-foul"); // R: the restarts
      const b = document.querySelector(`[data-restart="${kind}"]`);
      return send("restart", { side, kind }, _("{restart} for {team}", { restart: b ? b.textContent : _("restart"), team: name(side) }));
    },
    substitution: () => send("substitution", {
      side, out: Number($("sub-out").value), in: Number($("sub-in").value),
    }, _("substitution {team}", { team: name(side) })),
    kick: () => send("shootout_kick", { side, disc: discNumber() }, _("penalty kick {team}", { team: name(side) })),
    // the restart being given (docs/rulesets.md, "Entradas do árbitro")
    taker: () => {
      const d = discNumber();
      const r = restartNow();
      if (d == null) return say(_("✗ key in the number of the disc taking it on the keypad"), "bad");
      return send("taker", { disc: d }, (r ? _("{team}: taken by no. {disc}", { team: name(r.side), disc: d }) : _("taken by no. {disc}", { disc: d })));
    },
    taker_goalkeeper: () => send("taker", { goalkeeper: true }, _("goalkeeper takes it")),
    flank_left: () => send("restart_side", { flank: "left" }, _("take it from the left")),
    flank_right: () => send("restart_side", { flank: "right" }, _("take it from the right")),
    waive: () => send("waive", {}, _("restart waived: normal lance")),
    discs_moved: () => {
      const r = restartNow();
      const s = r ? r.side : side;
      return send("discs_moved", { side: s }, _("{team} moved discs at the goal kick", { team: name(s) }));
    },
    keeper_kick_hit: () => send("keeper_kick_hit", {}, _("keeper's kick hit the opponent")),
    // 001 Art. XXIX l: the first lance of a lateral cedida was a pass (its disc may play again)
    touch_pass: () => {
      const r = restartNow();
      const s = r ? r.side : side;
      const d = discNumber();
      return send("touch", { side: s, disc: d, pass: true },
        (d != null ? _("pass by {team}, disc {disc}", { team: name(s), disc: d }) : _("pass by {team}", { team: name(s) })));
    },
    // what the table cannot see: one tap, the side of the last lance (the label names it)
    offside: () => {
      const s = offsideSide();
      return send("offside", { side: s }, _("offside by {team}", { team: name(s) }));
    },
    keeper_foul: () => send("keeper_foul", { side }, _("foul by {team} on the goalkeeper", { team: name(side) })),
    arc_0: () => send("ball_on_arc", { end: 0 }, _("ball on the corner arc, {team}'s side", { team: name(endOwner(0)) })),
    arc_1: () => send("ball_on_arc", { end: 1 }, _("ball on the corner arc, {team}'s side", { team: name(endOwner(1)) })),
    "kick-goal": () => send("shootout_result", { scored: true }, _("penalty: goal")),
    "kick-miss": () => send("shootout_result", { scored: false }, _("penalty: missed")),
  };

  // ---- sheets: one tap away, one open at a time ---------------------------------------
  function openSheet(id) {
    closeSheets();
    $(id).hidden = false;
    $("scrim").hidden = false;
    document.body.classList.add("sheet-open");
    if (id === "sheet-log") loadLog();
  }
  function closeSheets() {
    for (const s of document.querySelectorAll(".sheet")) s.hidden = true;
    $("scrim").hidden = true;
    document.body.classList.remove("sheet-open");
  }

  // ---- live state -------------------------------------------------------------------
  function name(s) {
    const t = state && state.teams && state.teams[s];
    if (t && t.name) return String(t.name);
    return s === "A" ? _("home team") : _("away team");
  }

  function render() {
    if (!state) return;
    for (const s of ["A", "B"]) {
      $(`c-name-${s}`).textContent = name(s);
      const t = state.teams && state.teams[s];
      $(`sw-${s}`).style.background = FM.safeColor(t && t.color, "#888");
      for (const b of document.querySelectorAll(`.side[data-side="${s}"]`)) {
        b.querySelector(".label").textContent = name(s);
        b.style.setProperty("--team", FM.safeColor(t && t.color, "#888"));
      }
    }
    if (table) $("c-table").textContent = state.table_name || _("Table") + " " + table;
    // the match form: the current teams as a hint
    for (const s of ["A", "B"]) document.querySelector(`#setup input[name=name${s}]`).placeholder = name(s);
    const sc = state.score || {};
    $("c-score").textContent = `${sc.A || 0} × ${sc.B || 0}`;
    const T = FM.TEXT[LANG];
    $("c-period").textContent = state.finished ? T.finished
      : state.status === "interval" ? T.interval
        : state.period ? T.period(state.period, state.periods || 2) : (T.status[state.status] || "");
    const m = state.match || {};
    // a penalty shootout: its kick and result take the place of the lance's actions
    const shootout = m.phase === "shootout";
    document.body.classList.toggle("in-shootout", shootout);
    $("shootout-box").hidden = !shootout;
    $("c-turn").textContent = m.turn ? name(m.turn) : "—";
    for (const b of document.querySelectorAll(".side[data-side]")) b.classList.toggle("on-turn", b.dataset.side === m.turn);
    const holder = home();
    if (holder !== shownTurn) {
      // a new lance: the buttons serve the team with the lance, unless the referee has just
      // picked the other team himself and not yet entered its action
      shownTurn = holder;
      if (Date.now() - pickedAt > KEEP_PICK_MS) setSide(holder);
    }
    renderPlays();
    // the draw: the goal each side defends now, named by the team
    const ends = m.ends || { A: 0, B: 1 };
    for (const opt of $("draw-goal").options) {
      const owner = Number(opt.value) === ends.A ? "A" : "B";
      opt.textContent = _("defends the goal where {team} is", { team: name(owner) });
    }
    const link = $("c-link");
    const off = state.link && state.link.connected === false;
    const faults = state.sensor_faults && typeof state.sensor_faults === "object"
      ? Object.values(state.sensor_faults).map((f) => _("table sensor {fault}", { fault: SENSOR_FAULTS[f] || _("faulty") })) : [];
    const health = state.health && !state.health.ok ? (state.health.faults || []).map((f) => (LANG === "en" && f.en) || f.pt || f.code) : [];
    link.textContent = (off ? " ⚠ " + _("table disconnected") : "") + health.map((h) => ` ⚠ ${h}`).join("")
      + (faults.length ? ` ⚠ ${faults.join(", ")}` : "");
    renderResetOffer(state.link && state.link.reset);
    renderPending(m.pending);
    renderRuleInputs(m);
    renderSigning();
    // the venue desk's next match for this table: one press starts it, settings filled in
    // before a kick-off the first thing to do is on the first screen: start the period
    const startable = !state.finished && (state.status === "not_started" || state.status === "interval");
    $("start-main").classList.toggle("hidden", !startable);
    if (startable) {
      const n = (state.period || 1) + (state.status === "interval" ? 1 : 0);
      $("start-main").textContent = "▶ " + _("Start period {n}", { n });
    }
    const nxt = state.next;
    $("start-next").classList.toggle("hidden", !nxt);
    $("start-next").textContent = nxt ? "▶ " + _("Start next: {title}", { title: nxt.title }) + (nxt.label ? ` (${nxt.label})` : "") : "";
    const ann = Array.isArray(m.announcements) && m.announcements.length ? m.announcements[m.announcements.length - 1] : null;
    $("c-announce").textContent = ann ? `» ${typeof ann === "string" ? ann : (LANG === "en" ? ann.en || ann.pt : ann.pt || ann.en) || ""}` : "";
    tick();
  }

  // ---- the referee's inputs for what the table cannot see, offered when the state says they
  // apply (docs/rulesets.md, "Entradas do árbitro"); the engine refuses them otherwise --------
  const IN_PLAY = ["running", "last_lance", "awaiting_dead_ball"];
  // the ruleset's own inputs that apply now, as the engine publishes them (no ruleset is
  // named here: rules/possession.py `offers`)
  const offered = (kind) => {
    const pos = state && state.match && state.match.possession;
    return Boolean(pos && Array.isArray(pos.offers) && pos.offers.includes(kind));
  };
  function restartNow() {
    const r = state && state.match && state.match.restart;
    return r && typeof r === "object" && (r.side === "A" || r.side === "B") ? r : null;
  }
  function offsideSide() {
    const m = (state && state.match) || {};
    const s = m.last_player || m.turn;
    return s === "A" || s === "B" ? s : side;
  }
  function endOwner(end) { // the team defending goal line `end` now
    const ends = (state && state.match && state.match.ends) || { A: 0, B: 1 };
    return Number(ends.A) === end ? "A" : "B";
  }
  function restartName(kind) {
    const b = document.querySelector(`[data-restart="${kind}"]`);
    return b ? b.textContent : _("restart");
  }
  function show(id, on) { $(id).hidden = !on; return on; }

  function renderRuleInputs(m) {
    const r = restartNow();
    const open = Boolean(r && !r.taken);
    const inPlay = IN_PLAY.includes(m.status || state.status) && !state.finished;
    let any = false;
    any = show("rc-taker", open && r.taker_choice === "disc") || any;
    any = show("rc-goalkeeper", open && r.taker_choice === "goalkeeper") || any;
    const sides = open && Boolean(r.side_choice);
    show("rc-left", sides);
    any = show("rc-right", sides) || any;
    any = show("rc-waive", open && Boolean(r.waivable)) || any;
    any = show("rc-moved", Boolean(r) && offered("discs_moved")) || any;
    any = show("rc-hit", Boolean(r) && offered("keeper_kick_hit")) || any;
    // the first lance of a two-lance restart (001 lateral cedida): say it was a pass
    any = show("rc-pass", Boolean(r) && offered("pass")) || any;
    if (r) {
      $("rc-moved").textContent = _("{team} moved discs at the goal kick", { team: name(r.side) });
      $("rc-pass").textContent = disc === "" ? _("{team}'s 1st lance was a pass", { team: name(r.side) })
        : _("{team}'s 1st lance: a pass by no. {disc}", { team: name(r.side), disc });
    }
    // the kick-off is the draw's once it was entered: correct the draw's entry instead
    $("act-kickoff").hidden = Boolean(m.kickoff && m.kickoff.draw);
    // an in-match penalty (004): the defending goalkeeper chooses first, in secret, on the
    // keeper page (like the shootout's); the kick is refused until then
    const keeper = open && r.kind === "penalti" && (r.keeper_choice_from === "A" || r.keeper_choice_from === "B");
    const note = $("rc-keeper-note");
    if (keeper && !r.keeper_choice_recorded) {
      const k = r.keeper_choice_from;
      note.textContent = _("Before the kick, {team}'s goalkeeper chooses the corner in secret.", { team: name(k) });
      $("rc-keeper").textContent = _("Secret choice of {team}'s goalkeeper (on another device)", { team: name(k) });
      $("rc-keeper").href = keeperLink(Referee.token, k);
      show("rc-keeper", true);
      show("rc-keeper-note", true);
      any = true;
    } else if (keeper) {
      note.textContent = _("✓ {team}'s goalkeeper has chosen (hidden): the kick may be taken.", { team: name(r.keeper_choice_from) });
      show("rc-keeper", false);
      any = show("rc-keeper-note", true) || any;
    } else {
      show("rc-keeper", false);
      show("rc-keeper-note", false);
    }
    $("restart-title").textContent = r ? (r.taken ? _("Taken: {restart} for {team}", { restart: restartName(r.kind), team: name(r.side) }) : _("Restart: {restart} for {team}", { restart: restartName(r.kind), team: name(r.side) })) : "";
    show("restart-card", any && !state.finished);
    // in open play, what only the referee sees: offside (001) on the first screen, the foul on
    // the goalkeeper and the ball on the corner arc beside the foul
    show("act-offside", inPlay && offered("offside"));
    $("act-offside").textContent = _("Offside by {team}", { team: name(offsideSide()) });
    show("act-keeper-foul", inPlay);
    show("arc-row", inPlay && offered("ball_on_arc"));
    $("act-arc-0").textContent = _("Ball on the corner arc, {team}'s side", { team: name(endOwner(0)) });
    $("act-arc-1").textContent = _("Ball on the corner arc, {team}'s side", { team: name(endOwner(1)) });
    $("act-keeper-foul").textContent = _("Foul by {team} on the goalkeeper", { team: name(side) });
  }

  // ---- after the final whistle: the súmula is signed; once the referee has, it is closed ---
  let closed = false;
  const signUrl = () => `/assinar${table ? `?table=${encodeURIComponent(table)}` : ""}`;
  function renderSigning() {
    const finished = Boolean(state && state.finished);
    $("sign-link").href = signUrl();
    $("closed-link").href = signUrl();
    show("sign-card", finished && !closed);
    show("closed-card", closed);
    document.body.classList.toggle("closed", closed);
  }

  function tick() {
    if (!state) return;
    const now = FM.hostNow();
    const c = FM.timerMs(state.clock, now);
    $("c-clock").textContent = c == null ? "--:--" : FM.mmss(c);
    const l = FM.countdownMs(state.lance, now);
    $("c-lance").textContent = l == null ? "—" : String(Math.max(0, Math.ceil(l / 1000)));
  }

  const SENSOR_FAULTS = {
    stuck: _("stuck"), no_answer: _("no answer"), out_of_range: _("out of range"),
    drift: _("drifted"), storage: _("with a faulty memory"),
  };

  // answers the rules offer in "A confirmar" (docs/rulesets.md, Pending confirmations)
  const OPTION_LABELS = {
    no_goal: _("no goal"), corner: _("corner"), own_goal: _("own goal"),
    shot_asked: _("shot asked (not recorded)"), false_trip: _("false trip"),
    counts: _("counts"), foul: _("foul"), no_foul: _("no foul"),
    free_kick: _("indirect free kick"), disqualify: _("disqualify"),
  };

  function renderPending(list) {
    const ul = $("pending");
    ul.textContent = "";
    $("pending-card").classList.toggle("asking", Array.isArray(list) && list.length > 0);
    if (!Array.isArray(list) || !list.length) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = _("nothing pending");
      ul.append(li);
      return;
    }
    // one question at a time (the oldest first), the others counted: the team, the keypad
    // and "Chute pedido" stay on the first screen of a phone (issue 31 §11)
    for (const p of list.slice(0, 1)) {
      const li = document.createElement("li");
      const target = p && typeof p === "object" ? (p.id ?? p.entry ?? p.target) : p;
      const text = p && typeof p === "object" ? ((LANG === "en" && p.en) || p.pt || p.text || _("confirm the entry")) : String(p);
      const q = document.createElement("p");
      q.className = "question";
      q.textContent = _("To confirm: {text}", { text });
      const answers = document.createElement("div");
      answers.className = "answers";
      li.append(q, answers);
      const options = p && Array.isArray(p.options) ? p.options : null;
      const label = (c) => (c === "A" || c === "B" ? name(c) : OPTION_LABELS[c] || c);
      if (p && p.input === "disc") {
        // a free answer: the number of a disc (e.g. which disc is sent off)
        const input = document.createElement("input");
        input.type = "number";
        input.min = "0";
        input.max = "99";
        input.inputMode = "numeric";
        input.placeholder = _("disc no.");
        input.className = "pending-disc";
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = _("Confirm disc");
        b.addEventListener("click", () => {
          if (input.value.trim() === "") return say(_("✗ give the disc's number"), "bad");
          send("confirm", { target, choice: Number(input.value) }, _("confirmed: disc {disc}", { disc: input.value }));
        });
        answers.append(input, b);
      } else if (options) {
        // one button per answer the ruleset offers; the default one is marked
        for (const choice of options) {
          const b = document.createElement("button");
          b.type = "button";
          b.textContent = choice === p.default ? `✓ ${label(choice)}` : label(choice);
          b.dataset.choice = choice;
          b.addEventListener("click", () => send("confirm", { target, choice }, _("confirmed: {choice}", { choice: label(choice) })));
          answers.append(b);
        }
      } else {
        for (const [accept, word, said] of [[true, _("Accept"), _("accept")], [false, _("Reject"), _("reject")]]) {
          const b = document.createElement("button");
          b.type = "button";
          b.textContent = word;
          b.addEventListener("click", () => send("confirm", { target, accept }, `${said}: ${text}`));
          answers.append(b);
        }
      }
      ul.append(li);
    }
    if (list.length > 1) {
      const more = document.createElement("li");
      more.className = "more";
      more.textContent = list.length === 2 ? _("1 more question after this one")
        : _("{count} more questions after this one", { count: list.length - 1 });
      ul.append(more);
    }
  }

  // ---- log and corrections ---------------------------------------------------------
  let logTimer = null;
  function refreshLog() {
    clearTimeout(logTimer);
    logTimer = setTimeout(loadLog, 150);
  }

  async function loadLog() {
    const url = state && state.match_id != null ? `/api/log?match=${encodeURIComponent(state.match_id)}&lang=${LANG}` : `/api/log?lang=${LANG}`;
    let body;
    try {
      const r = await fetch(url);
      body = await r.json();
      if (!r.ok) {
        renderLogMessage(body.error || `HTTP ${r.status}`);
        return;
      }
    } catch (e) {
      return;
    }
    closed = Boolean(body.closed);
    if (state) renderSigning();
    renderLog(body.entries || []);
  }

  function renderLogMessage(text) {
    const ol = $("log");
    ol.textContent = "";
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = text;
    ol.append(li);
  }

  // the table was reset: offer the match time its clock did not count as added time
  let resetHandled = null;
  function renderResetOffer(reset) {
    const box = $("reset-offer");
    const secs = reset && reset.restored ? Math.round((reset.lost_ms || 0) / 1000) : 0;
    const open = secs >= 1 && resetHandled !== reset.at;
    box.hidden = !open;
    if (!open) return;
    $("reset-text").textContent =
      _("⚠ The table restarted: the clock did not count {time}. Add that time?", { time: FM.mmss(secs * 1000) });
    $("reset-add").onclick = () => {
      resetHandled = reset.at;
      box.hidden = true;
      send("added_time", { ms: secs * 1000 }, _("added time of {secs} s (table reset)", { secs }));
    };
    $("reset-dismiss").onclick = () => {
      resetHandled = reset.at;
      box.hidden = true;
    };
  }

  function describe(e) {
    return e.text || _("entry");
  }

  // The log holds still under the referee's thumb: the entry at the top of the open sheet
  // stays where it was when newer entries arrive above it (issue 31 §4)
  function logAnchor() {
    const box = $("sheet-log");
    if (box.hidden) return null;
    const top = box.getBoundingClientRect().top + $("sheet-log").querySelector(".sheet-head").offsetHeight;
    for (const li of $("log").children) {
      const r = li.getBoundingClientRect();
      if (li.dataset.id && r.bottom > top) return { id: li.dataset.id, at: r.top };
    }
    return null;
  }

  function holdLog(anchor) {
    if (!anchor) return;
    const li = $("log").querySelector(`li[data-id="${anchor.id}"]`);
    if (li) $("sheet-log").scrollTop += li.getBoundingClientRect().top - anchor.at;
  }

  function renderLog(entries) {
    const anchor = logAnchor();
    try {
      fillLog(entries);
    } finally {
      holdLog(anchor);
    }
  }

  function fillLog(entries) {
    const ol = $("log");
    ol.textContent = "";
    lastReferee = null;
    for (const e of entries) {
      if (e.source === "referee" && e.correctable) lastReferee = e;
    }
    if (!entries.length) renderLogMessage(_("nothing logged yet"));
    for (const e of [...entries].reverse()) {
      const li = document.createElement("li");
      li.dataset.id = e.id;
      li.className = `entry${e.voided ? " voided" : ""}`;
      const when = document.createElement("div");
      when.className = "when";
      when.textContent = [_("no. {disc}", { disc: e.id }), e.period ? _("Half {n}", { n: e.period }) : "",
        e.clock_ms != null ? FM.mmss(e.clock_ms) : "", e.origin || ""].filter(Boolean).join(" · ");
      const what = document.createElement("div");
      what.className = "what";
      const said = (e.meaning || []).length ? ` — ${e.meaning.join("; ")}` : "";
      what.textContent = describe(e) + said;
      li.append(when, what);
      if (e.status_text) {
        const st = document.createElement("div");
        st.className = "status";
        st.textContent = e.status_text;
        li.append(st);
      }
      if (e.correctable) {
        const row = document.createElement("div");
        row.className = "fixes";
        for (const [mode, label] of [["void", _("Void it")], ["amend", _("Correct")]]) {
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
  }

  // ---- the correction form: pick void or amend, change fields, give a reason ----------
  let fixing = null;
  function openFix(e, mode) {
    fixing = e;
    $("fix-title").textContent = _("Entry no. {id}", { id: e.id });
    $("fix-what").textContent = describe(e);
    $("fix-reason").value = "";
    $("fix-false-trip").checked = false;
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

  function showFixFields() {
    $("fix-fields").hidden = !$("fix-amend").checked;
    // voiding a goal-line trip: the ball went in but no goal (goal kick), or it never went in
    $("fix-trip-row").hidden = !(fixing && fixing.kind === "goal_line" && $("fix-void").checked);
  }

  function fixData() {
    const data = { ...(fixing.data || {}) };
    for (const input of $("fix-fields").querySelectorAll("[data-key]")) {
      const k = input.dataset.key;
      if (input.dataset.type === "choice") data[k] = JSON.parse(input.value);
      else if (input.dataset.type === "bool") data[k] = input.checked;
      else if (input.dataset.type === "number") data[k] = Number(input.value);
      else if (input.dataset.type === "duration") {
        const [min, sec] = input.value.split(":").map(Number);
        data[k] = ((min || 0) * 60 + (sec || 0)) * 1000;
      }
      else data[k] = input.value;
    }
    return data;
  }

  function submitFix(ev) {
    ev.preventDefault();
    if (!fixing) return;
    const reason = $("fix-reason").value.trim();
    const target = fixing.id;
    if ($("fix-amend").checked) {
      send("amend", { target, data: fixData(), ...(reason ? { reason } : {}) }, _("correct no. {id}", { id: target }));
    } else {
      const trip = fixing.kind === "goal_line" ? { false_trip: $("fix-false-trip").checked } : {};
      send("void", { target, ...trip, ...(reason ? { reason } : {}) }, _("void no. {id}", { id: target }));
    }
    $("fix").close();
    fixing = null;
  }

  // ---- forms, display, shortcuts ------------------------------------------------------
  function wire() {
    $("fix-form").addEventListener("submit", submitFix);
    $("fix-cancel").addEventListener("click", () => { $("fix").close(); fixing = null; });
    for (const r of document.querySelectorAll("input[name=fix-mode]")) r.addEventListener("change", showFixFields);
    for (const b of document.querySelectorAll("[data-act]")) {
      b.addEventListener("click", () => actions[b.dataset.act]());
    }
    for (const b of document.querySelectorAll(".side")) {
      b.addEventListener("click", () => { pickedAt = Date.now(); setSide(b.dataset.side); });
    }
    for (const b of document.querySelectorAll("[data-outcome]")) {
      b.addEventListener("click", () => actions.shot_result(b.dataset.outcome));
    }
    // a short list as buttons (one tap): the chosen one is pressed, its value in the field
    for (const group of document.querySelectorAll(".chips[data-field]")) {
      for (const b of group.querySelectorAll("button[data-value]")) {
        b.addEventListener("click", () => {
          $(group.dataset.field).value = b.dataset.value;
          for (const x of group.querySelectorAll("button")) x.setAttribute("aria-pressed", String(x === b));
        });
      }
    }
    for (const b of document.querySelectorAll("[data-restart]")) {
      b.addEventListener("click", () => actions.restart(b.dataset.restart));
    }
    for (const b of document.querySelectorAll("[data-ball]")) {
      b.addEventListener("click", () => {
        $("shot-ball").value = b.dataset.ball;
        for (const x of document.querySelectorAll("[data-ball]")) x.setAttribute("aria-pressed", String(x === b));
      });
    }
    for (const b of document.querySelectorAll("[data-key]")) {
      b.addEventListener("click", () => key(b.dataset.key));
    }
    for (const b of document.querySelectorAll("[data-sheet]")) {
      b.addEventListener("click", () => openSheet(b.dataset.sheet));
    }
    for (const b of document.querySelectorAll("[data-close]")) b.addEventListener("click", closeSheets);
    $("scrim").addEventListener("click", closeSheets);
    for (const b of document.querySelectorAll("[data-display]")) {
      b.addEventListener("click", async () => {
        try {
          const r = await fetch(`/api/display${forTable ? `?${forTable}` : ""}`, { method: "POST", headers: Referee.headers(), body: b.dataset.display });
          const body = await r.json();
          say(r.ok ? _("✓ screens: {what}", { what: b.textContent }) : _("✗ screens: {error}", { error: body.error }), r.ok ? "ok" : "bad");
        } catch (e) {
          say(_("✗ screens: no connection to the server; try again"), "bad");
        }
      });
    }
    $("setup").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const f = new FormData(ev.target);
      const what = (ev.submitter && ev.submitter.value) || "new_match";
      localStorage.setItem("futmesa.referee", f.get("referee") || "");
      const teams = {
        A: { name: f.get("nameA"), color: f.get("colorA") },
        B: { name: f.get("nameB"), color: f.get("colorB") },
      };
      if (what === "set_up") {
        send("set_up", { teams }, _("teams"));
        closeSheets();
        return;
      }
      const settings = {
        teams, referee: f.get("referee") || "", event: f.get("event") || "",
        competition: f.get("competition"),
      };
      if (f.get("half_min")) settings.period_ms = Number(f.get("half_min")) * 60000;
      if (!confirm(_("End the current match and open a new one?"))) return;
      send("new_match", { ruleset: f.get("ruleset"), settings }, _("new match"));
      closeSheets();
    });
    $("start-next").addEventListener("click", () => {
      if (!state || !state.next) return;
      const playing = !state.finished && state.status !== "not_started";
      if (playing && !confirm(_("The current match is not over yet. End it and open the next one?"))) return;
      send("new_match", state.next.start, _("next match: {title}", { title: state.next.title }));
    });
    $("referee").value = localStorage.getItem("futmesa.referee") || "";
    document.addEventListener("keydown", onKey);
  }

  function onKey(ev) {
    const tag = (ev.target && ev.target.tagName) || "";
    if (["INPUT", "TEXTAREA", "SELECT"].includes(tag)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key;
    if (k === "Escape") { closeSheets(); return; }
    if (/^[0-9]$/.test(k)) { key(k); ev.preventDefault(); return; }
    if (k === "Backspace") { key("back"); ev.preventDefault(); return; }
    const map = {
      s: "start", d: "lance_done", l: "last_touch", Enter: "shot", c: "shot", f: "foul", t: "touch", x: "discipline", r: "restart",
      k: "kickoff", n: "shot_result", p: "pause",
    };
    const lower = k.length === 1 ? k.toLowerCase() : k;
    if (lower === "a" || lower === "b") { pickedAt = Date.now(); setSide(lower.toUpperCase()); ev.preventDefault(); return; }
    if (lower === "?") { $("help").showModal(); ev.preventDefault(); return; }
    if (lower === "u") {
      ev.preventDefault();
      if (closed) return say(_("match report signed — reopen it on the signatures page"), "bad");
      if (lastReferee && confirm(_("Void entry no. {id} ({what})?", { id: lastReferee.id, what: describe(lastReferee) }))) {
        send("void", { target: lastReferee.id }, _("void no. {id}", { id: lastReferee.id }));
      } else if (!lastReferee) say(_("nothing to void"), "bad");
      return;
    }
    if (map[lower]) {
      ev.preventDefault();
      if (closed) return say(_("match report signed — reopen it on the signatures page"), "bad");
      if (ev.repeat) return;
      actions[map[lower]]();
    }
  }

  wire();
  showDisc();
  if (table) { // a host serving several tables: say which one this console commands
    $("c-table").textContent = _("Table");
    $("c-table").hidden = false;
  }
  checkToken();
  if (Referee.token) $("keeper-link").href = keeperLink(Referee.token);
  setSide("A");
  FM.connect(table ? `/ws?table=${encodeURIComponent(table)}` : "/ws", {
    onMessage: (msg) => {
      if (msg.type === "state" && msg.state) {
        const before = state && state.match ? `${state.match_id}:${state.match.log_length}` : null;
        const newMatch = state && msg.state.match_id !== state.match_id;
        state = msg.state;
        keepLastState(state);
        render();
        if ($("token-status").classList.contains("bad") && !tokenWorked) checkToken();
        if (newMatch) checkToken(); // another console's "Nova partida" retires our token
        // the log changes only with a new entry (device event, input or correction); a
        // clock status alone does not ask the host to rebuild it
        const after = state.match ? `${state.match_id}:${state.match.log_length}` : null;
        if (after !== before || after === null || after.endsWith("undefined")) refreshLog();
        Referee.pump(); // the link is back: deliver what waited
      }
    },
    onStatus: (st) => {
      if (!st.up) $("c-link").textContent = " ⚠ " + _("no connection to the server");
      else if ($("token-status").classList.contains("bad")) checkToken(); // back: ask again
    },
  });
  // a page reloaded without the network shows the match as it last saw it, not "0 × 0"
  if (!state) {
    const last = lastState();
    if (last) {
      state = last;
      render();
    }
  }
  setInterval(tick, 200);
  loadLog();
  showQueue(Referee.queued(), false);
  // installable, and opens without the network (the service worker keeps the pages)
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/console/sw.js", { scope: "/console" }).catch(() => {});
  }
  return { send, actions, openSheet, closeSheets, get token() { return Referee.token; }, setToken: Referee.adoptToken };
})();
