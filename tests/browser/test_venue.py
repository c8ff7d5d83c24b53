"""A venue in Chromium (issue 14): the console that presses "Nova partida" carries on, the
other consoles say they need the new QR, and the kiosk's admin screen shows that QR.

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


def test_nova_partida_keeps_this_console_and_tells_the_others(
        browser: Any, output_dir: Path) -> None:
    with LiveTable(speed=10) as live:
        live.start_match()
        first_match = httpx.get(live.base_url + "/api/state", timeout=10).json()["match_id"]
        phones = [browser.new_context(**PHONE) for _ in range(2)]
        try:
            mine, other = (ctx.new_page() for ctx in phones)
            errors = _errors(mine) + _errors(other)
            for pg in (mine, other):
                _console(pg, f"{live.base_url}/console?token={live.token}")
            old_token = live.token
            mine.click("[data-sheet=sheet-more]")  # the match form is one tap away
            mine.fill("#setup input[name=nameA]", "Grêmio")
            mine.fill("#setup input[name=nameB]", "Internacional")
            mine.fill("#setup input[name=half_min]", "10")
            _new_match(mine)
            assert "✓ Nova partida: Grêmio × Internacional — " in mine.text_content("#result")
            assert live.token != old_token
            # this console carries on with the new token: a referee action is accepted
            _wait_text(mine, "#token-status", "✓ acesso de árbitro")
            mine.click("[data-sheet=sheet-more]")
            mine.click("#setup button[value=set_up]")
            # what the rules stored, in the Registro's words (walk 45h-b B6)
            _wait_text(mine, "#result", "✓ Partida configurada: Grêmio × Internacional")
            assert mine.evaluate("localStorage.getItem('futmesa.token')") == live.token
            # the other console is told it needs the new QR, in words a referee acts on
            _wait_text(other, "#token-status", "Nova partida iniciada em outro aparelho")
            assert "novo QR code" in other.text_content("#token-status")
            mine.screenshot(path=str(output_dir / "venue-console-new-match-phone.png"),
                            full_page=False)
            other.screenshot(path=str(output_dir / "venue-console-other-phone.png"))
            state = httpx.get(live.base_url + "/api/state", timeout=10).json()
            assert state["teams"]["A"]["name"] == "Grêmio"
            assert live.match()["clock_profile"]["period_ms"] == 600_000
            assert state["match_id"] != first_match
            assert not errors, errors
        finally:
            for ctx in phones:
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
            assert live.token != old
            _wait_text(page, "#console", f"/console?token={live.token}")  # the new QR
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


# the page's fetch, with the answers to a token check made with `window.slowToken` held back
# until the check with the new token has been answered (the walk's phone, 2 times of 3)
_SLOW_OLD_TOKEN_CHECK = """
const realFetch = window.fetch.bind(window);
window.oldChecks = 0;
window.fetch = async (url, opts) => {
  const r = await realFetch(url, opts);
  const auth = (opts && opts.headers && opts.headers.Authorization) || "";
  if (String(url).includes("/api/token") && window.slowToken
      && auth === `Bearer ${window.slowToken}`) {
    await new Promise((res) => {
      const t = setInterval(() => {
        if (window.newTokenAnswered) { clearInterval(t); res(); }
      }, 20);
    });
    // counted once the page has read the answer and done with it
    const json = r.json.bind(r);
    r.json = async () => {
      const b = await json();
      setTimeout(() => { window.oldChecks += 1; }, 0);
      return b;
    };
  } else if (String(url).includes("/api/token") && window.slowToken && r.ok) {
    window.newTokenAnswered = true;
  }
  return r;
};
"""


def test_nova_partida_a_late_answer_for_the_old_key_does_not_retire_this_console(
        browser: Any) -> None:
    """Walk #45 H2: the console that pressed "Nova partida" asked for its old key's check (the
    new match's state came first) and that answer, arriving last, said "outro aparelho"."""
    with _phone_on_a_match(browser, _SLOW_OLD_TOKEN_CHECK) as (live, mine, errors):
        mine.evaluate("(t) => { window.slowToken = t; }", live.token)
        mine.click("[data-sheet=sheet-more]")
        _new_match(mine)
        mine.wait_for_function("window.oldChecks > 0", timeout=WAIT_MS)
        status = mine.text_content("#token-status") or ""
        assert "outro aparelho" not in status, status
        assert "✓" in status, status
        assert not errors, errors


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
