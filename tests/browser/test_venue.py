"""A venue in Chromium (issue 14): the console link printed once (its QR taped to the table)
commands every match of the serve session, "Nova partida" included (issue #45), and the
kiosk's admin screen shows that QR.

Real parts: the simulated table (firmware under micropython on a pty), the daemon, SQLite
and uvicorn (LiveTable); phone (390×844) and TV (1920×1080) viewports, screenshots in
test-output/.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
TV = {"viewport": {"width": 1920, "height": 1080}}
WAIT_MS = 60_000  # a generous deadline for a busy machine; each wait ends on its condition


def _errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def _answer_in_page(page: Any, button: str) -> str:
    """The console's own question (its in-page box, in the console's style, never the browser's
    confirm()): its words, answered with ``button`` (#ask-yes / #ask-no)."""
    page.wait_for_selector("#ask[open]", timeout=WAIT_MS)
    said = page.text_content("#ask-text") or ""
    page.click(button)
    return said


def _wait_text(page: Any, selector: str, text: str) -> None:
    page.wait_for_function(
        "([s, t]) => (document.querySelector(s)?.textContent || '').includes(t)",
        arg=[selector, text], timeout=WAIT_MS)


def _console(page: Any, url: str) -> None:
    """`page` on the console at `url`, once it has taken its token ("✓ acesso de árbitro")."""
    page.goto(url)
    _wait_text(page, "#token-status", "✓ acesso de árbitro")


def _new_match(page: Any) -> None:
    """Nova partida from the open match form, confirmed in the console's own box; until the
    console says it is done."""
    page.click("#setup button[value=new_match]")
    _answer_in_page(page, "#ask-yes")
    _wait_text(page, "#result", "✓ Nova partida: ")  # which match (walk45i-a, low)


@contextmanager
def _phone_on_a_match(browser: Any, init_script: str | None = None
                      ) -> Iterator[tuple[LiveTable, Any, list[str]]]:
    """A match under way, its console on a phone (`init_script` run first in each page):
    (the table, the page, its script errors); the phone closed however the test ends."""
    with LiveTable(speed=10) as live:
        live.start_match()
        ctx = browser.new_context(**PHONE)
        try:
            if init_script:
                ctx.add_init_script(init_script)
            page = ctx.new_page()
            errors = _errors(page)
            _console(page, f"{live.base_url}/console?token={live.token}")
            yield live, page, errors
        finally:
            ctx.close()


def _printed_console_link(capsys: Any) -> str:
    """The referee console's link as `futmesa serve` printed it (the one in its QR code)."""
    line = next(x for x in capsys.readouterr().out.splitlines()
                if x.startswith("console do árbitro"))
    return line.split(" : ", 1)[1].strip()


def test_nova_partida_keeps_the_printed_link_for_the_next_match(
        browser: Any, output_dir: Path, capsys: Any) -> None:
    """Issue #45: the QR printed once and taped to the table commands every match of the day.
    "Nova partida" on one phone leaves every console working, and the printed link, opened
    again (a reload, a new scan), opens the new match's console; a forged key stays refused."""
    with LiveTable(speed=10, quiet=False) as live:
        printed = _printed_console_link(capsys)
        assert printed.endswith(f"/console?token={live.token}")
        live.start_match()
        first_match = httpx.get(live.base_url + "/api/state", timeout=10).json()["match_id"]
        phones = [browser.new_context(**PHONE) for _ in range(2)]
        try:
            mine, other = (ctx.new_page() for ctx in phones)
            errors = _errors(mine) + _errors(other)
            for pg in (mine, other):
                _console(pg, printed)
            mine.click("[data-sheet=sheet-more]")  # the match form is one tap away
            mine.fill("#setup input[name=nameA]", "Grêmio")
            mine.fill("#setup input[name=nameB]", "Internacional")
            mine.fill("#setup input[name=half_min]", "10")
            _new_match(mine)
            assert "✓ Nova partida: Grêmio × Internacional — " in mine.text_content("#result")
            _wait_text(mine, "#token-status", "✓ acesso de árbitro")
            mine.screenshot(path=str(output_dir / "venue-console-new-match-phone.png"),
                            full_page=False)
            # the other phone scans the taped QR again: the new match's console, working
            _console(other, printed)
            _wait_text(other, "#c-name-A", "Grêmio")
            other.click("[data-sheet=sheet-more]")
            other.click("#setup button[value=set_up]")
            # what the rules stored, in the Registro's words (walk 45h-b B6)
            _wait_text(other, "#result", "✓ Partida configurada: Grêmio × Internacional")
            other.screenshot(path=str(output_dir / "venue-console-other-phone.png"))
            state = httpx.get(live.base_url + "/api/state", timeout=10).json()
            assert state["teams"]["A"]["name"] == "Grêmio"
            assert live.match()["clock_profile"]["period_ms"] == 600_000
            assert state["match_id"] != first_match
            # the admin screen's QR (the one printed for the table) is the same link
            info = httpx.get(live.base_url + "/admin/info", timeout=10).json()
            assert info["console"] == printed
            # a forged key is refused, in Portuguese, and says what to open
            mine.goto(printed.replace(live.token, "forjado" + live.token[7:]))
            _wait_text(mine, "#token-status", "token de árbitro inválido")
            assert "link do console" in mine.text_content("#token-status")
            assert not errors, errors
        finally:
            for ctx in phones:
                ctx.close()


def _clock(live: LiveTable, page: Any, running: bool) -> None:
    """The referee stops (the clock sheet's Pausar) or restarts (its shortcut, p) the match
    clock from `page`; until the table's clock has done it."""
    if running:
        page.keyboard.press("p")
    else:
        page.click("[data-sheet=sheet-clock]")
        page.click("button[data-act=pause]")
        page.click("#sheet-clock [data-close]")
    live.wait(lambda: live.daemon.status.running == running, 60, "the referee's pause/resume")


def test_the_printed_link_survives_a_restart_until_a_new_referee_token_retires_it(
        browser: Any, capsys: Any) -> None:
    """Issue #45: the QR taped to the table outlives a crash or a restart of `futmesa serve` on
    the same event log: the open console and the printed link, opened again, still command the
    match. `serve --new-referee-token` retires a leaked link: the open console says at once
    that its link was replaced, in Portuguese, the old link is refused saying so, and the link
    printed now works."""
    with LiveTable(speed=10, quiet=False) as live:
        printed = _printed_console_link(capsys)
        live.start_match()
        ctx = browser.new_context(**PHONE)
        try:
            page = ctx.new_page()
            errors = _errors(page)
            _console(page, printed)
            live.stop_host()
            live.start_host()
            assert _printed_console_link(capsys) == printed
            _clock(live, page, running=False)  # the open page, connection back: its action taken
            _console(page, printed)  # the taped QR scanned again
            _clock(live, page, running=True)
            live.stop_host()
            live.start_host(new_referee_token=True)
            now = _printed_console_link(capsys)
            assert now != printed
            _wait_text(page, "#token-status", "este link do árbitro foi trocado por um novo")
            page.goto(printed)
            _wait_text(page, "#token-status", "este link do árbitro foi trocado por um novo")
            _console(page, now)
            _clock(live, page, running=False)
            # a forged key stays refused
            r = httpx.post(live.base_url + "/api/referee", timeout=30,
                           headers={"Authorization": "Bearer forjado" + live.token[7:]},
                           json={"kind": "resume", "data": {}})
            assert r.status_code == 403 and "token de árbitro inválido" in r.json()["error"]
            assert not errors, errors
        finally:
            ctx.close()


def test_a_wrong_new_match_is_refused_before_anything_is_written() -> None:
    with LiveTable(speed=10) as live:
        live.start_match()
        before = httpx.get(live.base_url + "/api/state", timeout=10).json()["match_id"]
        r = httpx.post(live.base_url + "/api/referee", timeout=30,
                       headers={"Authorization": f"Bearer {live.token}"},
                       json={"kind": "new_match", "input_id": uuid.uuid4().hex,
                             "data": {"settings": {"period_ms": 600, "competiton": "x"}}})
        assert r.status_code == 409
        assert "configuração inválida" in r.json()["error"]
        after = httpx.get(live.base_url + "/api/state", timeout=10).json()
        assert after["match_id"] == before
        assert live.running is not None
        assert live.running.store.match(before)["ended_at"] is None


def test_admin_screen_shows_the_console_qr_on_the_host(browser: Any, output_dir: Path) -> None:
    with LiveTable(speed=10) as live:
        live.start_match()
        ctx = browser.new_context(**TV)
        try:
            page = ctx.new_page()
            errors = _errors(page)
            page.goto(live.base_url + "/admin")
            _wait_text(page, "#console", f"/console?token={live.token}")
            assert page.locator("#qr svg").count() == 1
            box = page.locator("#qr svg").bounding_box()
            assert box["width"] > 400, box  # readable by a phone across the room
            page.screenshot(path=str(output_dir / "venue-admin-tv.png"))
            old = live.token
            live.referee("new_match", {})
            assert live.token == old  # the QR printed for the table holds for the new match
            assert not errors, errors
        finally:
            ctx.close()
        # from another machine (a relayed request) the token is not shown
        r = httpx.get(live.base_url + "/admin/info", headers={"X-Forwarded-For": "10.0.0.9"})
        assert r.status_code == 403 and live.token not in r.text


def test_q_on_the_kiosk_opens_the_admin_screen_and_any_key_goes_back(browser: Any) -> None:
    with LiveTable(speed=10) as live:
        ctx = browser.new_context(**TV)
        try:
            page = ctx.new_page()
            page.goto(live.base_url + "/?theme=contrast")
            page.wait_for_function("window.futmesaVenue !== undefined", timeout=WAIT_MS)
            page.keyboard.press("q")
            page.wait_for_url("**/admin?**", timeout=WAIT_MS)
            _wait_text(page, "#console", f"/console?token={live.token}")
            page.keyboard.press("x")
            page.wait_for_url("**/?theme=contrast", timeout=WAIT_MS)
        finally:
            ctx.close()


def test_two_tables_on_one_host_each_console_keeps_its_own_token(
        browser: Any, output_dir: Path) -> None:
    """One phone refereeing two tables of one host (both consoles in the same browser, so
    the same local storage): each keeps its table's token, and Nova partida on table 1
    leaves table 2's console working."""
    from futmesa.sim.table import SimTable

    second = SimTable(speed=10, uid="SIMW0002")
    with LiveTable(speed=10, uid="SIMW0001", more_sims=[second]) as live:
        one, two = "sim-SIMW0001", "sim-SIMW0002"
        live.wait_tables()
        ctx = browser.new_context(**PHONE)
        try:
            c1, c2 = ctx.new_page(), ctx.new_page()
            errors = _errors(c1) + _errors(c2)
            _console(c1, f"{live.base_url}/console?table={one}&token={live.running.token_for(one)}")
            _console(c2, f"{live.base_url}/console?table={two}&token={live.running.token_for(two)}")
            c1.reload()  # table 2's token in the same storage did not replace table 1's
            _wait_text(c1, "#token-status", "✓ acesso de árbitro")
            c1.click("[data-sheet=sheet-more]")
            c1.fill("#setup input[name=nameA]", "Grêmio")
            c1.fill("#setup input[name=nameB]", "Internacional")
            _new_match(c1)
            _wait_text(c1, "#token-status", "✓ acesso de árbitro")
            c2.reload()  # table 2's console is not locked out by table 1's new match
            _wait_text(c2, "#token-status", "✓ acesso de árbitro")
            c2.click("[data-sheet=sheet-more]")
            c2.fill("#setup input[name=nameA]", "Bahia")
            c2.fill("#setup input[name=nameB]", "Vitória")
            c2.click("#setup button[value=set_up]")
            _wait_text(c2, "#result", "✓ Partida configurada: Bahia × Vitória")
            states = {t: httpx.get(live.base_url + "/api/state", params={"table": t},
                                   timeout=10).json() for t in (one, two)}
            for pg, t in ((c1, one), (c2, two)):  # which table it commands, by its name
                assert pg.text_content("#c-table") == (states[t].get("table_name")
                                                       or f"Mesa {t}")
            assert states[one]["teams"]["A"]["name"] == "Grêmio"
            assert states[two]["teams"]["A"]["name"] == "Bahia"
            for pg in (c1, c2):
                pg.evaluate("window.scrollTo(0, 0)")
            c1.screenshot(path=str(output_dir / "venue-two-tables-console-1-phone.png"))
            c2.screenshot(path=str(output_dir / "venue-two-tables-console-2-phone.png"))
            assert not errors, errors
        finally:
            ctx.close()


def test_nova_partida_reminds_that_the_report_is_not_signed(browser: Any) -> None:
    """Walk #45 M8: "Encerrar a partida atual e abrir uma nova?" closed an unsigned match with
    no word of the signature the guide asks for first; cancelled, nothing changes."""
    with _phone_on_a_match(browser) as (live, page, errors):
        first = httpx.get(live.base_url + "/api/state", timeout=10).json()["match_id"]
        native: list[str] = []  # the browser's own confirm() box: never (walk 45g, Low)
        page.on("dialog", lambda d: (native.append(d.message), d.dismiss()))
        page.click("[data-sheet=sheet-more]")
        page.click("#setup button[value=new_match]")
        asked = _answer_in_page(page, "#ask-no")
        assert "súmula desta partida ainda não foi assinada" in asked, asked
        assert "Assinar a súmula" in asked and "Encerrar a partida atual" in asked
        assert native == []
        assert page.is_hidden("#ask")
        state = httpx.get(live.base_url + "/api/state", timeout=10).json()
        assert state["match_id"] == first
        assert not errors, errors


def test_mais_after_nova_partida_shows_the_match_it_opened(browser: Any, output_dir: Path) -> None:
    """Walk 45i-b M-a: Nova partida with "A mesa está posta" and "pontos corridos" stored a
    league match, and the reopened "Mais" said "mata-mata" (the rules send a draw to penalties in
    any competition, 004 "Partida empatada no fim do tempo normal vai para os pênaltis"): the
    next Nova partida from that form would have switched format. Every field shows the match."""
    with _phone_on_a_match(browser) as (live, page, errors):
        page.click("[data-sheet=sheet-more]")
        chosen = {"nameA": "Grêmio", "nameB": "Internacional", "event": "Copa do Clube",
                  "half_min": "3", "referee": "Árbitro Beto"}
        for name, value in chosen.items():
            page.fill(f"#setup [name={name}]", value)
        page.select_option("#setup [name=ruleset]", "mesa-posta")
        page.select_option("#setup [name=competition]", "league")
        _new_match(page)
        page.wait_for_function("() => !document.querySelector('#sheet-more:not([hidden])')")
        assert live.match()["ruleset"] == "mesa-posta"
        page.click("[data-sheet=sheet-more]")
        values = page.evaluate("""() => Object.fromEntries([...new FormData(
            document.getElementById('setup')).entries()])""")
        page.screenshot(path=str(output_dir / "venue-more-after-new-match-phone.png"))
        assert values["competition"] == "league", values
        assert values["ruleset"] == "mesa-posta", values
        for name, value in chosen.items():
            assert values[name] == value, (name, values)
        assert not errors, errors
