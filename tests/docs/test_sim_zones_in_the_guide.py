"""The guide says which `out N` of the simulated table is which line (walk 49a M7: §1 said
only "Digite … out 3", and out 3 turned out to be an end line; a throw-in could not be made on
purpose). Each side-net zone of hardware/boards/sim.json is named in docs/operating.md §1 with
its line and its end of the table, as the board file says."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINE = {"end": "linha de fundo", "side": "lateral"}


def test_every_out_zone_of_the_simulator_is_explained() -> None:
    zones = json.loads((ROOT / "hardware" / "boards" / "sim.json").read_text())["side_net"]
    guide = (ROOT / "docs" / "operating.md").read_text(encoding="utf-8")
    first = guide.split("\n## ", 2)[1]  # §1
    for z in zones:
        said = [m.group(0) for m in re.finditer(rf"`out {z['zone']}`[^;.)]*", first)]
        assert any(LINE[z["line"]] in x and f"gol {z['end']}" in x for x in said), (z, said)
