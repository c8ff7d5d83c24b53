"""An entry another writer put in a match's log (the camera's clip, docs/camera.md), taken
into the match on the table's queue as a replay of the log would take it: the console's log
lists it at once, and a correction citing it is said with its hash. The rules give it no
meaning."""

from __future__ import annotations

from typing import Any

from futmesa.matchbook.entries import to_entry


def take_aside(table: Any, entry_id: int) -> None:
    """Apply the stored entry ``entry_id`` to ``table``'s match (a TableDaemon), once; run it
    on the table's queue (``table.queue.run(take_aside, table, entry_id)``)."""
    book = table.book
    if book is None or any(e.id == entry_id for e in book.state.log):
        return
    row = next((e for e in reversed(table.store.entries(book.id)) if e.id == entry_id), None)
    if row is not None and row.match_id == book.id:
        table.apply(to_entry(row))
