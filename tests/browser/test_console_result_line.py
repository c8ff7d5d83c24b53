"""The console's result line on a phone (walk #45 lows): a reload does not say an old goal
again, and a disciplinary foul is answered with what the rules made of it. Real parts: the
simulated table (firmware under micropython on a pty), the daemon, SQLite and uvicorn
(LiveTable); headless Chromium at 390×844."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from phone_console import alvorada_on_the_phone

pytestmark = pytest.mark.browser

WAIT_MS = 60_000


def _result(page: Any) -> str:
    return page.text_content("#result") or ""


def test_a_reload_says_no_old_goal_and_a_foul_says_what_it_gave(browser: Any) -> None:
    with alvorada_on_the_phone(browser) as (live, page):
        live.give_lance("A")
        live.referee("shot_asked", {"side": "A", "disc": 9})
        live.sim.goal(live.match()["ends"]["B"])
        page.wait_for_function("document.getElementById('result').textContent"
                               ".startsWith('⚽')", timeout=WAIT_MS)
        # the page kept the match for a reload without the network; reloaded, the live
        # state (its log listed) is not news of that goal
        page.reload()
        page.wait_for_selector("#log li[data-id]", state="attached", timeout=WAIT_MS)
        page.wait_for_function("document.getElementById('c-name-A').textContent"
                               " === 'Alvorada'", timeout=WAIT_MS)
        assert "⚽" not in _result(page), _result(page)

        # a disciplinary foul by Botafogo's no. 4: the answer names the foul, not just
        # "✓ disciplina Botafogo"
        page.tap("[data-key='4']")
        page.tap("[data-sheet=sheet-discipline]")
        page.tap("#sheet-discipline .side[data-side=B]")
        page.tap("#sheet-discipline [data-discipline=disciplinary]")
        page.wait_for_function("Referee.queued().length === 0", timeout=WAIT_MS)
        page.wait_for_function("/^✓ (?!disciplina)/.test("
                               "document.getElementById('result').textContent)",
                               timeout=WAIT_MS)
        said = _result(page)
        assert "Botafogo" in said and "disciplinar" in said.lower(), said
        assert not page.js_errors, page.js_errors


def _answered(page: Any, before: str) -> str:
    """The result line once the host answered the last tap (a new "✓ …" line)."""
    page.wait_for_function("Referee.queued().length === 0", timeout=WAIT_MS)
    page.wait_for_function("b => { const t = document.getElementById('result').textContent;"
                           " return t.startsWith('✓') && t !== b; }", arg=before,
                           timeout=WAIT_MS)
    return _result(page)


def test_every_answer_says_what_the_rules_stored_in_the_registro_words(
        browser: Any, output_dir: Path) -> None:
    """Walk 45h-b B6: "✓ falta Botafogo", "✓ anular nº 22" said the button, not what was
    stored. After a foul and after voiding it from the Registro, the line is the Registro's
    words — the fact and its consequence; no bare row number."""
    with alvorada_on_the_phone(browser) as (live, page):
        # at Alvorada's kick-off (no give_lance: since the kick-off asks no shot in CBFM it
        # would take it with botão 6, which then waits — 000 Art. 9 — and the keypad drops it)
        before = _result(page)
        page.tap("[data-key='6']")
        page.tap("[data-sheet=sheet-foul]")
        page.tap("#sheet-foul .side[data-side=B]")
        page.tap("#sheet-foul [data-field=foul-where] [data-value=own_half]")
        page.tap("#sheet-foul [data-act=foul]")
        said = _answered(page, before)
        # the foul, its disc and place, and the kick it gave, for whom (the rules' words)
        assert said.startswith("✓ Falta de Botafogo, botão 6"), said
        assert "para Alvorada" in said and "indireta" in said, said
        # the restart card says the kick as the TV does: the rules' announcement (B2)
        m = live.running.daemon.state_json()["match"]
        told = next(a["pt"] for a in reversed(m["announcements"]) if isinstance(a, dict)
                    and a.get("code") == f"restart_{m['restart']['kind']}")
        page.wait_for_function("!document.getElementById('restart-card').hidden",
                               timeout=WAIT_MS)
        title = page.text_content("#restart-title") or ""
        assert title == "Falta (cobrança indireta) para Alvorada", title
        assert told.startswith(title), (told, title)
        page.screenshot(path=str(output_dir / "console-answer-foul.png"))
        foul = max(e.id for e in live.running.store.entries(live.running.daemon.match["id"])
                   if e.kind == "foul")
        page.tap("[data-sheet=sheet-log]")
        page.tap(f"#log li[data-id='{foul}'] button:text('Anular')")
        page.wait_for_selector("#fix[open]", timeout=5_000)
        page.fill("#fix-reason", "engano")
        before = _result(page)
        page.tap("#fix-send")
        said = _answered(page, before)
        # the void names the foul in words, never only "anular nº …"
        assert "Falta de Botafogo, botão 6" in said and "nul" in said.lower(), said
        assert not said.startswith("✓ anular"), said
        assert not page.js_errors, page.js_errors
