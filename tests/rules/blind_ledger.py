"""The blind rules cases (issue 44): their translations, the ledger and the pass rates.

A blind case is written from the rule documents alone in a neutral format
(`../shared/rules/cases/partN.yaml`, or `tests/rules/blind/helpers/*.yaml` for the helpers'
cases) and translated into a futmesa scenario `tests/rules/blind/<part>/<case-id>.yaml`
(`case`, `source`, then a scenario as rules_scenario.py reads it), run with
`rules_scenario.run(..., blind=True)`. `tests/rules/blind/ledger.yaml` holds one line per
case: its status now (`pass`, `fail` with its mechanism, `no-input` with what is missing)
and `before` (its result on the engine of the session that translated it).
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import traceback
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from rules_scenario import load, run

BLIND = Path(__file__).parent / "blind"
LEDGER = BLIND / "ledger.yaml"
HELPERS = BLIND / "helpers"  # neutral cases written by helper sessions, kept in the repo
NEUTRAL = Path(__file__).resolve().parents[3] / "shared" / "rules" / "cases"
STATUSES = ("pass", "fail", "no-input")


@dataclass
class Outcome:
    case: str
    part: str  # the neutral file's name without .yaml (part1, …, a helper file's stem)
    passed: bool
    why: str  # the first line of the failure, "" when it passed

    @property
    def unknown_input(self) -> bool:
        """It failed on an entry kind the engine does not know (a missing input)."""
        return not self.passed and "Unknown entry" in self.why

    def result(self, status: str | None) -> str:
        """pass, fail or no-input (no-input: an unknown entry kind, or the ledger says an
        input is missing)."""
        if self.passed:
            return "pass"
        return "no-input" if self.unknown_input or status == "no-input" else "fail"


def translations() -> list[Path]:
    """Every translated case file (not the helpers' neutral files, not the ledger)."""
    return sorted(p for p in BLIND.glob("*/*.yaml") if p.parent != HELPERS)


def load_case(path: Path) -> dict[str, Any]:
    doc = load(path)
    assert doc.get("case") == path.stem, f"{path.name}: `case:` must be the file's name"
    assert str(doc.get("source", "")).endswith(".yaml"), f"{path.name}: `source:` missing"
    return doc


def part_of(doc: dict[str, Any]) -> str:
    return Path(str(doc["source"])).stem


FIRMWARE_TESTS = Path(__file__).resolve().parents[1] / "firmware"


def firmware_test(name: str) -> None:
    """Run `module.function` of tests/firmware on MicroPython (a case with `level: firmware`:
    the table's own part of it, e.g. the goal-line filter), as tests/firmware/conftest.py does."""
    spec = importlib.util.spec_from_file_location("firmware_conftest",
                                                  FIRMWARE_TESTS / "conftest.py")
    assert spec and spec.loader
    fw = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fw)
    module, func = name.split(".")
    proc = subprocess.run([fw.find_micropython(), str(FIRMWARE_TESTS / "mpy_runner.py"), module,
                           func], capture_output=True, text=True, env=fw.mp_env(),
                          stdin=subprocess.DEVNULL, cwd=str(FIRMWARE_TESTS), timeout=120)
    out = (proc.stdout + proc.stderr).strip().splitlines()
    assert proc.returncode == 0 and "MPY-PASS" in proc.stdout, (
        f"firmware {name}: {' | '.join(out[-3:])}")


def outcome(path: Path) -> Outcome:
    """Run one translated case: it passes when every expectation holds and replaying its
    log gives the same state (and, `level: firmware`, its `firmware_test` passes on
    MicroPython). Any error (an input the engine does not know, a crash) fails."""
    doc = load_case(path)
    try:
        engine, entries, final = run(doc, path.name, blind=True)
        replayed, _ = engine.replay(entries)
        assert replayed.to_dict() == final, "replaying the log gives another state"
        if doc.get("level") == "firmware":
            firmware_test(str(doc["firmware_test"]))
    except Exception as exc:  # noqa: BLE001 - any failure of the case is its result
        first = str(exc).strip().splitlines() or [type(exc).__name__]
        detail = " | ".join(line.strip() for line in first[:4])
        if not isinstance(exc, AssertionError):
            detail = f"{type(exc).__name__}: {detail} ({traceback.format_exc(limit=-1).strip()})"
        return Outcome(doc["case"], part_of(doc), False, detail)
    return Outcome(doc["case"], part_of(doc), True, "")


def ledger() -> dict[str, dict[str, Any]]:
    """Case id -> {status, before, mechanism?, why?, missing?} (a bare word is the status)."""
    if not LEDGER.exists():
        return {}
    raw = yaml.safe_load(LEDGER.read_text(encoding="utf-8")) or {}
    return {str(k): ({"status": v} if isinstance(v, str) else dict(v)) for k, v in raw.items()}


def neutral_ids() -> dict[str, str]:
    """Case id -> the neutral file it comes from, for the files that are here."""
    files = sorted(NEUTRAL.glob("*.yaml")) if NEUTRAL.is_dir() else []
    files += sorted(HELPERS.glob("*.yaml")) if HELPERS.is_dir() else []
    ids: dict[str, str] = {}
    for path in files:
        for case in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            if isinstance(case, dict) and "id" in case:
                ids[str(case["id"])] = path.name
    return ids


def table(outcomes: list[Outcome], book: dict[str, dict[str, Any]]) -> str:
    """The pass rates per part: a case that does not pass counts as `no-input` when the
    ledger says an input is missing, else as `fail`."""
    rows: dict[str, Counter[str]] = {}
    for o in outcomes:
        rows.setdefault(o.part, Counter())[o.result(book.get(o.case, {}).get("status"))] += 1
    lines = [f"{'part':<16}{'cases':>6}{'pass':>6}{'fail':>6}{'no-input':>10}{'rate':>8}"]
    total: Counter[str] = Counter()
    for part in sorted(rows, key=_natural):
        lines.append(_row(part, rows[part]))
        total.update(rows[part])
    lines.append(_row("all", total))
    return "\n".join(lines)


def _row(name: str, c: Counter[str]) -> str:
    n = sum(c.values())
    rate = f"{100 * c['pass'] / n:.0f} %" if n else "-"
    return f"{name:<16}{n:>6}{c['pass']:>6}{c['fail']:>6}{c['no-input']:>10}{rate:>8}"


def _natural(text: str) -> list[Any]:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)]


def record_before(results: dict[str, str]) -> list[str]:
    """Write `before:` (case id -> pass / fail / no-input) into the ledger line of each case
    in `results` (one line per case, `id: {status: …, before: …}`; only those lines change,
    so two translators can share the file); the cases whose line changed."""
    text = LEDGER.read_text(encoding="utf-8").splitlines(keepends=True)
    changed: list[str] = []
    for i, line in enumerate(text):
        m = re.match(r"^([\w.-]+):\s*\{(.*)\}\s*$", line.rstrip("\n"))
        if not m or m.group(1) not in results:
            continue
        case = m.group(1)
        before = results[case]
        body = re.sub(r",?\s*before:\s*[\w-]+", "", m.group(2)).strip().strip(",")
        new = f"{case}: {{{body}, before: {before}}}\n"
        if new != line:
            text[i] = new
            changed.append(case)
    LEDGER.write_text("".join(text), encoding="utf-8")
    return changed
