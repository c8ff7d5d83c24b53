"""004 "Pênaltis" during a match, end to end: a foul in the area, the goalkeeper's secret choice
from a second device (the console API with the referee token, as the console's goalkeeper page
sends it), hidden from /api/state and the public log, and revealed once the kick is over.

Real parts: the firmware under `micropython` on a pty, the daemon, SQLite, the web app."""

from __future__ import annotations

import json
from typing import Any

import httpx
from test_lance_sanction_end_to_end import console_post

from futmesa_testkit.livetable import LiveTable


def _post(live: LiveTable, kind: str, data: dict[str, Any],
          author: str = "árbitro") -> dict[str, Any]:
    return console_post(live, kind, data, author)


def test_in_match_penalty_keeper_choice_is_secret_until_the_kick() -> None:
    with LiveTable(speed=30, ruleset="mesa-posta") as live:
        live.start_match(kickoff="A")
        _post(live, "foul", {"side": "A", "where": "box"})
        state = httpx.get(live.base_url + "/api/state").json()
        assert state["match"]["restart"]["kind"] == "penalti"

        keeper = json.dumps(_post(live, "keeper_choice", {"side": "A", "choice": "right"},
                                  "goleiro"), ensure_ascii=False)
        assert "right" not in keeper and "direita" not in keeper
        public = httpx.get(live.base_url + "/api/state").text
        assert "right" not in public and "direita" not in public
        assert httpx.get(live.base_url + "/api/state").json()["match"]["restart"][
            "keeper_choice_recorded"] is True

        _post(live, "shot_asked", {"side": "B", "disc": 9})
        _post(live, "shot_result", {"outcome": "saved"})
        match = httpx.get(live.base_url + "/api/state").json()["match"]
        assert match["penalties"] == [{"side": "B", "disc": 9, "scored": False,
                                       "keeper_choice": "right", "period": 1,
                                       "entry": match["penalties"][0]["entry"]}]
        assert any(a["code"] == "penalty_keeper" and "direita" in a["pt"]
                   for a in match["announcements"])
