"""The venue board in headless Chromium when a table misbehaves or the broker goes (issue 21):
a forged result is refused and the board says so; a killed broker shows "sem conexão" within
seconds, and the desk comes back by itself. Real mosquitto and a real ``futmesa desk``."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from futmesa.venue import mqtt as vm
from futmesa.venue.broker import Mosquitto, free_port
from futmesa_testkit.venue import DEADLINE_SLACK, FUTMESA, wait_for

pytestmark = pytest.mark.browser

TEAMS = "name,color\nAlfa,#ff0000\nBeta,#00ff00\nGama,#0000ff\nDelta,#ffff00\n"


def _desk_text(page: Any) -> str:
    return str(page.text_content("#desk") or "")


def test_the_board_shows_refusals_and_a_lost_broker(tmp_path: Path, browser: Any,
                                                    output_dir: Path) -> None:
    broker = Mosquitto(tmp_path / "broker", ["mesa-1", "mesa-2"])
    broker.start()
    (tmp_path / "teams.csv").write_text(TEAMS)
    (tmp_path / "s.json").write_text(json.dumps({"name": "Copa", "format": "league"}))
    subprocess.run([FUTMESA, "competition", "new", "--db", str(tmp_path / "desk.sqlite"),
                    "--teams", str(tmp_path / "teams.csv"), "--settings",
                    str(tmp_path / "s.json")], check=True, capture_output=True, timeout=60)
    port = free_port()
    desk = subprocess.Popen(
        [FUTMESA, "desk", "--db", str(tmp_path / "desk.sqlite"), "--broker", broker.url,
         "--credentials", str(tmp_path / "broker" / "credentials" / "desk.json"),
         "--http-host", "127.0.0.1", "--http-port", str(port)],
        stdout=(tmp_path / "desk.log").open("a"), stderr=subprocess.STDOUT, process_group=0)
    url = f"http://127.0.0.1:{port}"
    rogue = None
    try:
        wait_for(lambda: httpx.get(f"{url}/api/venue", timeout=2).json()["connected"], 30,
                 "the desk to connect")
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url + "/")
        # a table's own credentials, its own topic, a match it was never given, 0 × 7
        rogue = vm.client("x", "mesa-2", broker.credentials["tables"]["mesa-2"])
        rogue.connect("127.0.0.1", broker.port)
        rogue.loop_start()
        rogue.publish(vm.t_result("mesa-2"), json.dumps({
            "uid": "mesa-2:1", "digest": "f", "competition_match": 1, "score_a": 0,
            "score_b": 7, "winner": "B", "reason": "time", "rule": "", "detail": {},
            "teams": {}}).encode(), qos=1).wait_for_publish(5)
        page.wait_for_function(
            "document.getElementById('desk').textContent.includes('recusado da Mesa 2')",
            timeout=30000)
        assert "a partida 1 ainda não foi dada a nenhuma mesa" in _desk_text(page)
        page.screenshot(path=str(output_dir / "desk-board-refused.png"))

        t0 = time.monotonic()
        broker.kill()
        page.wait_for_function(
            "document.getElementById('desk').textContent.includes('sem conexão')",
            timeout=5000 * DEADLINE_SLACK)
        shown_after = time.monotonic() - t0
        page.screenshot(path=str(output_dir / "desk-board-no-broker.png"))
        broker.start()
        page.wait_for_function(
            "!document.getElementById('desk').textContent.includes('sem conexão')",
            timeout=30000)
        print(f"\nboard: 'sem conexão' {shown_after:.2f} s after the broker was killed")
        assert errors == []
    finally:
        if rogue is not None:
            rogue.loop_stop()
        desk.terminate()
        desk.wait(timeout=20)
        broker.stop()
    assert "Traceback" not in (tmp_path / "desk.log").read_text()
