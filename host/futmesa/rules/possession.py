"""Who may play now: the possession every play input is checked against.

One set of questions, asked of the match dict, answers both the engine and the console:
which team has the lance (the vez: the team on turn, the taker of a restart not yet taken,
the team of a last lance), which discs it may play, how many touches it has left, and
whether each team may touch the ball or ask for a shot at this moment. The rule functions
raise the refusal these functions return (so an input the rules do not allow is refused
with the reason in words), and the engine publishes the answers in the state as
``possession`` after every step (so the console offers only what is allowed).

The articles: a shot is asked by the team whose lance it is (000 Art. 12 §3 A "o lance
pertencer à equipe atacante"; 001 Art. XX a "o lance imediato pertencer ao atacante"; 003
Art. 54 "o Técnico executante do lance"; 004 Chute pedido); the asked shot is taken by the
disc named (000 Art. 12 §1 "indicando o jogador que fará o arremesso"; 001 Art. XXI; 003
Art. 54 "indicando obrigatoriamente o jogador (botão)").

One state, derived here only (docs/rulesets.md, "Posse de bola / quem pode jogar"): the vez
(`lance_side`: a last lance, else the taker of a restart not yet taken, else `turn`), the side
that alone may play a lance (`holder`: the vez where the ruleset fixes turns, 003's ball,
001's restart lances), the discs that may not play (`barred`: sent off, out of the field, the
kicker who waits for another touch — 000 Art. 9, 23 II G, III A, IV B, 27 C; 003 Art. 66 §3,
67 §2), and from them the plays each side may enter. `settle` keeps the match's `turn` equal
to the vez after every entry, so the console's "na vez" is by construction the side the
engine lets play.
"""

from __future__ import annotations

from typing import Any

from futmesa.i18n import N_

from .context import SIDES, Phrase, Refused, other, refusal_now
from .core import RESTART_NAMES

# the referee's play inputs the console offers per team, in the order it shows them
PLAYS = ("touch", "shot_asked")


# the refusal that means "the lance is the other team's" (the console says it in short)
_NOT_THE_LANCE = "The lance is {turn_team}'s: "

def in_play(m: dict[str, Any]) -> bool:
    return m["status"] in ("running", "last_lance", "awaiting_dead_ball")


def lance_side(m: dict[str, Any]) -> str | None:
    """The team whose lance it is now, or None when the rules do not say (ball not in play,
    or no turn yet)."""
    if not in_play(m):
        return None
    last = m.get("last_lance")
    if m["status"] == "last_lance" and last and last.get("side") in SIDES:
        return str(last["side"])
    return waiting_taker(m) or _side(m.get("turn"))


def waiting_taker(m: dict[str, Any]) -> str | None:
    """The team whose restart waits to be taken (it plays before anyone else), or None."""
    r = m.get("restart")
    return _side(r.get("side")) if r and not r.get("taken") else None


def _side(value: Any) -> str | None:
    return str(value) if value in SIDES else None


def played_last(m: dict[str, Any]) -> str | None:
    """The team the log says played the ball last (the ball-out question's suggested answer;
    whose lance a ball in the goal is, goals.py): the taker of a kick not yet taken — it
    plays before anyone else, so a ball out or in a goal is its kick, untapped, whoever
    played the lance before the call (walk51c H1: a ball into its own goal while its free
    kick waited read as the opponent's lance) — else the side of the last lance entered (a
    touch, an asked shot's result, the kick-off); None when the log does not know."""
    return waiting_taker(m) or _side(m.get("last_player"))


def touches_remaining(m: dict[str, Any], side: str) -> int | None:
    """The touches `side` has left in this possession, where the ruleset counts them."""
    touches = m.get("touches")
    if not touches or m.get("turn") != side:
        return None
    mine = touches[side]
    return max(0, int(mine["limit"]) - int(mine["count"]))


def dead_ball_refusal(rules: Any, m: dict[str, Any]) -> Refused | None:
    """Why no shot is asked with the ball dead, or None: out of play (not started, the
    interval, over), or out of the table while «who touched it last?» still waits — its
    restart not given yet (walk52a M6: a shot asked beside «Bola fora» was taken)."""
    if not in_play(m):
        return Refused(N_("The ball is not in play"))
    if any(p.get("kind") == "ball_out_touch" for p in m.get("pending") or ()):
        return Refused(N_("Ball out: the ball is not in play. Answer first who touched it "
                          "last"),
                       rule=rules.cite("ball_out") or rules.cite("restart_kinds"))
    return None


def shot_refusal(rules: Any, m: dict[str, Any], side: str, disc: int | None = None,
                 ball: str = "opponent_half", holder: str | None = None) -> Refused | None:
    """Why `side` may not ask for a shot now (with `disc`, the ball where `ball` says), or
    None when it may; `holder`: the team whose lance it is, when not the one the match says
    now (the lance that just sent the ball into a goal, GoalRules.no_shot_answers)."""
    if m["finished"]:
        return Refused(N_("The match is over"))
    if m["time_up"] and m["status"] not in ("last_lance", "awaiting_dead_ball"):
        return Refused(N_("Asked at or after the alarm: no shot"),
                       rule=rules.cite("shot_before_alarm"))
    dead = dead_ball_refusal(rules, m)
    if dead is not None:
        return dead
    last = m.get("last_lance")
    if m["status"] == "last_lance" and last and last.get("side") not in (None, side):
        return Refused(N_("The last lance is the opponent's"))
    if m["shot_asked"]:
        return Refused(N_("A shot is already asked; the disc cannot be changed"),
                       rule=rules.cite("shot_named"))
    holder = holder or lance_side(m)
    if holder is not None and holder != side and rules.ball_passes_to(m) == side:
        # the console's control that gives the ball to `side`, named (walk45i-a M1)
        return Refused(
            N_("The lance is {turn_team}'s: only the team with the lance asks for a shot. If "
               "the ball went to {team}, enter that first: «{passed}» (Foul / touch)"),
            rule=rules.cite("shot_lance"), team=rules_name(m, side),
            turn_team=rules_name(m, holder), passed=passed_words(rules, m, side))
    if holder is not None and holder != side and rules.setting(
            "touch_limit", rules.touch_limit) is None:
        # one lance per turn (000, 001): the lance to enter first is the holder's, never the
        # asker's ("registre antes esse lance" read as the asker's own: walk45j-a H1)
        return Refused(
            N_("The lance is {turn_team}'s: only the team with the lance asks for a shot. The "
               "lances alternate: enter {turn_team}'s lance first («Touch», Foul / touch), then "
               "{team} asks"),
            rule=rules.cite("shot_lance"), team=rules_name(m, side),
            turn_team=rules_name(m, holder))
    if holder is not None and holder != side:
        return Refused(
            N_("The lance is {turn_team}'s: only the team with the lance asks for a shot. If "
               "the ball went to {team}, enter that lance first"),
            rule=rules.cite("shot_lance"), team=rules_name(m, side),
            turn_team=rules_name(m, holder))
    # the field the entry marks (the console's "onde está a bola"), unless the restart's mark
    # fixes it; a refusal for it says the field is the one marked (walk46a M2: "próprio campo",
    # set on the console minutes before, refused a shot with nothing pointing at it)
    r = m["restart"]
    if (r and not r.get("taken") and r["kind"] == "saida" and r["side"] == side
            and rules.cite("kickoff_shot")):
        # the kick-off's ball is on the centre spot, whatever field the entry marks (walk49a
        # M2: taken as "do campo adversário", the selector's default)
        return Refused(N_("Kick-off: the ball is on the centre spot, on the halfway line, not in "
                          "the opponent's half — no shot is asked from the kick-off. Enter the "
                          "kick-off first, then ask for the shot"), rule=rules.cite("kickoff_shot"))
    ball = shot_field(m, side, ball)
    if ball == "midline":
        return Refused(N_("The ball is marked on the halfway line, where it is neutral: no shot "
                          "at goal. If it is past the line, ask again with «opponent's half»"),
                       rule=rules.cite("midline"))
    if ball == "own_half":
        return Refused(N_("The ball is marked in {team}'s own half: a shot needs it wholly in "
                          "the opponent's half. If it is there, ask again with «opponent's "
                          "half»"), rule=rules.cite("opponent_half"), team=rules_name(m, side))
    if disc is not None and disc in m["expelled"][side]:
        return Refused(N_("Disc {disc} was sent off"), disc=disc)
    waits = kicker_waits(rules, m, side, disc)
    if waits is not None:  # a shot is not asked for the kicker who waits (000 Art. 18)
        return Refused(
            N_("Disc {disc} took the {restart}: it plays again only after another disc has "
               "touched the ball"), rule=waits[1], disc=disc,
            restart=RESTART_NAMES.word(m["restart"]["kind"]))
    limit: Refused | None = rules.shot_limit(m, side)
    if limit is not None:
        return limit
    if r and r.get("open") and r["side"] == side and "goal" in r.get("forbid", ()):
        # e.g. no goal from a reposição (000 Art. 16 §2) or a goal kick (001 XXXIII §1)
        return Refused(N_("No shot at goal from this restart"), rule=r["limit_rule"])
    return None


# the marks a restart is taken from that lie in the taker's opponent's field: the offender's
# penalty mark (000 Art. 20; 001 Art. XXVII §1 "exatamente na marca penal"; 003 Art. 69 "da sua
# marca específica, dentro da grande área"; 004 Pênaltis "da marca do pênalti") and a corner
# mark (the defence's corner: 000 Art. 15, 001 Art. XXVIII, spots.py)
MARKS_IN_ATTACK = ("penalty_mark", "corner_mark")


def shot_field(m: dict[str, Any], side: str, ball: str) -> str:
    """The field the ball is in for `side`'s shot: "opponent_half" when the restart `side` has
    not yet taken puts it on a mark of the opponent's field (a penalty is shot from the mark,
    whatever field the entry marks: walk46a M2, "próprio campo" left pressed on the console
    refused a penalty's shot under 001 Art. XXI a); else `ball`, the field the entry marks."""
    r = m.get("restart")
    if (r and not r.get("taken") and r.get("side") == side
            and r.get("spot") in MARKS_IN_ATTACK and r.get("spot_of", other(side)) == other(side)):
        return "opponent_half"
    return ball


def touch_refusal(rules: Any, m: dict[str, Any], side: str,
                  disc: int | None = None) -> Refused | None:
    """Why `side` may not play a lance now (with `disc`), or None when it may. A lance out of
    turn is not refused here: the referee may record one that happened (a technical foul,
    PlayRules.out_of_turn)."""
    if not in_play(m):
        return Refused(N_("The ball is not in play"))
    if disc is not None and disc in m["expelled"][side]:
        return Refused(N_("Disc {disc} was sent off"), disc=disc)
    shot = m["shot_asked"]
    if shot and shot["side"] == side and disc is not None and shot.get("disc") is not None \
            and disc != shot["disc"]:
        return Refused(
            N_("The shot was asked with disc {named}: only that disc takes it. If another disc "
               "played, void the shot first"),
            rule=rules.cite("shot_named"), named=shot["disc"])
    on = m.get("_ball_on_disc")
    if on and disc is not None and on["side"] == side and on["disc"] != disc:
        # the ball resting on top of a disc: only that disc may play (003 Art. 79)
        return Refused(
            N_("The ball rests on top of disc {named} of {team}: only that disc may play it"),
            rule=rules.cite("ball_on_disc"), named=on["disc"], team=rules_name(m, on["side"]))
    out = (m.get("discs_out") or {}).get(side) or []
    if disc is not None and disc in out:
        # a disc out of the field (situations.py on_disc_out) does not play this lance
        return Refused(
            N_("Disc {disc} of {team} is out of the field until {team}'s next lance: "
               "another disc plays it"), rule=rules.cite("disc_out"), disc=disc,
            team=rules_name(m, side))
    if disc is not None and disc in ((m.get("offside_discs") or {}).get(side) or []):
        # the offside disc, put back, loses its team's first lance (001 Art. XXXII §2)
        return Refused(
            N_("Disc {disc} of {team} was offside: it does not play {team}'s first lance"),
            rule=rules.cite("offside_disc"), disc=disc, team=rules_name(m, side))
    waits = kicker_waits(rules, m, side, disc)
    if waits is not None and waits[0] == "refuse":
        return Refused(
            N_("Disc {disc} took the {restart}: it plays again only after another disc has "
               "touched the ball"), rule=waits[1], disc=disc,
            restart=RESTART_NAMES.word(m["restart"]["kind"]))
    limit: Refused | None = rules.lance_limit(m, side, disc)
    return limit


def kicker_waits(rules: Any, m: dict[str, Any], side: str,
                 disc: int | None) -> tuple[str, str] | None:
    """(what follows, article) when `disc` of `side` took the restart in force and the ball
    has not been touched by another disc since (`kicker_free`): the ruleset's `taker_waits`
    says whether the lance is refused or a technical foul (000 Art. 9, 23 II G, III A, IV B,
    27 C; 003 Art. 66 §3, 67 §2); None when it may play."""
    r = m.get("restart")
    held = (r or {}).get("waiting")
    if held and disc is not None and disc == held["disc"] and side == r["side"]:
        return "refuse", str(held["rule"])  # the kicker of the kick before still waits
    if (disc is None or not r or not r.get("taken") or r.get("kicker_free")
            or r.get("side") != side or r.get("kicker") != disc):
        return None
    rule: tuple[str, str] | None = rules.taker_waits.get(r["kind"])
    return rule


def kicked(m: dict[str, Any], side: str, disc: int | None = None,
           touched: bool = False) -> bool:
    """`side`'s asked shot was struck by `disc`: a restart of its not yet taken is taken by it
    (a penalty, a direct kick: the shot is its lance), so the vez can pass; `disc` is its
    kicker, who waits for another touch (000 Art. 23 IV B) unless the shot was `touched` (saved
    or blocked: the goalkeeper or a disc touched the ball). True when it took the restart
    (the ball rolls again: RulesCore.ball_rolls)."""
    r = m.get("restart")
    if r and not r.get("taken") and r.get("side") == side:
        r["taken"] = True
        r["touches_since"] = 0
        r["kicker"], r["kicker_free"] = disc, touched
        if r.get("open"):
            r["taker_lances"] = r.get("taker_lances", 0) + 1
        return True
    if r and r.get("open") and r.get("side") != side:
        r["open"] = False  # the opponent has played: the restart's limits end
    return False


def hand_goal_refusal(rules: Any, m: dict[str, Any]) -> Refused | None:
    """Why the goal the sensor missed (`goal_by_hand`, GoalRules.on_goal_by_hand) cannot be
    entered now, or None: the ball is not in play; or, where the clock runs only with the ball
    rolling (004 A partida "num relógio que só corre com a bola rolando"), a restart waits to
    be taken: the ball is dead until its kick and no goal comes before it (walk51a M1) — unless
    the kick is the asked shot of the restart's team (004 Pênaltis "um chute pedido")."""
    if not in_play(m):
        return Refused(N_("The ball is not in play"))
    r, shot = m.get("restart"), m.get("shot_asked")
    if (rules.clock_mode != "ball-in-play" or not r or r.get("taken")
            or r.get("side") not in SIDES or (shot and shot["side"] == r["side"])):
        return None
    return Refused(N_("The restart first — {restart} for {team}: until it is taken the ball is "
                      "not in play and no goal is scored"),
                   restart=RESTART_NAMES.word(r["kind"]), team=rules_name(m, r["side"]),
                   rule=rules.cite("duration"))


def kickoff_refusal(rules: Any, m: dict[str, Any], side: str) -> Refused | None:
    """Why `side` may not play now because a restart of the other team's is not yet taken
    (the kick-off, a throw-in, a free kick…: its taker plays first), or None."""
    restart = m["restart"]
    if not restart or restart["taken"] or side == restart["side"]:
        return None
    if restart["kind"] == "saida":
        return Refused(N_("The kick-off is {team}'s"), team=rules_name(m, restart["side"]),
                       rule=rules.cite("kickoff"))
    return Refused(N_("{restart} to {team}: it is taken before anyone else plays"),
                   restart=RESTART_NAMES.word(restart["kind"], capital=True),
                   team=rules_name(m, restart["side"]))


def holder(rules: Any, m: dict[str, Any]) -> str | None:
    """The side that alone may play a lance now, or None when the rules let either play:
    the vez where the ruleset fixes turns (`cites["turns"]`: 000, 004), the taker of a restart
    not yet taken and a last lance everywhere, else the ruleset's own answer
    (`Ruleset.turn_holder`: 003's ball, 001's restart lances)."""
    side = lance_side(m)
    if side is None:
        return None
    restart = m.get("restart")
    if m["status"] == "last_lance" or (restart and not restart.get("taken")):
        return side
    if rules.cite("turns"):
        return side
    found: str | None = rules.turn_holder(m, side)
    return found


def on_turn_only(rules: Any, m: dict[str, Any], side: str) -> bool:
    """Whether a touch by `side` now would be out of turn (PlayRules.out_of_turn): another side
    holds the lance, or the ruleset's own turn says so (001: a restart's lances are played,
    also in a last lance — then no one plays on but the referee closes it)."""
    who = holder(rules, m)
    if who is not None and who != side:
        return True
    own = rules.turn_holder(m, side) if in_play(m) else None
    return own is not None and own != side


def settle(rules: Any, ctx: Any) -> None:
    """After every entry: a last lance whose ball went to the other side (a restart of the
    other team's, e.g. the ball stopped in the defender's small area) is over, as a ball out
    ends it; and the match's `turn` is the vez while the ball is in play (a restart's taker, a
    last lance's side), so no part of the state names another side."""
    m = ctx.m
    shot = m.get("shot_asked")
    if (shot and shot.get("disc") is not None and in_play(m)
            and shot["disc"] in barred(rules, m, shot["side"])):
        # the disc named for the shot may not play now (sent off, out of the field): it cannot
        # take the shot, which no other disc may take (000 Art. 12 §1, 003 Art. 54 §2)
        m["shot_asked"] = None
        ctx.announce("shot_lapsed", N_("{team}'s disc {disc}, named for the shot, cannot play "
                                       "it: the shot is over"),
                     team=rules_name(m, shot["side"]), disc=shot["disc"])
    last, r = m.get("last_lance"), m.get("restart")
    if (m["status"] == "last_lance" and last and last.get("side") in SIDES and r
            and not r.get("taken") and r.get("side") != last["side"]):
        rules.end_last_lance(ctx)
    if m["pending"]:
        # who kicks off after the goal / extra time (timekeeping.ask_kickoff_side,
        # ask_extra_kickoff) is moot once that kick-off is taken, another restart or the
        # period's end replaced it, or extra time starts (or is no longer due)
        moot = set()
        if not (r and r.get("kind") == "saida" and not r.get("taken")):
            moot.add("kickoff_side")
        if not (m["status"] == "interval" and m["phase"] == "extra" and not m["finished"]):
            moot.add("extra_time_kickoff")
        m["pending"] = [p for p in m["pending"] if p["kind"] not in moot]
    side = lance_side(m)
    if side is not None:
        m["turn"] = side


def barred(rules: Any, m: dict[str, Any], side: str) -> list[int]:
    """The discs of `side` that may not play a lance now: sent off, out of the field, and the
    restart's kicker who waits for another touch (refused or a technical foul alike)."""
    discs = {d for d in m["expelled"][side] if d is not None}  # None: a disc to be named
    discs |= set((m.get("discs_out") or {}).get(side) or [])
    discs |= set((m.get("offside_discs") or {}).get(side) or [])
    r = m.get("restart")
    if r and r.get("kicker") is not None and kicker_waits(rules, m, side, r["kicker"]):
        discs.add(int(r["kicker"]))
    if r and r.get("waiting") and r["side"] == side:
        discs.add(int(r["waiting"]["disc"]))
    on = m.get("_ball_on_disc")
    if on and on["side"] == side:  # 003 Art. 79: only the disc under the ball plays
        team = set(range(1, rules.discs + 1))
        team |= {int(s["in"]) for s in (m.get("substitutions") or {}).get(side) or []
                 if isinstance(s.get("in"), int)}
        discs |= team - {on["disc"]}
    return sorted(discs)


def rules_name(m: dict[str, Any], side: str) -> str:
    return str(m["teams"][side]["name"])


def possession(rules: Any, m: dict[str, Any]) -> dict[str, Any]:
    """The published possession: who has the lance and what each team may enter now."""
    side = lance_side(m)
    shot = m.get("shot_asked")
    restart = m.get("restart")
    allowed: dict[str, list[str]] = {}
    why_not: dict[str, dict[str, dict[str, str]]] = {}
    for s in SIDES:
        plays = []
        named = shot["disc"] if shot and shot["side"] == s else None
        if (touch_refusal(rules, m, s, named) is None and kickoff_refusal(rules, m, s) is None
                and not on_turn_only(rules, m, s)):
            plays.append("touch")
        refusal = shot_refusal(rules, m, s)
        if refusal is None:
            plays.append("shot_asked")
        else:  # the console says why the shot is not offered, in the engine's words: those
            # a tap would be refused with ("not now" said as the interval / the end)
            refusal = refusal_now(m, refusal)
            why_not[s] = {"shot_asked": {"pt": refusal.pt, "en": refusal.en,
                                         "lance": refusal.msgid.startswith(_NOT_THE_LANCE)}}
        allowed[s] = plays
    # the goal the sensor missed, the same for both teams: its refusal's words and article
    # grey the console's «Gol de … (o sensor não viu)» (walk51a M1)
    hand = hand_goal_refusal(rules, m)
    if hand is not None and in_play(m):
        cited = f" ({hand.rule})" if hand.rule else ""
        for s in SIDES:
            why_not.setdefault(s, {})["goal_by_hand"] = {"pt": hand.pt + cited,
                                                         "en": hand.en + cited}
    return {
        "side": side,
        "holder": holder(rules, m),
        "restart": restart["kind"] if restart and not restart.get("taken") else None,
        # the restart in force and its lances: how many its taker has, how many are played
        "kick": {"kind": restart["kind"], "side": restart["side"],
                 "taken": bool(restart.get("taken")), "lances": restart.get("lances") or 1,
                 "played": int(restart.get("taker_lances") or (1 if restart.get("taken")
                                                                 else 0))}
        if restart and (not restart.get("taken") or restart.get("open")) else None,
        # the team whose restart one tap records as taken (the console's "Cobrança dada")
        "restart_tap": restart_tap(rules, m, allowed),
        "touches_remaining": touches_remaining(m, side) if side else None,
        "discs": [shot["disc"]] if shot and shot.get("disc") is not None else None,
        "barred": {s: barred(rules, m, s) for s in SIDES} if in_play(m) else {"A": [], "B": []},
        "allowed": allowed,
        "why_not": why_not,
        "offers": offers(rules, m),
        # the foul kinds whose place (`where`) the engine asks, as it chooses their kick
        # (discipline.place_decides): the console asks the place for these only
        "foul_place": [k for k in rules.place_decides if k in rules.foul_kinds],
        # the foul kinds the ruleset's document has (discipline.foul_kinds): the console's foul
        # sheet offers these only (issue #45)
        "foul_kinds": list(rules.foul_kinds),
        # the restarts the ruleset's document has (play.restart_kinds): the sheet's restart
        # buttons are these only (issue #45)
        "restart_kinds": list(rules.restart_kinds),
        # the disciplinary acts the document has (discipline.discipline_kinds), whether a lance
        # may be entered as out of turn (play.records_out_of_turn) and the restarts whose
        # failure it has (situations.failed_restart_rules): the console offers these only
        # (walk49a M5)
        "discipline_kinds": list(rules.discipline_kinds),
        "out_of_turn": rules.records_out_of_turn(),
        "failed_restarts": list(rules.failed_restart_rules),
        # the team the referee may say the ball passed to (`ball_passed`), and the rule's words
        # for it, which the console's button shows (walk45i-a M1)
        **pass_offer(rules, m),
        # whom the "Impedimento" tap names, where the ruleset has it (001 Art. XXXII)
        "offside_side": offside_side(m) if "offside" in rules.referee_inputs else None,
        # the teams that may move one more disc before the restart (`disc_moved`, moves.py)
        "movers": rules.movers(m) if "disc_moved" in rules.referee_inputs else [],
        # the teams the document lets move discs before it and how many (`move_rule`, moves.py)
        "move_rule": rules.move_rule(m) if "disc_moved" in rules.referee_inputs else None,
        # the part of a team to be arranged next (`positions`, moves.py): [side, part]
        "arrange": list(rules.arrange_next(m) or ()) or None
        if "positions" in rules.referee_inputs else None,
    }


def restart_tap(rules: Any, m: dict[str, Any], allowed: dict[str, list[str]]) -> str | None:
    """The team whose restart not yet taken the referee records as taken with one tap, or
    None: where the clock runs only with the ball in play (004 A partida "num relógio que só
    corre com a bola rolando"), it stands still until the kick, which no sensor of the table
    sees (walk48a M1: it stood still until the referee found "Toque" in a sheet). The tap is
    the taker's touch (`touch {side}`, the kick: PlayRules.on_touch takes the restart and runs
    the clock), offered only when that touch would be accepted (`allowed`); never for a kick
    that is the asked shot (`Ruleset.shot_kicks`: 004 Pênaltis)."""
    r = m.get("restart")
    if (rules.clock_mode != "ball-in-play" or m["finished"] or not r or r.get("taken")
            or r["kind"] in rules.shot_kicks or r.get("side") not in SIDES):
        return None
    side = str(r["side"])
    return side if "touch" in allowed.get(side, []) else None


def pass_offer(rules: Any, m: dict[str, Any]) -> dict[str, Any]:
    """`passes_to`: the team the ball may pass to now by the referee's word (PlayRules
    .ball_passes_to), else None; `pass_words`: the rule's words for it, in each language."""
    to = rules.ball_passes_to(m)
    if to is None:
        return {"passes_to": None, "pass_words": None}
    said = passed_words(rules, m, to)
    return {"passes_to": to, "pass_words": {"pt": said.text("pt_BR"), "en": said.text("en")}}


def passed_words(rules: Any, m: dict[str, Any], to: str) -> Phrase:
    """The words of the console's control that gives the ball to `to` (the rule's
    `ball_pass`), as a value of a refusal that names it."""
    return Phrase(rules.ball_pass[0], team=rules_name(m, to), other_team=rules_name(m, other(to)))


def offside_side(m: dict[str, Any]) -> str | None:
    """The side an offside call is against (001 Art. XXXII: the attacking side's disc on a
    pass): the one that played the last lance, once a lance was played since the ball came
    into play; None at a kick-off or a restart not yet taken, or with the ball dead; None
    after a lance (a touch or a shot) played from the midline or the opponent's field
    (``played_from_attack``): §1 b wants the ball leaving the defence field."""
    r = m.get("restart")
    side = m.get("last_player")
    if not in_play(m) or m["finished"] or side not in SIDES or (r and not r.get("taken")):
        return None
    if m.get("played_from_attack") == side:
        return None
    return str(side)


def lance_lost_applies(rules: Any, m: dict[str, Any]) -> bool:
    """The restart is a kick in two lances whose first is played, of a kind whose second
    lance is lost when the first touches an opponent: a free kick (000 Art. 18 §1, 001 Art.
    XXIII §4) or a kind the ruleset cites as `<kind>_touched_opponent` (the escanteio cedido,
    001 Art. XXVIII §4) — and the vez is still the kicking team's: once it passed (the first
    lance was a shot, 000 Art. 12) there is no second lance to lose (walk 45h-a A5)."""
    r = m.get("restart")
    return bool(r and (r.get("infraction") or rules.cite(r["kind"] + "_touched_opponent"))
                and r.get("taken") and r.get("open") and r.get("lances") == 2
                and r.get("taker_lances") == 1 and m.get("turn") == r.get("side"))


def offers(rules: Any, m: dict[str, Any]) -> list[str]:
    """The ruleset's own referee inputs (``Ruleset.referee_inputs``) that apply now, in the
    order the console shows them; the handlers refuse them at any other moment
    (docs/rulesets.md, "Entradas do árbitro")."""
    mine = rules.referee_inputs
    if not mine or m["finished"]:
        return []
    playing = in_play(m)
    r = m.get("restart")
    waiting = bool(r and not r.get("taken"))
    now = {
        # 001 Art. XXXII: in open play, one tap, against the side whose lance (a pass) it
        # was: none at a kick-off or any restart not yet taken (no lance played since)
        "offside": offside_side(m) is not None,
        "ball_on_arc": playing,  # 001 Art. XXXVI
        # 001 Art. XXIX c: the kick-off attempt the referee judges incorrect
        "kickoff_failed": playing and waiting and r["kind"] == "saida",
        "discs_moved": playing and waiting and r["kind"] == "tiro_de_meta",
        # a disc moved before the restart, where a team may move one more (moves.py: 004
        # Saída de bola, Escanteios, Faltas, Tiros de meta; 003 Art. 64, 72, 73)
        "disc_moved": playing and waiting and bool(rules.movers(m)),
        # the next part of a team arranged before the restart (003 Art. 64 §6, 004 Escanteios)
        "positions": playing and waiting and rules.arrange_next(m) is not None,
        # a restart being taken with the kicking disc under 1 cm from the ball (000 Art. 26 §1 E)
        "set_piece_distance": playing and waiting,
        "keeper_kick_hit": playing and bool(r) and bool(r.get("taken"))
        and r["kind"] in ("tiro_de_meta", "bola_do_goleiro") and not r.get("touches_since"),
        # the first lance of a two-lance restart (001 lateral cedida): it was a pass
        "pass": bool(r) and r.get("open") is not False and r.get("lances") == 2
        and not r.get("taker_lances"),
        # the escanteio cedido's first lance stopped short of the big area (001 XXVIII §2 a)
        "corner_short": bool(r) and r.get("open") is not False and r.get("lances") == 2
        and r["kind"] == "escanteio_cedido" and not r.get("taker_lances"),
        # a lance played from the opponent's field or the halfway line (001 Art. XXIX d)
        "ball_from_attack": playing,
        "disc_out": playing,  # 001 Art. XXXVII §1: a disc left the field
        "rebound_midline": playing,  # 001 Art. XXXVIII
        # a foul in the offender's field: direct or indirect, the favoured's choice
        "free_kick_choice": waiting and bool(r.get("kick_choice")),  # 001 XXIII §2, 003 Art. 74
        # the ball went straight out without rolling, from one field over the other's line
        "straight_out": waiting and r.get("out_line") == "end",  # 000 Art. 23 VI C, H
        # a free kick's first lance (of two) touched an opponent: no second lance
        "pass_touched_opponent": lance_lost_applies(rules, m),
        "ball_stopped_big": playing,  # 003 Art. 43, 44 b
        # where the restart waiting is taken, where only the referee knows (001 Art. XXIX b,
        # m: the penalty mark) or the favoured side chooses (000 Art. 26 §2 II B: asked)
        # (none where the restart's article names its place: spots.place_restart)
        "kick_spot_choice": playing and waiting and bool(rules.spot_choices.get(r["kind"]))
        and bool(r.get("spot_choices")),
        # the opponents under the distance from a free kick's ball (003 Art. 73 §1)
        "disc_distances": playing and waiting and bool(r.get("infraction"))
        and r["kind"] != "penalti",
        # a touch after the kick-off that leaves the ball in the centre circle (003 Art. 34)
        "ball_in_centre_circle": playing and bool(r) and r["kind"] == "saida" and (
            not r.get("taken") or not r.get("touches_since") or bool(m.get("_in_centre_circle"))),
        # the ball resting on top of a disc in open play (003 Art. 79)
        "ball_on_disc": playing and not waiting and m.get("last_player") in SIDES
        and not m.get("_ball_on_disc"),
        # the asked shot struck by another disc than the one named (003 Art. 54 §2)
        "other_disc_shot": playing and bool(m.get("shot_asked"))
        and m["shot_asked"].get("struck_by") is None,
        # the goal just scored came off a disc on the midline (001 Art. XXXI §3): only before
        # its kick-off, as on_midline_deflection checks
        "midline_deflection": bool(m["goals"]) and m["goals"][-1]["period"] == m["period"]
        and bool(r) and r["kind"] == "saida" and not r.get("taken"),
        # the ball went to the other team in a way only the referee sees (003 Art. 47 §4)
        "ball_passed": rules.ball_passes_to(m) is not None,
    }
    return [k for k in ("kickoff_failed", "offside", "ball_on_arc", "discs_moved", "disc_moved",
                        "positions",
                        "keeper_kick_hit", "pass", "corner_short", "set_piece_distance",
                        "ball_from_attack",
                        "disc_out", "rebound_midline", "free_kick_choice", "straight_out",
                        "pass_touched_opponent", "ball_stopped_big", "other_disc_shot",
                        "midline_deflection", "kick_spot_choice", "disc_distances",
                        "ball_in_centre_circle", "ball_on_disc", "ball_passed")
            if k in mine and now[k]]
