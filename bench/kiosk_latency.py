"""Latency from a state published on the host to the kiosk's DOM showing it, 10 kiosks at once.

    .venv/bin/python bench/kiosk_latency.py [--events 200] [--kiosks 10] [--mode hub|daemon]

``hub`` (default): the daemon's last step — StateHub.publish, which the daemon calls right
after the event is committed to SQLite — to the score text changing in each headless
Chromium kiosk (a MutationObserver notes the time). Baseline, in the same process: the
same publish to a plain Python WebSocket client receiving the JSON (no browser, no DOM).

``daemon``: a referee input through the real daemon (SQLite commit, rules engine, hub) on
the simulated table, to the "shot asked" banner appearing on each kiosk; and the time a
console action (POST /api/referee with the token) takes to answer.

Prints median / p99 / max in milliseconds and the ratio to the baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import threading
import time
import uuid
from typing import Any

import httpx
import websockets

from futmesa.hub import StateHub
from futmesa.web.app import create_app
from futmesa_testkit.liveserver import TOKEN, LiveServer, launch_chromium, make_state

OBSERVE = """
(sel) => {
  window.__marks = [];
  const el = document.querySelector(sel);
  new MutationObserver(() => {
    window.__marks.push([el.textContent, performance.timeOrigin + performance.now()]);
  }).observe(el, {childList: true, characterData: true, subtree: true});
}
"""


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def summary(label: str, values: list[float]) -> str:
    return (f"{label:<34} n={len(values):5d}  median={statistics.median(values):7.2f} ms  "
            f"p99={pct(values, 99):7.2f} ms  max={max(values):7.2f} ms")


def open_kiosks(browser: Any, url: str, n: int, selector: str, ready_js: str) -> list[Any]:
    pages = []
    for _ in range(n):
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(url)
        page.wait_for_function(ready_js)
        page.evaluate(OBSERVE, selector)
        pages.append(page)
    return pages


def collect(pages: list[Any], sent: list[tuple[str, float]]) -> tuple[list[float], int]:
    """Match each sent update, in order, to the first later mark on each page with its text."""
    latencies, missing = [], 0
    for page in pages:
        marks = page.evaluate("window.__marks")
        i = 0
        for text, t in sent:
            j = i
            while j < len(marks) and marks[j][0] != text:
                j += 1
            if j == len(marks):
                missing += 1
                continue
            latencies.append(marks[j][1] - t)
            i = j + 1
    return latencies, missing


def bench_hub(events: int, kiosks: int) -> int:
    from playwright.sync_api import sync_playwright

    hub = StateHub()
    live = LiveServer(hub, create_app(hub, console_token=TOKEN))
    live.start()
    live.publish(make_state())
    baseline: list[float] = []
    sent: list[tuple[str, float]] = []
    try:
        with sync_playwright() as p:
            browser = launch_chromium(p)
            pages = open_kiosks(browser, live.url + "/", kiosks, "#score-A",
                                "document.getElementById('name-A').textContent === 'Alvorada'")
            received: dict[int, float] = {}
            ready = threading.Event()
            stop = threading.Event()

            async def listen() -> None:  # the baseline client
                async with websockets.connect(live.url.replace("http", "ws") + "/ws") as ws:
                    ready.set()
                    while not stop.is_set():
                        try:
                            msg = json.loads(await asyncio.wait_for(ws.recv(), 1))
                        except TimeoutError:
                            continue
                        if msg.get("type") == "state":
                            received.setdefault(msg["state"]["score"]["A"], time.time() * 1000)

            listener = threading.Thread(target=lambda: asyncio.run(listen()), daemon=True)
            listener.start()
            ready.wait(5)
            for i in range(1, events + 1):
                state = make_state(score={"A": i, "B": 0})
                t = time.time() * 1000
                live.publish(state)
                sent.append((str(i), t))
                time.sleep(0.02)  # 50 events/s, faster than any real match
            time.sleep(1.0)
            stop.set()
            listener.join(3)
            latencies, missing = collect(pages, sent)
            baseline = [received[int(k)] - t for k, t in sent if int(k) in received]
            browser.close()
    finally:
        live.stop()
    print(f"hub publish -> kiosk DOM, {kiosks} kiosks, {events} events each")
    print(summary("python ws client (baseline)", baseline))
    print(summary("kiosk DOM (all kiosks)", latencies))
    print(f"ratio median kiosk/baseline = "
          f"{statistics.median(latencies) / statistics.median(baseline):.2f}; "
          f"updates never shown: {missing}")
    return 0


def bench_daemon(events: int, kiosks: int) -> int:
    from playwright.sync_api import sync_playwright

    from futmesa_testkit.livetable import LiveTable

    with LiveTable(speed=1, settings={"period_ms": 3_600_000}) as live:
        live.start_match(teams={"A": {"name": "Casa"}, "B": {"name": "Visitante"}})
        with sync_playwright() as p:
            browser = launch_chromium(p)
            pages = open_kiosks(browser, live.base_url + "/", kiosks, "#shot",
                                "document.getElementById('name-A').textContent === 'Casa'")
            sent: list[tuple[str, float]] = []
            refs: list[float] = []
            console: list[float] = []
            applied: list[float] = []
            pending = 0
            client = httpx.Client(base_url=live.base_url,
                                  headers={"Authorization": f"Bearer {live.token}"})
            for i in range(events):
                disc = 1 + i % 11
                # the team with the lance asks (000 Art. 12 §3 A)
                side = (live.match().get("possession") or {}).get("side") or "A"
                live.give_lance(side)  # its kick-off first where no shot is asked from it
                t = time.time() * 1000
                live.referee("shot_asked", {"side": side, "disc": disc})
                refs.append(time.time() * 1000 - t)
                name = "Casa" if side == "A" else "Visitante"
                sent.append((f"CHUTE PEDIDO — {name}, botão {disc}", t))
                time.sleep(0.03)
                t = time.perf_counter()  # the console's way: HTTP with the referee token
                answer = client.post("/api/referee", json={"kind": "shot_result",
                                                           "data": {"outcome": "saved"},
                                                           "input_id": uuid.uuid4().hex})
                console.append((time.perf_counter() - t) * 1000)
                if answer.status_code == 202:  # "received, still applying": wait for it
                    pending += 1
                    rid = answer.json()["id"]
                    while (r := client.get(f"/api/referee/{rid}").json()).get("ok") is None:
                        time.sleep(0.005)
                    if not r["ok"]:
                        raise SystemExit(f"console action refused: {r}")
                    applied.append((time.perf_counter() - t) * 1000)
                elif answer.status_code != 200:
                    raise SystemExit(f"console action refused: {answer.text}")
                else:
                    applied.append(console[-1])
                time.sleep(0.03)
            time.sleep(1.0)
            latencies, missing = collect(pages, sent)
            browser.close()
    print(f"referee input through the daemon -> kiosk DOM, {kiosks} kiosks, {events} events")
    print(summary("daemon.referee() returns (baseline)", refs))
    print(summary("kiosk DOM (all kiosks)", latencies))
    print(summary("console POST /api/referee answer", console))
    print(summary("console action applied", applied))
    print(f"console answers over 100 ms: {sum(1 for c in console if c > 100)} of {len(console)};"
          f" answered 'still applying' (202): {pending}")
    print(f"ratio median kiosk/baseline = "
          f"{statistics.median(latencies) / statistics.median(refs):.2f}; "
          f"updates never shown: {missing}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--events", type=int, default=200)
    ap.add_argument("--kiosks", type=int, default=10)
    ap.add_argument("--mode", choices=("hub", "daemon"), default="hub")
    ap.add_argument("--quick", action="store_true",
                    help="a short run (make test): 10 events, 2 kiosks, both modes")
    args = ap.parse_args()
    if args.quick:
        return bench_hub(10, 2) or bench_daemon(10, 2)
    if args.mode == "daemon":
        return bench_daemon(args.events, args.kiosks)
    return bench_hub(args.events, args.kiosks)


if __name__ == "__main__":
    sys.exit(main())
