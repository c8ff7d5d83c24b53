"""What a table made before the match opened at its connection (an earlier match, perhaps
under another database): kept in the device log, not played in this match."""

from __future__ import annotations

import logging

from futmesa.i18n import _
from futmesa.link import DeviceInfo
from futmesa.matchbook.live import names_of

log = logging.getLogger("futmesa.table")


class EarlierEvents:
    """``before``: (boot id, newest seq) the table held when the match opened, or None."""

    def __init__(self) -> None:
        self.before: tuple[int, int] | None = None
        self._boots_since: set[int] = set()  # the table's boots seen since the match opened
        self._told = False

    def match_opened(self, info: DeviceInfo, boot: int) -> None:
        """`boot`: the table's boot as the log numbers it (link.protocol.extend_boot), as its
        events come."""
        self.before = (boot, info.newest)
        self._boots_since = set()

    def new_boot(self, boot_id: int) -> None:
        """A boot of this match, not before it."""
        self._boots_since.add(boot_id)

    def made_before(self, boot_id: int, seq: int) -> bool:
        """Whether the table made this event before the match opened: an earlier boot's, or
        this boot's up to the newest it held then."""
        before = self.before
        if before is None or boot_id in self._boots_since:
            return False
        return boot_id != before[0] or seq <= before[1]

    def tell_once(self, table_id: str) -> None:
        if not self._told:
            self._told = True
            log.info(_("%s kept events from before this match (an earlier match): stored in "
                       "the table's log, not played in this match"), names_of(table_id, None))
