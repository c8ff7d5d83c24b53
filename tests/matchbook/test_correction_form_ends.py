"""The correction form names a goal line as the Registro names it for the entry's half (walk52b
H1): the teams change ends at half-time (000 Art. 8 §9; 003 Art. 30 §2; in extra time too), so
in the 2nd half `goal 1` is the goal of the team that defended `goal 0` in the 1st. The form
named the lines by the 1st-half ends: a referee who made it agree with the Registro («bola na
linha do gol de Estrela do Norte») picked the other line, and the valid goal became an own goal
(«não é gol», 0 × 1 → 0 × 0). A real SQLite log applied to the live book, read as the console
reads it, live and stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_account import HALF, TEAMS, Table

from futmesa.matchbook import MatchLibrary, build
from futmesa.matchbook.wording import amend_fields
from futmesa.web.console import entry_view, live_log_view


def second_half(path: Path) -> Table:
    """cbfm-1toque, a goalless 1st half; the 2nd half under way at 1' (the ends changed)."""
    t = Table(path)
    t.put("set_up", {"kickoff": "A"})
    t.start_half(1)
    t.clock = HALF
    t.device("alarm")
    if t.book.state.m["status"] == "last_lance":
        t.put("lance_done")  # the last lance (000 Art. 8 §10) played: the half is over
    t.device("period_over")
    t.start_half(2)
    assert t.book.state.m["ends"] == {"A": 1, "B": 0}  # 000 Art. 8 §9
    t.clock = 60_000
    t.kick_off_first("B")  # no shot from the kick-off (000 Art. 12 §5)
    return t


def _rows(t: Table) -> list[dict[str, dict[str, Any]]]:
    """The console's rows by id: live, and of the stored match."""
    live = live_log_view(t.book.live_log, None, "0", "pt")
    record = MatchLibrary(t.store).match_record(t.book.id)
    return [{e["id"]: e for e in live["entries"]},
            {e["id"]: entry_view(e, TEAMS, {}, "pt") for e in record["entries"]}]


def _chosen(field: dict[str, Any]) -> str:
    """The label of the option the form opens with (corrections.js: the one whose value is the
    field's value)."""
    return next(o["label"] for o in field["options"] if o["value"] == field["value"])


def test_a_second_half_goal_line_is_named_by_the_second_half_ends(tmp_path: Path) -> None:
    t = second_half(tmp_path / "m.sqlite")
    t.put("shot_asked", {"side": "B", "disc": 8})
    goal = t.device("goal_line", {"goal": 1, "held_ms": 40})  # A defends goal 1 now
    assert t.book.state.m["score"] == {"A": 0, "B": 1}
    for rows in _rows(t):
        row = rows[goal]
        assert "bola na linha do gol de Estrela do Norte" in row["named"], row["named"]
        line = next(f for f in row["fields"] if f["key"] == "goal")
        assert {o["value"]: o["label"] for o in line["options"]} == {
            0: "gol de Botafogo da Mesa", 1: "gol de Estrela do Norte"}, line
        assert _chosen(line) == "gol de Estrela do Norte"  # the Registro's own words
    # the referee corrects only the disc: the form sends its fields as they opened, disc 9
    row = _rows(t)[0][goal]
    data = {**row["data"], **{f["key"]: f["value"] for f in row["fields"]}, "disc": 9}
    amend = t.put("amend", {"target": goal, "data": data, "reason": "era o botão 9"})
    assert t.book.state.m["score"] == {"A": 0, "B": 1}  # the goal stands
    record = MatchLibrary(t.store).match_record(t.book.id)
    assert build(record).score == {"A": 0, "B": 1}
    for rows in _rows(t):
        said = rows[amend]["text"]
        assert "Gol de Botafogo da Mesa (0 × 1, 2', botão 9)" in said, said
        assert "não é gol" not in said and "próprio gol" not in said, said
        line = next(f for f in rows[goal]["fields"] if f["key"] == "goal")
        assert _chosen(line) == "gol de Estrela do Norte", line


def test_the_form_names_lines_and_ends_by_the_ends_it_is_given() -> None:
    """Whatever the period (a half, extra time): the ends of the entry's own time."""
    swapped = {"A": 1, "B": 0}
    goal = amend_fields("goal_line", {"goal": 0, "held_ms": 40}, TEAMS, ends=swapped)
    assert [o["label"] for o in goal[0]["options"]] == [
        "gol de Botafogo da Mesa", "gol de Estrela do Norte"]
    out = amend_fields("ball_out", {"zone": 4, "line": "end", "end": 1}, TEAMS, ends=swapped)
    end = next(f for f in out if f["key"] == "end")
    assert [o["label"] for o in end["options"]] == [
        "lado de Botafogo da Mesa", "lado de Estrela do Norte"]
    first = amend_fields("goal_line", {"goal": 0}, TEAMS)  # none given: the starting ends
    assert [o["label"] for o in first[0]["options"]] == [
        "gol de Estrela do Norte", "gol de Botafogo da Mesa"]
