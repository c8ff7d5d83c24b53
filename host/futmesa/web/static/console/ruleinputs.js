// The referee's inputs for what the table cannot see, offered when the engine's published
// state says they apply (docs/rulesets.md, "Entradas do árbitro"); the engine refuses them
// otherwise. No ruleset is named here.

import { showKeeperPass } from "./keeperpass.js";
import { grey } from "./keypad.js";
import { $, LANG, _, name, show, view } from "./page.js";

export const IN_PLAY = ["running", "last_lance", "awaiting_dead_ball"];
// the ruleset's own inputs that apply now, as the engine publishes them (no ruleset is
// named here: rules/possession.py `offers`)
export const offered = (kind) => {
  const pos = view.state && view.state.match && view.state.match.possession;
  return Boolean(pos && Array.isArray(pos.offers) && pos.offers.includes(kind));
};
// whether the engine asks the place of a foul of this kind, as it publishes them
// (rules/possession.py `foul_place`: where the place chooses the kick); before any state, yes
export function foulPlaceAsked(type) {
  const pos = view.state && view.state.match && view.state.match.possession;
  return !pos || !Array.isArray(pos.foul_place) || pos.foul_place.includes(type);
}
// the foul sheet's kinds, shown only where the ruleset's document has them, as the engine
// publishes them (rules/possession.py `foul_kinds`; issue #45: "dois toques" is the CBFM's
// alone); a kind hidden while chosen gives way to the usual one; before any state, all
export function renderFoulKinds() {
  const pos = view.state && view.state.match && view.state.match.possession;
  const kinds = pos && Array.isArray(pos.foul_kinds) ? pos.foul_kinds : null;
  const group = document.querySelector("[data-field=foul-type]");
  for (const b of group.querySelectorAll("button")) b.hidden = Boolean(kinds) && !kinds.includes(b.dataset.value);
  if (kinds && !kinds.includes($("foul-type").value)) {
    $("foul-type").value = "falta";
    for (const b of group.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.value === "falta"));
  }
}
// the sheet's restarts, shown only where the ruleset's document has them, as the engine
// publishes them (rules/play.py `restart_kinds`; walk46b M1: "lateral cavada" is the Gaúcha's,
// a "reposição" no restart of "A mesa está posta"); before any state, all
export function renderRestartKinds() {
  const pos = view.state && view.state.match && view.state.match.possession;
  const kinds = pos && Array.isArray(pos.restart_kinds) ? pos.restart_kinds : null;
  for (const b of document.querySelectorAll("#restarts [data-restart]")) b.hidden = Boolean(kinds) && !kinds.includes(b.dataset.restart);
}
// the Disciplina sheet's acts, «Toque fora da vez» and the failed restart, shown only where the
// ruleset's document has them, as the engine publishes them (rules/possession.py
// `discipline_kinds`, `out_of_turn`, `failed_restarts`; walk49a M5: «A mesa está posta» has no
// discipline, no foul for a touch out of turn, no failed restart); before any state, all
export function renderDocumentActs() {
  const pos = view.state && view.state.match && view.state.match.possession;
  const kinds = pos && Array.isArray(pos.discipline_kinds) ? pos.discipline_kinds : null;
  for (const b of document.querySelectorAll("#disc-types [data-discipline]")) b.hidden = Boolean(kinds) && !kinds.includes(b.dataset.discipline);
  show("disc-types", !kinds || kinds.length > 0);
  show("act-out-of-turn", !pos || pos.out_of_turn !== false);
  show("failed-restart", !pos || !Array.isArray(pos.failed_restarts) || pos.failed_restarts.length > 0);
}
// the foul sheet's places, shown for the kind chosen only where the engine asks them
export function renderFoulPlace() {
  document.querySelector("[data-field=foul-where]").hidden = !foulPlaceAsked($("foul-type").value);
}
export function restartNow() {
  const r = view.state && view.state.match && view.state.match.restart;
  return r && typeof r === "object" && (r.side === "A" || r.side === "B") ? r : null;
}
// the team whose restart not yet taken one tap records as taken, as the engine publishes it
// (rules/possession.py `restart_tap`: a ball-in-play clock waits for the kick, which no sensor
// of the table sees — 004 A partida; walk48a M1), else null
export function restartTap() {
  const pos = view.state && view.state.match && view.state.match.possession;
  const s = pos && pos.restart_tap;
  return s === "A" || s === "B" ? s : null;
}
// the disc that takes the restart, for its touch: the keypad's number keyed for the taking
// team, else the taker the referee chose; none for a goalkeeper's kick (004 Tiros de meta: his
// chutão) nor when none is known
export function takerDisc(r) {
  if (r.taker_choice === "goalkeeper") return null;
  if (view.disc !== "" && view.side === r.side) return Number(view.disc);
  return r.taker && typeof r.taker.disc === "number" ? r.taker.disc : null;
}
// the teams that may move one more disc before the restart, as the engine publishes them
export function movers() {
  const pos = view.state && view.state.match && view.state.match.possession;
  return pos && Array.isArray(pos.movers) ? pos.movers : [];
}
// the teams the document lets move discs before the restart waiting and how many each, as
// the engine publishes them (possession.move_rule, rules/moves.py): {sides, limit} or null
export function moveRule() {
  const pos = view.state && view.state.match && view.state.match.possession;
  const rule = pos && pos.move_rule;
  return rule && Array.isArray(rule.sides) && rule.sides.length ? rule : null;
}
// whom "Impedimento" names: the side that played the last lance, as the engine publishes it
// (possession.offside_side, 001 Art. XXXII), never the team on turn
// the part of a team to be arranged next before the restart: [side, part] (possession.arrange)
export function arrangeNext() {
  const pos = view.state && view.state.match && view.state.match.possession;
  const a = pos && Array.isArray(pos.arrange) ? pos.arrange : null;
  return a && (a[0] === "A" || a[0] === "B") ? a : null;
}
export const ARRANGED = {
  attack: (team) => _("{team} arranged its attack", { team }),
  defence: (team) => _("{team} arranged its defence", { team }),
  goalkeeper: (team) => _("{team}'s goalkeeper placed in the small area", { team }),
};
export function offsideSide() {
  const pos = (view.state && view.state.match && view.state.match.possession) || {};
  const s = pos.offside_side;
  return s === "A" || s === "B" ? s : view.side;
}
export function endOwner(end) { // the team defending goal line `end` now
  const ends = (view.state && view.state.match && view.state.match.ends) || { A: 0, B: 1 };
  return Number(ends.A) === end ? "A" : "B";
}
// the restart in force by the engine's name for it, else the button's
export function restartWords(r) {
  const named = r && r.name && (LANG === "en" ? r.name.en : r.name.pt);
  return named || restartName(r && r.kind);
}
export function restartName(kind) {
  const b = document.querySelector(`[data-restart="${kind}"]`);
  // a button may carry a heading ("Reinício: falta direta"): the restart's name is after it
  return b ? b.textContent.replace(/^.*:\s*/, "").trim() : _("restart");
}
// where a kick is taken (rules/spots.py SPOT_NAMES) and a penalty's set-up (SETUP_NAMES)
const SPOTS = {
  centre: _("at the centre of the field"), ball: _("where the ball is"),
  foul: _("where the foul was"), ball_out: _("where the ball went out"),
  where_the_ball_stops: _("where the ball stops"), penalty_mark: _("on the penalty mark"),
  corner_mark: _("at the corner mark"), big_area: _("anywhere in the big area"),
  big_area_corner: _("at a corner of the big area"),
  small_area_corner: _("at the nearest corner of the small area"),
  midline_side_line: _("on the side line at the halfway line"),
};
const SETUP = {
  clear_big_area_to_nearest_spot: _("discs in the big area moved out, each to the nearest place"),
  clear_all_discs_from_big_area: _("every disc moved out of the big area"),
  clear_all_discs_but_kicker_from_big_area_and_meia_lua: _("every disc but the kicker out of the big area and the half-moon"),
  all_discs_out_of_area: _("every disc out of the area"),
  kicker_behind_ball_in_area_or_meia_lua: _("the kicker behind the ball, in the area or the half-moon"),
  goalkeeper_front_on_goal_line: _("the goalkeeper's front on the goal line"),
  goalkeeper_facing_goal_line_from_inside: _("the goalkeeper facing the goal line from inside"),
  goalkeeper_on_line: _("the goalkeeper on the line"),
};
function renderSpot(r, open) {
  let any = false;
  const choices = open && offered("kick_spot_choice") && Array.isArray(r.spot_choices) ? r.spot_choices : [];
  for (const s of ["penalty_mark", "ball", "ball_out"]) {
    any = show(`rc-spot-${s}`, choices.includes(s) && r.spot !== s) || any;
  }
  // the place, where its article or the referee's tap puts it elsewhere than the usual one
  const where = open && r.spot_told && SPOTS[r.spot];
  if (where) {
    const area = r.spot_of === "A" || r.spot_of === "B" ? name(r.spot_of) : "";
    $("rc-spot").textContent = area ? _("Where: {spot} ({team})", { spot: where, team: area })
      : _("Where: {spot}", { spot: where });
  }
  show("rc-spot", Boolean(where));
  const setup = open && Array.isArray(r.setup) ? r.setup.filter((c) => SETUP[c]) : [];
  $("rc-setup").textContent = setup.length ? _("Set-up: {steps}", { steps: setup.map((c) => SETUP[c]).join("; ") }) : "";
  any = show("rc-setup", setup.length > 0) || any;
  return any;
}
export function renderRuleInputs(m) {
  const r = restartNow();
  const open = Boolean(r && !r.taken);
  const inPlay = IN_PLAY.includes(m.status || view.state.status) && !view.state.finished;
  renderFoulKinds();
  renderRestartKinds();
  renderDocumentActs();
  renderFoulPlace();
  let any = false;
  // the restart taken, one tap on the card (its taker's touch): the ball in play, the clock runs
  const tap = open && restartTap() === r.side;
  any = show("rc-taken", tap) || any;
  if (tap) {
    const disc = takerDisc(r);
    // a restart only the goalkeeper takes (004 Tiros de meta, Bola do goleiro: "O goleiro dá
    // um chutão"): the tap is his chutão, no separate "Goleiro cobra" step (walk52a finding 7)
    $("rc-taken").textContent = r.taker_choice === "goalkeeper"
      ? _("▶ Restart taken: the goalkeeper's chutão (ball in play)")
      : disc == null ? _("▶ Restart taken (ball in play)")
        : _("▶ Restart taken by no. {disc} (ball in play)", { disc });
  }
  any = show("rc-taker", open && r.taker_choice === "disc") || any;
  const sides = open && Boolean(r.side_choice);
  show("rc-left", sides);
  any = show("rc-right", sides) || any;
  any = show("rc-waive", open && Boolean(r.waivable)) || any;
  any = show("rc-moved", Boolean(r) && offered("discs_moved")) || any;
  any = show("rc-hit", Boolean(r) && offered("keeper_kick_hit")) || any;
  // each disc a team moves before the restart (the keypad's number), one button per team the
  // engine says may move one more (004: the attack first at a corner, then both)
  const moving = Boolean(r) && offered("disc_moved") ? movers() : [];
  any = show("rc-disc-moved", moving.length > 0) || any;
  show("rc-disc-moved-2", moving.length > 1);
  // before a kick-off the button is no kick-off taken (issue 45, kick-off walk: "Alvorada moveu
  // um botão" read as the kick-off itself; 004 Saída de bola): the card says what it records
  const kickoff = moving.length > 0 && r.kind === "saida";
  show("rc-moves-note", kickoff);
  if (kickoff) {
    $("rc-moves-note").textContent = _("Before the kick-off, {team} may move discs: tap once for each disc moved. The kick-off has not been taken yet.", { team: moving.map(name).join(", ") });
  }
  // the next part arranged, in the rule's order (003 Art. 64 §6, 004 Escanteios): one tap each
  const arrange = Boolean(r) && offered("positions") ? arrangeNext() : null;
  any = show("rc-arranged", Boolean(arrange && ARRANGED[arrange[1]])) || any;
  if (arrange && ARRANGED[arrange[1]]) $("rc-arranged").textContent = ARRANGED[arrange[1]](name(arrange[0]));
  // the first lance of a two-lance restart (001 lateral cedida): say it was a pass
  any = show("rc-pass", Boolean(r) && offered("pass")) || any;
  // an infraction's first lance whose ball touched the halfway line (001 XLXII) or, of an
  // indirect kick, a pass in the kicker's defence field (001 XXIII §1 b): no shot after it
  any = show("rc-pass-midline", Boolean(r && r.infraction) && offered("pass")) || any;
  any = show("rc-pass-defence", Boolean(r && r.kind === "falta_indireta") && offered("pass")) || any;
  // 001 XXVIII §2 a: the corner cedido's first lance short of the big area (no shot after it)
  any = show("rc-short", Boolean(r) && offered("corner_short")) || any;
  // a foul in the offender's field: the favoured técnico chooses direct or indirect (the
  // button offers the other one)
  any = show("rc-kick", open && offered("free_kick_choice")) || any;
  // 000 Art. 23 VI C/H: the ball that went out went straight, without rolling
  any = show("rc-straight", open && offered("straight_out")) || any;
  // 001 Art. XXIX c: the kick-off attempt was not correct (the second one: a technical foul)
  any = show("rc-kickoff-failed", open && offered("kickoff_failed")) || any;
  // 000 Art. 18 §1, 001 Art. XXIII §4: the kick's first lance touched an opponent
  any = show("rc-off-opponent", Boolean(r) && offered("pass_touched_opponent")) || any;
  // where it is taken (the referee's tap where the rules cannot know) and a penalty's set-up
  any = renderSpot(r || {}, open && Boolean(r)) || any;
  if (r) {
    $("rc-waive").textContent = r.waive_spends ? _("Let it go (as if taken)") : _("Waive the restart (normal lance)");
    $("rc-straight").textContent = _("It went straight out, without rolling: technical foul by {team}", { team: name(r.out_by === "A" || r.out_by === "B" ? r.out_by : r.side) });
    $("rc-off-opponent").textContent = _("{team}'s 1st lance touched an opponent", { team: name(r.side) });
    $("rc-kick").textContent = r.kind === "falta_indireta"
      ? _("{team} takes it direct", { team: name(r.side) })
      : _("{team} takes it indirect (pass, then shot)", { team: name(r.side) });
    $("rc-moved").textContent = _("{team} moved discs at the goal kick", { team: name(r.side) });
    moving.forEach((mover, i) => {
      $(i ? "rc-disc-moved-2" : "rc-disc-moved").textContent = kickoff
        ? (view.disc === "" ? _("{team} moved a disc before the kick-off (key in its no.)", { team: name(mover) })
          : _("{team} moved disc no. {disc} before the kick-off", { team: name(mover), disc: view.disc }))
        : view.disc === ""
          ? _("{team} moved a disc (key in its no.)", { team: name(mover) })
          : _("{team} moved disc no. {disc}", { team: name(mover), disc: view.disc });
    });
    // a goal kick's card: who moves, who does not, and that «… moveu botões» is the infraction
    // (walk51a M2; 004 Tiros de meta: its two buttons side by side read alike)
    const rule = moveRule();
    const still = rule && offered("discs_moved") && !kickoff && rule.sides.length === 1
      && rule.sides[0] !== r.side ? r.side : null;
    if (still) {
      $("rc-moves-note").textContent = _("At the goal kick, {team} may move up to {n} discs (tap once for each disc); {other_team} moves none — «{button}» records the infraction.",
        { team: name(rule.sides[0]), n: rule.limit, other_team: name(still), button: $("rc-moved").textContent });
    }
    show("rc-moves-note", kickoff || Boolean(still));
    $("act-distance").textContent = view.disc === ""
      ? _("{team}'s kicker less than 1 cm from the ball (key in its no.)", { team: name(r.side) })
      : _("{team}'s kicker no. {disc} less than 1 cm from the ball", { team: name(r.side), disc: view.disc });
    $("rc-pass").textContent = view.disc === "" ? _("{team}'s 1st lance was a pass", { team: name(r.side) })
      : _("{team}'s 1st lance: a pass by no. {disc}", { team: name(r.side), disc: view.disc });
    $("rc-short").textContent = view.disc === "" ? _("{team}'s 1st lance: short of the big area", { team: name(r.side) })
      : _("{team}'s 1st lance by no. {disc}: short of the big area", { team: name(r.side), disc: view.disc });
  }
  // the kick-off is the draw's once it was entered: correct the draw's entry instead
  $("act-kickoff").hidden = Boolean(m.kickoff && m.kickoff.draw);
  // an in-match penalty (004): the defending goalkeeper chooses first, in secret, on the
  // keeper page (like the shootout's); the kick is refused until then. His page is handed
  // over, never the console: a QR code for his phone, or a new tab on this one; its link's key
  // makes only his choice (keeperpass.js, issue #45)
  const keeper = open && r.kind === "penalti" && (r.keeper_choice_from === "A" || r.keeper_choice_from === "B");
  const note = $("rc-keeper-note");
  if (keeper && !r.keeper_choice_recorded) {
    const k = r.keeper_choice_from;
    note.textContent = _("Before the kick, {team}'s goalkeeper chooses the corner in secret.", { team: name(k) });
    $("rc-keeper-hand").textContent = _("Hand this phone to {team}'s goalkeeper (his page opens in a new tab), or let him read the QR code with his own phone.", { team: name(k) });
    $("rc-keeper").textContent = _("Open {team}'s goalkeeper's page", { team: name(k) });
    show("rc-keeper-pass", true);
    showKeeperPass(k, $("rc-keeper-pass"), $("rc-keeper"), $("rc-keeper-qr"));
    show("rc-keeper-note", true);
    any = true;
  } else if (keeper) {
    note.textContent = _("✓ {team}'s goalkeeper has chosen (hidden): the kick may be taken.", { team: name(r.keeper_choice_from) });
    show("rc-keeper", false);
    show("rc-keeper-pass", false);
    any = show("rc-keeper-note", true) || any;
  } else {
    show("rc-keeper", false);
    show("rc-keeper-pass", false);
    show("rc-keeper-note", false);
  }
  // the kick as the rules announce it, the TV's and the Registro's words (the published
  // state's restart.said / name: matchbook/live.py restart_words; walk 45h-b B2), never the
  // restart buttons' own names
  const said = r && r.said && (LANG === "en" ? r.said.en : r.said.pt);
  $("restart-title").textContent = !r ? ""
    : r.taken ? _("Taken: {restart} for {team}", { restart: restartWords(r), team: name(r.side) })
      : said || _("Restart: {restart} for {team}", { restart: restartWords(r), team: name(r.side) });
  show("restart-card", any && !view.state.finished);
  // in open play, what only the referee sees: offside (001) on the first screen, the foul on
  // the goalkeeper and the ball on the corner arc beside the foul
  show("act-offside", inPlay && offered("offside"));
  $("act-offside").textContent = view.disc === "" ? _("Offside by {team}", { team: name(offsideSide()) })
    : _("Offside by {team}, no. {disc}", { team: name(offsideSide()), disc: view.disc });
  // 000 Art. 26 §1 E, in the discipline sheet beside the disciplinary foul
  show("act-distance", Boolean(r) && offered("set_piece_distance"));
  show("act-keeper-foul", inPlay);
  show("act-goal-by-hand", inPlay); // the goal the sensor missed (rules/goals.py)
  // grey while the engine would refuse it (a restart waiting where the clock runs only with
  // the ball rolling: walk51a M1), its words the tap's answer (possession.why_not)
  const hand = (((m.possession || {}).why_not || {})[view.side] || {}).goal_by_hand;
  grey($("act-goal-by-hand"), hand ? String(LANG === "en" ? hand.en : hand.pt) : "");
  show("arc-row", inPlay && offered("ball_on_arc"));
  // 001 Art. XXXVII §1: the chosen team's disc (the keypad's number) left the field
  show("act-disc-out", inPlay && offered("disc_out"));
  show("act-rebound", inPlay && offered("rebound_midline")); // 001 Art. XXXVIII
  // 001 Art. XXIX d: a lance played from the opponent's field (the chosen team, the keypad's no.)
  show("act-from-attack", inPlay && offered("ball_from_attack"));
  $("act-from-attack").textContent = view.disc === ""
    ? _("Touch by {team} from the opponent's half", { team: name(view.side) })
    : _("Touch by {team}, no. {disc}, from the opponent's half", { team: name(view.side), disc: view.disc });
  show("act-stopped-big", inPlay && offered("ball_stopped_big")); // 003 Art. 43, 44 b
  show("act-on-disc", inPlay && offered("ball_on_disc")); // 003 Art. 79
  $("act-on-disc").textContent = view.disc === ""
    ? _("The ball rests on top of a disc of {team} (key in its no.)", { team: name(view.side) })
    : _("The ball rests on top of {team}'s disc no. {disc}", { team: name(view.side), disc: view.disc });
  show("act-in-circle", inPlay && offered("ball_in_centre_circle")); // 003 Art. 34
  // a lance that did not hit the ball, said as what happened: the disc missed it (004 Sua vez
  // "Um toque que não acerta a bola"; 000 Art. 23 I A "furou"; 001 Art. XLVIIII "errar em
  // bola"; 003 Art. 33 "não acerte"), what follows is the engine's answer
  $("act-touch-miss").textContent = view.disc === ""
    ? _("A disc of {team} missed the ball (key in its no.)", { team: name(view.side) })
    : _("{team}'s disc no. {disc} missed the ball", { team: name(view.side), disc: view.disc });
  // the ball to the other team, in the rule's words (003 Art. 47 §4; 004 Bola fora)
  const pos = m.possession || {};
  show("act-ball-passed", inPlay && offered("ball_passed") && Boolean(pos.pass_words));
  if (pos.pass_words) $("act-ball-passed").textContent = LANG === "en" ? pos.pass_words.en : pos.pass_words.pt;
  // 003 Art. 54 §2: the asked shot struck by another disc than the one named (no goal from it)
  const asked = m.shot_asked;
  show("act-other-disc", inPlay && Boolean(asked) && offered("other_disc_shot"));
  if (asked) {
    $("act-other-disc").textContent = view.disc === ""
      ? _("Shot struck by another disc than no. {named} (key in its no.)", { named: asked.disc })
      : _("Shot struck by no. {disc}, not no. {named}", { disc: view.disc, named: asked.disc });
  }
  // 001 Art. XXXI §3: a goal off a disc on the halfway line, only where the rules have it
  show("act-midline", offered("midline_deflection"));
  $("act-stopped-big").textContent = _("Ball stopped in {team}'s big area, off its goalkeeper", { team: name(view.side) });
  $("act-disc-out").textContent = view.disc === ""
    ? _("{team}'s disc out of the field (key in its no.)", { team: name(view.side) })
    : _("{team}'s disc no. {disc} out of the field", { team: name(view.side), disc: view.disc });
  $("act-arc-0").textContent = _("Ball on the corner arc, {team}'s side", { team: name(endOwner(0)) });
  $("act-arc-1").textContent = _("Ball on the corner arc, {team}'s side", { team: name(endOwner(1)) });
  $("act-keeper-foul").textContent = _("Foul by {team} on the goalkeeper", { team: name(view.side) });
  $("act-goal-by-hand").textContent = _("Goal by {team} (the sensor missed it)", { team: name(view.side) });
}
