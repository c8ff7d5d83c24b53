"""A table's extras (the venue desk's "next" match) and when they stop being shown.

CI caught a kiosk showing the match just started by the referee's one press *and* the same
match as "próxima" — the state with the new match went out with the old extra, and the
extra was only removed by a second publish. ``annotate(..., until=...)`` drops it from the
very state that satisfies the condition.
"""

from __future__ import annotations

from futmesa.hub import StateHub
from futmesa_testkit.liveserver import make_state


def test_an_extra_is_merged_until_its_condition_holds() -> None:
    hub = StateHub()
    started = {"cm": None}
    hub.publish("t1", make_state())
    hub.annotate("t1", "next", {"title": "A × B"}, until=lambda _s: started["cm"] == 7)
    assert hub.snapshot("t1")["next"] == {"title": "A × B"}
    hub.publish("t1", make_state(score={"A": 1, "B": 0}))
    assert hub.snapshot("t1")["next"] == {"title": "A × B"}
    started["cm"] = 7  # the match is now on the table
    hub.publish("t1", make_state(score={"A": 0, "B": 0}))
    assert "next" not in hub.snapshot("t1")  # the very first state of the new match
    started["cm"] = None
    hub.publish("t1", make_state())
    assert "next" not in hub.snapshot("t1")  # and it does not come back by itself


def test_annotating_again_replaces_the_condition_and_none_removes() -> None:
    hub = StateHub()
    hub.publish("t1", make_state())
    hub.annotate("t1", "next", {"title": "A × B"}, until=lambda _s: True)
    # set again without a condition: stays
    hub.annotate("t1", "next", {"title": "C × D"})
    hub.publish("t1", make_state())
    assert hub.snapshot("t1")["next"] == {"title": "C × D"}
    hub.annotate("t1", "next", None)
    assert "next" not in hub.snapshot("t1")
