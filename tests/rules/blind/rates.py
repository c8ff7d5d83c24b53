"""Print the blind cases' pass rates per part (part, cases, pass, fail, no-input), and each
case that does not pass with why.

    .venv/bin/python tests/rules/blind/rates.py            # the engine on the path now
    PYTHONPATH=/work/base-c8945eb/host .venv/bin/python tests/rules/blind/rates.py --before
        # the session's starting engine first on the path; --record writes each case's
        # `before:` into tests/rules/blind/ledger.yaml (only those lines change)

A case that does not pass counts as no-input when its translation enters an input the
engine does not know, or the ledger says an input is missing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/rules

from blind_ledger import ledger, outcome, record_before, table, translations  # noqa: E402

import futmesa  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", action="store_true",
                        help="measuring the engine at the session's start (see above)")
    parser.add_argument("--record", action="store_true",
                        help="with --before: write each case's result as `before:` in the ledger")
    parser.add_argument("--quiet", action="store_true", help="only the table")
    args = parser.parse_args()
    engine_at = Path(futmesa.__file__).resolve().parents[1]
    print(f"engine: {engine_at}" + (" (before)" if args.before else ""))
    book = ledger()
    outcomes = [outcome(p) for p in translations()]
    print(table(outcomes, book))
    if not args.quiet:
        for o in outcomes:
            if not o.passed:
                print(f"  {o.part}/{o.case}: {o.result(book.get(o.case, {}).get('status'))}: "
                      f"{o.why[:240]}")
    if args.record:
        if not args.before:
            parser.error("--record writes `before:`: measure with --before")
        changed = record_before({o.case: o.result(book.get(o.case, {}).get("status"))
                                 for o in outcomes})
        print(f"ledger: before: written for {len(changed)} case(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
