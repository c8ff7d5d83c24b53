"""A flash that stops taking writes (the harness's flash chip ignores erase and program) does
not stop the table: the emulated Pico keeps its clock running from RAM and reports one
storage fault (EV_SENSOR_FAULT, sensor SENSOR_STORAGE), which reaches the host's log."""

from __future__ import annotations

import pytest
from link.harness import RecordingSink, check_log, stored, truth, wait_until

import futmesa_wire as W
from futmesa.link import HostLink
from futmesa.store import EventLog


@pytest.mark.timeout(1500)
def test_unwritable_flash_keeps_the_clock_running_and_reports_a_fault(pico_factory,
                                                                     tmp_path) -> None:
    pico = pico_factory("tof")
    pico.start()
    store = EventLog(tmp_path / "events.sqlite")
    sink = RecordingSink(store)
    link = HostLink(pico.host_port, sink)
    link.start()
    try:
        wait_until(lambda: link.connected, 600, "the first connection", pico)
        pico.send("flash-wp on")  # from now on the chip ignores erase and page program
        assert link.command(W.CMD_START).result(timeout=300) == W.ACK_OK
        # the running clock is checkpointed to flash every device second: those writes fail
        wait_until(lambda: any(e[2] == W.EV_SENSOR_FAULT for e in truth(pico)), 600,
                   "a storage fault from the device", pico)
        faults = [e for e in truth(pico) if e[2] == W.EV_SENSOR_FAULT]
        assert len(faults) == 1, faults  # reported once, not on every failed write
        wait_until(lambda: sink.statuses and sink.statuses[-1].running, 120, "a status", pico)
        first = sink.statuses[-1].clock_ms
        wait_until(lambda: sink.statuses[-1].clock_ms >= first + 2000, 600,
                   "the clock to keep running", pico)
        assert sink.statuses[-1].running
        assert pico.resets == [], "no reset: the loop never stalled on the failing flash"
        wait_until(lambda: len(stored(store)) >= len(truth(pico)), 120,
                   "the host to catch up", pico)
        check_log(store, truth(pico))
        stored_faults = [e for e in store.device_events() if e.kind == "sensor_fault"]
        assert [(e.a, e.b) for e in stored_faults] == [(W.SENSOR_STORAGE, W.FAULT_STORAGE)]
    finally:
        link.stop()
        store.close()
