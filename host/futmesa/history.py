"""Match history for the views: the stored matches and their records, from the matchbook.

Kept as the name the server and older code use; the work is :class:`futmesa.matchbook.MatchLibrary`.
"""

from __future__ import annotations

from futmesa.matchbook import MatchLibrary


class History(MatchLibrary):
    """Implements the web views' HistoryProvider on the SQLite event log."""
