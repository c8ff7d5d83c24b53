"""The referee's console tokens kept with the event log (store/tokens.py, issue #45): each
table's own, the same after the log is opened again (a restart of `futmesa serve`), new ones
after they are retired (`serve --new-referee-token`), the retired ones remembered."""

from __future__ import annotations

import itertools
from pathlib import Path

from futmesa.store import EventLog
from futmesa.store.tokens import DEFAULT


def test_each_tables_token_outlives_a_reopen_until_retired(tmp_path: Path) -> None:
    made = (f"token{n}" for n in itertools.count())
    path = tmp_path / "match.sqlite"
    store = EventLog(path)
    first = {t: store.referee_token(t, lambda: next(made)) for t in (DEFAULT, "mesa-1", "mesa-2")}
    assert len(set(first.values())) == 3  # one table's link never commands another
    store.close()
    store = EventLog(path)
    assert {t: store.referee_token(t, lambda: next(made)) for t in first} == first
    assert store.retired_referee_tokens() == set()
    store.retire_referee_tokens()
    again = {t: store.referee_token(t, lambda: next(made)) for t in first}
    assert not set(again.values()) & set(first.values())
    assert store.retired_referee_tokens() == set(first.values())
    store.close()
    store = EventLog(path)
    assert store.referee_token("mesa-1", lambda: next(made)) == again["mesa-1"]
    store.close()
