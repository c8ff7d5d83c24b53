"""The camera's proposals (issue 46 §5, docs/camera.md "The camera's proposals"): a ball's
path, judged on a clip, against the question the real rules engine asks — a ball out (who
touched it last: where it left, whose half, the spot), a ball in the goal with no shot asked
(it did not go in: a false trip) — and the referee's one tap, stored as his, citing the clip."""

from __future__ import annotations

from typing import Any

from matchbook_logs import T0, Log, match_row, started

from futmesa.matchbook import build, build_record
from futmesa.matchbook.book import engine_for, load_state
from futmesa.matchbook.proposals import proposal, proposals
from futmesa.rules import Entry

NAMES = {"A": "Alvorada", "B": "Botafogo"}
DIGEST = "4482d85bf118" + "cd" * 26


def path(**facts: Any) -> dict[str, Any]:
    """A judged ``BallPath`` as the capture process sends it (``dataclasses.asdict``)."""
    return {"left_field": None, "stopped": None, "crossed_midline": False,
            "reached_goal_line": None, "confidence": 0.95, "field_mm": [1690.0, 1040.0],
            **facts}


def side_exit(x_mm: float, half: int) -> dict[str, Any]:
    return {"line": "side", "half": half, "along_mm": x_mm, "x_mm": x_mm, "y_mm": -6.0,
            "t_ms": 1.0}


def ball_out_asked() -> tuple[Any, dict[str, Any], int]:
    """A ball out over a side line with no last touch given: the engine asks who touched it."""
    log = started()
    out = log.device("ball_out", {"line": "side", "end": 0})
    state = load_state(match_row(), log.rows).m  # the engine's own state: its pending questions
    asked = next(p for p in state["pending"] if p["kind"] == "ball_out_touch")
    assert asked["id"] == out
    return log, state, out


def test_a_side_exit_is_said_with_the_team_of_its_half_and_the_spot() -> None:
    _, state, out = ball_out_asked()
    # A defends goal line 0 at kick-off: half 0 is Alvorada's; 400 mm short of the midline
    made = proposals(state["pending"], path(left_field=side_exit(445.0, 0)), out,
                     state["ends"], NAMES, clip=9)
    assert made["target"] == out and made["clip"] == 9
    assert made["pt"] == "Câmera: saiu pela lateral no campo de Alvorada, a 40 cm do meio"
    assert made["en"] == ("Camera: left over the side line in Alvorada's half, "
                          "40 cm from the midline")
    assert made["choice"] == next(p for p in state["pending"] if p["id"] == out)["default"]
    other = proposals(state["pending"], path(left_field=side_exit(1145.0, 1)), out,
                      state["ends"], NAMES, clip=9)
    assert "no campo de Botafogo, a 30 cm do meio" in other["pt"]
    assert other["choice"] is None  # the sensor said Alvorada's half: the referee looks


def test_ends_swapped_turn_the_half_into_the_other_team() -> None:
    _, state, out = ball_out_asked()
    made = proposals(state["pending"], path(left_field=side_exit(445.0, 0)), out,
                     {"A": 1, "B": 0}, NAMES, clip=9)
    assert "no campo de Botafogo" in made["pt"]


def test_a_line_the_sensor_did_not_report_is_shown_not_offered() -> None:
    _, state, out = ball_out_asked()
    end_exit = {"line": "end", "half": 1, "along_mm": 700.0, "x_mm": 1696.0, "y_mm": 700.0,
                "t_ms": 1.0}
    made = proposals(state["pending"], path(left_field=end_exit), out, state["ends"], NAMES, 9)
    assert made["choice"] is None
    assert made["pt"].startswith(
        "Câmera: saiu pela linha de fundo de Botafogo, a 18 cm do meio do gol")
    assert "não é a linha que o sensor da mesa indicou" in made["pt"]


def test_no_proposal_under_low_confidence_without_an_exit_or_for_another_entry() -> None:
    _, state, out = ball_out_asked()
    pending = state["pending"]
    assert proposals(pending, path(left_field=side_exit(445.0, 0), confidence=0.2), out,
                     state["ends"], NAMES, 9) == {}
    assert proposals(pending, path(), out, state["ends"], NAMES, 9) == {}
    assert proposals(pending, path(left_field=side_exit(445.0, 0)), out + 1, state["ends"],
                     NAMES, 9) == {}


def test_without_a_calibration_the_camera_says_so() -> None:
    _, state, out = ball_out_asked()
    made = proposals(state["pending"], {"absent": "no_calibration"}, out, state["ends"], NAMES, 9)
    assert made == {"unavailable": "no_calibration", "target": out}


def test_a_ball_that_never_went_in_is_proposed_as_a_false_trip() -> None:
    log = started()
    trip = log.device("goal_line", {"goal": 1, "held_ms": 40})  # no shot asked
    state = load_state(match_row(), log.rows).m
    asked = next(p for p in state["pending"] if p["kind"] == "goal_no_shot")
    assert asked["id"] == trip and "false_trip" in asked["options"]
    made = proposal(asked, path(), state["ends"], NAMES, clip=5)
    assert made is not None and made["choice"] == "false_trip"
    assert made["pt"] == "Câmera: a bola não entrou no gol de Botafogo"
    went_in = path(reached_goal_line={"end": 1, "in_mouth": True})
    assert proposal(asked, went_in, state["ends"], NAMES, clip=5) is None
    beside = path(reached_goal_line={"end": 1, "in_mouth": False})  # beside the posts
    made = proposal(asked, beside, state["ends"], NAMES, clip=5)
    assert made is not None and made["choice"] == "false_trip"


def test_the_one_tap_is_the_referees_answer_citing_the_clip() -> None:
    log, state, out = ball_out_asked()
    clip = log.add("clip", {"shows": out, "from_ms": 1_000, "to_ms": 11_000,
                            "file": f"match-1/entry-{out}.mp4", "sha256": DIGEST,
                            "frames": 300, "format": "mp4/h264"}, source="camera")
    made = proposals(state["pending"], path(left_field=side_exit(445.0, 0)), out,
                     state["ends"], NAMES, clip)
    tap = log.add("confirm", {"target": out, "choice": made["choice"], "clip": made["clip"],
                              "proposed": "camera"})
    after = load_state(match_row(), log.rows).m
    assert not any(p["kind"] == "ball_out_touch" for p in after["pending"])
    assert after["restart"]["kind"] == "lateral"
    record = build_record(match_row(), log.rows)
    entry = next(e for e in record["entries"] if e["id"] == tap)
    assert entry["source"] == "referee"
    cited = f"confirmado pelo vídeo (vídeo nº {clip}, SHA-256 4482d85bf118)"
    assert entry["text"].endswith(cited), entry["text"]
    assert entry["text_en"].endswith(
        f"confirmed from the video (video no. {clip}, SHA-256 4482d85bf118)")
    sumula = build(record)
    log_table = sumula.table("log")  # the súmula's event log: the referee's answer, by him
    assert log_table is not None
    row = next(r for r in log_table.rows if r["number"] == str(tap))
    assert cited in row["what"] and row["origin"].startswith("Árbitro"), row
    clips = sumula.table("clips")
    assert clips is not None and clips.rows[0]["cited"] == f"nº {tap}"


# ---- a fact the referee enters himself, seen on his Rever's clip ---------------------------
def engine_allows(log: Any) -> Any:
    """The rules' own probe of an input on the match as logged (the table's ``would_take``)."""
    engine = engine_for(match_row())
    state = load_state(match_row(), log.rows)

    def allows(kind: str, data: dict[str, Any]) -> bool:
        probe = Entry(id=0, kind=kind, data=data, source="referee", period=1,
                      clock_ms=0, author="árbitro", at=T0 + 1_000_000)
        _state, effects = engine.apply(state, probe)
        return not any(e.kind == "announce" and e.data.get("code") == "refused"
                       for e in effects)

    return allows


def reviewed(log: Any) -> tuple[dict[str, Any], int, int]:
    """The referee's Rever and its clip: the match's state, the review's entry, the clip's."""
    review = log.add("review", {})
    clip = log.add("clip", {"shows": review, "from_ms": 1_000, "to_ms": 5_000,
                            "file": f"match-1/entry-{review}.mp4", "sha256": DIGEST,
                            "frames": 60, "format": "mp4/h264"}, source="camera")
    return load_state(match_row(), log.rows).m, review, clip


def stop_in(area: str | None, end: int, **more: Any) -> dict[str, Any]:
    return path(stopped={"area": area, "end": end, "x_mm": 1600.0, "y_mm": 520.0}, **more)


def test_a_ball_stopped_in_a_small_area_is_one_tap_the_referees_ball_stopped() -> None:
    log = started()
    log.device("touch", {"side": "A", "disc": 9})
    state, review, clip = reviewed(log)
    allows = engine_allows(log)
    made = proposals(state["pending"], stop_in("small", 1), review, state["ends"], NAMES, clip,
                     state["restart"], allows)
    assert made["kind"] == "ball_stopped" and made["target"] == review and made["clip"] == clip
    assert made["input"] == {"side": "B", "area": "small"}  # goal line 1 is Botafogo's
    assert made["pt"] == "Câmera: a bola parou na pequena área de Botafogo"
    assert made["en"] == "Camera: the ball stopped in Botafogo's small area"
    tap = log.add("ball_stopped", {**made["input"], "clip": clip, "proposed": "camera"})
    after = load_state(match_row(), log.rows).m
    assert after["restart"]["kind"] == "reposicao" and after["restart"]["side"] == "B"
    record = build_record(match_row(), log.rows)
    entry = next(e for e in record["entries"] if e["id"] == tap)
    assert entry["source"] == "referee"
    assert entry["text"] == ("Bola parada na pequena área de Botafogo, confirmado pelo vídeo "
                             f"(vídeo nº {clip}, SHA-256 4482d85bf118)"), entry["text"]
    clips = build(record).table("clips")
    assert clips is not None and clips.rows[0]["cited"] == f"nº {tap}"


def test_a_stop_the_engine_would_not_take_is_not_proposed() -> None:
    log = started()
    log.device("touch", {"side": "A", "disc": 9})
    state, review, clip = reviewed(log)
    allows = engine_allows(log)
    # cbfm-1toque: the referee decides only a ball stopped in the small area (the big: 003)
    assert proposals(state["pending"], stop_in("big", 1), review, state["ends"], NAMES, clip,
                     state["restart"], allows) == {}
    assert proposals(state["pending"], stop_in(None, 1), review, state["ends"], NAMES, clip,
                     state["restart"], allows) == {}  # in no area: nothing to enter
    low = stop_in("small", 1, confidence=0.1)
    assert proposals(state["pending"], low, review, state["ends"], NAMES, clip,
                     state["restart"], allows) == {}
    before = Log()  # no match under way: the ball is not in play
    before.add("set_up", {"kickoff": "A"})
    state0, review0, clip0 = reviewed(before)
    assert proposals(state0["pending"], stop_in("small", 1), review0, state0["ends"], NAMES,
                     clip0, state0["restart"], engine_allows(before)) == {}


def reposicao_taken() -> Any:
    """Botafogo's reposição (the ball stopped in its small area), kicked."""
    log = started()
    log.device("touch", {"side": "A", "disc": 9})
    log.add("ball_stopped", {"side": "B"})
    log.device("touch", {"side": "B", "disc": 4})
    return log


def test_a_reposicao_short_of_the_midline_is_one_tap_then_the_opponent_chooses() -> None:
    log = reposicao_taken()
    state, review, clip = reviewed(log)
    assert state["restart"]["kind"] == "reposicao" and state["restart"]["side"] == "B"
    allows = engine_allows(log)
    short = stop_in(None, 1, travel_mm=420.0)  # rests in Botafogo's own half, never crossed
    made = proposals(state["pending"], short, review, state["ends"], NAMES, clip,
                     state["restart"], allows)
    assert made["kind"] == "restart_failed" and made["input"] == {"reason": "midline"}
    assert made["pt"] == "Câmera: a cobrança de Botafogo não chegou ao meio-campo"
    assert made["restart"] == "reposicao"
    tap = log.add("restart_failed", {**made["input"], "clip": clip, "proposed": "camera"})
    after = load_state(match_row(), log.rows).m
    asked = [p for p in after["pending"] if p["kind"] == "failed_restart_choice"]
    assert asked and asked[0]["side"] == "A"  # the opponent's choice stays his (Art. 16 §3)
    record = build_record(match_row(), log.rows)
    entry = next(e for e in record["entries"] if e["id"] == tap)
    assert entry["text"].endswith(f"confirmado pelo vídeo (vídeo nº {clip}, SHA-256 "
                                  "4482d85bf118)"), entry["text"]


def test_no_midline_proposal_for_a_ball_that_crossed_was_not_kicked_or_rests_over() -> None:
    log = reposicao_taken()
    state, review, clip = reviewed(log)
    allows = engine_allows(log)

    def said(facts: dict[str, Any]) -> dict[str, Any]:
        return proposals(state["pending"], facts, review, state["ends"], NAMES, clip,
                         state["restart"], allows)

    assert said(stop_in(None, 1, travel_mm=900.0, crossed_midline=True)) == {}
    assert said(stop_in(None, 1, travel_mm=10.0)) == {}  # not kicked yet: nothing seen
    assert said(stop_in(None, 0, travel_mm=900.0)) == {}  # it rests in Alvorada's half
