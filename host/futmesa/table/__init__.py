"""One table served: its link's frames and its referee's inputs, one at a time, into its match.

``daemon.py`` (the LinkSink and the glue), ``queue.py`` (the table's one thread), ``opening.py``
(its match resumed or opened), ``earlier.py`` (what the table made before the match),
``reset.py`` (a reset and the time it cost), ``clock.py`` (the clock between statuses),
``commands.py`` (a rule effect → a device command), ``referee.py`` (the referee input path).
"""

from futmesa.table.daemon import TableDaemon
from futmesa.table.referee import checked_new_match

__all__ = ["TableDaemon", "checked_new_match"]
