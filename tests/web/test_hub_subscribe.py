"""The state hub's subscription starts when it is made, not when it is first awaited.

A view takes the snapshot right after subscribing; a publish landing between the two used to
be lost (the subscription only registered at its first await), so a console could miss the
table-reset offer forever on a busy host. These tests fail on that behaviour.
"""

from __future__ import annotations

import asyncio

from futmesa.hub import StateHub
from futmesa_testkit.liveserver import make_state


def test_a_publish_before_the_first_await_reaches_the_subscriber() -> None:
    async def run() -> None:
        hub = StateHub()
        updates = hub.subscribe()
        hub.publish("sim-1", make_state(score={"A": 1, "B": 0}))
        # the guard only turns a lost publish into a failure instead of a hang
        state = await asyncio.wait_for(updates.__anext__(), 30)
        assert state["score"] == {"A": 1, "B": 0}
        await updates.aclose()
        hub.publish("sim-1", make_state())
        assert not hub._subscribers

    asyncio.run(run())


def test_a_snapshot_then_the_stream_misses_nothing_published_between() -> None:
    async def run() -> None:
        hub = StateHub()
        hub.publish("sim-1", make_state())
        updates = hub.subscribe()
        before = hub.snapshot("sim-1")
        hub.publish("sim-1", make_state(score={"A": 0, "B": 2}))
        after = await asyncio.wait_for(updates.__anext__(), 30)
        assert before["score"] == {"A": 0, "B": 0}
        assert after["score"] == {"A": 0, "B": 2}
        await updates.aclose()

    asyncio.run(run())
