"""The event log (eventlog.py and its rooms); how every futmesa SQLite file is written (db.py)."""

from futmesa.store.eventlog import EventLog
from futmesa.store.rows import DeviceEvent, StoredEntry

__all__ = ["DeviceEvent", "EventLog", "StoredEntry"]
