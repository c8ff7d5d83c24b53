"""The referee's "Rever" (a ``review`` input) through the real daemon and rules: recorded,
changing nothing in the match, and the camera writes the clip of the last ``review_s``
seconds before the press into the log beside it."""

from __future__ import annotations

import pytest

from futmesa.matchbook.wording import sentence
from futmesa_testkit.livetable import LiveTable

from .helpers import small, wait_for

pytestmark = pytest.mark.slow


def test_rever_records_the_last_seconds_beside_the_press() -> None:
    settings = small(review_s=4.0)
    with LiveTable(speed=30, camera=settings) as live:
        live.start_match()
        cam = live.running.camera
        wait_for(lambda: cam.stats()["ring_frames"] >= 45, 60, "4.5 s of frames")
        before = live.running.daemon.state_json()
        live.referee("review", {})
        store = live.running.store
        mid = live.running.daemon.match["id"]
        review = wait_for(lambda: [e for e in store.entries(mid) if e.kind == "review"],
                          30, "the review in the log")[0]
        clip = wait_for(lambda: [e for e in store.entries(mid) if e.kind == "clip"
                                 and e.data["shows"] == review.id], 30, "its clip")[0]
        after = live.running.daemon.state_json()
    assert before["score"] == after["score"] and before["period"] == after["period"]
    assert not [a for a in after["match"]["announcements"] if a.get("code") == "refused"]
    at = review.occurred_at
    assert at - 4000 <= clip.data["from_ms"] <= at - 3500  # the last 4 s before the press
    assert at - 300 <= clip.data["to_ms"] <= at
    assert clip.data["sha256"]
    assert sentence("review", {}, {}) == "Rever: o árbitro pediu para ver o lance de novo"
