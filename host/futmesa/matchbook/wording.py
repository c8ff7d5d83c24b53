"""What a referee or a federation reads: one sentence per log entry, and dates in the venue's zone.

Brazilian Portuguese by default, English when the kiosk is set to English. No internal code,
raw number or JSON reaches a person: every entry kind has its sentence, every value its word.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from futmesa.i18n import N_, NP_, translator
from futmesa.matchbook.numbers import number_of
from futmesa.rules.answers import ANSWER_WORDS
from futmesa.rules.base import LOST_NAMES
from futmesa.rules.core import RESTART_NAMES
from futmesa.rules.spots import SPOT_NAMES

DEFAULT_TIMEZONE = "America/Sao_Paulo"
LANGS = ("pt", "en")

Teams = dict[str, Any]


def venue_zone(name: Any) -> ZoneInfo:
    """The venue's time zone (an IANA name from the settings); São Paulo when unset or unknown."""
    try:
        return ZoneInfo(str(name)) if name else ZoneInfo(DEFAULT_TIMEZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_TIMEZONE)


def to_unix_s(stamp: Any) -> float | None:
    """Unix seconds from a stamp in seconds or milliseconds (anything before 2001 in ms is s)."""
    if not isinstance(stamp, int | float) or isinstance(stamp, bool) or stamp <= 0:
        return None
    return stamp / 1000 if stamp > 1e11 else float(stamp)


def when(stamp: Any, zone: ZoneInfo | None = None, *, seconds: bool = False) -> str:
    """A date and time as a person at the venue reads it: ``01/12/2026 14:05``."""
    unix = to_unix_s(stamp)
    if unix is None:
        return ""
    local = datetime.fromtimestamp(unix, UTC).astimezone(zone or venue_zone(None))
    return local.strftime("%d/%m/%Y %H:%M:%S" if seconds else "%d/%m/%Y %H:%M")


def time_of_day(stamp: Any, zone: ZoneInfo | None = None) -> str:
    unix = to_unix_s(stamp)
    if unix is None:
        return ""
    return datetime.fromtimestamp(unix, UTC).astimezone(zone or venue_zone(None)).strftime(
        "%H:%M:%S")


def minutes_text(ms: Any, lang: str = "pt") -> str:
    """A duration: "2 min", "30 s", "1 min 30 s"."""
    if not isinstance(ms, int | float):
        return ""
    total = round(abs(ms) / 1000)
    m, s = divmod(total, 60)
    parts = ([f"{m} min"] if m else []) + ([f"{s} s"] if s or not m else [])
    return " ".join(parts)


def clock_text(clock_ms: Any) -> str:
    """A match clock: "01:05"."""
    if not isinstance(clock_ms, int | float):
        return ""
    total = int(clock_ms) // 1000
    return f"{total // 60:02d}:{total % 60:02d}"


def confirmed_clock(to_ms: Any, lang: str = "pt") -> str:
    """The table's adjustment that carries out the referee's advance of its clock (the power
    cut's "Sim", records.carries_out_catch_up): its confirmation, with the clock it reads."""
    _ = translator(lang).gettext
    return _("The table confirms: clock now at {clock}").format(clock=clock_text(to_ms))


def team(teams: Teams, side: Any, lang: str = "pt") -> str:
    t = teams.get(str(side)) if isinstance(teams, dict) else None
    if isinstance(t, dict) and t.get("name"):
        return str(t["name"])
    if side in ("A", "B"):
        return translator(lang).gettext("Team {side}").format(side=side)
    return "—"


# ---- names for things: tables, rulesets, time zones, goals and sensors --------------------
RULESET_TITLES: dict[str, str] = {
    "cbfm-1toque": "CBFM — Regra 1 Toque", "gaucha": "Regra Gaúcha (LGFM)",
    "pastilha-8x2": "Pastilha 8x2 (FEFUMERJ / CBFM)",
    "pastilha-8x2-clube": "Pastilha 8x2 — clube (2 × 5 min)",
    "mesa-posta": "A mesa está posta",
}


def ruleset_title(ruleset: Any, lang: str | None = None) -> str:
    """A ruleset as people name it ("CBFM — Regra 1 Toque"), never its id; one this host
    does not know (a table's own) is "Table rules" ("Regra da mesa") in ``lang`` (default: the
    process language)."""
    key = str(ruleset or "")
    if not key:
        return ""
    return RULESET_TITLES.get(key) or translator(lang).gettext("Table rules")


def ruleset_choices() -> list[tuple[str, str]]:
    """Every ruleset this host plays, as (id, title), in the registry's order: the console's
    "Regras" choice is built from this, so a new ruleset file appears there by itself."""
    from futmesa.rules import ruleset_names

    return [(name, ruleset_title(name)) for name in ruleset_names()]


def table_name(table_id: Any, given: Any = None, index: int | None = None,
               lang: str = "pt") -> str:
    """A table as people name it: the name from the settings or the board file, else "Mesa N".

    N is the number at the end of a numbered id ("sim-SIM00001", "mesa-3"), else the table's
    place among the host's tables (``index``, from 1). A board uid is never shown.
    """
    if isinstance(given, str) and given.strip():
        return given.strip()[:40]
    word_ = translator(lang).gettext("Table")
    tid = str(table_id or "")
    tail = re.search(r"(?:^|[-_ ]|[A-Za-z])0*(\d{1,3})$", tid)
    hexish = re.fullmatch(r"(?:pico|esp32|rp2040|rpi)-[0-9a-fA-F]{8,}", tid)
    if tail and not hexish:
        return f"{word_} {int(tail.group(1)) or 1}"
    return f"{word_} {index or 1}"


_CITIES: dict[str, str] = {"Sao_Paulo": "São Paulo", "Belem": "Belém", "Maceio": "Maceió",
                           "Cuiaba": "Cuiabá", "Araguaina": "Araguaína"}


def zone_city(zone: Any, lang: str = "pt") -> str:
    """A time zone as a city: "horário de São Paulo" (never "America/Sao_Paulo")."""
    key = getattr(zone, "key", None) or str(zone or DEFAULT_TIMEZONE)
    city = key.rsplit("/", 1)[-1]
    city = _CITIES.get(city, city.replace("_", " "))
    if key.upper() in ("UTC", "ETC/UTC", "GMT"):
        return "UTC"
    return translator(lang).gettext("{city} time").format(city=city)


def goal_owner(goal: Any, ends: Any) -> str | None:
    """The side defending goal line ``goal`` (0/1) under ``ends`` ({"A": 0, "B": 1})."""
    e = ends if isinstance(ends, dict) else {"A": 0, "B": 1}
    for side in ("A", "B"):
        if e.get(side) == goal:
            return side
    return None


def sensor_name(sensor: Any, teams: Teams, ends: Any = None, lang: str = "pt") -> str:
    """A sensor by its place on the table: "sensor do gol de Estrela do Norte"."""
    _ = translator(lang).gettext
    if sensor in (0, 1):
        owner = goal_owner(sensor, ends)
        name = team(teams, owner, lang) if owner else ""
        return _("{team}'s goal sensor").format(team=name) if name else _("goal sensor")
    if sensor == 15:
        return _("the table's memory")
    return _("side-net sensor")


# ---- words for values ---------------------------------------------------------------------
_WORDS: dict[str, dict[str, tuple[str, str]]] = {
    "fault": {
        "stuck": NP_("fault", "blocked for too long"),
        "no_answer": NP_("fault", "not answering"),
        "out_of_range": NP_("fault", "reading out of range"),
        "drift": NP_("fault", "baseline drifted"),
    },
    "restart": {
        "saida": NP_("restart", "kick-off"),
        "lateral": NP_("restart", "throw-in"),
        "escanteio": NP_("restart", "corner"),
        "tiro_de_meta": NP_("restart", "goal kick"),
        "bola_do_goleiro": NP_("restart", "goalkeeper's ball"),
        "tiro_livre": NP_("restart", "free kick"),
        "free_kick": NP_("restart", "free kick"),
        "falta": NP_("restart after a foul", "free kick"),
        "falta_direta": NP_("restart", "direct free kick"),
        "falta_indireta": NP_("restart", "indirect free kick"),
        "falta_tecnica": NP_("restart", "technical foul kick"),
        "penalti": NP_("restart", "penalty"),
        "disciplinary_kick": NP_("restart", "disciplinary kick"),
        "shootout_kick": NP_("restart", "shootout penalty"),
    },
    "foul": {
        "falta": NP_("foul", "foul"),
        "toque": NP_("foul", "illegal touch"),
        "mao": NP_("foul", "hand"),
        "penalti": NP_("foul", "penalty"),
        "tecnica": NP_("foul", "technical foul"),
        "dois_toques": NP_("foul", "double touch"),
    },
    # where the fouled disc was, from the favoured team's view (docs/rulesets.md, foul):
    # the offender's half is the favoured team's "opponent_half", as the console's chips say
    "where": {
        "own_half": NP_("where", "in the fouled side's half"),
        "opponent_half": NP_("where", "in the offender's half"),
        "box": NP_("where", "in the box"),
    },
    "discipline": {
        "disciplinary": NP_("discipline", "disciplinary foul"),
        "expel": NP_("discipline", "sending-off"),
        "end_match": NP_("discipline", "match ended by the referee"),
        "deliberate_foul": NP_("discipline", "deliberate foul"),
        "disqualify": NP_("discipline", "disqualification"),
    },
    "outcome": {
        "saved": NP_("outcome", "saved"),
        "wide": NP_("outcome", "wide"),
        "post": NP_("outcome", "off the post"),
        "in_play": NP_("outcome", "in play"),
        "short": NP_("outcome", "short"),
        "miss": NP_("outcome", "missed"),
        # the console's button and the announcement say the same (rules/goals.py SHOT_OUTCOMES)
        "blocked": NP_("outcome", "blocked by a disc"),
    },
    "choice": {
        "left": NP_("choice", "left"),
        "middle": NP_("choice", "middle"),
        "right": NP_("choice", "right"),
        "secreta": NP_("choice", "secret"),
        # a question's answers: the words its buttons show (rules/answers.py, one list)
        **ANSWER_WORDS,
    },
    "ball": {
        "opponent_half": NP_("ball", "from the opponent's half"),
        "midline": NP_("ball", "from the midline"),
        "own_half": NP_("ball", "from its own half"),
    },
}


def word(group: str, value: Any, lang: str = "pt") -> str:
    marked = _WORDS.get(group, {}).get(str(value))
    if marked is None:
        return str(value).replace("_", " ")
    return translator(lang).pgettext(*marked)


def fault_word(fault: Any, lang: str = "pt") -> str:
    """A sensor fault in words ("bloqueado por tempo demais"); one without words is "com
    defeito", never its code."""
    if str(fault) in _WORDS["fault"]:
        return word("fault", fault, lang)
    return translator(lang).gettext("faulty")


def _num(value: Any) -> str:
    return str(value) if value is not None else "?"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def ordinal(n: Any, lang: str = "pt") -> str:
    """"1º" / "1st": a period's number as an ordinal."""
    _ = translator(lang).gettext
    return {1: _("1st"), 2: _("2nd"), 3: _("3rd")}.get(n) or _("{n}th").format(n=n)

def sentence(kind: str, data: Any, teams: Teams, lang: str = "pt", *,
             period: Any = None, targets: dict[int, dict[str, Any]] | None = None,
             ends: Any = None, interval: bool = False, closing: bool = False) -> str:
    """One sentence saying what an entry is, in ``lang`` ("pt" or "en").

    ``ends`` ({"A": 0, "B": 1}: the goal line each side defends) names goals and sensors by
    the side of the table; the starting ends when not given. ``interval``: the entry was made
    between two periods (the table's alarm then ends the interval); ``closing``: the table's
    alarm closes a period the rules had ended (at its dead ball: it ends the period, time ran
    out before it).
    """
    d: dict[str, Any] = data if isinstance(data, dict) else {}
    pt = lang != "en"

    def t(side: Any) -> str:
        return team(teams, side, lang)

    _ = translator(lang).gettext
    disc = _("disc {number}").format(number=d["disc"]) if d.get("disc") is not None else ""
    with_disc = f", {disc}" if disc else ""
    nth = ordinal(period, lang)

    match kind:
        # -- device events --------------------------------------------------------------
        case "goal_line":
            owner = goal_owner(int(d.get("goal", 0) or 0), ends)
            if owner is None:
                return _("Sensor: ball on a goal line")
            return _("Sensor: ball on {team}'s goal line").format(team=t(owner))
        case "ball_out":
            # "end": the goal end of the table the zone is at, named by the side defending it
            owner = goal_owner(d.get("end"), ends) if d.get("end") in (0, 1) else None
            if d.get("line") == "end":
                where = _(", {team}'s end").format(team=t(owner)) if owner else ""
                return _("Ball out over the end line") + where
            where = _(", in {team}'s half").format(team=t(owner)) if owner else ""
            return _("Ball out over the side line") + where
        case "palheta":
            pos = d.get("pos")
            if pos in ("A", "B"):
                # 000 Regra 1 §3: the palheta shows the side the ball went out on
                return _("Palheta: the ball went out on {team}'s side").format(team=t(pos))
            return _("Palheta in the centre (no call)")
        case "clock_started":
            reason = d.get("reason")
            if reason == 2:
                return _("Clock running: ball in play")
            if reason == 1:
                return _("Clock resumed")
            return _("Clock started")
        case "clock_stopped":
            reason = d.get("reason")
            if reason == 1:
                return _("Clock stopped: dead ball")
            if reason == 2:
                return _("Clock stopped: end of the period")
            return _("Clock paused")
        case "period_over":
            # the table's own close: the rules' "Fim do 1º tempo" is said once, on its alarm
            return (_("The table's clock closes the {nth} period").format(nth=nth) if period
                    else _("The table's clock closes the period"))
        case "period_started":
            return (_("Start of the {nth} period").format(nth=nth) if period
                    else _("Start of the period"))
        case "alarm":
            if interval:
                return _("Alarm: the interval is over")
            if closing and d.get("pattern") != 1:  # not the interval's warning after the end
                return _("Alarm: end of the period")
            return _("Alarm: time is up")
        case "time_up":
            return _("Time is up: the period ends at the next dead ball")
        case "lance_expired":
            who = t(d.get("side")) if d.get("side") in ("A", "B") else ""
            if d.get("warning"):
                return (_("Warning: lance time of {team} running out").format(team=who) if who
                        else _("Warning: lance time running out"))
            return (_("Lance time of {team} expired").format(team=who) if who
                    else _("Lance time expired"))
        case "lance_started":
            who = t(d.get("side")) if d.get("side") in ("A", "B") else ""
            return (_("Lance of {team} started").format(team=who) if who
                    else _("Lance started"))
        case "button":
            b = d.get("button")
            if b in ("turnA", "turnB"):
                side = b[-1]
                return _("{team} ends its lance (table button)").format(team=t(side))
            return _("Table button: referee called")
        case "sensor_fault":
            which = sensor_name(d.get("sensor"), teams, ends, lang)
            return _("Fault on the {sensor}: {fault}").format(
                sensor=which, fault=word("fault", d.get("fault"), lang))
        case "sensor_ok":
            which = sensor_name(d.get("sensor"), teams, ends, lang)
            return _("{sensor} working again").format(sensor=_cap(which))
        case "gap":
            rng = f"{_num(d.get('first_seq'))}–{_num(d.get('last_seq'))}"
            return _("Table events lost (no. {range}): check score and time").format(range=rng)
        case "boot":
            return _("Table switched on")
        case "clock_restored":
            return _("Table clock restored after a restart: {time} not counted").format(
                time=minutes_text(d.get("lost_ms") or 0))
        case "clock_adjusted":
            delta = d.get("delta_ms", 0) or 0
            if delta > 0 and d.get("to_ms") == delta:
                # a table back with no clock (00:00) set to the log's newest time of the
                # period (table/behind.py): a restore to a time, not time added (walk 48a L1)
                return _("Clock restored to {clock} (the last time the host knew)").format(
                    clock=clock_text(delta))
            sign = "+" if delta >= 0 else "−"
            return _("Clock adjusted by {sign}{time}").format(sign=sign, time=minutes_text(delta))
        case "time_added":
            return _("Table: {time} added").format(time=minutes_text(d.get('ms')))
        case "match_over":
            return _("Table: end of the match")
        case "profile_set":
            return _("Table set up: periods of {time}").format(
                time=minutes_text(d.get("period_ms")))
        # -- referee inputs -------------------------------------------------------------
        case "set_up":
            names: Teams = d["teams"] if isinstance(d.get("teams"), dict) else teams
            a, b = team(names, "A", lang), team(names, "B", lang)
            ko = d.get("kickoff")
            kick = (_("; {team} kick off").format(team=team(names, ko, lang))
                    if ko in ("A", "B") else "")
            return _("Match set up: {team_a} v {team_b}{kickoff}").format(
                team_a=a, team_b=b, kickoff=kick)
        case "kickoff":
            return _("Kick-off to {team}").format(team=t(d.get('side')))
        case "ends":
            if int(d.get("A", 0) or 0) == 1:
                return _("Change of ends: {team_a} and {team_b} swap goals").format(
                    team_a=t("A"), team_b=t("B"))
            return _("Ends: {team_a} and {team_b} in their starting goals").format(
                team_a=t("A"), team_b=t("B"))
        case "start_period":
            # started before the interval ran out, as the referee confirmed it on the console
            # (000 Art. 8 §9: "no máximo, 5' de intervalo"; walk 45i-b M-b)
            left = d.get("interval_left_ms")
            if isinstance(left, int) and left >= 1000 and isinstance(period, int) and period > 0:
                return _("Referee starts the {nth} period with {left} of the interval still "
                         "to go").format(nth=ordinal(period + 1, lang),
                                         left=f"{left // 60000}:{left // 1000 % 60:02d}")
            return _("Referee starts the period")
        case "added_time":
            return _("{time} added time").format(time=minutes_text(d.get('ms')))
        case "clock_catch_up":
            return _("Referee advances the clock {time}: play went on while the table was "
                     "off").format(time=minutes_text(d.get('ms')))
        case "clock_kept":
            return _("Referee keeps the clock as restored: {time} not counted, play stopped "
                     "while the table was off").format(time=clock_text(d.get("ms")))
        case "pause":
            return _("Referee pauses the clock")
        case "resume":
            return _("Referee resumes the clock")
        case "touch" if d.get("shot") and d.get("disc") is not None:
            # the asked shot struck by the disc the referee saw (003 Art. 54 §2: by another
            # disc than the one announced it does not count)
            return _("Shot struck by {team}{disc}").format(team=t(d.get("side")), disc=with_disc)
        case "touch":
            miss = "" if d.get("hit", True) else _(" (missed the ball)")
            if d.get("out_of_turn"):
                miss += _(" — out of turn")
            if d.get("ball"):  # 001 Art. XXIX d: where the ball lay when it was played
                miss += f" {word('ball', d['ball'], lang)}"
            if d.get("reaches_big_area") is False:  # 001 Art. XXVIII §2 a
                miss += _(" — short of the big area")
            if d.get("ball_touched_midline"):  # 001 Art. XLXII: no shot after it
                miss += _(" — the ball touched the halfway line")
            if d.get("from_half") and d.get("from_half") == d.get("side"):  # 001 XXIII §1 b
                miss += _(" — in its defence field")
            if d.get("pass"):  # 001 Art. XXIX l: the cedida's first lance, a pass
                return _("Pass by {team}{disc}{miss}").format(
                    team=t(d.get("side")), disc=with_disc, miss=miss)
            return _("Touch by {team}{disc}{miss}").format(
                team=t(d.get("side")), disc=with_disc, miss=miss)
        case "shot_asked":
            ball = f" {word('ball', d['ball'], lang)}" if d.get("ball") else ""
            return _("Shot asked by {team}{disc}{ball}").format(
                team=t(d.get("side")), disc=with_disc, ball=ball)
        case "shot_result":
            return _("Shot without a goal: {outcome}").format(
                outcome=word("outcome", d.get("outcome"), lang))
        case "last_touch":
            return _("Last touch: {team}").format(team=t(d.get('side')))
        case "restart":
            what = word("restart", d.get("kind"), lang)
            return _("Restart: {what} to {team}").format(what=what, team=t(d.get('side')))
        case "lance_done":
            return _("Last lance over")
        case "foul":
            what = word("foul", d.get("type") or "falta", lang)
            where = f" {word('where', d['where'], lang)}" if d.get("where") else ""
            return _("{what} by {team}{disc}{where}").format(
                what=_cap(what), team=t(d.get("side")), disc=with_disc, where=where)
        case "discipline":
            what = word("discipline", d.get("type") or d.get("action") or "disciplinary", lang)
            return _("{what}: {team}{disc}").format(
                what=_cap(what), team=t(d.get("side")), disc=with_disc)
        case "substitution":
            return _("Substitution for {team}: disc {off} off, {on} on").format(
                team=t(d.get("side")), off=_num(d.get("out")), on=_num(d.get("in")))
        case "offside":
            return _("Offside against {team}{disc}").format(team=t(d.get('side')), disc=with_disc)
        case "rebound_midline":
            return _("Rebound over the halfway line: no shot on the next lance")
        case "free_kick_choice":
            if d.get("kick") == "indirect":
                return _("The favoured team takes the free kick indirect")
            return _("The favoured team takes the free kick direct")
        case "disc_out":
            return _("{team} disc {disc} out of the field").format(
                team=t(d.get("side")), disc=_num(d.get("disc")))
        case "goal_by_hand":  # the sensor did not see it: the referee's word for the trip
            return _("Referee: ball in {team}'s goal (the sensor missed it)").format(
                team=t({"A": "B", "B": "A"}.get(d.get("side"))))
        case "ball_stopped":  # the camera's proposal, tapped, cites its clip
            where = (_("Ball stopped in {team}'s big area") if d.get("area") == "big"
                     else _("Ball stopped in {team}'s small area"))
            return where.format(team=t(d.get('side'))) + on_video(d, targets, lang)
        case "ball_passed":  # 003 Art. 47 §4, 004 Bola fora: the rule's reason is announced
            return _("The referee gives the ball to {team}").format(team=t(d.get("side")))
        case "ball_on_disc":  # 003 Art. 79: only that disc may play
            return _("The ball rests on top of {team} disc {disc}").format(
                team=t(d.get("side")), disc=_num(d.get("disc")))
        case "straight_out":
            return _("The ball went straight out without rolling")
        case "pass_touched_opponent":
            return _("The kick's first lance touched an opponent")
        case "restart_failed":
            why = (_("the ball did not reach the midline")
                   if d.get("reason") == "midline"
                   else _("the ball did not leave the big area"))
            return _("Restart failed: {reason}").format(reason=why) + on_video(d, targets, lang)
        case "draw_choice":
            choice = d.get("choice")
            what = {"ball": _("takes the ball"), "cede": _("gives up the ball"),
                    "field": _("chooses the field")}.get(choice) or _("chose")
            winner = t(d.get("winner")) if d.get("winner") in ("A", "B") else ""
            return _("Draw: {winner} {what}").format(winner=winner, what=what).replace("  ", " ")
        case "midline_deflection":
            return _("Goal disallowed: deflected off a disc on the midline")
        case "cera":
            return _("Time-wasting: {team}{disc}").format(team=t(d.get('side')), disc=with_disc)
        case "lost":
            if d.get("kind"):
                names_ = LOST_NAMES.get(d["kind"], (d["kind"], d["kind"]))
                return _("Table restarted: {count} {what} event(s) lost unconfirmed").format(
                    count=_num(d.get("count")), what=names_[0 if pt else 1])
            if d.get("reserved_seq"):
                return _("Table restarted: events made in the previous boot's last moments, "
                         "after no. {made}, may be lost (at most up to no. {reserved})").format(
                    made=_num(d.get("made_seq")), reserved=_num(d.get("reserved_seq")))
            return _("Table restarted: events {first}–{last} of the previous boot lost").format(
                first=_num(d.get("first_seq")), last=_num(d.get("last_seq")))
        case "shootout_kick" if d.get("goalkeeper"):
            return _("Shootout penalty: {team}, by the goalkeeper").format(team=t(d.get("side")))
        case "shootout_kick":
            res = ""
            if "scored" in d:
                res = ": " + (_("goal") if d["scored"] else _("penalty missed"))
            return _("Shootout penalty: {team}{disc}{result}").format(
                team=t(d.get("side")), disc=with_disc, result=res)
        case "keeper_choice":
            choice = d.get("choice")
            shown = f": {word('choice', choice, lang)}" if choice else ""
            return _("{team} goalkeeper's choice{choice}").format(
                team=t(d.get("side")), choice=shown)
        case "shootout_result":
            return _("Penalty result: {result}").format(
                result=_("goal") if d.get("scored") else _("penalty missed"))
        case "confirm":
            asked = (targets or {}).get(d.get("target"))  # type: ignore[arg-type]
            goal = goal_named(asked, lang)  # a goal's question is about the goal (#45g G3)
            fact = fact_named(asked, lang)  # any other: the fact in words, placed (45h B4)
            about = (_("on the {goal}").format(goal=goal[:1].lower() + goal[1:]) if goal else
                     _("on “{fact}”").format(fact=fact[0]) + (f" ({fact[1]})" if fact[1] else "")
                     if fact else
                     _("on entry no. {number}").format(number=number_of(d.get('target'), targets))
                     + (f" ({target_text(asked, teams, lang)})" if asked else ""))
            tapped = ((asked or {}).get("answer_words") or {}).get("en" if lang == "en" else "pt")
            if "choice" in d:
                # the words of the button tapped (rules/answers.py chosen_words), never a
                # shorter "falta" for "cera — bola no campo de …" (walk45j-b 34-lance-ans)
                answer = tapped or word("choice", d.get("choice"), lang)
                if d.get("choice") in ("A", "B"):  # a team, said for what it was chosen
                    answer = (_("last touched by {team}") if (asked or {}).get("kind") == "ball_out"
                              else _("kick-off to {team}")).format(team=t(d.get("choice")))
                elif isinstance(d.get("choice"), int) and not isinstance(d["choice"], bool):
                    # a disc's number typed in ("Qual botão … é expulso?"): "botão 3", never "3"
                    answer = _("disc {number}").format(number=d["choice"])
            else:
                answer = _("accepted") if d.get("accept") else _("refused")
            cited = clip_cited(d, targets, lang)  # a tap on the camera's proposal cites its clip
            if cited:
                answer += _(", confirmed from the video{clip}").format(clip=cited)
            return _("Referee decides {about}: {answer}").format(about=about, answer=answer)
        case "void":
            # the row it voids in words, never only its number: the Resumo of the súmula,
            # /assinar and /history show no numbers (walk45i-a M4)
            target = (targets or {}).get(d.get("target"))  # type: ignore[arg-type]
            why = _(" — reason: {reason}").format(reason=d["reason"]) if d.get("reason") else ""
            if d.get("keep_clock"):  # the referee said the ball stayed dead (walk49a M3)
                why += _(" — clock kept stopped: the ball stayed dead")
            if target:
                return _("Voids “{what}”{reason}").format(
                    what=target_text(target, teams, lang, targets), reason=why
                ) + clip_cited(d, targets, lang)
            return _("Voids entry no. {number}{what}{reason}").format(
                number=number_of(d.get("target"), targets), what="", reason=why
            ) + clip_cited(d, targets, lang)
        case "amend":
            # the fact before and after, as the Correções table gives them (walk45i-a M4:
            # "Corrige o registro nº 33" named a number those pages do not show, and not the
            # value it changed)
            target = (targets or {}).get(d.get("target"))  # type: ignore[arg-type]
            new_kind = d.get("kind") or (target or {}).get("kind") or ""
            new = sentence(str(new_kind), d.get("data"), teams, lang,
                           ends=(target or {}).get("ends")) if new_kind else ""
            why = _(" — reason: {reason}").format(reason=d["reason"]) if d.get("reason") else ""
            if d.get("keep_clock"):  # the referee said the ball stayed dead (walk49a M3)
                why += _(" — clock kept stopped: the ball stayed dead")
            if target:
                return _("Corrects “{old}”: now “{new}”{reason}").format(
                    old=target_text(target, teams, lang, targets), new=new, reason=why
                ) + clip_cited(d, targets, lang)
            return _("Amends entry no. {number}: now “{new}”{reason}").format(
                number=number_of(d.get("target"), targets), new=new, reason=why
            ) + clip_cited(d, targets, lang)
        # -- referee inputs for what the table cannot see (rules/situations.py) --------------
        case "taker":
            who = (_("the goalkeeper") if d.get("goalkeeper")
                   else _("the disc {number}").format(number=_num(d.get("disc"))))
            return _("Taker chosen: {who}").format(who=who)
        case "waive":
            return _("Restart waived by the favoured player: a normal lance")
        case "keeper_foul":
            return _("Foul by {team} on the goalkeeper").format(team=t(d.get('side')))
        case "restart_side":
            flank = d.get("flank")
            return (_("Restart taken from the left") if flank == "left"
                    else _("Restart taken from the right"))
        case "ball_on_arc":
            owner = goal_owner(d.get("end"), ends) if d.get("end") in (0, 1) else None
            if owner is None:
                return _("Ball resting on the corner arc")
            return _("Ball resting on the corner arc, {team}'s end").format(team=t(owner))
        case "discs_moved":
            return _("{team} moved discs before the goal kick").format(team=t(d.get('side')))
        case "disc_moved":  # before any restart that lets a team move discs (rules/moves.py)
            return _("{team} moved disc {disc} before the restart").format(
                team=t(d.get("side")), disc=_num(d.get("disc")))
        case "positions" if str(d.get("disc", "")).upper() == "GK":  # 004 Escanteios
            return _("{team}'s goalkeeper placed in the small area").format(team=t(d.get("side")))
        case "positions" if d.get("part") == "attack":  # 003 Art. 64 §6
            return _("{team} arranged its attack").format(team=t(d.get("side")))
        case "positions":
            return _("{team} arranged its defence").format(team=t(d.get("side")))
        case "kickoff_failed":  # 001 Art. XXIX c
            return _("{team}'s kick-off attempt not correct").format(team=t(d.get("side")))
        case "set_piece_distance":
            return _("{team}'s kicking disc {disc} less than 1 cm from the ball").format(
                team=t(d.get("side")), disc=_num(d.get("disc")))
        case "keeper_kick_hit":
            return _("The goalkeeper's kick hit an opponent's disc")
        case "kick_spot_choice":
            # where the restart waiting is taken (rules/spots.py): the referee's tap
            where = (SPOT_NAMES[str(d.get("spot"))][0 if pt else 1]
                     if d.get("spot") in SPOT_NAMES else str(d.get("spot", "")))
            flank = {"left": _(", left corner"), "right": _(", right corner")}.get(
                str(d.get("flank")), "")
            if d.get("spot_of") in ("A", "B"):
                return _("Kick taken {spot} ({team}{flank})").format(
                    spot=where, team=t(d.get("spot_of")), flank=flank)
            return _("Kick taken {spot}").format(spot=where)
        case "disc_distances":
            near = ", ".join(f"{k} {v} mm" for k, v in (d.get("mm") or {}).items())
            return _("Discs' distances from the free kick's ball: {discs}").format(discs=near)
        case "signature":
            signer = {"referee": _("by the referee"),
                   "captain_A": _("by {team_a}'s captain").format(team_a=t('A')),
                   "captain_B": _("by {team_b}'s captain").format(team_b=t('B'))}
            by = signer.get(str(d.get("role")), "")
            return _("Report signed {by}: {name}").format(by=by, name=d.get('name', ''))
        case "reopen":
            why = _(" — reason: {reason}").format(reason=d["reason"]) if d.get("reason") else ""
            return _("Match reopened; the earlier signatures are no longer valid{reason}").format(
                reason=why)
        case "new_match":
            return _("New match")
        case "goal":
            return _("Goal for {team}{disc}").format(team=t(d.get('side')), disc=with_disc)
        case "start":
            return _("Match started")
        case "review":
            return _("Review: the referee asked to see the moment again")
        case "clip":  # the camera's clip of an entry (docs/camera.md)
            if d.get("sha256"):
                seconds = max(0, int(d.get("to_ms", 0)) - int(d.get("from_ms", 0))) / 1000
                return _("Clip of entry {entry} recorded ({seconds} s, SHA-256 {hash})").format(
                    entry=number_of(d.get("shows"), targets),
                    seconds=f"{seconds:.1f}".replace(".", "," if pt else "."),
                    hash=str(d["sha256"])[:12])
            if d.get("absent") == "camera_disk_full":
                return _("No clip of entry {entry}: the disk was full").format(
                    entry=number_of(d.get("shows"), targets))
            return _("No clip of entry {entry}: the camera was disconnected").format(
                entry=number_of(d.get("shows"), targets))
    label = kind.replace("_", " ")
    return _("Entry “{label}”").format(label=label)


def clip_cited(data: Any, targets: dict[int, dict[str, Any]] | None, lang: str = "pt") -> str:
    """The clip a correction (or an answer confirmed from the video) cites, as the record says
    it: " (vídeo nº 38, SHA-256 9c4a26952314)"; "" when it cites none (docs/camera.md)."""
    d: dict[str, Any] = data if isinstance(data, dict) else {}
    number = d.get("clip")
    if not isinstance(number, int) or isinstance(number, bool):
        return ""
    _ = translator(lang).gettext
    clip = (targets or {}).get(number) or {}
    digest = (clip.get("data") or {}).get("sha256") if isinstance(clip.get("data"), dict) else None
    if digest:
        return _(" (video no. {number}, SHA-256 {hash})").format(
            number=number_of(number, targets), hash=str(digest)[:12])
    return _(" (video no. {number})").format(number=number_of(number, targets))


def goal_named(entry: dict[str, Any] | None, lang: str = "pt") -> str:
    """The goal an entry counted (or counted before its void), as the account names it
    ("Gol de Alvorada (1 × 0, 2', botão 9)": matchbook/records.py), else ""."""
    named = (entry or {}).get("goal_words") or {}
    return str(named.get("en" if lang == "en" else "pt") or "")


def on_video(data: Any, targets: dict[int, dict[str, Any]] | None, lang: str = "pt") -> str:
    """", confirmado pelo vídeo (vídeo nº 43, SHA-256 …)" after a fact the referee entered by
    tapping the camera's proposal; "" when the input cites no clip."""
    cited = clip_cited(data, targets, lang)
    if not cited:
        return ""
    return translator(lang).gettext(", confirmed from the video{clip}").format(clip=cited)


def fact_named(entry: dict[str, Any] | None, lang: str = "pt") -> tuple[str, str] | None:
    """The fact a question asked about, in words and placed ("Tempo do lance de X esgotado",
    "1º tempo 1'": matchbook/records.py asked_named), else None."""
    named = ((entry or {}).get("fact_words") or {}).get("en" if lang == "en" else "pt")
    return (str(named[0]), str(named[1] or "")) if named else None


def target_text(entry: dict[str, Any], teams: Teams, lang: str = "pt",
                targets: dict[int, dict[str, Any]] | None = None) -> str:
    """An entry as a correction or an answer names it: the goal it counted, the rules' words
    for it (matchbook/records.py SAID_BY_RULES), else its row — read with the match's entries
    (``targets``), as its own row is: an answer quoted by its void names the goal it decided,
    never "o registro nº 88", a stored id (walk45j-a H2)."""
    named = goal_named(entry, lang) or str((entry.get("rule_words") or {}).get(
        "en" if lang == "en" else "pt") or "")
    if named:
        return named
    return sentence(str(entry.get("kind", "")), entry.get("data"), teams, lang,
                    period=entry.get("period"), ends=entry.get("ends"), targets=targets)


# ---- origins, statuses, endings -------------------------------------------------------
def origin(source: Any, author: Any, lang: str = "pt") -> str:
    """Who made an entry, as a person says it (never ``device``/``referee``)."""
    who = str(author or "")
    _ = translator(lang).gettext
    if source == "device":
        return _("Table")
    if source == "system":
        return _("System")
    if source == "camera":
        return _("Camera")
    if who.startswith("demo"):
        return _("Referee (demo)")
    if who in ("desk", "venue", "venue-desk", "organiser", "organizer"):
        return _("Organisers")
    return person(who) or _("Referee")


def person(author: Any) -> str:
    """The name of the person who made an entry, or "": a machine-made id ("console-2",
    "scripted_referee") or the generic "referee" is no one's name to show (issue 45 #3: "anulado
    pelo registro nº 7 (referee)")."""
    who = str(author or "").strip()
    if who.lower() in ("referee", "árbitro") or re.fullmatch(r"[a-z0-9]+[-_][\w-]+", who):
        return ""
    return who


def status_text(status: dict[str, Any] | None, lang: str = "pt", kind: Any = None) -> str:
    """An entry's status: "" when it counts as logged, else voided / amended / without effect;
    a correction (``kind``) voided is undone, said so (walk45i-a, low: "Anulado pelo registro
    nº 36" on a void that was undone)."""
    if not status:
        return ""
    _ = translator(lang).gettext
    state = status.get("state")
    by = status.get("by")
    ref = (_(" no. {number}").format(number=status.get("by_no") or "?")  # numbers.py
           if by is not None else "")
    who = f" ({person(status.get('author'))})" if person(status.get("author")) else ""
    if state == "voided" and kind == "void":
        return _("Void undone by entry{number}{author}").format(number=ref, author=who)
    if state == "voided" and kind == "amend":
        return _("Correction undone by entry{number}{author}").format(number=ref, author=who)
    if state == "voided":
        return _("Voided by entry{number}{author}").format(number=ref, author=who)
    if state == "amended":
        return _("Amended by entry{number}{author}").format(number=ref, author=who)
    if state == "moot" and status.get("goal"):  # the goal it was asked about was voided
        return _("Withdrawn: the goal was voided by entry{number}").format(number=ref)
    if state == "moot":  # its question's entry was voided: the answer went with it
        return _("Withdrawn: its question was voided by entry{number}").format(number=ref)
    if state == "without_effect":
        return (_("No effect: replaced by entry{number}").format(number=ref) if by is not None
                else _("No effect"))
    return ""


# ---- the correction form ------------------------------------------------------------------
_FIELD_LABELS: dict[str, str] = {
    "side": N_("Team"), "disc": N_("Disc"), "out": N_("Disc off"),
    "in": N_("Disc on"), "goal": N_("Goal line"),
    "type": N_("Kind"), "where": N_("Where"), "kind": N_("Restart"),
    "outcome": N_("Outcome"), "scored": N_("Goal"), "hit": N_("Hit"),
    "ms": N_("Time (min:s)"), "pos": N_("Palheta"), "ball": N_("Ball"),
    "choice": N_("Choice"), "direct": N_("Direct"), "period_ms": N_("Half length (min:s)"),
    "interval_ms": N_("Interval (min:s)"), "zone": N_("Side-net zone"),
    "line": N_("Line"), "end": N_("End of the table"), "pass": N_("It was a pass"),
    "reaches_big_area": N_("Reached the big area"),
    "out_of_turn": N_("Out of turn"), "teammate_last": N_("A team-mate touched it last"),
}
_RECORD_ONLY = {"lost", "gap", "boot", "alarm", "period_over", "match_over", "period_started",
                "clock_started", "clock_stopped", "lance_started", "time_up", "sensor_ok",
                "sensor_fault", "clock_restored"}
# values in milliseconds: shown and typed as min:s on the form ("3:00", never 180000)
_DURATION_FIELDS = {"ms", "period_ms", "interval_ms"}
_FIELD_CHOICES: dict[str, str] = {"type": "foul", "where": "where", "kind": "restart",
                                  "outcome": "outcome", "ball": "ball"}
_HIDDEN_FIELDS = {"held_ms", "teams", "target", "data", "reason"}
# a disc's number, typed as one also when none was logged (an empty box sends none, never ""
# read "botão " on every page: walk45i-b M-b)
_NUMBER_FIELDS = {"disc", "out", "in"}


def document_kinds(m: dict[str, Any] | None) -> dict[str, list[str]] | None:
    """The foul kinds and restarts the ruleset's document has, as the engine publishes them
    (possession.foul_kinds, restart_kinds): what a correction may choose (issue 45)."""
    pos = (m or {}).get("possession") or {}
    if not isinstance(pos.get("foul_kinds"), list) or not isinstance(
            pos.get("restart_kinds"), list):
        return None
    return {"foul": pos["foul_kinds"], "restart": pos["restart_kinds"]}


def answer_choice(value: Any, offered: dict[str, Any], teams: Teams,
                  lang: str = "pt") -> dict[str, Any]:
    """The choice field of an answer's correction (``offered``: what its question offered,
    records.answer_options): the question's answers in the words of its buttons ("sem gol",
    "chute pedido (não registrado)", "falso acionamento"), a team by its name — never a code
    to type (walk52a F4: «shot_asked» in a text box, «sem gol» typed did nothing)."""
    said = (offered.get("answers") or {}).get("en" if lang == "en" else "pt") or {}
    return {"key": "choice", "label": translator(lang).gettext("Answer"), "value": value,
            "type": "choice",
            "options": [{"value": o, "label": str(said.get(o) or (
                team(teams, o, lang) if o in ("A", "B") else o))}
                for o in offered.get("options") or []]}


def amend_fields(kind: str, data: Any, teams: Teams, lang: str = "pt",
                 kinds: dict[str, list[str]] | None = None,
                 ends: Any = None, offered: dict[str, Any] | None = None
                 ) -> list[dict[str, Any]]:
    """The fields of the console's correction form for one entry: label, input type, value, options.

    The referee picks values; the console builds ``amend {target, data}`` from them, so nobody
    ever types JSON. ``kinds``: the foul kinds and restarts the ruleset's document has, as the
    engine publishes them (possession.foul_kinds, restart_kinds): a correction offers those only
    (issue 45), and the value the entry has. ``ends``: the goal each side defended when the
    entry was made (records.ends_by_entry): a goal line and an end of the table are named as
    the Registro names them in that half: the teams change ends at half-time and between
    the extra periods, so in the 2nd half `goal 1` is defended by the team that defended
    `goal 0` in the 1st (walk52b H1); the starting ends when not given. ``offered``: an
    answer's question's answers (:func:`answer_choice`).
    """
    d: dict[str, Any] = data if isinstance(data, dict) else {}
    if kind in _RECORD_ONLY:
        return []  # what the table recorded about itself: voided if wrong, never rewritten
    _ = translator(lang).gettext
    out: list[dict[str, Any]] = []
    owners = {n: goal_owner(n, ends) for n in (0, 1)}
    for key, value in d.items():
        if key in _HIDDEN_FIELDS or key not in _FIELD_LABELS:
            continue  # a detail of the table's own record ("ring", "pattern"): kept as it is
        if kind == "confirm" and key == "choice" and offered and offered.get("options"):
            out.append(answer_choice(value, offered, teams, lang))
            continue
        field: dict[str, Any] = {"key": key, "label": _(_FIELD_LABELS[key]), "value": value}
        if key in _DURATION_FIELDS and isinstance(value, int | float):
            field["type"] = "duration"
            out.append(field)
            continue
        if key in ("side",) or (key == "pos" and value in ("A", "B", "C")):
            field["type"] = "choice"
            field["options"] = [{"value": s, "label": team(teams, s, lang)} for s in ("A", "B")]
            if key == "pos":
                field["options"].append({"value": "C", "label": _("centre")})
        elif key == "goal":
            field["type"] = "choice"
            field["options"] = [{"value": n, "label": _("{team}'s goal").format(
                team=team(teams, owners[n], lang))} for n in (0, 1)]
        elif key == "end":
            field["type"] = "choice"
            field["options"] = [{"value": n, "label": _("{team}'s end").format(
                team=team(teams, owners[n], lang))} for n in (0, 1)]
        elif key == "line":
            field["type"] = "choice"
            field["options"] = [{"value": "side", "label": _("side line")},
                                {"value": "end", "label": _("end line")}]
        elif kind == "discipline" and key == "type":
            field["type"] = "choice"
            field["options"] = [{"value": v, "label": word("discipline", v, lang)}
                                for v in _WORDS["discipline"]]
        elif key in _FIELD_CHOICES:
            group = _WORDS[_FIELD_CHOICES[key]]
            allowed = (kinds or {}).get(_FIELD_CHOICES[key])
            if allowed is not None:
                group = {v: w for v, w in group.items() if v in allowed}
            field["type"] = "choice"
            field["options"] = [{"value": v, "label": word(_FIELD_CHOICES[key], v, lang)}
                                for v in group]
            if value is not None and str(value) not in group:
                field["options"].insert(0, {"value": value, "label": str(value)})
        elif isinstance(value, bool):
            field["type"] = "bool"
        elif isinstance(value, int | float) or (key in _NUMBER_FIELDS and value is None):
            field["type"] = "number"
        else:
            field["type"] = "text"
        out.append(field)
    return out


def restart_taken_text(taken: dict[str, Any], teams: Teams, lang: str) -> str:
    """A touch the rules read as taking a restart (``restarts_taken``, rules/engine.py
    taken_at): "Saída de jogo para Alvorada: cobrança dada pelo botão 5" (walk 50a L5), ""
    for a kind with no name."""
    kind = taken.get("kind")
    if not isinstance(kind, str) or kind not in RESTART_NAMES:
        return ""
    _ = translator(lang).gettext
    name = dict(zip(("pt", "en"), RESTART_NAMES[kind], strict=True))["en" if lang == "en" else "pt"]
    values = {"restart": name.capitalize(), "team": team(teams, taken.get("side"), lang),
              "disc": taken.get("disc")}
    if taken.get("disc") is None:
        return _("{restart} to {team}: taken").format(**values)
    return _("{restart} to {team}: taken by disc {disc}").format(**values)
