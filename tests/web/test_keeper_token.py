"""The goalkeeper's key (issue #45): the link the console shows for the secret choice of a
penalty carries a key that only makes that choice, for that side in that match; never the
referee's token, which commands the whole table (docs/operating.md §3, §7)."""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from test_console_api import AUTH, post

from futmesa_testkit.liveserver import TOKEN, LiveServer, ScriptedTable, make_state


class KeeperTable(ScriptedTable):
    """The scripted table, which also takes the goalkeeper's choice (kept, as the engine keeps
    it, out of every screen)."""

    async def handle(self, kind: str, data: dict[str, Any], author: str,
                     pressed_at: float | None = None) -> dict[str, Any]:
        if kind != "keeper_choice":
            return await super().handle(kind, data, author, pressed_at)
        self.entries.append({"id": len(self.entries) + 1, "kind": kind, "data": dict(data),
                             "author": author, "voided": False, "amended_by": None})
        return {"entry": len(self.entries)}


def keeper_link(live: LiveServer, side: str, headers: dict[str, str]) -> httpx.Response:
    return httpx.get(live.url + f"/api/keeper?side={side}", headers=headers)


def keeper_key(live: LiveServer, side: str) -> str:
    """The key in the link the referee's console shows for `side`'s goalkeeper."""
    r = keeper_link(live, side, AUTH)
    assert r.status_code == 200, r.text
    body = r.json()
    assert "<svg" in body["qr_svg"]  # the console shows it as a QR code to scan
    url = urlsplit(body["url"])
    assert url.path == "/console/keeper"
    query = parse_qs(url.query)
    assert query["side"] == [side]
    return query["token"][0]


def test_the_keeper_link_makes_only_that_goalkeepers_choice(live: LiveServer) -> None:
    """Walk 48a M2: the card's link carried the referee's token, handed to the defending
    player: with it he could open /console and command the table. Now its key makes the
    goalkeeper's choice, and nothing else, in Portuguese words (never a traceback)."""
    table = live.call(KeeperTable, live.hub)
    key = keeper_key(live, "B")
    assert key != TOKEN and TOKEN not in key
    keeper = {"Authorization": f"Bearer {key}"}

    # the console page's check of its token: refused, saying what the key is for
    r = httpx.get(live.url + "/api/token", headers=keeper)
    assert r.status_code == 403
    said = r.json()["error"]
    assert "goleiro" in said and "Traceback" not in said, said

    # every other referee input: refused, nothing applied
    for kind, data in (("goal", {"side": "A"}), ("void", {"target": 1}),
                       ("foul", {"side": "A", "type": "falta"}), ("start_period", {}),
                       ("new_match", {}),
                       ("keeper_choice", {"side": "A", "choice": "left"})):  # the other side's
        r = post(live, {"kind": kind, "data": data}, keeper)
        assert r.status_code == 403, (kind, r.text)
        assert "goleiro" in r.json()["error"], r.text
    r = httpx.post(live.url + "/api/display", json={"theme": "default"}, headers=keeper)
    assert r.status_code == 403
    assert keeper_link(live, "A", keeper).status_code == 403  # no key of its own to hand out
    assert table.entries == []

    # its one act: the goalkeeper of B chooses
    r = post(live, {"kind": "keeper_choice", "data": {"side": "B", "choice": "left"},
                    "console": "keeper"}, keeper)
    assert r.status_code == 200, r.text
    assert [(e["kind"], e["data"]["side"]) for e in table.entries] == [("keeper_choice", "B")]

    # the referee's token still makes it too (the console's own page, the shootout)
    r = post(live, {"kind": "keeper_choice", "data": {"side": "B", "choice": "right"}}, AUTH)
    assert r.status_code == 200, r.text

    # the next match at the table: the key given for this one no longer works
    live.publish(make_state(match_id=2))
    r = post(live, {"kind": "keeper_choice", "data": {"side": "B", "choice": "left"},
                    "input_id": uuid.uuid4().hex}, keeper)
    assert r.status_code == 403, r.text
    assert len(table.entries) == 2


def test_a_keeper_link_needs_the_referee_and_a_side(live: LiveServer) -> None:
    live.call(KeeperTable, live.hub)
    assert keeper_link(live, "B", {}).status_code == 401
    assert keeper_link(live, "B", {"Authorization": "Bearer nope"}).status_code == 403
    r = keeper_link(live, "C", AUTH)
    assert r.status_code == 400 and "\n" not in r.json()["error"]


def test_the_shootout_keeper_link_makes_either_goalkeepers_choice(live: LiveServer) -> None:
    """The shoot-out's page is handed from one goalkeeper to the other: its key makes either
    one's choice, and nothing else."""
    table = live.call(KeeperTable, live.hub)
    r = keeper_link(live, "", AUTH)
    assert r.status_code == 200, r.text
    key = parse_qs(urlsplit(r.json()["url"]).query)["token"][0]
    keeper = {"Authorization": f"Bearer {key}"}
    for side in ("A", "B"):
        r = post(live, {"kind": "keeper_choice", "data": {"side": side, "choice": "left"}},
                 keeper)
        assert r.status_code == 200, r.text
    assert post(live, {"kind": "goal", "data": {"side": "A"}}, keeper).status_code == 403
    assert [e["data"]["side"] for e in table.entries] == ["A", "B"]
