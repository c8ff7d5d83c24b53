"""A flash that cannot be written (no filesystem, full, failing mid-match) never stops the firmware:
the clock runs from RAM and a storage fault is reported to the host once."""

import os

import futmesa_wire as W
from fwtest import Table, check, eq, fresh_dir, only, profile, wipe
from nvstore import NvStore


def storage_faults(events):
    return [e for e in only(events, "sensor_fault") if e.a == W.SENSOR_STORAGE]


def run_a_minute(t):
    t.cmd(W.CMD_START)
    t.run(60000, step=20)  # 60 checkpoints' worth
    check(t.app.clock.running, "the clock still runs")
    eq(t.ms(), 60000, "the clock kept time")


def test_no_filesystem_at_all():
    # a flash that could not be mounted or formatted: every path fails (ENOENT)
    t = Table(state="/futmesa-no-such-volume/state", prof=profile(period_ms=10 * 60000))
    t.seen = 0  # from the boot on
    ev = t.events()
    faults = storage_faults(ev)
    eq(len(faults), 1, "one storage fault reported at boot: %r" % ev)
    eq(faults[0].b, W.FAULT_STORAGE, "fault code")
    check(faults[0].value != 0, "the errno is reported")
    check(1 <= t.app.boot_id <= 0xFFFF, "a boot id all the same")
    eq(t.app.clock.period_ms, 10 * 60000, "the profile applies from RAM")
    run_a_minute(t)
    eq(storage_faults(t.events()), [], "reported once, not on every checkpoint")
    t.close()


def full_dir():
    """A state folder whose every file is Linux's /dev/full: writes fail with ENOSPC."""
    state = fresh_dir()
    os.mkdir(state)
    for name in ("boot.bin.tmp", "profile.bin.tmp", "table.json.tmp", "clock.bin"):
        eq(os.system("ln -s /dev/full %s/%s" % (state, name)), 0, "ln -s")  # no os.symlink here
    return state


def test_full_flash():
    state = full_dir()
    t = Table(state=state, prof=profile(period_ms=10 * 60000))
    t.seen = 0
    faults = storage_faults(t.events())
    eq(len(faults), 1, "one storage fault")
    eq(faults[0].value, 28, "ENOSPC")
    run_a_minute(t)
    eq(storage_faults(t.events()), [], "reported once")
    t.close()


def test_flash_failing_mid_match():
    t = Table(prof=profile(period_ms=10 * 60000))
    t.events()
    t.cmd(W.CMD_START)
    t.run(5000, step=20)
    eq(storage_faults(t.events()), [], "no fault while the flash takes writes")
    # the flash fills up under the open clock slot: the next checkpoint fails
    t.app.clock.slot._f.close()
    t.app.clock.slot._f = open("/dev/full", "r+b")
    t.run(2000, step=20)
    faults = storage_faults(t.events())
    eq(len(faults), 1, "the failed checkpoint is reported")
    eq(faults[0].value, 28, "ENOSPC")
    t.run(53000, step=20)
    eq(t.ms(), 60000, "the clock kept time")
    check(t.app.clock.running, "and still runs")
    eq(storage_faults(t.events()), [], "reported once")
    t.close()


def test_store_write_reports_instead_of_raising():
    store = NvStore("/futmesa-no-such-volume/state")
    heard = []
    store.on_fault = heard.append
    eq(store.write("x.bin", b"1"), False, "write refused")
    check(store.error != 0, "first errno kept")
    eq(len(heard), 1, "on_fault heard it")
    eq(store.read("x.bin"), None, "nothing to read")
    slot = store.slot("clock.bin", 8)
    slot.buf[0] = 7
    slot.flush()  # a no-op, never raises
    slot.close()
    state = fresh_dir()
    ok = NvStore(state)
    eq(ok.write("x.bin", b"1"), True, "a writable flash")
    eq(ok.error, 0, "no error")
    a = ok.next_boot_id()
    eq(ok.next_boot_id(), a + 1, "boot ids count up on a writable flash")
    wipe(state)
