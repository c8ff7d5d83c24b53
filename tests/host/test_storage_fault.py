"""The device's storage fault (its flash refused a write, firmware/nvstore.py) reaches the log, the
referee's announcement and `futmesa doctor` in words a person acts on, never an internal code."""

from __future__ import annotations

import json

import futmesa_wire as W
from futmesa.deploy.doctor import sensor_lines
from futmesa.matchbook.entries import entry_for
from futmesa.rules import Engine, Entry, load_ruleset


def test_storage_fault_is_an_entry_the_rules_announce_in_portuguese() -> None:
    kind, data = entry_for(W.EV_SENSOR_FAULT, W.SENSOR_STORAGE, W.FAULT_STORAGE, 28)
    assert (kind, data) == ("sensor_fault", {"sensor": W.SENSOR_STORAGE, "fault": "storage"})
    engine = Engine(load_ruleset("cbfm-1toque"))
    state, _ = engine.replay([Entry(1, kind, data, "device", 1, 1000, 1000)])
    said = json.dumps(state.to_dict()["announcements"], ensure_ascii=False)
    assert "A memória do aparelho não grava" in said
    assert "storage" not in said and "sensor 15" not in said.lower()


def test_doctor_reports_a_flash_that_takes_no_writes(english: None) -> None:
    """Read in English, the doctor's source text (tests/i18n checks its Portuguese)."""
    events = [(1, 0, (W.EV_SENSOR_FAULT, W.SENSOR_STORAGE, W.FAULT_STORAGE, 0, 0, 28))]
    lines = sensor_lines(events, None, 6)
    flash = [ln for ln in lines if ln.text.startswith("board flash")]
    assert len(flash) == 1 and flash[0].level == "FAIL"
    assert "futmesa flash" in flash[0].todo
    goals = [ln for ln in lines if ln.text.startswith("goal line")]
    assert [ln.level for ln in goals] == ["ok", "ok"], "not a goal-line fault"
