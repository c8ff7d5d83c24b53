// The referee's inputs for what the table cannot see, offered when the engine's published
// state says they apply (docs/rulesets.md, "Entradas do árbitro"); the engine refuses them
// otherwise. No ruleset is named here.

import { $, LANG, _, keeperLink, name, show, view } from "./page.js";

export const IN_PLAY = ["running", "last_lance", "awaiting_dead_ball"];
// the ruleset's own inputs that apply now, as the engine publishes them (no ruleset is
// named here: rules/possession.py `offers`)
export const offered = (kind) => {
  const pos = view.state && view.state.match && view.state.match.possession;
  return Boolean(pos && Array.isArray(pos.offers) && pos.offers.includes(kind));
};
export function restartNow() {
  const r = view.state && view.state.match && view.state.match.restart;
  return r && typeof r === "object" && (r.side === "A" || r.side === "B") ? r : null;
}
// the teams that may move one more disc before the restart, as the engine publishes them
export function movers() {
  const pos = view.state && view.state.match && view.state.match.possession;
  return pos && Array.isArray(pos.movers) ? pos.movers : [];
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
  let any = false;
  any = show("rc-taker", open && r.taker_choice === "disc") || any;
  any = show("rc-goalkeeper", open && r.taker_choice === "goalkeeper") || any;
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
      $(i ? "rc-disc-moved-2" : "rc-disc-moved").textContent = view.disc === ""
        ? _("{team} moved a disc (key in its no.)", { team: name(mover) })
        : _("{team} moved disc no. {disc}", { team: name(mover), disc: view.disc });
    });
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
