"""The camera's proposals (issue 46 §5, docs/camera.md "The camera's proposals"): what the
ball's path, judged on a clip, says about the question the rules ask the referee now.

The camera knows no teams and no rules: its facts come as plain data (``BallPath`` as a
dict, with the field's ``field_mm``); the match's ``ends`` turn a half into a team. A
proposal is only ever what the referee may confirm in one tap: the ordinary answer to the
pending question, with the clip it rests on. The camera does not see touches: for a ball out
it shows where the ball left, and offers the engine's own default answer only when what it
saw agrees with the line the table's sensor reported.

A clip no question asks about (the referee's **Rever**) may show a fact the referee enters
himself: the ball stopped in an area (``ball_stopped``), a restart short of the midline
(``restart_failed``, reason ``midline``: the opponent's choice is then asked by the rules).
Such a proposal is the ordinary input, offered only when the engine would take it now
(``allows``: the rules' own probe of that input).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from futmesa.i18n import translator

MIN_CONFIDENCE = 0.3  # under this share of the frames seen (to the exit), no proposal:
# measured in bench/ballpath_bench.py (docs/performance.md, "The proposal's threshold")
KINDS = ("ball_out_touch", "goal_no_shot")  # the pending questions a ball's path speaks to
MIN_TRAVEL_MM = 50.0  # a restart "short of the midline" only when the ball was seen to move
Allows = Callable[[str, dict[str, Any]], bool]  # would the engine take this referee input now?


def defender_of(ends: dict[str, Any], end: int) -> str:
    """The team defending goal line ``end`` (the match's ``ends``: {"A": 0, "B": 1})."""
    return "A" if ends.get("A") == end else "B"


def _cm(mm: float, pt: bool) -> str:
    value = f"{mm / 10:.0f}"
    return value.replace(".", ",") if pt else value


def _exit_words(out: dict[str, Any], field_mm: tuple[float, float], ends: dict[str, Any],
                names: dict[str, str], lang: str) -> str:
    """"saiu pela lateral no campo de Alvorada, a 40 cm do meio" (or over an end line)."""
    _ = translator(lang).gettext
    pt = lang.startswith("pt")
    length, width = field_mm
    team = names.get(defender_of(ends, int(out["half"])), "")
    if out["line"] == "side":
        return _("left over the side line in {team}'s half, {cm} cm from the midline").format(
            team=team, cm=_cm(abs(float(out["x_mm"]) - length / 2), pt))
    return _("left over {team}'s end line, {cm} cm from the middle of the goal").format(
        team=team, cm=_cm(abs(float(out["y_mm"]) - width / 2), pt))


def _both(make: Any) -> dict[str, str]:
    return {"pt": make("pt_BR"), "en": make("en")}


def _ball_out(pending: dict[str, Any], facts: dict[str, Any], field_mm: tuple[float, float],
              ends: dict[str, Any], names: dict[str, str]) -> dict[str, Any] | None:
    out = facts.get("left_field")
    if not out:
        return None
    sensed = pending.get("ball_out") or {}
    # the sensor's line and end against the camera's (a side line's "end" is the half it
    # went out on, an end line's its goal line: the camera's half either way)
    agrees = sensed.get("line") == out["line"] and sensed.get("end") == out["half"]

    def text(lang: str) -> str:
        _ = translator(lang).gettext
        said = _("Camera: {exit}").format(exit=_exit_words(out, field_mm, ends, names, lang))
        if not agrees:
            said += _(" — not the line the table's sensor reported: look at the clip")
        return said

    return {**_both(text), "choice": pending.get("default") if agrees else None}


def _goal(pending: dict[str, Any], facts: dict[str, Any], ends: dict[str, Any],
          names: dict[str, str]) -> dict[str, Any] | None:
    end = ends.get(pending.get("defender"))
    reached = facts.get("reached_goal_line")
    went_in = bool(reached) and reached.get("end") == end and reached.get("in_mouth")
    if went_in or "false_trip" not in (pending.get("options") or ()):
        return None  # the camera does not see whose touch put it in: no proposal

    def text(lang: str) -> str:
        _ = translator(lang).gettext
        return _("Camera: the ball did not go into {team}'s goal").format(
            team=names.get(str(pending.get("defender")), ""))

    return {**_both(text), "choice": "false_trip"}


def proposal(pending: dict[str, Any], facts: dict[str, Any], ends: dict[str, Any],
             names: dict[str, str], clip: int) -> dict[str, Any] | None:
    """The camera's proposal for one pending question, or None: the answer (``choice``, or
    None when the camera only shows and the referee must choose), the words (``pt``/``en``)
    and the clip entry it rests on. None without a usable judgement (``facts`` carries
    ``absent``) or under ``MIN_CONFIDENCE``."""
    if facts.get("absent") or float(facts.get("confidence") or 0) < MIN_CONFIDENCE:
        return None
    field_mm = tuple(facts.get("field_mm") or (1690.0, 1040.0))
    kind = pending.get("kind")
    if kind == "ball_out_touch":
        made = _ball_out(pending, facts, field_mm, ends, names)  # type: ignore[arg-type]
    elif kind == "goal_no_shot":
        made = _goal(pending, facts, ends, names)
    else:
        return None
    if made is None:
        return None
    return {**made, "target": pending.get("id"), "kind": kind, "clip": clip}


def _stopped(facts: dict[str, Any], ends: dict[str, Any], names: dict[str, str],
             allows: Allows) -> dict[str, Any] | None:
    """"a bola parou na área pequena de Alvorada": the referee's ``ball_stopped``."""
    stop = facts.get("stopped") or {}
    if stop.get("area") not in ("small", "big"):
        return None
    data = {"side": defender_of(ends, int(stop["end"])), "area": str(stop["area"])}
    if not allows("ball_stopped", data):
        return None  # the ball not in play, or a big area this ruleset does not judge

    def text(lang: str) -> str:
        _ = translator(lang).gettext
        words = (_("Camera: the ball stopped in {team}'s small area") if data["area"] == "small"
                 else _("Camera: the ball stopped in {team}'s big area"))
        return words.format(team=names.get(data["side"], ""))

    return {**_both(text), "kind": "ball_stopped", "input": data}


def _short_of_midline(facts: dict[str, Any], ends: dict[str, Any], names: dict[str, str],
                      restart: dict[str, Any] | None, allows: Allows) -> dict[str, Any] | None:
    """"a bola não passou do meio-campo": the referee's ``restart_failed`` (midline), when the
    ball was kicked, never crossed and rests in the taker's own half (000 Art. 13 §3, 16 §3)."""
    stop = facts.get("stopped") or {}
    taker = (restart or {}).get("side")
    if (taker not in ("A", "B") or facts.get("crossed_midline") or facts.get("left_field")
            or not stop or int(stop["end"]) != ends.get(taker)
            or float(facts.get("travel_mm") or 0) < MIN_TRAVEL_MM):
        return None
    data = {"reason": "midline"}  # no choice: the rules ask the opponent's (Art. 16 §3)
    if not allows("restart_failed", data):
        return None

    def text(lang: str) -> str:
        _ = translator(lang).gettext
        return _("Camera: {team}'s kick did not reach the midline").format(
            team=names.get(str(taker), ""))

    return {**_both(text), "kind": "restart_failed", "input": data}


def input_proposal(facts: dict[str, Any], ends: dict[str, Any], names: dict[str, str],
                   restart: dict[str, Any] | None, allows: Allows) -> dict[str, Any] | None:
    """A fact the referee enters himself, seen on a clip no question asks about: the ball
    stopped in an area, or the restart being taken short of the midline; None under
    ``MIN_CONFIDENCE``, or when the engine would not take the input now."""
    if facts.get("absent") or float(facts.get("confidence") or 0) < MIN_CONFIDENCE:
        return None
    return (_short_of_midline(facts, ends, names, restart, allows)
            or _stopped(facts, ends, names, allows))


def proposals(pending: list[dict[str, Any]], facts: dict[str, Any], shows: int,
              ends: dict[str, Any], names: dict[str, str], clip: int,
              restart: dict[str, Any] | None = None,
              allows: Allows | None = None, clip_no: int | None = None) -> dict[str, Any]:
    """The state's ``proposal`` for the clip of entry ``shows``: the proposal for the pending
    question that entry raised; with no question about it (a review) and ``allows`` given,
    a fact the referee enters himself (``input_proposal``: its ``kind`` and ``input``, the
    ``restart`` it was seen under); ``unavailable`` ("câmera sem calibração", said once) when
    the camera could not judge; {} when it has nothing to say. A proposal carries its clip's
    stored id (``clip``: what the tap sends) and ``clip_no``, the clip's number in the
    match's Registro (matchbook/numbers.py): the one the phone's card says ("↺ vídeo nº …")."""
    if facts.get("absent") == "no_calibration":
        return {"unavailable": "no_calibration", "target": shows}
    asked = next((p for p in pending if p.get("id") == shows and p.get("kind") in KINDS), None)
    if asked is not None:
        made = proposal(asked, facts, ends, names, clip)
        return {**made, "clip_no": clip_no} if made else {}
    if allows is None:
        return {}
    made = input_proposal(facts, ends, names, restart, allows)
    if made is None:
        return {}
    return {**made, "target": shows, "clip": clip, "clip_no": clip_no,
            "restart": (restart or {}).get("kind")}
