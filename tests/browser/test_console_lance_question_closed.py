"""A lance question the rules withdraw is never gone without a word (walk48b M1): "Estrela do
Norte passou do tempo do lance: falta disciplinar?" was open on the phone, the referee entered
"Falta … na área", and the card said "nada pendente" — the question was in no Registro row, and
nothing said what became of it. The penalty's lance, started by the table, withdraws it (the
question is about a lance that is over, 000 Art. 26 §1 A); the console's » line and the
Registro now say so. Real parts: the firmware on a pty at 10×, the daemon, SQLite, a touch
phone."""

from __future__ import annotations

from typing import Any

import pytest
from phone_console import WAIT_MS, alvorada_on_the_phone, wait_js

pytestmark = pytest.mark.browser

CLOSED = ("Pergunta encerrada sem resposta: {team} passou do tempo do lance — o lance "
          "seguinte já começou; sem falta")


def test_a_foul_that_starts_the_next_lance_closes_the_question_in_words(browser: Any) -> None:
    # 30 s lances at 10×: 3 s each, the question at the lance's 2nd expiry
    with alvorada_on_the_phone(browser, {"lance_ms": 30_000, "lance_warn_ms": 5_000}) \
            as (live, page):
        live.referee("touch", {"side": "A", "disc": 5})  # the kick-off's two lances: then
        live.referee("touch", {"side": "A", "disc": 6})  # Botafogo's lance, on the table

        def question() -> dict[str, Any] | None:
            return next((p for p in live.match()["pending"] if p["kind"] == "lance_timeout"),
                        None)

        live.wait(lambda: question() is not None, 90, "the lance question")
        asked = question()
        assert asked is not None
        side = asked["side"]
        team = live.match()["teams"][side]["name"]
        wait_js(page, "document.getElementById('pending').textContent"
                      ".includes('passou do tempo do lance')")
        page.tap("[data-sheet=sheet-foul]")
        page.tap(f"#sheet-foul .side[data-side={side}]")
        page.tap("#sheet-foul [data-field=foul-where] [data-value=box]")
        page.tap("#sheet-foul [data-act=foul]")
        closed = CLOSED.format(team=team)
        page.wait_for_function(
            "t => document.getElementById('c-announce').textContent.includes(t)",
            arg=closed, timeout=WAIT_MS)
        assert not any(p["kind"] == "lance_timeout" and p["id"] == asked["id"]
                       for p in live.match()["pending"])
        page.tap("[data-sheet=sheet-log]")
        page.wait_for_function("t => document.getElementById('sheet-log').textContent"
                               ".includes(t)", arg=closed, timeout=WAIT_MS)
