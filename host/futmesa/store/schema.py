"""The event log's tables, and the steps an older log takes to reach them (store/db.py)."""

from __future__ import annotations

import sqlite3

from futmesa import chain
from futmesa.store.db import Step, add_column

SCHEMA = """
CREATE TABLE IF NOT EXISTS devices (
    device_uid TEXT PRIMARY KEY,
    board TEXT NOT NULL,
    first_seen REAL NOT NULL,
    last_seen REAL NOT NULL,
    usb_serial TEXT
);
CREATE TABLE IF NOT EXISTS device_events (
    id INTEGER PRIMARY KEY,
    device_uid TEXT NOT NULL,
    boot_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    ticks INTEGER NOT NULL,
    kind TEXT NOT NULL,
    a INTEGER NOT NULL,
    b INTEGER NOT NULL,
    period INTEGER NOT NULL,
    clock_ms INTEGER NOT NULL,
    value INTEGER NOT NULL,
    received_at REAL NOT NULL,
    UNIQUE (device_uid, boot_id, seq)
);
CREATE TABLE IF NOT EXISTS gaps (
    id INTEGER PRIMARY KEY,
    device_uid TEXT NOT NULL,
    boot_id INTEGER NOT NULL,
    first_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    recorded_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    settings TEXT NOT NULL,
    referee TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    ended_at REAL
);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    source TEXT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    period INTEGER NOT NULL,
    clock_ms INTEGER NOT NULL,
    ticks INTEGER NOT NULL,
    device_event_id INTEGER REFERENCES device_events(id),
    author TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    occurred_at REAL
);
CREATE TABLE IF NOT EXISTS cursors (
    device_uid TEXT PRIMARY KEY,
    boot_id INTEGER NOT NULL,
    seq INTEGER NOT NULL
);
"""

# A reset boot's events that may have been lost without the device's record naming them: the
# boot had numbered events up to at most up_to_seq (its flash seq reservation), the log holds
# them up to after_seq (docs/protocol.md section 7, "Sequence reservation"). Kept apart from the
# gaps: those seqs may never have been made.
LOSS_SCHEMA = """
CREATE TABLE IF NOT EXISTS possible_losses (
    id INTEGER PRIMARY KEY,
    device_uid TEXT NOT NULL,
    boot_id INTEGER NOT NULL,
    after_seq INTEGER NOT NULL,
    up_to_seq INTEGER NOT NULL,
    recorded_at REAL NOT NULL
);
"""

# The id a phone gave each referee input (web/static/referee.js): a press sent again after its
# answer was lost, even across a restart of the host, finds its entry and is not applied twice.
INPUT_SCHEMA = """
CREATE TABLE IF NOT EXISTS referee_inputs (
    input_id TEXT PRIMARY KEY,
    match_id INTEGER NOT NULL,
    entry_id INTEGER NOT NULL
);
"""

# Each table's referee token (table_key '': the host's own, for one table): the printed link
# outlives a restart of serve; `serve --new-referee-token` retires them (kept, retired_at set,
# so a console still holding one is told why it is refused). store/tokens.py
TOKEN_SCHEMA = """
CREATE TABLE IF NOT EXISTS referee_tokens (
    token TEXT PRIMARY KEY,
    table_key TEXT NOT NULL,
    made_at REAL NOT NULL,
    retired_at REAL
);
CREATE UNIQUE INDEX IF NOT EXISTS referee_token_now ON referee_tokens(table_key)
    WHERE retired_at IS NULL;
"""

# Derived data, never the truth: one summary per match for the history list, valid while its
# version and the match's entries (count, newest id) are what they were when it was made; and
# an index so reading one match's log does not scan every match's entries.
SUMMARY_SCHEMA = """
CREATE TABLE IF NOT EXISTS match_summaries (
    match_id INTEGER PRIMARY KEY REFERENCES matches(id),
    version TEXT NOT NULL,
    entry_count INTEGER NOT NULL,
    last_entry_id INTEGER NOT NULL,
    summary TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_by_match ON entries(match_id, id);
CREATE INDEX IF NOT EXISTS matches_by_table ON matches(table_id, id);
"""




def _base(db: sqlite3.Connection) -> None:
    db.executescript(SCHEMA)
    add_column(db, "entries", "occurred_at", "REAL")  # a log written before futmesa 0.1.0


STEPS: list[Step] = [
    _base,
    lambda db: db.executescript(SUMMARY_SCHEMA),
    lambda db: db.executescript(LOSS_SCHEMA),
    lambda db: db.executescript(INPUT_SCHEMA),  # a log from before input ids
    chain.migrate,  # an older log: its entries stay unchained
    lambda db: db.executescript(TOKEN_SCHEMA),  # a log from before tokens outlived a restart
]
