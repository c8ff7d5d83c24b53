"""What the hash chain costs: per entry, and on the commit path of a device event.

In one process, on real SQLite files (``synchronous=FULL``, as the daemon writes):

- the hash alone: an entry's canonical encoding and SHA-256 (``chain.content`` +
  ``chain.entry_hash``), per entry;
- the commit path: ``EventLog.append_device_event`` (the device event, its match entry and
  the cursor in one committed transaction), chained (the product) against the same store
  with sealing turned off (the unchained commit, the baseline), in alternating blocks so
  both see the same machine; median and mean per commit, and the ratio;
- ``verify`` of the whole chain afterwards, per entry.

``--quick`` runs a tenth of the entries (a smoke run).
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from futmesa import chain
from futmesa.store import DeviceEvent, EventLog


class UnchainedLog(EventLog):
    """The store as it committed before the chain: the baseline."""

    @staticmethod
    def _seal(db: sqlite3.Connection, entry_id: int) -> str:  # type: ignore[override]
        return ""


def hash_cost(n: int) -> float:
    """µs per entry for the canonical encoding and SHA-256."""
    prev = chain.GENESIS
    start = time.perf_counter()
    for i in range(n):
        content = chain.content(i + 1, 1, "device", "goal_line", {"goal": i % 2, "ms": 40}, 1,
                                i * 1000, i * 1000, "T1", 1_780_000_000.0 + i,
                                1_780_000_000_000.0 + i, {"uid": "T1", "boot_id": 1, "seq": i})
        prev = chain.entry_hash(content, prev)
    return (time.perf_counter() - start) / n * 1e6


def commits(store: EventLog, match: int, first_seq: int, n: int) -> list[float]:
    """µs per append_device_event, n of them."""
    out = []
    for seq in range(first_seq, first_seq + n):
        ev = DeviceEvent("T1", 1, seq, seq * 1000, "goal_line", 1, 0, 1, seq * 1000, 40)
        start = time.perf_counter()
        store.append_device_event(ev, match, "goal_line", {"goal": 1, "ms": 40})
        out.append((time.perf_counter() - start) * 1e6)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2000, help="commits per store")
    parser.add_argument("--quick", action="store_true", help="a tenth of the entries")
    args = parser.parse_args()
    n = max(50, args.entries // 10 if args.quick else args.entries)
    block = 50
    with tempfile.TemporaryDirectory() as tmp:
        chained = EventLog(Path(tmp) / "chained.sqlite")
        plain = UnchainedLog(Path(tmp) / "plain.sqlite")
        m_chained = chained.new_match("T1", "cbfm-1toque", {})
        m_plain = plain.new_match("T1", "cbfm-1toque", {})
        per_hash = hash_cost(max(n, 5000))
        print(f"hash chain, {n} device events committed per store, chained and unchained "
              "in alternating blocks of 50")
        print(f"  hash alone (canonical JSON + SHA-256): {per_hash:8.1f} µs per entry")
        seq = 1
        for sync in ("FULL", "OFF"):
            # FULL: the daemon's commit (one fsync each); OFF: no fsync, the CPU part alone
            for store in (chained, plain):
                store._db.execute(f"PRAGMA synchronous={sync}")
            with_chain: list[float] = []
            without: list[float] = []
            while len(with_chain) < n:
                k = min(block, n - len(with_chain))
                without += commits(plain, m_plain, seq, k)
                with_chain += commits(chained, m_chained, seq, k)
                seq += k
            med_c, med_p = statistics.median(with_chain), statistics.median(without)
            mean_c, mean_p = statistics.fmean(with_chain), statistics.fmean(without)
            print(f"  synchronous={sync}:")
            print(f"    commit, unchained (baseline): median {med_p:8.1f} µs, "
                  f"mean {mean_p:8.1f} µs")
            print(f"    commit, chained:              median {med_c:8.1f} µs, "
                  f"mean {mean_c:8.1f} µs")
            print(f"    chain on the commit path: median {med_c - med_p:+.1f} µs, ratio "
                  f"chained/unchained {med_c / med_p:.3f} (mean ratio {mean_c / mean_p:.3f})")
        start = time.perf_counter()
        check = chained.chain_check(m_chained)
        verify_us = (time.perf_counter() - start) / (2 * n) * 1e6
        assert check.ok and check.chained == 2 * n, check.to_dict()
        assert plain.chain_check(m_plain).unchained == 2 * n
        chained.close()
        plain.close()
    print(f"  verify afterwards: {verify_us:.1f} µs per entry")
    return 0


if __name__ == "__main__":
    sys.exit(main())
