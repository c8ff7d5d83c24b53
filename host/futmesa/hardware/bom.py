"""Bills of materials (`hardware/bom/*.csv`): loading, checking against a board file, totals."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from futmesa.hardware.boardfile import Board, hardware_dir
from futmesa.i18n import _

COLUMNS = ["part", "quantity", "role", "purpose", "alternatives", "unit_cost_usd"]
ROLES = {"mcu", "goal_sensor", "side_net", "palheta", "button", "buzzer", "led", "cable", "other"}
BUILDS = ("breakbeam", "tof")


@dataclass(frozen=True)
class Item:
    part: str
    quantity: int
    role: str
    purpose: str
    alternatives: str
    unit_cost_usd: float


def bom_path(build: str) -> Path:
    return hardware_dir() / "bom" / f"{build}.csv"


def load_bom(build: str) -> list[Item]:
    """Read one build's BOM; ValueError names the bad line."""
    path = bom_path(build)
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != COLUMNS:
            raise ValueError(_("{path}: the header must be {columns}").format(
                path=path, columns=",".join(COLUMNS)))
        items = []
        for n, row in enumerate(reader, start=2):
            try:
                item = Item(row["part"], int(row["quantity"]), row["role"], row["purpose"],
                            row["alternatives"], float(row["unit_cost_usd"]))
            except (TypeError, ValueError) as exc:
                raise ValueError(_("{path} line {line}: {problem}; quantity is a whole number, "
                                   "unit_cost_usd a number").format(
                                       path=path, line=n, problem=exc)) from exc
            if item.role not in ROLES:
                raise ValueError(_("{path} line {line}: role {role} is not one of {roles}")
                                 .format(path=path, line=n, role=repr(item.role),
                                         roles=", ".join(sorted(ROLES))))
            items.append(item)
    return items


def quantity(items: list[Item], role: str) -> int:
    return sum(i.quantity for i in items if i.role == role)


def total_usd(items: list[Item]) -> float:
    return round(sum(i.quantity * i.unit_cost_usd for i in items), 2)


def check_against_board(items: list[Item], board: Board) -> list[str]:
    """What a BOM lacks for a board file's inputs (empty when it covers them)."""
    problems = []
    need = {
        "goal_sensor": len(board.goal_sensors),
        "side_net": len(board.side_net),
        "palheta": 2,  # at least A and B contacts
        "button": len([p for p in board["buttons"].values() if p is not None]),
        "buzzer": 1,
        "led": 1,
        "mcu": 1,
    }
    for role, n in need.items():
        have = quantity(items, role)
        if have < n:
            problems.append(f"{role}: the board file needs {n}, the BOM lists {have}")
    return problems
