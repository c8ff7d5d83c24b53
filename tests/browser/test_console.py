"""Referee console in headless Chromium: token refusal, actions, corrections seen on the kiosk."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from futmesa_testkit.liveserver import TOKEN, LiveServer, ScriptedTable
from futmesa_testkit.waiting import wait_for

pytestmark = pytest.mark.browser


def result_text(page: Any, prefix: str, timeout: int = 3000) -> str:
    page.wait_for_function(
        "p => document.getElementById('result').textContent.startsWith(p)", arg=prefix,
        timeout=timeout)
    return page.text_content("#result")


def send_raw(page: Any, kind: str, data: str, expect: str = "") -> str:
    """An action by its name, from the expert page (the raw form is not on the console)
    opened beside ``page`` (the same phone: the same token); its answer's text."""
    expert = page.context.new_page()
    try:
        base = page.url.split("/console")[0]
        table = page.url.split("table=")[1].split("&")[0] if "table=" in page.url else ""
        expert.goto(base + "/console/expert" + (f"?table={table}" if table else ""))
        expert.fill("#raw input[name=kind]", kind)
        expert.fill("#raw textarea[name=data]", data)
        expert.click("#raw button[type=submit]")
        return result_text(expert, expect or "✓", timeout=60_000) if expect else \
            final_text(expert)
    finally:
        expert.close()


def final_text(page: Any) -> str:
    page.wait_for_function(
        "/^[✓✗]/.test(document.getElementById('result').textContent)", timeout=60_000)
    return page.text_content("#result")


def test_console_refuses_writes_without_token(
    table_server: tuple[LiveServer, ScriptedTable], page: Any
) -> None:
    live, table = table_server
    page.goto(live.url + "/console")
    page.wait_for_function("document.getElementById('token-status').textContent.includes('✗')")
    assert "sem token de árbitro" in page.text_content("#token-status")
    text = send_raw(page, "goal", '{"side": "A"}')
    assert text.startswith("✗") and "ação recusada" in text and "/console/recover" in text
    page.click("#act-shot")  # the console's own buttons are refused the same way
    assert "/console/recover" in result_text(page, "✗")
    assert table.entries == []


def test_console_with_wrong_token_is_refused(
    table_server: tuple[LiveServer, ScriptedTable], page: Any
) -> None:
    live, table = table_server
    page.goto(live.url + "/console?token=old-match-token")
    assert "token de árbitro inválido" in send_raw(page, "goal", '{"side": "A"}', "✗")
    assert table.entries == []


def test_console_acts_and_corrections_change_the_kiosk(
    table_server: tuple[LiveServer, ScriptedTable], browser: Any, output_dir: Path
) -> None:
    live, table = table_server
    ctx = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True,
                              has_touch=True)  # a phone
    console = ctx.new_page()
    kiosk = browser.new_page(viewport={"width": 1280, "height": 720})
    errors: list[str] = []
    console.on("pageerror", lambda e: errors.append(str(e)))
    kiosk.on("pageerror", lambda e: errors.append(str(e)))
    try:
        kiosk.goto(live.url + "/")
        console.goto(live.url + f"/console?token={TOKEN}")
        console.wait_for_function(
            "document.getElementById('token-status').textContent.includes('✓')")
        assert TOKEN not in console.url  # the token left the address bar

        done = send_raw(console, "goal", '{"side": "A"}', "✓ goal")
        assert done.startswith("✓ goal") and " ms" not in done  # the referee's words, no ms
        kiosk.wait_for_function("document.getElementById('score-A').textContent === '1'")

        assert "goal needs side A or B" in send_raw(console, "goal", '{"side": "Z"}', "✗")
        assert len(table.entries) == 1  # the refused goal was not logged

        # the log (one tap away) shows entry 1 as a sentence; void it through the form
        console.click("[data-sheet=sheet-log]")
        console.wait_for_selector("#log li[data-id='1'] button")
        console.click("#log li[data-id='1'] button:text('Anular')")
        console.wait_for_selector("#fix[open]")
        assert console.is_checked("#fix-void")
        console.fill("#fix-reason", "bola não entrou")
        console.click("#fix-send")
        result_text(console, "✓ anular nº 1")
        kiosk.wait_for_function("document.getElementById('score-A').textContent === '0'")
        console.wait_for_selector("#log li.voided[data-id='1']")
        assert "Anulado" in console.text_content("#log li[data-id='1']")

        # another goal for A, amended to B by picking the team in the form (no JSON typed)
        send_raw(console, "goal", '{"side": "A"}', "✓ goal")
        console.wait_for_selector("#log li[data-id='3'] button")
        console.click("#log li[data-id='3'] button:text('Corrigir')")
        console.wait_for_selector("#fix[open] select[data-key='side']")
        assert console.is_checked("#fix-amend")
        console.select_option("#fix select[data-key='side']", label="Botafogo")
        console.screenshot(path=str(output_dir / "console-correction-form.png"))
        console.click("#fix-send")
        result_text(console, "✓ corrigir nº 3")
        kiosk.wait_for_function("document.getElementById('score-B').textContent === '1'")
        assert kiosk.text_content("#score-A") == "0"
        console.wait_for_function(
            "document.querySelector(\"#log li[data-id='3']\").textContent"
            ".includes('Corrigido pelo registro nº 4')")
        assert table.entries[3]["data"] == {"target": 3, "data": {"side": "B"}}

        assert table.entries[1]["data"] == {"target": 1, "reason": "bola não entrou"}

        # the thumb: the clock sheet starts the period; Botafogo, 1, 1, Chute pedido asks a
        # shot for Botafogo with disc 11
        console.click("#sheet-log [data-close]")
        live.call(table.at_interval)  # a period to start: its button is offered, not grey
        console.click("[data-sheet=sheet-clock]")
        console.click("#sheet-clock button[data-act=start]")
        result_text(console, "✓ iniciar período")
        assert table.running is True
        console.click("#sheet-clock [data-close]")
        for sel in ("#side-B", "[data-key='1']", "[data-key='1']", "#act-shot"):
            console.click(sel)
        result_text(console, "✓ chute pedido Botafogo 11")
        assert table.entries[-1]["kind"] == "shot_asked"
        assert table.entries[-1]["data"] == {"side": "B", "disc": 11, "ball": "opponent_half"}
        console.screenshot(path=str(output_dir / "console-phone.png"), full_page=True)
    finally:
        ctx.close()
        kiosk.close()
    assert not errors, errors


def test_the_keyboard_shortcuts_work_on_a_desk(
    table_server: tuple[LiveServer, ScriptedTable], page: Any
) -> None:
    """A laptop at the table: S starts the period; B, 1, 1, Enter asks a shot for B, 11."""
    live, table = table_server
    page.goto(live.url + f"/console?token={TOKEN}")
    page.wait_for_function("document.getElementById('token-status').textContent.includes('✓')")
    page.keyboard.press("s")
    result_text(page, "✓ iniciar período")
    assert table.running is True
    for key in ("b", "1", "1", "Enter"):
        page.keyboard.press(key)
    result_text(page, "✓ chute pedido Botafogo 11")
    assert table.entries[-1]["data"] == {"side": "B", "disc": 11, "ball": "opponent_half"}
    page.keyboard.press("7")  # after an action, the next digit starts a new number
    assert page.text_content("#disc-shown") == "nº 7"


def test_keeper_choice_page_sends_with_token(
    table_server: tuple[LiveServer, ScriptedTable], page: Any
) -> None:
    live, table = table_server
    page.goto(live.url + f"/console/keeper?token={TOKEN}")
    page.click("[data-side=B]")
    page.click("[data-choice=left]")
    page.wait_for_function("document.getElementById('out').textContent.startsWith('✗')")
    # the scripted table does not know keeper_choice: the refusal reason is shown, and the
    # request carried the token (otherwise it would be a token error)
    assert "unknown action 'keeper_choice'" in page.text_content("#out")
    assert "esquerda" not in page.text_content("#out").lower()


def test_recover_from_the_host_opens_a_working_console(
    table_server: tuple[LiveServer, ScriptedTable], page: Any
) -> None:
    live, table = table_server
    page.goto(live.url + "/console/recover")
    page.wait_for_function("document.getElementById('token-status').textContent.includes('✓')")
    send_raw(page, "goal", '{"side": "B"}', "✓ goal")
    assert [e["kind"] for e in table.entries] == ["goal"]


def test_console_asks_a_ball_in_play_clock_whether_the_ball_kept_rolling(
    table_server: tuple[LiveServer, ScriptedTable], page: Any, output_dir: Path
) -> None:
    """Issue 13 item 2, walk47b M2: after a reset the board's clock restores from flash and
    does not count the time it was down. A ball-in-play clock (004 "só corre com a bola
    rolando") is asked whether the ball kept rolling, naming where its clock came back (walk50b
    M1); "Não" leaves the clock as it is, stored as the referee's answer (walk50b M2). (The
    continuous clock's "O jogo continuou?": test_console_reset_offer.)"""
    import time

    live, table = table_server
    page.goto(live.url + f"/console?token={TOKEN}")
    assert not page.is_visible("#reset-offer")
    st = table.state()
    st["match"]["clock_profile"] = {"clock_mode": "ball-in-play"}
    st["link"]["reset"] = {"at": int(time.time() * 1000) - 2000, "boot": 6, "lost_ms": 12_400,
                           "restored": True, "clock_ms": 92_413}
    live.publish(st)
    page.wait_for_selector("#reset-offer", state="visible")
    assert page.text_content("#reset-text") == (
        "⚠ A mesa ficou sem energia 00:12: o relógio voltou em 01:32 e não contou esse tempo. "
        "A bola continuou rolando?")
    assert page.text_content("#reset-dismiss") == "Não: a bola parou, o relógio está certo"
    page.screenshot(path=str(output_dir / "console-reset-offer.png"))
    page.click("#reset-dismiss")
    assert not page.is_visible("#reset-offer")
    wait_for(lambda: table.entries, 30, "the answer stored")
    assert [(e["kind"], e["data"]) for e in table.entries] == [("clock_kept", {"ms": 12_000})]


def test_console_shows_the_tables_health(
    table_server: tuple[LiveServer, ScriptedTable], page: Any
) -> None:
    """Issue 13 item 4: a fault around the match (the event log not writable) is shown next to
    the link state, published by the hub as the table's health, and goes when it clears."""
    live, table = table_server
    page.goto(live.url + f"/console?token={TOKEN}")
    fault = {"code": "log_full", "since": 0,
             "pt": "log de eventos sem gravação (disco cheio) — placar pausado, nada se perde",
             "en": "event log not writable (disk full) — scores paused, nothing lost"}
    live.call(live.hub.publish_health, table.table_id, {"ok": False, "faults": [fault]})
    page.wait_for_function(
        "t => document.getElementById('c-link').textContent.includes(t)", arg=fault["pt"])
    live.call(live.hub.publish_health, table.table_id, {"ok": True, "faults": []})
    page.wait_for_function(
        "() => !document.getElementById('c-link').textContent.includes('sem gravação')")
def test_a_slow_action_is_answered_with_its_own_label(browser: Any) -> None:
    """Issue 14: on a busy host an action answered later ("still applying") ended as
    "✓ aplicado", so a console waiting for "✓ anular" waited forever."""
    import asyncio

    from futmesa.hub import StateHub
    from futmesa_testkit.liveserver import serving

    class SlowTable(ScriptedTable):
        async def handle(self, kind: str, data: dict, author: str) -> dict:
            await asyncio.sleep(0.5)  # longer than the console's first answer waits
            return await super().handle(kind, data, author)

    hub = StateHub()
    table = SlowTable(hub)
    with serving(hub, history=table, answer_within_s=0.05) as live:
        ctx = browser.new_context()
        page = ctx.new_page()
        try:
            page.goto(live.url + f"/console?token={TOKEN}")
            page.wait_for_function(
                "document.getElementById('token-status').textContent.includes('✓')",
                timeout=60_000)
            assert send_raw(page, "goal", '{"side": "A"}').startswith("✓ goal")
            assert "goal — ação recusada: goal needs side A or B" in send_raw(
                page, "goal", '{"side": "Z"}')
            # the console's own button, answered late, ends with its own label
            live.call(table.at_interval)  # a period to start: its button is offered
            page.click("[data-sheet=sheet-clock]")
            page.click("#sheet-clock button[data-act=start]")
            assert result_text(page, "✓", timeout=60_000).startswith("✓ iniciar período")
        finally:
            ctx.close()


def test_the_final_whistle_line_says_the_result(
    table_server: tuple[LiveServer, ScriptedTable], page: Any
) -> None:
    """Walk 48a L3: the match ended on a ball out; the phone's result line said only "» Bola
    fora" while the TV said "Fim de jogo: 2 × 1, vitória de …". The line says every word of
    the rules on the newest entry, as the TV does one after the other: the result too."""
    live, table = table_server
    page.goto(live.url + f"/console?token={TOKEN}")
    st = table.state()
    st["match"]["announcements"] = [{"id": 1, "entry": 5, "code": "shot_asked",
                                     "pt": "Chute pedido", "en": "Shot asked"}]
    live.publish(st)
    page.wait_for_function("document.getElementById('c-name-A').textContent !== ''")
    st = table.state()
    st["match"]["announcements"] = [
        {"id": 1, "entry": 5, "code": "shot_asked", "pt": "Chute pedido", "en": "Shot asked"},
        {"id": 2, "entry": 6, "code": "ball_out", "pt": "Bola fora", "en": "Ball out"},
        {"id": 3, "entry": 6, "code": "match_end", "pt": "Fim de jogo: 2–1, vitória de Alvorada",
         "en": "Full time: 2–1, Alvorada win"}]
    live.publish(st)
    page.wait_for_function("document.getElementById('result').textContent.startsWith('»')")
    assert page.text_content("#result") == "» Bola fora · Fim de jogo: 2–1, vitória de Alvorada"
