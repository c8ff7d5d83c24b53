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
    // the touches of the team on turn, where the rules count them (003 Art. 47 §3: each
    // técnico counts aloud; walk52c M4): the referee checks them against the count he hears
    const tc = m.touches && m.touches[side];
    const counting = onTurn && !!tc && Number(tc.limit) > 0;
    const touches = $(`touches-${side}`);
    show(touches, counting);
    setText(touches, counting ? T().touchCount(Number(tc.count || 0), Number(tc.limit)) : "");
    touches.classList.toggle("last", counting && Number(tc.count || 0) >= Number(tc.limit) - 1);
    const ex = m.expelled && m.expelled[side];
    let exText = "";
    if (Array.isArray(ex) && ex.length) exText = `${T().expelled}: ${ex.join(", ")}`;
    else if (typeof ex === "number" && ex > 0) exText = `${T().expelled}: ${ex}`;
    setText($(`expelled-${side}`), exText ? `✖ ${exText}` : "");
    // fouls and discipline, where the ruleset counts them
    const f = m.fouls && m.fouls[side];
    const fouls = $(`fouls-${side}`);
    if (f && typeof f === "object") {
      const parts = [`${T().fouls} ${Number(f.fouls || 0)}`];
      if (f.technical) parts.push(`${T().technical} ${Number(f.technical)}`);
      if (f.disciplinary) parts.push(`${T().disciplinary} ${Number(f.disciplinary)}`);
      setText(fouls, parts.join(" · "));
      show(fouls, true);
    } else show(fouls, false);
    // the side's goals, newest first: minute and scorer
    const list = $(`goals-${side}`);
    const goals = Array.isArray(m.goals) ? m.goals.filter((g) => g && g.side === side) : [];
    const lines = goals.slice(-4).reverse().map((g) => goalLine(g));
    const key = lines.join("|");
    if (list.dataset.key !== key) {
      list.dataset.key = key;
      list.textContent = "";
      for (const line of lines) {
        const li = document.createElement("li");
        li.textContent = line;
        list.appendChild(li);
      }
    }
  }

  // the length of a period from the match's clock profile (0 when the state does not say)
  function periodLength(period) {
    const p = state && state.match && state.match.clock_profile;
    if (!p || !(period > 0)) return 0;
    return Number(period > (p.periods || 2) ? p.extra_ms : p.period_ms) || 0;
  }

  // "19' 1ºT", "3' 2ºT": every goal with its half (the minutes restart each half), as the
  // súmula places it (matchbook/account.py minute): 0:00–0:59 is the 1st minute, up to the
  // period's last; past its length the minute of added time, "3'+1" (walk52b L1)
  function goalMinute(g) {
    if (typeof g.clock_ms !== "number") return "";
    const length = periodLength(g.period);
    const clock = Math.max(g.clock_ms, 0);
    const minute = length > 0 && clock > length
      ? `${Math.ceil(length / 60000)}'+${Math.ceil((clock - length) / 60000)}`
      : `${Math.floor((length > 0 ? Math.min(clock, length - 1) : clock) / 60000) + 1}'`;
    return g.period > 0 ? `${minute} ${T().half(g.period)}` : minute;
  }

  // "1' 1ºT · botão 8 · pênalti": a goal the penalty's kick scored says so (the rules mark
  // it, rules/goals.py; walk 50a L4)
  function goalLine(g) {
    const who = g.own_goal ? T().ownGoal : g.disc != null ? `${T().disc} ${g.disc}` : "";
    return [goalMinute(g), who, g.penalty ? T().penalty : ""].filter(Boolean).join(" · ") || "⚽";
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

  // after the final whistle the screen says the result, as long as it shows the match
  function finished(st) {
    return !!(st && (st.finished || st.status === "finished"));
  }
  function resultText(st) {
    if (!finished(st)) return "";
    const _ = FM.tr(view.lang);
    const m = st.match || {};
    const r = m.result && typeof m.result === "object" ? m.result : {};
    const tally = m.shootout && m.shootout.tally;
    const pens = tally ? ` · ${_("penalties {a} × {b}", { a: tally.A || 0, b: tally.B || 0 })}` : "";
    if (r.winner === "A" || r.winner === "B") return _("won by {team}", { team: teamName(st, r.winner) }) + pens;
    return pending(st) ? "" : _("drawn") + pens;
  }
  function pending(st) {
    return !!(st.match && Array.isArray(st.match.pending) && st.match.pending.length);
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

  // Announcements: every one the engine made reaches the screen, in order, each held at least
  // MIN_HOLD_MS before the next replaces it (a goal: GOAL_MS on the full-screen celebration);
  // the newest stays up for ANNOUNCE_MS after it was first shown.
  const ANNOUNCE_MS = 30000;
  const MIN_HOLD_MS = 3000;
  const GOAL_MS = 4500;
  const MAX_QUEUE = 4;
  const KEEP = new Set(["goal", "card", "red"]);
  const KIND = {
    goal: "goal",
    disciplinary: "card", foul_after_time: "foul", touch_limit: "foul", touch_run: "foul",
    out_of_turn: "foul", offside: "foul", restart_forbidden: "foul", goal_disallowed: "foul",
    expelled: "red", expelled_named: "red",
    lance_warning: "time", time_up: "time", last_lance: "time", added_time: "time",
    period_end: "time", shot_at_alarm: "time", match_end: "time", extra_time: "time",
    shot_asked: "shot", shot_over: "shot", penalty_keeper: "shot",
    goal_void: "goal", // a goal the referee voided: framed like a goal (takeAnnouncements)
    goal_restored: "goal", // a goal's void undone: framed like its void, GOL VALIDADO
  };
  function urgent(x) {
    return !!(x && x.a && (x.a.code === "goal" || KEEP.has(kindOf(x.a.code))));
  }
  // a free kick, a penalty or a foul on the goalkeeper is a foul's frame too (the rules
  // announce an ordinary foul by the kick it gives: "Tiro livre para …")
  function kindOf(code) {
    if (KIND[code]) return KIND[code];
    return /^(restart_(falta|penalti|tiro_livre)|keeper_foul)/.test(code || "") ? "foul" : "info";
  }
  // What the TV shows stands now (walk 45j-b): a sensor event the rules ignored ("Bola fora
  // com a bola parada: sem efeito", "a vez não muda") is no words on the screen; the words of
  // a restart ("Arrumação das equipes; saída para …", "Tiro livre para …") leave once it is
  // taken; and words the rules said again after a correction replace the ones on screen.
  // A refusal answers the console's input, never the players (walk52b M1): the host publishes
  // none (matchbook/live.py in_words); one in an older host's state is no words either
  const SILENT = new Set(["ball_out_ignored", "turn_unchanged", "refused"]);
  const RESTART_WORDS = new Set(["rearrange", "kickoff_side", "kickoff_again", "restart_side", "taker"]);
  function silent(a) { return !!(a && SILENT.has(a.code)); }
  function restartWords(a) {
    const c = (a && a.code) || "";
    return RESTART_WORDS.has(c) || (/^restart_/.test(c) && c !== "restart_forbidden" && c !== "restart_missed");
  }
  function restartWaiting(st) {
    const r = st && st.match && st.match.restart;
    return !!(r && typeof r === "object" && !r.taken);
  }
  // the words on screen and waiting, as the rules say them now: the same entry's words of
  // the same kind (a correction re-runs the match); an entry voided says nothing more (the
  // stream carries only the newest words: an entry older than them all is left as it is)
  function standingWords(st, list) {
    const entries = list.map((x) => (x && typeof x.entry === "number" ? x.entry : Infinity));
    const oldest = Math.min(...entries);
    const now = (a) => {
      if (!a || typeof a !== "object" || a.synthetic || a.account || typeof a.entry !== "number") return a;
      const same = list.filter((x) => x && x.entry === a.entry);
      if (!same.length) return a.entry > oldest ? null : a;
      return same.find((x) => x.code === a.code && x.id === a.id) || same.find((x) => x.code === a.code)
        || same.find((x) => kindOf(x.code) === kindOf(a.code)) || a;
    };
    ann.queue = ann.queue.filter((x) => { x.a = now(x.a); return !!x.a; });
    const cur = ann.current;
    if (cur && !cur.goal) {
      const a = now(cur.a);
      if (!a) ann.current = null;
      else cur.a = a;
    }
  }

  // catchUp: a connection has (re)opened and its first state is not yet taken
  // lastId: the newest announcement taken; lastEntry: the newest log entry it spoke for. The
  // rules number their words afresh when a correction re-runs the match (a void undone takes
  // its words back, walk #45 M6), so a word is new when its number is past lastId OR its entry
  // is past lastEntry: "Fim do 1º tempo" after an undone void is never taken for old news.
  const ann = { match: undefined, catchUp: false, lastId: 0, lastEntry: 0, queue: [], current: null, goals: 0,
                goalList: [] };
  window.futmesaAnnouncements = ann;

  function annText(a) {
    if (typeof a === "string") return a;
    return (a && (a[view.lang] || a.pt || a.en)) || "";
  }

  function takeAnnouncements(st) {
    const m = st.match || {};
    // a void or a correction, the newest entry: its words as the state says them
    // (matchbook LiveLog.correction) — the same on every TV, the one that saw it and one
    // opened after it (issue 45 #4); taken as the words of its entry, never by a number
    const told = st.correction && typeof st.correction === "object" && typeof st.correction.entry === "number"
      ? { ...st.correction, id: 0, account: true } : null;
    const list = (Array.isArray(m.announcements) ? m.announcements : []).concat(told ? [told] : []);
    const score = st.score ? Number(st.score.A || 0) + Number(st.score.B || 0) : 0;
    const ids = list.map((a, i) => (a && typeof a === "object" && typeof a.id === "number" ? a.id : i + 1));
    const newest = ids.length ? Math.max(...ids) : 0;
    const entryOf = (a) => (a && typeof a === "object" && typeof a.entry === "number" ? a.entry : 0);
    const newestEntry = list.reduce((n, a) => Math.max(n, entryOf(a)), 0);
    // the goals the engine counts now: one that was counted before and is gone was voided
    const goalList = Array.isArray(m.goals) ? m.goals.filter((g) => g && typeof g === "object") : [];
    const voided = ann.match === st.match_id && !ann.catchUp
      ? ann.goalList.filter((g) => !goalList.some((x) => x.entry === g.entry)) : [];
    const before = ann.goalList;
    ann.goalList = goalList;
    if (ann.match !== st.match_id || ann.catchUp) {
      const nothingNew = ann.match === st.match_id && newest <= ann.lastId
        && newestEntry <= ann.lastEntry && score <= ann.goals;
      ann.catchUp = false;
      if (nothingNew) {
        // back after a lost connection and nothing happened meanwhile: the screen goes on
        // as it was (an announcement it already showed is not shown again)
        ann.goals = score;
        return;
      }
      // a screen that opens mid-match (or comes back to news) shows the newest entry's
      // announcements, without a party
      ann.match = st.match_id;
      ann.queue = [];
      ann.current = null;
      const said = list.filter((a) => !silent(a));
      const last = said[said.length - 1];
      if (last) {
        const entry = typeof last === "object" ? last.entry : undefined;
        const fresh = entry != null ? said.filter((a) => a && a.entry === entry) : [last];
        for (const a of fresh) ann.queue.push({ a, quiet: true });
      }
      ann.lastId = newest;
      ann.lastEntry = newestEntry;
      ann.goals = score;
      return;
    }
    let goalAnnounced = false;
    const fresh = [];
    list.forEach((a, i) => {
      if ((ids[i] > ann.lastId || entryOf(a) > ann.lastEntry) && !silent(a)) {
        fresh.push({ a });
        if (a && a.code === "goal") goalAnnounced = true;
      }
    });
    if (fresh.length) {
      // what was on screen when this page opened is old news: the new entries go first
      ann.queue = ann.queue.filter((x) => !x.quiet);
      if (ann.current && ann.current.quiet) ann.current = null;
    }
    // A goal, a card or a sending-off is shown at once, and the routine words waiting before
    // it are old news: an announcement is shown once and never after a newer one (issue 31
    // §8: a throw-in or a shot request from before a goal came back after "Arrumação").
    const u = fresh.findIndex(urgent);
    if (u >= 0) {
      const cur = ann.current;
      if (cur && !cur.goal && (goalAnnounced || !KEEP.has(cur.kind))) ann.current = null;
      const waiting = ann.queue.filter(urgent); // cards not yet shown keep their turn
      ann.queue = goalAnnounced
        ? fresh.slice(fresh.findIndex((x) => x.a && x.a.code === "goal")).concat(waiting)
        : waiting.concat(fresh.slice(u));
    } else {
      ann.queue.push(...fresh);
    }
    if (newest > ann.lastId) ann.lastId = newest;
    if (newestEntry > ann.lastEntry) ann.lastEntry = newestEntry;
    // the final whistle, or a period's end, takes the screen at once: what was waiting
    // before it is old news (a goal keeps its turn; walk 49a L3: "Bola fora" stood over
    // "Intervalo" while "Fim do 1º tempo", said after it, waited)
    const ENDS = ["match_end", "period_end"];
    const end = ann.queue.findIndex((x) => x.a && ENDS.includes(x.a.code));
    const shown = ann.current;
    const routine = !!(shown && !shown.goal && !KEEP.has(shown.kind)
                       && !(shown.a && ENDS.includes(shown.a.code)));
    if (end > 0 || (end === 0 && routine)) {
      ann.queue = ann.queue.filter((x, i) => i >= end || (x.a && x.a.code === "goal"));
      if (shown && (end > 0 ? !shown.goal : routine)) ann.current = null;
    }
    // the screen never falls behind the match: past MAX_QUEUE waiting, the oldest routine
    // words make way (a goal, a card or a sending-off always keeps its turn)
    while (ann.queue.length > MAX_QUEUE) {
      const i = ann.queue.findIndex((x) => !KEEP.has(x.a && kindOf(x.a.code)));
      ann.queue.splice(i >= 0 ? i : 0, 1);
    }
    // a voided goal is announced like a goal (GOL ANULADO, the team, then the score), and
    // the rules' words for it follow (e.g. "Gol anulado pelo árbitro: tiro de meta para …")
    // (the void's own words, the state's correction, instead of the rules' when it says them)
    for (const g of voided) {
      const said = list.filter((a) => a && a.entry === g.entry && a.code === "goal_disallowed");
      const words = told && told.goal ? [{ ...told, code: "goal_disallowed" }] : said;
      // the goal's own words not yet shown (its kick-off) are not said after its void
      ann.queue = ann.queue.filter((x) => !said.includes(x.a) && x.a !== told
                                   && !(x.a && x.a.entry === g.entry));
      ann.queue.unshift({ a: { code: "goal_void", side: g.side, synthetic: true }, g },
                        ...words.map((a) => ({ a })));
      if (ann.current && !ann.current.goal) ann.current = null;
    }
    if (score > ann.goals && !goalAnnounced) {
      // a goal without the engine's words (e.g. counted while this screen was away): still
      // GOL, with that goal's team, minute and disc; a void undone (the state's correction
      // says it restored a goal) is that goal counting again: GOL VALIDADO, never a new GOL!
      // (walk50b L1: the TV played GOL! in the interval)
      const back = goalList.filter((g) => !before.some((x) => x.entry === g.entry));
      const g = back[back.length - 1] || goalList[goalList.length - 1];
      const side = g ? g.side : (st.score.A > (ann.sideA || 0) ? "A" : "B");
      const code = told && told.restored ? "goal_restored" : "goal";
      // the correction that brought it back ("Anulação desfeita: …") follows its frame
      ann.queue = ann.queue.filter((x) => x.a !== told);
      ann.queue.unshift({ a: { code, side, entry: g ? g.entry : undefined, synthetic: true } },
                        ...(told ? [{ a: told }] : []));
      if (ann.current && !ann.current.goal) ann.current = null;
    }
    ann.goals = score;
    ann.sideA = st.score ? Number(st.score.A || 0) : 0;
    standingWords(st, list);
  }

  function goalOf(st, a) {
    const goals = (st.match && Array.isArray(st.match.goals)) ? st.match.goals : [];
    let g = null;
    if (a.entry != null) g = goals.find((x) => x && x.entry === a.entry) || null;
    if (!g && goals.length) g = goals[goals.length - 1];
    const side = (g && g.side) || a.side;
    // the score right after this goal
    let score = st.score || { A: 0, B: 0 };
    if (g) {
      const upto = goals.slice(0, goals.indexOf(g) + 1);
      score = { A: upto.filter((x) => x.side === "A").length, B: upto.filter((x) => x.side === "B").length };
    }
    return { g, side, score };
  }

  // the shot asked is said on the scoreboard by its banner (CHUTE PEDIDO): its words take no
  // turn on the screen (two such lines left the cards no room, issue 45 §15)
  function saidByBanner(a) {
    return !!(a && a.code === "shot_asked" && view.mode === "scoreboard" && state && shotText(state));
  }

  function nextAnnouncement(now) {
    while (ann.queue.length && saidByBanner(ann.queue[0].a)) ann.queue.shift();
    const was = ann.current;
    // a restart shown while it waited, now taken: its words leave, once read
    if (was && !was.goal && was.waited && !restartWaiting(state) && now - was.shownAt >= MIN_HOLD_MS) {
      ann.current = null;
    }
    const cur = ann.current;
    if (cur && ann.queue.length && now - cur.shownAt < cur.hold) return;
    if (cur && !ann.queue.length) return;
    const item = ann.queue.shift();
    if (!item) return;
    const a = item.a;
    const isVoid = !!(a && a.code === "goal_void");
    const isBack = !!(a && a.code === "goal_restored");
    const isGoal = (isVoid || isBack || (a && a.code === "goal")) && !item.quiet;
    // the kick a card gives keeps the card's frame (gaúcha's "Falta técnica para …" after a
    // disciplinary foul, walk #45 M6): one fact, one card on the screen
    let kind = (a && kindOf(a.code)) || "info";
    if (cur && (cur.kind === "card" || cur.kind === "red") && kind === "foul" && a.entry != null
        && cur.a && cur.a.entry === a.entry) kind = cur.kind;
    ann.current = { a, shownAt: now, hold: isGoal ? GOAL_MS : MIN_HOLD_MS, goal: isGoal,
                    quiet: !!item.quiet, kind, waited: restartWords(a) && restartWaiting(state) };
    if (isVoid) {
      ann.current.detail = { g: item.g, side: a.side, score: state.score || { A: 0, B: 0 }, voided: true };
    } else if (isBack) {
      ann.current.detail = { ...goalOf(state, a), restored: true };
    } else if (isGoal) {
      ann.current.detail = goalOf(state, a);
      ann.shownGoals = (ann.shownGoals || 0) + 1;
      ann.lastGoalAt = now;
      document.dispatchEvent(new CustomEvent("futmesa:goal", { detail: ann.current.detail }));
    }
  }

  function renderAnnouncement() {
    const now = Date.now();
    if (state) nextAnnouncement(now);
    const cur = ann.current;
    const expired = !cur || (!ann.queue.length && now - cur.shownAt > Math.max(ANNOUNCE_MS, cur.hold));
    const goalOn = !!(cur && cur.goal && now - cur.shownAt < cur.hold);
    const box = $("goal");
    show(box, goalOn && view.mode !== "board" && view.mode !== "blank");
    box.classList.toggle("compact", view.mode === "overlay");
    // on the overlay the GOL! strip is exactly as wide as the score bar under it
    const bar = view.mode === "overlay" && goalOn ? document.querySelector("#overlay .bug") : null;
    const r = bar ? bar.getBoundingClientRect() : null;
    box.style.left = r ? `${r.left}px` : "";
    box.style.right = r ? "auto" : "";
    box.style.width = r ? `${r.width}px` : "";
    if (goalOn) {
      const d = cur.detail || {};
      const team = state && state.teams && state.teams[d.side];
      box.style.setProperty("--team", FM.safeColor(team && team.color, "#1f5fd1"));
      box.classList.toggle("voided", !!d.voided);
      box.classList.toggle("restored", !!d.restored);
      const word = d.voided ? T().goalVoidBig : d.restored ? T().goalRestoredBig
        : d.g && d.g.own_goal ? T().ownGoalBig : T().goalBig;
      setText($("goal-word"), word);
      $("goal-word").style.setProperty("--chars", String(Math.max(4, word.length)));
      const own = !!(d.g && d.g.own_goal);
      const other = d.side === "A" ? "B" : "A";
      // an own goal says both: the point's team (its colour) and who put it in his own goal
      setText($("goal-team"), !state ? "" : own ? T().pointFor(teamName(state, d.side)) : teamName(state, d.side));
      const who = own && state ? T().ownGoalBy(teamName(state, other))
        : d.g && d.g.disc != null ? `${T().disc} ${d.g.disc}` : "";
      setText($("goal-detail"), [d.g ? goalMinute(d.g) : "", who, d.g && d.g.penalty ? T().penalty : ""]
        .filter(Boolean).join(" · "));
      setText($("goal-score"), `${d.score.A} × ${d.score.B}`);
    }
    const twice = !!(cur && saidByBanner(cur.a)); // said by the banner already
    // a score in the words never breaks across lines ("2 × 1", "2–1")
    const text = (!expired && !goalOn && cur && !twice ? annText(cur.a) : "")
      .replace(/(\d) × (\d)/g, "$1\u00a0×\u00a0$2").replace(/(\d)([–-])(\d)/g, "$1\u2060$2\u2060$3");
    const el = $("announce");
    show(el, !!text);
    if (el.dataset.text !== text) {
      // the rule cited after the words, smaller: "… (CBFM 1 Toque, Art. 6)"
      el.dataset.text = text;
      el.textContent = "";
      const rule = cur && cur.a && typeof cur.a.rule === "string" && cur.a.rule ? ` (${cur.a.rule})` : "";
      const cut = rule && text.endsWith(rule) ? text.length - rule.length : text.length;
      const main = document.createElement("span");
      main.textContent = text.slice(0, cut);
      el.appendChild(main);
      if (cut < text.length) {
        const cite = document.createElement("span");
        cite.className = "ann-rule";
        cite.textContent = text.slice(cut);
        el.appendChild(cite);
      }
    }
    if (el.dataset.kind !== (cur ? cur.kind : "info")) el.dataset.kind = cur ? cur.kind : "info";
    const note = $("ov-note");
    const said = text || resultText(state);
    show(note, !!said);
    setText(note, said);
  }

  function faultText(st) {
    const faults = st.sensor_faults;
    if (!faults || typeof faults !== "object") return "";
    const ends = (st.match && st.match.ends) || { A: 0, B: 1 };
    const items = Object.entries(faults).map(([s, f]) => {
      const n = Number(s);
      let which = T().sideSensor;
      if (n === 0 || n === 1) {
        const owner = ends.A === n ? "A" : "B";
        which = T().goalSensor(teamName(st, owner));
      } else if (n === 15) which = T().memory;
      return `${which}: ${T().faults[f] || T().faults.other}`;
    });
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
    // how long it has been silent, from the last it was heard: the server by this screen, the
    // table by the server (a status or an event; walk 50a L2: "último evento" was the age of
    // the table's last sensor event, and "evento" meant nothing to players)
    if (text === t.serverGone) {
      const heard = conn.lastMessage || conn.since;
      setText($("banner-age"), `— ${t.serverSilent(FM.ago(Math.max(0, Date.now() - heard)))}`);
      return;
    }
    const heard = state && state.link && state.link.heard_at;
    setText($("banner-age"), heard ? `— ${t.tableSilent(FM.ago(Math.max(0, FM.hostNow() - heard)))}`
      : `— ${t.tableNeverHeard}`);
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
    const result = resultText(st);
    // each part of the status on a line of its own (never one long line that crowds the cards)
    setText($("status"), result || [phase || (paused ? T().paused : ""), pending ? `⚑ ${T().pending}` : ""]
      .filter(Boolean).join("\n"));
    $("status").classList.toggle("final", !!result);
    const shot = shotText(st);
    show($("shot"), !!shot);
    setText($("shot"), shot);
    renderShootout(st);
    // the venue desk's next match for this table (docs/operating.md, "Dia de torneio")
    const nxt = st.next;
    show($("next"), !!nxt);
    const _ = FM.tr(view.lang);
    const nextWord = _("next");
    setText($("next"), nxt ? `${nextWord}: ${nxt.title}${nxt.label ? ` · ${nxt.label}` : ""}` : "");
    renderAnnouncement();
    setText($("table-id"), st.table_id ? FM.tableName(st, 1, view.lang) : "");
    setText($("faults"), faultText(st));
    setText($("ruleset"), st.ruleset_title || "");
    // a Raspberry Pi table: no microcontroller, this computer keeps the official time
    setText($("timekeeper"), st.link && st.link.host_clock ? _("clock: this computer") : "");
    $("status").classList.toggle("last", st.status === "last_lance" || st.status === "awaiting_dead_ball");
    renderOverlay(st);
    tick();
  }

  function tick() {
    const now = FM.hostNow();
    if (state && (view.mode === "scoreboard" || view.mode === "overlay")) {
      const clockEl = $("clock");
      const rest = FM.intervalLeftMs(state, now); // the interval counted down
      const ms = rest != null ? rest : FM.timerMs(state.clock, now);
      if (ms == null) {
        setText(clockEl, "--:--");
      } else {
        // kept in JS, not in DOM attributes, so a tick writes to the DOM only when the
        // shown second changes (ten kiosks on a small host add up)
        rendered.clockMs = ms;
        rendered.at = now;
        setText(clockEl, FM.mmss(ms));
      }
      setText($("ov-clock"), clockEl.textContent);
      clockEl.classList.toggle("stopped", rest == null && !(state.clock && state.clock.running));
      const lance = $("lance");
      const lms = FM.countdownMs(state.lance, now);
      const ovLance = $("ov-lance");
      // after the alarm (ÚLTIMO LANCE, until the ball goes dead) a lance that is not running
      // is no countdown: its length standing there read as one (walk 48b L4)
      const afterAlarm = state.status === "last_lance" || state.status === "awaiting_dead_ball";
      if (lms == null || !FM.lanceTimed(state) || finished(state) || state.status === "interval"
          || (afterAlarm && !state.lance.running)) {
        show(lance, false);
        show(ovLance, false);
      } else {
        show(lance, true);
        const left = Math.max(0, lms);
        rendered.lanceMs = left;
        const expired = lanceExpired(state.lance, left, `${state.match_id}/${state.period}`);
        const warn = state.lance.running && left <= LANCE_WARN_MS && left > 0 && !expired;
        const over = expired || (state.lance.running && left <= 0);
        lance.classList.toggle("warn", warn);
        lance.classList.toggle("over", over);
        lance.classList.toggle("idle", !state.lance.running && !over);
        const secs = Math.ceil(left / 1000);
        // a long lance (a tournament's 300 s) reads as minutes: "5:00", never "300"
        const count = secs >= 60 ? `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}` : String(secs);
        const value = over ? T().lanceOver : count;
        setText($("lance-value"), value);
        show(ovLance, state.lance.running || over);
        ovLance.classList.toggle("warn", warn);
        ovLance.classList.toggle("over", over);
        setText(ovLance, over ? value : `${T().lanceShort} ${value}`);
      }
    }
    if (view.mode === "board") tickBoard(now);
    renderBanner();
    if (state && (view.mode === "scoreboard" || view.mode === "overlay")) renderAnnouncement();
  }

  // an overrun lance reads as run out until a new lance starts (common.js FM.lanceWatch)
  const lanceExpired = FM.lanceWatch();

  // ---- streaming overlay (OBS browser source): a lower-third score bug ------------
  function renderOverlay(st) {
    for (const side of ["A", "B"]) {
      const team = (st.teams && st.teams[side]) || {};
      setText($(`ov-name-${side}`), teamName(st, side));
      setText($(`ov-score-${side}`), st.score && st.score[side] != null ? st.score[side] : 0);
      $(`ov-sw-${side}`).style.background = FM.safeColor(team.color, side === "A" ? "#1f5fd1" : "#c62828");
    }
    setText($("ov-period"), periodText(st));
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
      '<footer><span class="card-period"></span> <span class="card-clock"></span> <span class="card-link"></span> <span class="card-clip"></span></footer>';
    $("board").appendChild(card);
    return card;
  }

  function renderBoard() {
    const ids = [...tables.keys()].sort();
    const n = ids.length;
    $("board").style.setProperty("--cols", n <= 1 ? 1 : n <= 4 ? 2 : 3);
    $("board").classList.toggle("single", n <= 1);
    ids.forEach((id, i) => {
      const st = tables.get(id);
      const card = boardCard(id);
      setText(card.querySelector(".card-table"), FM.tableName(st, i + 1, view.lang));
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
      // a clip of this match exists (the board shows no video: bandwidth; docs/camera.md)
      const clip = st.replay && st.replay.url && st.replay.match_id === st.match_id;
      setText(card.querySelector(".card-clip"), clip ? T().clipCard : "");
    });
    tickBoard(FM.hostNow());
  }

  function tickBoard(now) {
    for (const [id, st] of tables) {
      const card = document.getElementById(`card-${id}`);
      if (!card) continue;
      const rest = FM.intervalLeftMs(st, now);
      const ms = rest != null ? rest : FM.timerMs(st.clock, now);
      setText(card.querySelector(".card-clock"), ms == null ? "" : FM.mmss(ms));
    }
  }

  function renderAll() {
    if (view.mode === "scoreboard" || view.mode === "overlay") renderScoreboard();
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
      if (!st.table_id || st.table_id === primary) {
        state = st;
        takeAnnouncements(st);
      }
      renderAll();
    } else if (msg.type === "tables" && Array.isArray(msg.tables)) {
      tables.clear();
      for (const st of msg.tables) if (st.table_id) tables.set(st.table_id, st);
      if (!q.get("table")) primary = msg.default || (msg.tables[0] && msg.tables[0].table_id) || null;
      state = (primary && tables.get(primary)) || { status: "waiting", link: { connected: false } };
      takeAnnouncements(state);
      renderAll();
    } else if (msg.type === "display") {
      for (const key of ["mode", "theme", "lang"]) {
        if (!fixed[key] && msg[key]) view[key] = msg[key];
      }
      applyView();
      listen();
    }
  }

  // One table's screen hears only its table; the venue board hears every table.
  function wsPath() {
    if (view.mode === "board") return "/ws?all=1";
    const t = q.get("table");
    return t ? `/ws?table=${encodeURIComponent(t)}` : "/ws"; // no table named: the host's default
  }
  function listen() {
    if (conn) conn.setPath(wsPath());
  }

  // After a lost connection the screen catches up quietly: what it missed is shown as on
  // opening (the newest entry's words), not replayed as a string of old celebrations.
  let wasUp = false;
  function onStatus(status) {
    if (status.up && !wasUp) ann.catchUp = true;
    wasUp = status.up;
    renderBanner();
  }
  conn = FM.connect(wsPath(), { onMessage, onStatus });
  applyView();
  setInterval(tick, 50);
  document.addEventListener("keydown", (ev) => {
    // An operator with a keyboard on the kiosk: F full screen, H theme, L language.
    if (ev.key === "f") document.documentElement.requestFullscreen && document.documentElement.requestFullscreen();
    if (ev.key === "h") { view.theme = view.theme === "contrast" ? "default" : "contrast"; applyView(); }
    if (ev.key === "l") { view.lang = view.lang === "en" ? "pt" : "en"; applyView(); }
  });
  window.futmesaKiosk = { view, get state() { return state; }, tables, conn, rendered, ann };
})();
