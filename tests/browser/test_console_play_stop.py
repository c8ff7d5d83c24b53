"""The lance still running while the referee works in the Registro (issue 45, a blind walker's
Medium finding, Regra Gaúcha): the table kept counting the lance while he corrected an entry,
and its overrun became the técnico's technical foul (001 Art. XXIX e). The Registro and the
correction form now say the lance is running, with one tap that stops play; play stopped, the
lance time does not run, and resumed, the gaúcha lance counts afresh. Real parts: the simulated
table (the firmware's clock and lance timer), the daemon, SQLite and uvicorn (LiveTable);
headless Chromium on a 390×844 touch phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from phone_console import phone_console, stored, wait_js

pytestmark = pytest.mark.browser

REGISTRO = "#sheet-log [data-play-stop]"
FORM = "#fix [data-play-stop]"


def _says(page: Any, line: str, words: str) -> None:
    """`line` is in sight and says `words` (its start)."""
    wait_js(page, f"""(() => {{ const l = document.querySelector({line!r});
        return l && !l.hidden && l.offsetParent !== null
          && l.querySelector('.words').textContent.startsWith({words!r}); }})()""")


def test_the_registro_says_the_lance_runs_and_stops_play_in_one_tap(
        browser: Any, output_dir: Path) -> None:
    with phone_console(browser, "gaucha") as (live, page):
        live.referee("touch", {"side": "A", "disc": 6})
        live.referee("touch", {"side": "A", "disc": 9})
        d = live.daemon
        live.wait(lambda: d.status is not None and d.status.lance_running
                  and d.status.lance_side == 1, 60, "Internacional's lance to run")
        touch = max(e.id for e in d.store.entries(d.match["id"]) if e.kind == "touch")
        page.tap("[data-sheet=sheet-log]")
        running = "O lance de Internacional continua correndo ("
        _says(page, REGISTRO, running)
        # the correction form over the Registro says it too, its button one tap away
        void_it = f"#log li[data-id='{touch}'] [data-fix=void]"
        page.wait_for_selector(void_it)
        page.tap(void_it)
        page.wait_for_selector("#fix[open]")
        _says(page, FORM, running)
        assert page.text_content(f"{FORM} button") == "Parar o jogo"
        page.screenshot(path=str(output_dir / "console-play-stop-running.png"))
        page.tap(f"{FORM} button")
        # the referee's pause, stored; the table's clock (and its lance) stand
        live.wait(lambda: stored(live, "pause") and not d.status.running, 60,
                  "the table to stop play")
        _says(page, FORM, "Jogo parado: o tempo do lance não corre")
        assert page.text_content(f"{FORM} button") == "Retomar o jogo"
        page.screenshot(path=str(output_dir / "console-play-stop-stopped.png"))
        page.tap("#fix-cancel")
        _says(page, REGISTRO, "Jogo parado: o tempo do lance não corre")
        page.tap(f"{REGISTRO} button")
        # play resumed: the clock runs and Internacional's lance counts afresh (001 XXIX e)
        live.wait(lambda: stored(live, "resume") and d.status.running, 60, "play to resume")
        resumed = max(e.id for e in d.store.entries(d.match["id"]) if e.kind == "resume")
        live.wait(lambda: any(e.kind == "lance_started" and e.id > resumed
                              and e.data.get("side") == "B"
                              for e in d.store.entries(d.match["id"])), 60,
                  "Internacional's lance to start afresh")
        _says(page, REGISTRO, running)
        assert not [e for e in d.store.entries(d.match["id"]) if e.kind == "void"]
