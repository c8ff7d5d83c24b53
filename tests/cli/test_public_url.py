"""The address printed and put in the console QR is one a phone can reach (issue 14)."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import httpx

from futmesa.netaddr import choose_lan_address, interface_addresses, public_base_url
from futmesa_testkit.livetable import free_port

FUTMESA = str(Path(sys.executable).with_name("futmesa"))


def test_the_default_route_lan_address_wins_over_containers_and_loopback() -> None:
    addrs = [("lo", "127.0.0.1"), ("docker0", "172.17.0.1"), ("wlan0", "192.168.1.23"),
             ("tailscale0", "100.101.102.103"), ("eth0", "169.254.3.4")]
    assert choose_lan_address(addrs, default_iface="wlan0") == "192.168.1.23"
    # no default route (a venue Wi-Fi with no internet): a real private interface still wins
    assert choose_lan_address(addrs, default_iface=None) == "192.168.1.23"
    # the default route through a VPN does not make the VPN address the venue's
    assert choose_lan_address(addrs, default_iface="tailscale0") == "192.168.1.23"
    assert choose_lan_address([("lo", "127.0.0.1")]) is None
    assert choose_lan_address([("eth0", "10.1.2.3"), ("wlan0", "192.168.0.9")],
                              default_iface="eth0") == "10.1.2.3"


def test_public_url_override_and_local_only() -> None:
    assert public_base_url("0.0.0.0", 8000, "mesa1.local:8000") == "http://mesa1.local:8000"
    assert public_base_url("0.0.0.0", 8000, "https://placar.clube.org/") == \
        "https://placar.clube.org"
    assert public_base_url("127.0.0.1", 8000) == "http://localhost:8000"
    assert public_base_url("192.168.5.5", 8001) == "http://192.168.5.5:8001"


def _banner(args: list[str], tmp_path: Path) -> str:
    port = free_port()
    proc = subprocess.Popen([FUTMESA, "serve", "--device", str(tmp_path / "ttyACM9"), "--db",
                             str(tmp_path / "m.sqlite"), "--http-port", str(port), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:  # wait for the server, not for a time
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.1)
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=30)
    return out


def test_serve_on_every_interface_prints_the_lan_address(tmp_path: Path) -> None:
    out = _banner(["--http-host", "0.0.0.0"], tmp_path)
    line = next(x for x in out.splitlines() if x.startswith("console do árbitro"))
    lan = choose_lan_address(interface_addresses())
    assert lan is not None, "this test needs a network interface besides loopback"
    assert "localhost" not in line
    assert re.search(r"http://[\d.]+:\d+/console\?token=", line)


def test_serve_prints_the_public_url_given(tmp_path: Path) -> None:
    out = _banner(["--http-host", "0.0.0.0", "--public-url", "http://mesa1.local:8080"],
                  tmp_path)
    assert re.search(r"console do árbitro +: http://mesa1\.local:8080/console\?token=", out)
    assert re.search(r"placar \(TV\) +: http://mesa1\.local:8080/", out)
