"""The blind rules cases (issue 44; tests/rules/blind_ledger.py): each translated case does
what the ledger says — a case it calls `pass` passes, a `fail` or `no-input` one still fails
(strict: one that turns green says so, and the ledger is updated) —, every neutral case has
a translation and a ledger line, and the pass rates per part are printed (`-s`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from blind_ledger import (
    NEUTRAL,
    STATUSES,
    ledger,
    load_case,
    neutral_ids,
    outcome,
    table,
    translations,
)

FILES = translations()
BOOK = ledger()


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_blind_case(path: Path) -> None:
    entry = BOOK.get(path.stem)
    assert entry, f"{path.stem}: no line in tests/rules/blind/ledger.yaml: add one"
    status = entry.get("status")
    assert status in STATUSES, f"{path.stem}: ledger status {status!r}, not one of {STATUSES}"
    got = outcome(path)
    if status == "pass":
        assert got.passed, f"{path.stem} fails: {got.why}"
        return
    if got.passed:
        pytest.fail(f"{path.stem} now passes: update the ledger (status: pass)")
    said = entry.get("missing") or entry.get("why")
    pytest.xfail(f"{status}: {said} — {got.why[:200]}")


def test_every_case_has_a_ledger_line_and_a_before() -> None:
    cases = {load_case(p)["case"] for p in FILES}
    stale = sorted(set(BOOK) - cases)
    assert not stale, f"ledger lines without a translated case: {stale}"
    unmeasured = sorted(c for c in cases if BOOK.get(c, {}).get("before") not in STATUSES)
    assert not unmeasured, (
        f"cases without `before:` in the ledger: {unmeasured}; run "
        "PYTHONPATH=<the session's starting checkout>/host .venv/bin/python "
        "tests/rules/blind/rates.py --before --record")
    for case, entry in BOOK.items():
        if entry.get("status") == "fail":
            assert entry.get("mechanism") and entry.get("why"), f"{case}: mechanism and why?"
        if entry.get("status") == "no-input":
            assert entry.get("missing"), f"{case}: a no-input case says what is missing"


def test_every_neutral_case_is_translated() -> None:
    ids = neutral_ids()
    if not NEUTRAL.is_dir():
        pytest.skip(f"{NEUTRAL} is not on this machine: only the helpers' cases are checked")
    by_case = {}
    for path in FILES:
        doc = load_case(path)
        by_case[doc["case"]] = doc["source"]
    missing = sorted(case for case in ids if case not in by_case)
    assert not missing, f"{len(missing)} neutral cases without a translation: {missing}"
    wrong = sorted(c for c, src in by_case.items() if c in ids and ids[c] != src)
    assert not wrong, f"translations whose `source:` is not their neutral file: {wrong}"


def test_pass_rates_per_part() -> None:
    outcomes = [outcome(p) for p in FILES]
    print("\n" + table(outcomes, BOOK))
    # the table agrees with the ledger (a case without a ledger line fails test_blind_case)
    passed = sorted(o.case for o in outcomes if o.passed and o.case in BOOK)
    said = sorted(o.case for o in outcomes if BOOK.get(o.case, {}).get("status") == "pass")
    assert passed == said
