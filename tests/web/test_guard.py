"""Web inputs never break a match (issue 13, item 5): numbers out of range, deep JSON,
huge bodies and the Host header of token recovery, against a real uvicorn on 127.0.0.1."""

from __future__ import annotations

import json
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from futmesa.hub import StateHub
from futmesa.matchbook import MatchLibrary
from futmesa.store import EventLog
from futmesa.web.app import create_app
from futmesa.web.guard import DEFAULT_MAX_BODY, host_name, json_problem, parse_id
from futmesa_testkit.liveserver import TOKEN, LiveServer, serving

AUTH = {"Authorization": f"Bearer {TOKEN}"}
HUGE = "99999999999999999999999"


@pytest.fixture
def stored(tmp_path: Path) -> Iterator[LiveServer]:
    """The app over a real (empty) SQLite event log, as `futmesa serve` runs it."""
    store = EventLog(tmp_path / "m.sqlite")
    try:
        with serving(history=MatchLibrary(store)) as server:
            yield server
    finally:
        store.close()


# -- numbers in paths and queries ---------------------------------------------------------

@pytest.mark.parametrize("path", [
    f"/report/{HUGE}", f"/report/{HUGE}.pdf", f"/api/log?match={HUGE}",
    "/report/-1", "/api/log?match=-1", "/api/log?match=1_0", "/report/%D9%A1",
    "/api/log?match=%201", f"/report/{2**63}", f"/api/log?match={2**63}",
])
def test_match_numbers_out_of_range_are_not_found(stored: LiveServer, path: str) -> None:
    with httpx.Client(base_url=stored.url) as client:
        r = client.get(path)
        assert r.status_code == 404, r.text
        error = r.json()["error"]
        assert error.startswith("partida ") and "não encontrada" in error, error
        # the same connection goes on serving
        assert client.get("/api/state").status_code == 200


def test_parse_id_takes_only_plain_numbers_sqlite_can_hold() -> None:
    assert parse_id("42") == 42
    assert parse_id(str(2**63 - 1)) == 2**63 - 1
    for bad in ("", " 4", "4_2", "-4", "+4", "٤", "4.0", str(2**63), HUGE, None):
        with pytest.raises(ValueError):
            parse_id(bad)


# -- JSON shape ---------------------------------------------------------------------------

def test_deeply_nested_json_is_refused_with_a_reason(live: LiveServer) -> None:
    for body in ("[" * 20_000 + "]" * 20_000,
                 '{"kind": "goal", "data": ' + '{"a": ' * 5000 + "1" + "}" * 5001):
        r = httpx.post(live.url + "/api/referee", content=body, headers=AUTH)
        assert r.status_code == 400, r.text
        assert "aninhado em mais de" in r.json()["error"]


def test_a_number_too_long_for_python_is_refused(live: LiveServer) -> None:
    body = '{"kind": "goal", "data": {"disc": ' + "1" * 5000 + "}}"
    r = httpx.post(live.url + "/api/referee", content=body, headers=AUTH)
    assert r.status_code == 400, r.text
    assert "mais de 30 dígitos" in r.json()["error"]


def test_ordinary_actions_pass_the_guard(live: LiveServer) -> None:
    deep_enough = {"kind": "new_match", "data": {"settings": {"teams": {"A": {"name": "x"}}}}}
    assert json_problem(json.dumps(deep_enough).encode()) is None
    assert json_problem(b'{"text": "[[[[' + b"[" * 100 + b'\\" 123"}') is None  # in a string
    r = httpx.post(live.url + "/api/display", json={"mode": "board", "n": 10**20}, headers=AUTH)
    assert r.status_code == 200, r.text
    assert live.app.state.display["mode"] == "board"


# -- body size ----------------------------------------------------------------------------

def _read_response(sock: socket.socket, deadline_s: float = 30) -> tuple[int, dict]:
    """Status and JSON body of one HTTP response read from ``sock``."""
    data = b""
    deadline = time.monotonic() + deadline_s
    while b"\r\n\r\n" not in data or len(data) < _expected_len(data):
        assert time.monotonic() < deadline, f"no complete answer within {deadline_s} s: {data!r}"
        ready, _, _ = select.select([sock], [], [], 0.5)
        if ready:
            chunk = sock.recv(65536)
            assert chunk, f"the server closed the connection without answering: {data!r}"
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), json.loads(body)


def _expected_len(data: bytes) -> int:
    head, _, _ = data.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(head) + 4 + int(line.split(b":")[1])
    return len(data) + 1


def _head(live: LiveServer, extra: str) -> bytes:
    return (f"POST /api/display HTTP/1.1\r\nHost: 127.0.0.1:{live.port}\r\n"
            f"Authorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\n"
            f"{extra}\r\n").encode()


def test_a_declared_huge_body_is_refused_before_it_is_sent(live: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", live.port), timeout=30) as sock:
        sock.sendall(_head(live, f"Content-Length: {64 * 1024 * 1024}\r\n"))
        status, body = _read_response(sock)  # no byte of the body was sent
    assert status == 413
    assert "passa do limite de 64 KiB" in body["error"]


def test_a_streamed_body_is_cut_off_at_the_limit(live: LiveServer) -> None:
    """64 MB sent in chunks: the answer comes long before the end, and the route never ran."""
    total = 64 * 1024 * 1024
    piece = b"x" * 16384
    with socket.create_connection(("127.0.0.1", live.port), timeout=30) as sock:
        sock.sendall(_head(live, "Transfer-Encoding: chunked\r\n"))
        first = b'{"mode": "blank", "pad": "'
        sock.sendall(b"%x\r\n%s\r\n" % (len(first), first))
        sent = len(first)
        while sent < total and not select.select([sock], [], [], 0)[0]:
            sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
            sent += len(piece)
        assert sent < total, "the server waited for the whole 64 MB body before answering"
        status, body = _read_response(sock)
    assert status == 413
    assert "passa do limite de 64 KiB" in body["error"]
    assert live.app.state.display["mode"] == "scoreboard"  # the action was never applied


def test_a_body_under_the_limit_is_served(live: LiveServer) -> None:
    body = {"mode": "blank", "pad": "x" * (DEFAULT_MAX_BODY - 100)}
    r = httpx.post(live.url + "/api/display", json=body, headers=AUTH)
    assert r.status_code == 200, r.text
    assert live.app.state.display["mode"] == "blank"


def test_the_body_limit_is_a_setting() -> None:
    with serving(max_body=1024) as live:
        r = httpx.post(live.url + "/api/display", json={"mode": "blank", "pad": "x" * 2000},
                       headers=AUTH)
        assert r.status_code == 413
        assert "passa do limite de 1 KiB" in r.json()["error"]
        r = httpx.post(live.url + "/api/display", json={"mode": "blank"}, headers=AUTH)
        assert r.status_code == 200


# -- Host header of token recovery --------------------------------------------------------

def _recover(live: LiveServer, host: str) -> httpx.Response:
    return httpx.get(live.url + "/console/recover?format=json", headers={"Host": host})


def test_recovery_refuses_a_foreign_host_name(live: LiveServer) -> None:
    """DNS rebinding: a page of evil.example re-pointed at 127.0.0.1 must not get the token."""
    for host in ("evil.example", f"evil.example:{live.port}", "127.0.0.1.evil.example",
                 "localhost.evil.example", ""):
        r = _recover(live, host)
        assert r.status_code == 403, (host, r.text)
        assert TOKEN not in r.text
        assert f"abra http://localhost:{live.port}/console/recover" in r.json()["error"]


def test_recovery_answers_on_this_machines_own_names(live: LiveServer) -> None:
    for host in (f"localhost:{live.port}", "localhost", f"127.0.0.1:{live.port}",
                 f"[::1]:{live.port}", f"LOCALHOST.:{live.port}", socket.gethostname()):
        r = _recover(live, host)
        assert r.status_code == 200, (host, r.text)
        assert r.json()["token"] == TOKEN


def test_recovery_answers_on_the_published_address() -> None:
    with serving(public_urls=("https://mesa1.clube.example:8443/",)) as live:
        assert _recover(live, "mesa1.clube.example:8443").json()["token"] == TOKEN
        assert _recover(live, "mesa2.clube.example").status_code == 403


def test_host_name_parsing() -> None:
    assert host_name("LocalHost:8000") == "localhost"
    assert host_name("[::1]:8000") == "::1"
    assert host_name("::1") == "::1"
    assert host_name("example.com.") == "example.com"


# -- every route that hands out a token (issue 21) -----------------------------------------

TOKEN_ROUTES = ("/admin", "/admin/info", "/console/recover?format=json")


@pytest.fixture
def admin_live() -> Iterator[LiveServer]:
    """The app with the admin screen, serving two tables with their own tokens."""
    from futmesa.web.admin import install_admin

    hub = StateHub()
    app = create_app(hub, console_token=TOKEN)
    install_admin(app, "http://localhost:8000")
    app.state.gate.tables.update({"mesa-1": "token-of-mesa-1", "mesa-2": "token-of-mesa-2"})
    app.state.gate.default_table = lambda: "mesa-1"
    server = LiveServer(hub, app)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_token_routes_refuse_a_foreign_host_and_leak_nothing(admin_live: LiveServer) -> None:
    secrets_ = (TOKEN, "token-of-mesa-1", "token-of-mesa-2")
    leaked = 0
    for path in TOKEN_ROUTES:
        for table in ("", "?table=mesa-2"):
            url = admin_live.url + path + (table if "?" not in path else table.replace("?", "&"))
            for host in ("evil.example", "127.0.0.1.nip.io", f"evil.example:{admin_live.port}",
                         "localhost.evil.example", ""):
                r = httpx.get(url, headers={"Host": host})
                assert r.status_code == 403, (path, host, r.status_code)
                leaked += any(s in r.text for s in secrets_)
            # and the host's own browser still gets the right table's token
            r = httpx.get(url, headers={"Host": f"localhost:{admin_live.port}"})
            assert r.status_code == 200, (url, r.text)
            if path != "/admin":
                want = "token-of-mesa-2" if table else "token-of-mesa-1"
                assert want in r.text and all(s not in r.text for s in secrets_ if s != want)
    print(f"\n{len(TOKEN_ROUTES) * 2 * 5} foreign-Host requests, {leaked} tokens leaked")
    assert leaked == 0


def test_an_unknown_table_gets_no_token(admin_live: LiveServer) -> None:
    for path in ("/admin/info?table=", "/console/recover?format=json&table="):
        for table in ("mesa-9", "desk", "mesa-1%00", "x" * 300):
            r = httpx.get(admin_live.url + path + table,
                          headers={"Host": f"localhost:{admin_live.port}"})
            assert r.status_code == 404, (path, table, r.text)
            assert "mesa desconhecida" in r.json()["error"]
            assert not any(s in r.text for s in (TOKEN, "token-of-mesa-1", "token-of-mesa-2"))


def test_the_admin_refusal_is_a_page_in_one_language(admin_live: LiveServer) -> None:
    """A phone opening /admin reads one Portuguese sentence (English with ?lang=en), not JSON
    in two languages (issue 23); a browser left in English still reads the host's language."""
    phone = {"Host": f"localhost:{admin_live.port}", "X-Forwarded-For": "192.168.0.9"}
    r = httpx.get(admin_live.url + "/admin", headers=phone)
    assert r.status_code == 403 and r.headers["content-type"].startswith("text/html")
    assert "A tela de administração só abre no próprio computador da mesa" in r.text
    assert "admin screen" not in r.text and "{" not in r.text
    r = httpx.get(admin_live.url + "/admin", headers={**phone, "Accept-Language": "en-GB,en"})
    assert r.status_code == 403 and "computador" in r.text
    r = httpx.get(admin_live.url + "/admin?lang=en", headers=phone)
    assert r.status_code == 403 and "only opens on the table&#x27;s own computer" in r.text
    assert "computador" not in r.text
    info = httpx.get(admin_live.url + "/admin/info", headers=phone).json()
    assert info["error"].startswith("A tela de administração") and "/" not in info["error"]
