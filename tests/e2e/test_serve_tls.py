"""`futmesa serve --tls-cert F --tls-key F`: the pages, the API and the stream over HTTPS with
the operator's certificate (a self-signed one made here with the openssl command)."""

from __future__ import annotations

import asyncio
import json
import re
import ssl
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import websockets

from futmesa.watch import Watcher
from futmesa.web.tls import TLSSetupError, ssl_options
from futmesa_testkit.livetable import free_port

FUTMESA = str(Path(sys.executable).with_name("futmesa"))


def make_cert(folder: Path, name: str = "mesa") -> tuple[Path, Path]:
    """A self-signed certificate for localhost / 127.0.0.1 and its key, as PEM files."""
    cert, key = folder / f"{name}.crt", folder / f"{name}.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "2", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )
    return cert, key


def _get(url: str, verify: ssl.SSLContext, timeout: float = 20) -> httpx.Response:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return httpx.get(url, verify=verify, timeout=2)
        except httpx.ConnectError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


async def _watch_sees_a_state(url: str) -> bool:
    watcher = Watcher(url)
    task = asyncio.ensure_future(watcher.run())
    try:
        deadline = time.monotonic() + 20
        while watcher.state is None and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return watcher.state is not None
    finally:
        task.cancel()


def test_serve_over_https_with_the_operators_certificate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cert, key = make_cert(tmp_path)
    trust = ssl.create_default_context(cafile=str(cert))
    port = free_port()
    proc = subprocess.Popen(
        [FUTMESA, "serve", "--device", str(tmp_path / "ttyACM9"), "--db",
         str(tmp_path / "m.sqlite"), "--http-port", str(port), "--http-host", "127.0.0.1",
         "--tls-cert", str(cert), "--tls-key", str(key)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        state = _get(f"https://127.0.0.1:{port}/api/state", trust).json()
        assert state["link"]["connected"] is False
        page = _get(f"https://localhost:{port}/console", trust)
        assert page.status_code == 200 and "<html" in page.text.lower()

        async def first_message() -> dict:
            async with websockets.connect(f"wss://127.0.0.1:{port}/ws", ssl=trust,
                                          open_timeout=10) as ws:
                return json.loads(await asyncio.wait_for(ws.recv(), 10))

        assert asyncio.run(first_message())["type"] == "state"  # the kiosk's wss:// stream
        # `futmesa watch --url https://…` trusts the certificate named by SSL_CERT_FILE
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))
        assert asyncio.run(_watch_sees_a_state(f"https://127.0.0.1:{port}"))
        monkeypatch.delenv("SSL_CERT_FILE")
        with pytest.raises(httpx.HTTPError):  # plain HTTP is not served on that port
            httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=5)
        with pytest.raises(httpx.ConnectError):  # nor an unknown certificate trusted
            httpx.get(f"https://127.0.0.1:{port}/api/state", timeout=5)
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    assert re.search(rf"console do árbitro +: https://localhost:{port}/console\?token=", out)


def test_serve_says_what_is_wrong_with_the_certificate(tmp_path: Path) -> None:
    cert, _ = make_cert(tmp_path, "one")
    _, other_key = make_cert(tmp_path, "two")
    proc = subprocess.run(
        [FUTMESA, "serve", "--device", str(tmp_path / "ttyACM9"), "--db",
         str(tmp_path / "m.sqlite"), "--http-port", str(free_port()), "--http-host",
         "127.0.0.1", "--tls-cert", str(cert), "--tls-key", str(other_key)],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 1
    assert "não servem juntos" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_certificate_checks(tmp_path: Path) -> None:
    cert, key = make_cert(tmp_path)
    assert ssl_options(None, None) == {}
    assert ssl_options(cert, key) == {"ssl_certfile": str(cert), "ssl_keyfile": str(key)}
    with pytest.raises(TLSSetupError, match="precisa de --tls-cert"):
        ssl_options(cert, None)
    with pytest.raises(TLSSetupError, match="não foi possível ler a chave TLS"):
        ssl_options(cert, tmp_path / "missing.key")
    with pytest.raises(TLSSetupError, match="não servem juntos"):
        ssl_options(key, cert)  # swapped
    locked = tmp_path / "locked.key"
    subprocess.run(["openssl", "pkey", "-in", str(key), "-aes256", "-passout", "pass:secret",
                    "-out", str(locked)], check=True, capture_output=True, timeout=60)
    with pytest.raises(TLSSetupError, match="sem senha"):
        ssl_options(cert, locked)
