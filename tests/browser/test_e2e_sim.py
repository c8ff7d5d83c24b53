"""End to end in Chromium: the simulated table (firmware under micropython on a pty), the
real daemon, SQLite and uvicorn (futmesa_testkit.livetable.LiveTable), and the kiosk and
console pages.
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pypdfium2 as pdfium
import pytest
from screen_checks import wait_settled

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

TEAMS = {"A": {"name": "Casa", "color": "#1040c0"}, "B": {"name": "Visitante", "color": "#c02020"}}


# Every wait ends as soon as its condition holds; the deadline is only for a machine busy
# with other work (issue 14: 10 s and 30 s deadlines failed on a loaded 2-core machine).
WAIT_MS = 90_000
# A lance of an hour: a shot asked cannot expire before the test's goal, however busy the
# machine (at speed 30 the rules' 15 s lance lasted half a real second)
LONG_LANCE = {"lance_ms": 3_600_000, "lance_warn_ms": 5_000}


def wait_js(page: Any, expr: str, timeout: int = WAIT_MS) -> None:
    page.wait_for_function(expr, timeout=timeout)


def score_is(page: Any, side: str, value: int, timeout: int = WAIT_MS,
             live: LiveTable | None = None) -> None:
    try:
        wait_js(page, f"document.getElementById('score-{side}').textContent === '{value}'",
                timeout)
    except Exception as exc:  # say what the page and the host had instead
        raise AssertionError(f"the kiosk never showed {value} for {side}: {explain(page, live)}"
                             ) from exc


def explain(page: Any, live: LiveTable | None) -> str:
    """The kiosk's scores and the host's match and log, for a failure message."""
    text = f"kiosk score {page.text_content('#score-A')} x {page.text_content('#score-B')}"
    if live is None or live.running is None:
        return text
    d = live.daemon
    m = live.match()
    text += f"; host score {m.get('score')}, connected {d.connected}, match {d.match}"
    if d.match is not None:
        rows = d.store.entries(d.match["id"])
        text += "; log " + "; ".join(f"{r}" for r in rows)
    return text


def score_goal(live: LiveTable, side: str = "A", disc: int = 9) -> None:
    live.give_lance(side)  # only the team with the lance asks (000 Art. 12 §3 A)
    live.referee("shot_asked", {"side": side, "disc": disc})  # 000 Art. 12 §1
    other = "B" if side == "A" else "A"
    live.sim.goal(live.match()["ends"][other])  # the line of the goal the other side defends


def test_goal_on_the_simulated_table_appears_on_the_kiosk(page: Any, output_dir: Path) -> None:
    with LiveTable(speed=30, settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        page.goto(live.base_url + "/")
        wait_js(page, "document.getElementById('name-A').textContent === 'Casa'")
        assert page.text_content("#score-A") == "0"
        live.give_lance("A")  # Casa's kick-off first: no shot from it (000 Art. 12 §5)
        live.referee("shot_asked", {"side": "A", "disc": 9})
        wait_js(page, "document.getElementById('shot').textContent.includes('botão 9')")
        live.sim.goal(live.match()["ends"]["B"])
        score_is(page, "A", 1)
        assert page.text_content("#score-B") == "0"
        wait_settled(page)  # a GOL on screen has landed before the picture
        page.screenshot(path=str(output_dir / "kiosk-sim-goal.png"))


def test_page_clock_follows_the_device_clock_over_a_half(page: Any) -> None:
    """Each page reading, carried forward to the next status the device sends, is compared
    with that status (the device owns time). The kiosk shows whole seconds: no reading may
    be off by a second, and typically (the median) they agree within 250 ms. The figures
    are printed; on a quiet machine the largest is about 1 ms. On a 2-core machine with
    stress-ng beside the suite the median was 71 ms and one reading 307 ms (a time-sync
    correction landing between two renders): a busy host's scheduling, not a drifting
    clock, which would grow over the half past both limits."""
    speed = 1  # real time, as at a match: the 100 ms is match time
    with LiveTable(speed=speed, settings={"period_ms": 7_000}) as live:
        live.start_match(teams=TEAMS)
        page.goto(live.base_url + "/")
        wait_js(page, "window.futmesaKiosk.rendered.at")
        statuses: list[tuple[float, int, bool]] = []  # (host wall ms, device clock ms, running)
        stop = threading.Event()

        def record() -> None:
            last = None
            while not stop.is_set():
                d = live.daemon
                st, wall = d.status, d.status_wall_ms
                if st is not None and st is d.status and (wall, st.clock_ms) != last:
                    last = (wall, st.clock_ms)
                    statuses.append((wall, st.clock_ms, bool(st.running)))
                time.sleep(0.002)

        recorder = threading.Thread(target=record, daemon=True)
        recorder.start()
        readings: list[tuple[float, float]] = []
        end = time.time() + 6.5  # the simulated (short) half: 7 s
        while time.time() < end:
            ms, at = page.evaluate("[window.futmesaKiosk.rendered.clockMs,"
                                   " window.futmesaKiosk.rendered.at]")
            readings.append((at, ms))
            time.sleep(0.05)
        stop.set()
        recorder.join(2)

    errors = []
    for at, ms in readings:
        later = [s for s in statuses if at < s[0] < at + 1500]
        if not later:
            continue
        wall, device_ms, running = later[0]
        if not running or device_ms >= 7_000:
            continue  # the half is over: the device stopped its clock
        carried = ms + (wall - at) * speed
        errors.append(abs(carried - device_ms))
    assert len(errors) > 40, f"only {len(errors)} comparable readings"
    errors.sort()
    print(f"page vs device clock over a half: n={len(errors)} median={errors[len(errors) // 2]:.1f}"
          f" max={errors[-1]:.1f} ms of match time")
    assert errors[len(errors) // 2] < 250, \
        f"page clock off the device clock by {errors[len(errors) // 2]:.0f} ms (median)"
    assert errors[-1] < 1000, f"page clock off the device clock by {errors[-1]:.0f} ms"


def test_daemon_killed_and_restarted_kiosk_reconnects_with_same_state(page: Any) -> None:
    with LiveTable(speed=30, settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        score_goal(live, "A")
        page.goto(live.base_url + "/")
        score_is(page, "A", 1)
        live.stop_host()
        wait_js(page, "document.getElementById('banner-text').textContent"
                      " === 'SEM CONEXÃO COM O SERVIDOR'")
        assert page.text_content("#score-A") == "1"  # the last state stays on screen
        live.start_host()  # same database, same port: the match is replayed from the log
        wait_js(page, "document.getElementById('banner').classList.contains('hidden')")
        # the replayed match reaches the page (on a loaded machine the table may still be
        # reconnecting when the server is back): wait for it, then it must be the same match
        score_is(page, "A", 1, live=live)
        assert page.text_content("#name-A") == "Casa"
        live.wait(lambda: live.daemon.connected, 60, "the table to reconnect")
        score_goal(live, "A")
        score_is(page, "A", 2, live=live)


def test_unplugging_the_table_shows_table_disconnected(page: Any, output_dir: Path) -> None:
    with LiveTable(speed=30, settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        page.goto(live.base_url + "/")
        wait_js(page, "document.getElementById('name-A').textContent === 'Casa'")
        assert not page.is_visible("#banner")
        live.sim.unplug()
        wait_js(page, "document.getElementById('banner-text').textContent"
                      " === 'MESA DESCONECTADA'")
        # how long the table is silent, counted from the last it was heard (walk 50a L2)
        age = page.text_content("#banner-age") or ""
        assert age.startswith("— sem sinal da mesa há ") and age.endswith(" s"), age
        assert int(age.split("há ")[1].split()[0]) < 30, age
        page.screenshot(path=str(output_dir / "kiosk-table-disconnected.png"))
        live.sim.plug()
        wait_js(page, "document.getElementById('banner').classList.contains('hidden')")


def test_console_token_and_void_change_the_kiosk(browser: Any, output_dir: Path) -> None:
    # a long lance: the shot asked from the console cannot expire before the goal,
    # however busy the machine (the test waits for conditions, never races the match clock)
    with LiveTable(speed=3, settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        r = httpx.post(live.base_url + "/api/referee",
                       json={"kind": "shot_asked", "data": {"side": "A", "disc": 9}})
        assert r.status_code == 401
        assert live.match()["shot_asked"] is None  # refused writes change nothing
        live.give_lance("A")  # Casa's kick-off first: no shot from it (000 Art. 12 §5)

        kiosk = browser.new_page()
        console = browser.new_page(viewport={"width": 800, "height": 1200})
        for pg in (kiosk, console):
            pg.set_default_timeout(WAIT_MS)
        try:
            kiosk.goto(live.base_url + "/")
            console.goto(live.base_url + f"/console?token={live.token}")
            wait_js(console, "document.getElementById('token-status').textContent.includes('✓')")
            console.click("#side-A")
            console.click("[data-key='9']")
            console.click("button[data-act=shot]")
            console.wait_for_function(
                "document.getElementById('result').textContent.toLowerCase()"
                ".startsWith('✓ chute pedido')")
            live.sim.goal(live.match()["ends"]["B"])
            score_is(kiosk, "A", 1)
            log = httpx.get(live.base_url + "/api/log").json()["entries"]
            goal_id = next(e["id"] for e in log if e["kind"] == "goal_line")
            row = f"#log li[data-id='{goal_id}']"
            console.click("[data-sheet=sheet-log]")
            console.wait_for_selector(f"{row} button")
            console.click(f"{row} button:text('Anular')")
            console.wait_for_selector("#fix[open]")
            console.fill("#fix-reason", "a bola não cruzou a linha")
            console.click("#fix-send")
            console.wait_for_function(
                "(t => t.startsWith('✓') && /anula/i.test(t))"
                "(document.getElementById('result').textContent)")
            score_is(kiosk, "A", 0)
            console.wait_for_selector(f"#log li.voided[data-id='{goal_id}']")
            console.screenshot(path=str(output_dir / "console-sim.png"), full_page=True)

            # the súmula of the stored match, from the real store and engine
            match_id = httpx.get(live.base_url + "/api/state").json()["match_id"]
            page = httpx.get(f"{live.base_url}/report/{match_id}").text
            assert "Casa 0 × 0 Visitante" in page
            assert re.search(f'<tr class="voided"><td[^>]*>{goal_id}</td>', page), page[:300]
            pdf = httpx.get(f"{live.base_url}/report/{match_id}.pdf").content
            doc = pdfium.PdfDocument(pdf)
            try:
                text = "\n".join(doc[i].get_textpage().get_text_range()
                                  for i in range(len(doc)))
            finally:
                doc.close()
            assert "Casa 0 × 0 Visitante" in text
            words = " ".join(text.split())  # cells wrap over several lines
            assert "Anulado pelo registro nº" in words and "a bola não cruzou a linha" in words
        finally:
            kiosk.close()
            console.close()


def test_console_pause_stops_the_device_clock_and_resume_restarts_it(browser: Any) -> None:
    with LiveTable(speed=5) as live:
        live.start_match(teams=TEAMS)
        console = browser.new_page(viewport={"width": 800, "height": 1200})
        try:
            console.goto(live.base_url + f"/console?token={live.token}")
            wait_js(console, "document.getElementById('token-status').textContent.includes('✓')")
            console.click("[data-sheet=sheet-clock]")
            console.click("button[data-act=pause]")
            console.click("#sheet-clock [data-close]")
            live.wait(lambda: not live.daemon.status.running, 60, "the device clock to stop")
            stopped_at = live.daemon.status.clock_ms
            time.sleep(0.5)  # 2.5 s of match time at speed 5: a running clock would move
            assert live.daemon.status.clock_ms == stopped_at
            kinds = [e.kind for e in live.daemon.store.device_events()]
            assert kinds[-1] == "clock_stopped" or "clock_stopped" in kinds[-3:]
            console.keyboard.press("p")  # the shortcut resumes it
            live.wait(lambda: live.daemon.status.running, 60, "the device clock to restart")
            live.wait(lambda: live.daemon.status.clock_ms > stopped_at, 60, "the clock to move")
        finally:
            console.close()
