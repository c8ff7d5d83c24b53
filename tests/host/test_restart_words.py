"""The restart in force carries the engine's words for it (walk 45h-b B2: after a Botafogo
foul in its own field the console's card said "Cobrança: falta direta para Alvorada" while
the TV and the Registro said "Falta (cobrança direta ou indireta) para Alvorada" — 003 Art.
74: in the attack field the beneficiary chooses direct or indirect). One wording: the
published state's restart says what the rules announced, the card reads it."""

from __future__ import annotations

from pathlib import Path

import futmesa_wire as W
from futmesa.hub import StateHub
from futmesa.link.messages import DeviceInfo, Profile
from futmesa.store import EventLog
from futmesa.table import TableDaemon


def _pastilha(tmp_path: Path) -> TableDaemon:
    daemon = TableDaemon(EventLog(tmp_path / "m.sqlite"), StateHub(), str(tmp_path / "no-port"),
                         "pastilha-8x2")
    daemon.on_device(DeviceInfo(proto=1, firmware="0.1.0", board="sim", uid="T1", boot_id=1,
                                oldest=1, newest=0, tick_rate=1000, tick_bits=32,
                                profile=Profile(2, 0, 0, 0, 1_500_000, 300_000, 0, 15_000, 0),
                                last_cmd_seq=0))
    daemon.referee("set_up", {"teams": {"A": {"name": "Alvorada"}, "B": {"name": "Botafogo"}},
                              "kickoff": "A"}, "ref")
    daemon.referee("start_period", {}, "ref")
    for seq, kind in ((1, W.EV_PERIOD_STARTED), (2, W.EV_CLOCK_STARTED)):
        daemon.on_event(daemon.info, 1, seq, 90_000, (kind, 0, 0, 1, 0, 0))
    return daemon


def test_the_restart_in_force_says_the_rules_words(tmp_path: Path) -> None:
    daemon = _pastilha(tmp_path)
    daemon.referee("touch", {"side": "A", "disc": 3}, "ref")
    daemon.referee("foul", {"side": "B", "disc": 6, "type": "falta", "where": "opponent_half"},
                   "ref")
    m = daemon.state_json()["match"]
    r = m["restart"]
    said = next(a for a in reversed(m["announcements"])
                if isinstance(a, dict) and a.get("code") == f"restart_{r['kind']}")
    assert r["said"]["pt"] == "Falta (cobrança direta ou indireta) para Alvorada", r
    assert said["pt"].startswith(r["said"]["pt"]), (said, r)  # the TV's words, its citation aside
    assert r["said"]["en"].endswith("to Alvorada"), r
    assert r["name"]["pt"] == "falta (cobrança direta ou indireta)", r
