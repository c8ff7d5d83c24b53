"""The read side of a match: from the stored log to everything a person sees.

One package owns the way from the event log to every view:

- :mod:`.entries` — device events and stored rows → the rules' entries;
- :mod:`.book` — the engine and replay (:class:`MatchBook` for the match being played,
  :class:`MatchLibrary` for stored matches and their records);
- :mod:`.summary` — one kept summary per stored match, so the history list does not replay;
- :mod:`.status` — each entry's status (effective, voided, amended, by whom, why), read from
  the engine's own corrections;
- :mod:`.live` — the live state JSON, a pure function;
- :mod:`.wording` — a Portuguese (or English) sentence for every entry, times in the venue's zone;
- :mod:`.sumula` — the súmula model the renderers in :mod:`futmesa.report` print.
- :mod:`.rerun` — a stored match replayed under another ruleset, and what would differ.

The daemon, the history, ``futmesa rerun`` / ``report`` / ``matches``, the console's log and the
kiosk are adapters over it.
"""

from futmesa.matchbook.book import (
    MatchBook,
    MatchLibrary,
    UnloadableMatch,
    build_record,
    engine_for,
    replay_match,
)
from futmesa.matchbook.entries import device_row, entry_for, stored_event, to_entry
from futmesa.matchbook.live import LinkView, state_json
from futmesa.matchbook.status import EntryStatus, entry_statuses
from futmesa.matchbook.sumula import Sumula, Table, build, public_record

__all__ = [
    "EntryStatus", "LinkView", "MatchBook", "MatchLibrary", "Sumula", "Table", "UnloadableMatch",
    "build",
    "build_record",
    "device_row", "engine_for", "entry_for", "entry_statuses", "public_record", "replay_match",
    "state_json", "stored_event", "to_entry",
]
