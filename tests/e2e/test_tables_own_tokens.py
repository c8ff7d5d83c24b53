"""A host serving several tables gives each table its own referee token.

At a venue with one laptop and two tables, table 1's referee must not command table 2, and
"Nova partida" on table 1 must lock no referee out of the console: each table's link lasts
the serve session (issue #45).
"""

from __future__ import annotations

import uuid

import httpx

from futmesa.sim.table import SimTable
from futmesa_testkit.livetable import LiveTable


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_each_table_has_its_own_token_and_new_match_keeps_it() -> None:
    second = SimTable(speed=30, uid="SIMK0002")
    with LiveTable(speed=30, uid="SIMK0001", more_sims=[second]) as live:
        one, two = "sim-SIMK0001", "sim-SIMK0002"
        live.wait_tables()
        t1, t2 = live.running.token_for(one), live.running.token_for(two)
        assert t1 and t2 and t1 != t2
        url = live.base_url

        def press(token: str, table: str, kind: str, data: dict | None = None) -> httpx.Response:
            return httpx.post(url + "/api/referee", headers=_bearer(token), timeout=60,
                              json={"kind": kind, "data": data or {}, "table": table,
                                    "input_id": uuid.uuid4().hex})

        # table 1's link does not command table 2
        refused = press(t1, two, "set_up", {"kickoff": "A"})
        assert refused.status_code == 403, refused.text
        # taken: 200, or 202 while still being applied (a busy machine) — never 403
        assert press(t2, two, "set_up", {"kickoff": "B"}).status_code in (200, 202)
        assert press(t1, one, "set_up", {"kickoff": "A"}).status_code in (200, 202)

        # Nova partida on table 1: its link commands the new match, and still not table 2 ...
        first = httpx.get(f"{url}/api/state", params={"table": one}, timeout=30).json()
        r = press(t1, one, "new_match", {"ruleset": "cbfm-1toque"})
        assert r.status_code in (200, 202), r.text
        live.wait(lambda: httpx.get(f"{url}/api/state", params={"table": one}, timeout=30
                                    ).json()["match_id"] != first["match_id"], 60,
                  "table 1's new match")
        assert live.running.token_for(one) == t1
        assert httpx.get(f"{url}/api/token", params={"table": one}, headers=_bearer(t1),
                         timeout=30).status_code == 200
        assert press(t1, one, "set_up", {"kickoff": "B"}).status_code in (200, 202)
        assert press(t1, two, "set_up", {"kickoff": "A"}).status_code == 403
        # ... and table 2's referee is not locked out
        assert live.running.token_for(two) == t2
        assert httpx.get(f"{url}/api/token", params={"table": two}, headers=_bearer(t2),
                         timeout=30).status_code == 200
        assert press(t2, two, "start_period").status_code in (200, 202)

        # the host's own browser recovers each table's link
        got = httpx.get(f"{url}/console/recover", params={"format": "json", "table": two},
                        timeout=30).json()
        assert got["token"] == t2 and got["url"] == f"/console?table={two}&token={t2}"
        info = httpx.get(f"{url}/admin/info", params={"table": one}, timeout=30).json()
        assert info["console"].endswith(f"/console?table={one}&token={t1}")
        assert info["kiosk"].endswith(f"/?table={one}")
