"""The one error of the competition's rooms: an organiser's request that cannot be done."""

from __future__ import annotations


class CompetitionError(ValueError):
    """An organiser's request that cannot be done; the message says why."""
