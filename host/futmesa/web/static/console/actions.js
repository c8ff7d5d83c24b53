// What each button and key does: one action each, sent through the keypad's `send`; and the
// sheets, one tap away, one open at a time.

import { $, LANG, _, ask, name, say, view } from "./page.js";
import { discNumber, isGrey, refuseShot, send } from "./keypad.js";
import { ARRANGED, arrangeNext, endOwner, foulPlaceAsked, movers, offsideSide, renderFoulPlace, restartName, restartNow, restartTap, restartWords, takerDisc } from "./ruleinputs.js";
import { openLog } from "./log.js";

function discMoved(s) {
  const d = discNumber();
  if (s !== "A" && s !== "B") return say(_("✗ no team moves a disc now"), "bad");
  if (d == null) return say(_("✗ key in the number of the disc moved"), "bad");
  return send("disc_moved", { side: s, disc: d }, _("{team} moved disc no. {disc}", { team: name(s), disc: d }));
}

// the foul sheet for the next foul: the usual kind, no place
function freshFoul() {
  for (const [field, value] of [["foul-type", "falta"], ["foul-where", ""]]) {
    $(field).value = value;
    for (const b of document.querySelectorAll(`[data-field=${field}] button`)) {
      b.setAttribute("aria-pressed", String(b.dataset.value === value));
    }
  }
  renderFoulPlace();
}

export const actions = {
  // the next period before the interval has run out: asked first, the time still to go
  // counting down in the question, and the time it showed at the "yes" goes with the input,
  // for the Registro and the súmula to say (walk 45i-b M-b); once the interval is over the
  // question goes and the start goes through (walk 45j: "ainda tem 0:04" stayed up, frozen)
  start: () => {
    const st = view.state;
    const left = st && st.status === "interval" ? FM.intervalLeftMs(st, FM.hostNow()) : null;
    if (left == null || left < 1000) return send("start_period", {}, _("start period"));
    const n = (st.period || 1) + 1;
    let shown = 0; // whole seconds in the question's words
    // the time in the header's own words (FM.mmss, its whole seconds): the two never
    // disagree by a second (walk50c L5: "ainda tem 0:05" over a header at 00:04)
    const words = () => {
      const now = view.state && view.state.status === "interval"
        ? FM.intervalLeftMs(view.state, FM.hostNow()) : null;
      if (now == null) return null; // started elsewhere: nothing to do
      if (now < 1000) { shown = 0; return true; }
      shown = Math.floor(now / 1000);
      return _("The interval still has {time}. Start period {n} now?", { time: FM.mmss(now), n });
    };
    return ask(words, _("Start now")).then((yes) => {
      if (!yes) return;
      send("start_period", shown >= 1 ? { interval_left_ms: shown * 1000 } : {}, _("start period"));
    });
  },
  // the engine's clock says which (the table's, on a host without it)
  pause: () => {
    const st = view.state;
    const m = (st && st.match) || {};
    const running = typeof m.clock_running === "boolean" ? m.clock_running : Boolean(st && st.clock && st.clock.running);
    return running ? send("pause", {}, _("stop clock")) : send("resume", {}, _("resume clock"));
  },
  kickoff: () => send("kickoff", { side: view.side }, _("kick-off {team}", { team: name(view.side) })),
  shot_result: (outcome) => {
    const o = typeof outcome === "string" ? outcome : "saved";
    const b = document.querySelector(`[data-outcome="${o}"]`);
    return send("shot_result", { outcome: o }, _("shot without a goal: {outcome}", { outcome: b ? b.textContent : o }));
  },
  lance_done: () => send("lance_done", {}, _("last lance over")),
  last_touch: () => send("last_touch", { side: view.side }, _("last touch {team}", { team: name(view.side) })),
  added: () => send("added_time", { ms: Math.round(Number($("added-min").value || 0) * 60000) },
    _("added time")),
  shot: () => {
    if (isGrey($("act-shot"))) return refuseShot(); // a key (Enter, c) on the grey button
    const d = discNumber();
    return send("shot_asked", { side: view.side, disc: d, ball: $("shot-ball").value },
      (d != null ? _("shot asked {team} {disc}", { team: name(view.side), disc: d }) : _("shot asked {team}", { team: name(view.side) })));
  },
  touch: () => send("touch", { side: view.side, disc: discNumber() }, _("touch {team}", { team: name(view.side) })),
  // a lance that did not touch the ball: passes the vez (004), counts a touch (003), and
  // from a kick-off or an infraction's kick a technical foul (000 Art. 23 I A, IV A)
  // 003 Art. 34: after the kick-off, a touch that leaves the ball in the centre circle (no shot)
  touch_in_circle: () => send("touch", { side: view.side, disc: discNumber(), ball_in_centre_circle: true },
    _("touch {team}, the ball stays in the centre circle", { team: name(view.side) })),
  touch_miss: () => send("touch", { side: view.side, disc: discNumber(), hit: false },
    _("touch that missed the ball {team}", { team: name(view.side) })),
  touch_out_of_turn: () => send("touch", { side: view.side, disc: discNumber(), out_of_turn: true },
    _("touch out of turn {team}", { team: name(view.side) })),
  // 001 Art. XXIX d: the lance was played with the ball in the opponent's field (or on the
  // halfway line): over its own end line or into its own goal untouched, a technical foul
  touch_from_attack: () => send("touch", { side: view.side, disc: discNumber(), ball: "opponent_half" },
    _("touch {team} from the opponent's half", { team: name(view.side) })),
  ball_stopped: () => send("ball_stopped", { side: view.side, area: "small" },
    _("ball stopped in the goal area of {team}", { team: name(view.side) })),
  ball_stopped_big: () => send("ball_stopped", { side: view.side, area: "big" },
    _("ball stopped in the big area of {team}", { team: name(view.side) })),
  straight_out: () => send("straight_out", {}, _("straight out without rolling")),
  // where the restart waiting is taken, where only the referee knows (001 Art. XXIX b, m)
  spot_penalty_mark: () => send("kick_spot_choice", { spot: "penalty_mark" }, _("taken on the penalty mark")),
  spot_ball: () => send("kick_spot_choice", { spot: "ball" }, _("taken where the ball is")),
  spot_ball_out: () => send("kick_spot_choice", { spot: "ball_out" }, _("taken where the ball went out")),
  kickoff_failed: () => {
    const r = restartNow();
    const s = r ? r.side : view.side;
    return send("kickoff_failed", { side: s }, _("{team}'s kick-off attempt not correct", { team: name(s) }));
  },
  pass_touched_opponent: () => send("pass_touched_opponent", {}, _("1st lance off an opponent")),
  midline_deflection: () => send("midline_deflection", {}, _("deflection on the halfway line")),
  restart_failed: () => send("restart_failed", {
    reason: $("failed-reason").value,
    // no choice yet: the rules ask the opponent's (000 Art. 13 §3, 16 §3)
    ...($("failed-choice").value ? { choice: $("failed-choice").value } : {}),
  }, _("restart failed")),
  draw_choice: () => send("draw_choice", {
    winner: view.side, choice: $("draw-choice").value, goal: Number($("draw-goal").value),
  }, _("draw: {team}", { team: name(view.side) })),
  // the place is the one the referee tapped for THIS foul, never the last foul's (walk 45h-b
  // B3): none is pressed until he taps one, and after each foul the sheet starts afresh; asked
  // and sent only for the kinds whose kick it chooses, as the engine says (issue #44/#45)
  foul: () => {
    const type = $("foul-type").value;
    const asked = foulPlaceAsked(type);
    const where = asked ? $("foul-where").value : "";
    if (!where && asked) {
      const places = [...document.querySelectorAll("[data-field=foul-where] button")].map((b) => b.textContent.trim());
      view.keptSheetAt = Date.now(); // the sheet stays open for the place
      return say(_("✗ foul by {team} not sent: tap where it was ({places})", { team: name(view.side), places: places.join(" / ") }), "bad");
    }
    const sent = send("foul", { side: view.side, disc: discNumber(), type, ...(where ? { where } : {}) },
      _("foul {team}", { team: name(view.side) }));
    freshFoul();
    return sent;
  },
  discipline: (type) => {
    if (typeof type !== "string") return openSheet("sheet-discipline"); // X: the types (buttons)
    return send("discipline", { side: view.side, disc: discNumber(), type },
      _("discipline {team}", { team: name(view.side) }));
  },
  restart: (kind) => {
    if (typeof kind !== "string") return openSheet("sheet-foul"); // R: the restarts
    return send("restart", { side: view.side, kind }, _("{restart} for {team}", { restart: restartName(kind), team: name(view.side) }));
  },
  substitution: () => {
    // both numbers first: an incomplete form keeps its sheet open (data-closes) and says so
    if (!$("sub-out").value.trim() || !$("sub-in").value.trim()) {
      view.keptSheetAt = Date.now();
      return say(_("✗ key in the disc that goes out and the one that comes in"), "bad");
    }
    return send("substitution", {
      side: view.side, out: Number($("sub-out").value), in: Number($("sub-in").value),
    }, _("substitution {team}", { team: name(view.side) }));
  },
  kick: () => send("shootout_kick", { side: view.side, disc: discNumber() }, _("penalty kick {team}", { team: name(view.side) })),
  // the goalkeeper key: entered so the engine says why not (003 Art. 37 §3)
  kick_goalkeeper: () => send("shootout_kick", { side: view.side, goalkeeper: true },
    _("penalty kick by {team}'s goalkeeper", { team: name(view.side) })),
  // the restart being given (docs/rulesets.md, "Entradas do árbitro")
  taker: () => {
    const d = discNumber();
    const r = restartNow();
    if (d == null) return say(_("✗ key in the number of the disc taking it on the keypad"), "bad");
    return send("taker", { disc: d }, (r ? _("{team}: taken by no. {disc}", { team: name(r.side), disc: d }) : _("taken by no. {disc}", { disc: d })));
  },
  // the restart taken: its taker's touch (the kick), one tap where the engine offers it
  // (possession.restart_tap; 004 A partida: the ball rolls, the clock runs — walk48a M1)
  restart_taken: () => {
    const r = restartNow();
    if (!r || r.taken || restartTap() !== r.side) return say(_("✗ no restart waits to be taken now"), "bad");
    const disc = takerDisc(r);
    const words = { team: name(r.side), restart: restartWords(r), disc };
    return send("touch", { side: r.side, disc }, disc == null
      ? _("{team}'s restart taken ({restart}): ball in play", words)
      : _("{team}'s restart taken by no. {disc} ({restart}): ball in play", words));
  },
  flank_left: () => send("restart_side", { flank: "left" }, _("take it from the left")),
  flank_right: () => send("restart_side", { flank: "right" }, _("take it from the right")),
  waive: () => {
    const r = restartNow();
    return send("waive", {}, r && r.waive_spends ? _("infraction let go: as if taken")
      : _("restart waived: normal lance"));
  },
  discs_moved: () => {
    const r = restartNow();
    const s = r ? r.side : view.side;
    return send("discs_moved", { side: s }, _("{team} moved discs at the goal kick", { team: name(s) }));
  },
  keeper_kick_hit: () => send("keeper_kick_hit", {}, _("keeper's kick hit the opponent")),
  // 001 Art. XXIII §2, 003 Art. 74: the favoured técnico's choice, the other kick than now
  kick_choice: () => {
    const r = restartNow();
    const indirect = !(r && r.kind === "falta_indireta");
    const s = r ? r.side : view.side;
    return send("free_kick_choice", { kick: indirect ? "indirect" : "direct" },
      indirect ? _("{team} takes it indirect", { team: name(s) }) : _("{team} takes it direct", { team: name(s) }));
  },
  // 001 Art. XXIX l: the first lance of a lateral cedida was a pass (its disc may play again)
  touch_pass: () => {
    const r = restartNow();
    const s = r ? r.side : view.side;
    const d = discNumber();
    return send("touch", { side: s, disc: d, pass: true },
      (d != null ? _("pass by {team}, disc {disc}", { team: name(s), disc: d }) : _("pass by {team}", { team: name(s) })));
  },
  // 001 Art. XLXII: an infraction's first lance whose ball touched the halfway line (no shot)
  touch_pass_midline: () => {
    const r = restartNow();
    const s = r ? r.side : view.side;
    return send("touch", { side: s, disc: discNumber(), pass: true, ball_touched_midline: true },
      _("pass by {team}, the ball touched the halfway line", { team: name(s) }));
  },
  // 001 Art. XXIII §1 b: the indirect kick's pass played in the kicker's defence field (no shot)
  touch_pass_defence: () => {
    const r = restartNow();
    const s = r ? r.side : view.side;
    return send("touch", { side: s, disc: discNumber(), pass: true, from_half: s },
      _("pass by {team} in its defence field", { team: name(s) }));
  },
  // 001 Art. XXVIII §2 a: the corner cedido's first lance stopped short of the big area (its
  // second lance may not shoot)
  touch_short: () => {
    const r = restartNow();
    const s = r ? r.side : view.side;
    return send("touch", { side: s, disc: discNumber(), reaches_big_area: false },
      _("1st lance short of the big area {team}", { team: name(s) }));
  },
  // what the table cannot see: one tap, the side of the last lance (the label names it)
  // the keypad's number, if keyed in, names the offside disc (001 Art. XXXII §2)
  offside: () => {
    const s = offsideSide();
    const d = discNumber();
    return d == null ? send("offside", { side: s }, _("offside by {team}", { team: name(s) }))
      : send("offside", { side: s, disc: d }, _("offside by {team}, no. {disc}", { team: name(s), disc: d }));
  },
  // 003 Art. 54 §2: the keypad's disc struck the shot asked for another (a touch with shot)
  other_disc_shot: () => {
    const asked = view.state && view.state.match && view.state.match.shot_asked;
    const s = asked ? asked.side : view.side;
    const d = discNumber();
    if (d == null) return say(_("✗ key in the number of the disc that struck the shot"), "bad");
    return send("touch", { side: s, disc: d, shot: true },
      _("shot struck by {team}'s no. {disc}", { team: name(s), disc: d }));
  },
  // 000 Art. 26 §1 E: the team taking its restart, the kicking disc from the keypad
  set_piece_distance: () => {
    const r = restartNow();
    const s = r ? r.side : view.side;
    const d = discNumber();
    if (d == null) return say(_("✗ key in the number of the kicking disc"), "bad");
    return send("set_piece_distance", { side: s, disc: d },
      _("{team}'s kicker no. {disc} less than 1 cm from the ball", { team: name(s), disc: d }));
  },
  // a disc moved before the restart by the first (or the second) team the engine says may
  // move one (possession.movers: 004 Saída de bola, Escanteios, Tiros de meta; 003 Art. 72)
  disc_moved: () => discMoved(movers()[0]),
  disc_moved_2: () => discMoved(movers()[1]),
  // the next part of a team arranged before the restart, as the engine names it
  positions: () => {
    const a = arrangeNext();
    if (!a || !ARRANGED[a[1]]) return say(_("✗ no arrangement is due now"), "bad");
    const data = a[1] === "goalkeeper" ? { side: a[0], disc: "GK", area: "small" } : { side: a[0], part: a[1] };
    return send("positions", data, ARRANGED[a[1]](name(a[0])));
  },
  disc_out: () => {
    const d = discNumber();
    if (d == null) return say(_("✗ key in the number of the disc that left the field"), "bad");
    return send("disc_out", { side: view.side, disc: d },
      _("{team}'s disc no. {disc} out of the field", { team: name(view.side), disc: d }));
  },
  // 003 Art. 79: the ball rests on top of the chosen team's disc (the keypad's number)
  ball_on_disc: () => {
    const d = discNumber();
    if (d == null) return say(_("✗ key in the number of the disc the ball rests on"), "bad");
    return send("ball_on_disc", { side: view.side, disc: d },
      _("the ball rests on top of {team}'s disc no. {disc}", { team: name(view.side), disc: d }));
  },
  // the ball went to the other team in a way only the referee sees (003 Art. 47 §4: it
  // stopped off that team's disc; 004 Bola fora: the throw-in reached no team-mate): the team
  // and the words are the engine's (possession.passes_to, pass_words), whatever team is chosen
  ball_passed: () => {
    const pos = (view.state && view.state.match && view.state.match.possession) || {};
    const to = pos.passes_to;
    if (to !== "A" && to !== "B") return say(_("✗ the ball does not pass this way now"), "bad");
    const said = pos.pass_words && (LANG === "en" ? pos.pass_words.en : pos.pass_words.pt);
    return send("ball_passed", { side: to }, said || _("ball to {team}", { team: name(to) }));
  },
  rebound_midline: () => send("rebound_midline", {}, _("rebound over the halfway line")),
  // a goal the goal line's sensor did not see (a faulty sensor: docs/troubleshooting.md)
  goal_by_hand: () => send("goal_by_hand", { side: view.side },
    _("goal by {team}, entered by hand", { team: name(view.side) })),
  keeper_foul: () => send("keeper_foul", { side: view.side }, _("foul by {team} on the goalkeeper", { team: name(view.side) })),
  arc_0: () => send("ball_on_arc", { end: 0 }, _("ball on the corner arc, {team}'s side", { team: name(endOwner(0)) })),
  arc_1: () => send("ball_on_arc", { end: 1 }, _("ball on the corner arc, {team}'s side", { team: name(endOwner(1)) })),
  "kick-goal": () => send("shootout_result", { scored: true }, _("penalty: goal")),
  "kick-miss": () => send("shootout_result", { scored: false }, _("penalty: missed")),
};

// ---- sheets: one tap away, one open at a time ---------------------------------------
export function openSheet(id) {
  closeSheets();
  // Falta / toque, Disciplina: an act for the team shown is under way, that team stays if
  // the lance moves (main.js followLance)
  if (id === "sheet-foul" || id === "sheet-discipline") view.pickedAt = Date.now();
  $(id).hidden = false;
  $("scrim").hidden = false;
  document.body.classList.add("sheet-open");
  if (id === "sheet-log") openLog();
}
export function closeSheets() {
  for (const s of document.querySelectorAll(".sheet")) s.hidden = true;
  $("scrim").hidden = true;
  document.body.classList.remove("sheet-open");
}

// the sheets where play is entered (a foul, a sanction, the clock): a new question closes them
// so it is answered before the next tap; the Registro (a correction being written), Mais and
// the others stay — closing them would throw away what the referee is typing
const PLAY_SHEETS = ["sheet-foul", "sheet-discipline", "sheet-clock"];
export function closePlaySheets() {
  if (PLAY_SHEETS.some((id) => !$(id).hidden)) closeSheets();
}
