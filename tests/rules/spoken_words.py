"""What the engine says (announcements and confirmation questions, in both languages) while
it runs every scenario under tests/rules/scenarios/; ``python tests/rules/spoken_words.py``
rewrites spoken_words.json, the record test_announce_words.py compares against."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from rules_scenario import load, run  # noqa: E402

from futmesa.rules import Engine  # noqa: E402

RECORD = HERE / "spoken_words.json"


def spoken() -> dict[str, list[list[str]]]:
    """{scenario: [[code or confirm kind, pt, en], ...]} in the order they were said."""
    said: dict[str, list[list[str]]] = {}
    original = Engine.apply
    current: list[list[str]] = []

    def apply(self: Engine, state: Any, entry: Any) -> Any:
        new, effects = original(self, state, entry)
        for e in effects:
            if e.kind == "announce":
                current.append([e.data["code"], e.data["pt"], e.data["en"]])
            elif e.kind == "confirm":
                current.append(["confirm:" + e.data["kind"], e.data["pt"], e.data["en"]])
        return new, effects

    Engine.apply = apply  # type: ignore[method-assign]
    try:
        for path in sorted((HERE / "scenarios").glob("*/*.yaml")):
            current = []
            run(load(path), path.name)
            said[f"{path.parent.name}/{path.stem}"] = current
    finally:
        Engine.apply = original  # type: ignore[method-assign]
    return said


if __name__ == "__main__":
    RECORD.write_text(json.dumps(spoken(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
