"""Entry statuses come from the engine's corrections: the súmula counts what the score counts.

The bug this guards against (issue 11): with a goal, a void of it and a void of that void, the
rules count the goal but the history marked it voided, so the súmula struck it out. An amend
after a void did the same. 000 Art. 12 §1 (a goal from an asked shot counts).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from matchbook_logs import match_row, started

from futmesa.matchbook import build, build_record
from futmesa.matchbook.entries import to_entry
from futmesa.rules.corrections import effective_entries


def goal_rows(record: dict) -> list[dict[str, str]]:
    """The goals that count (a voided goal is listed struck, with its account)."""
    table = build(record).table("goals")
    assert table is not None
    return [r for r, struck in zip(table.rows, table.struck, strict=True) if not struck]


def log_row(record: dict, entry_id: int) -> tuple[dict[str, str], bool]:
    table = build(record).table("log")
    assert table is not None
    for row, struck in zip(table.rows, table.struck, strict=True):
        if row["number"].split("–")[0] == str(entry_id):
            return row, struck
    raise AssertionError(f"entry {entry_id} not in the log")


def test_void_of_a_void_brings_the_goal_back() -> None:
    log = started()
    goal = log.goal("A")
    void = log.add("void", {"target": goal, "reason": "bola na trave"})
    undo = log.add("void", {"target": void, "reason": "engano: foi gol"}, author="mesário")
    record = build_record(match_row(), log.rows)
    assert record["state"]["score"] == {"A": 1, "B": 0}
    statuses = {e["id"]: e["status"] for e in record["entries"]}
    assert statuses[goal]["state"] == "effective"
    assert statuses[void] == {"state": "voided", "by": undo, "author": "mesário",
                              "reason": "engano: foi gol", "by_no": undo}  # one match: no == id
    assert statuses[undo]["state"] == "effective"
    assert [r["team"] for r in goal_rows(record)] == ["Alvorada"]
    row, struck = log_row(record, goal)
    assert not struck and row["status"] == ""
    _, void_struck = log_row(record, void)
    assert void_struck
    corrections = build(record).table("corrections")
    assert corrections is not None
    assert [r["status"] for r in corrections.rows] == [
        f"anulada pelo nº {undo} (mesário)", "em vigor"]


def test_amend_after_a_void_counts_the_amended_goal() -> None:
    log = started()
    g = log.goal("A")
    v = log.add("void", {"target": g})
    a = log.add("amend", {"target": g, "data": {"goal": 1, "held_ms": 40},
                          "reason": "a bola entrou"})
    record = build_record(match_row(), log.rows)
    assert record["state"]["score"] == {"A": 1, "B": 0}
    statuses = {e["id"]: e["status"] for e in record["entries"]}
    assert statuses[g]["state"] == "amended" and statuses[g]["by"] == a
    assert statuses[g]["reason"] == "a bola entrou"
    assert statuses[v]["state"] == "without_effect" and statuses[v]["by"] == a
    assert len(goal_rows(record)) == 1
    row, struck = log_row(record, g)
    assert not struck and row["status"].startswith(f"Corrigido pelo registro nº {a}")
    _, void_struck = log_row(record, v)
    assert void_struck


def test_a_plain_void_strikes_the_goal_out() -> None:
    log = started()
    goal = log.goal("B", 4)
    log.add("void", {"target": goal, "reason": "não entrou"})
    record = build_record(match_row(), log.rows)
    assert record["state"]["score"] == {"A": 0, "B": 0}
    assert goal_rows(record) == []
    row, struck = log_row(record, goal)
    assert struck and row["status"].startswith("Anulado pelo registro nº")


# ---- any correction sequence -------------------------------------------------------------
corrections = st.lists(
    st.tuples(st.sampled_from(["void", "amend"]), st.integers(1, 40), st.sampled_from("AB"),
              st.integers(1, 12)),
    max_size=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(goals=st.lists(st.sampled_from("AB"), min_size=1, max_size=5), fixes=corrections)
def test_any_correction_sequence_the_sumula_counts_what_the_score_counts(
        goals: list[str], fixes: list[tuple[str, int, str, int]]) -> None:
    log = started()
    for side in goals:
        log.goal(side)
    for kind, pick, side, disc in fixes:
        target = 1 + pick % len(log.rows)  # any earlier entry, corrections included
        if kind == "void":
            log.add("void", {"target": target})
        else:
            old = log.rows[target - 1]
            data = ({"goal": 0 if side == "B" else 1, "held_ms": 40}
                    if old.kind == "goal_line" else {"side": side, "disc": disc})
            log.add("amend", {"target": target, "data": data})
    record = build_record(match_row(), log.rows)
    score = record["state"]["score"]
    rows = goal_rows(record)
    assert len([r for r in rows if r["team"].startswith("Alvorada")]) == score["A"]
    assert len([r for r in rows if r["team"].startswith("Botafogo")]) == score["B"]
    # what the súmula strikes out is exactly what the rules do not apply
    # (a voided goal-line trip stays in the match as "no goal", flagged disallowed: it is
    # struck out all the same — rules/corrections.py, issue 12)
    applied = {e.id for e in effective_entries([to_entry(r) for r in log.rows])
               if not e.data.get("disallowed")}
    counts = {e["id"]: e["status"]["state"] in ("effective", "amended")
              for e in record["entries"]}
    for entry in record["entries"]:
        if entry["kind"] not in ("void", "amend"):
            assert counts[entry["id"]] == (entry["id"] in applied), entry
    for goal in record["state"]["match"]["goals"]:
        assert counts[goal["entry"]], goal
