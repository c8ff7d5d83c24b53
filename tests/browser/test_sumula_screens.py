"""The súmula of a match the demo really played (simulated table, real daemon, rules engine
and SQLite), as HTML in Chromium at TV and phone sizes, and `futmesa report --html`: every
entry in words (goal lines and ball-outs by the side of the table, rule citations in full, the
demo's referee as a person's word), nothing wider than the screen, no text cut, no code."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from screen_checks import VIEWPORTS, check_screen, internal_codes

from futmesa.hub import StateHub
from futmesa.matchbook import MatchLibrary
from futmesa.store import EventLog
from futmesa_testkit.liveserver import LiveServer, free_port, serving

pytestmark = pytest.mark.browser
FUTMESA = str(Path(sys.executable).with_name("futmesa"))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("demo") / "m.sqlite"
    proc = subprocess.run(
        [FUTMESA, "demo", "--speed", "200", "--exit-when-done", "--db", str(db),
         "--http-port", str(free_port())], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return db


@pytest.fixture
def history(played: Path) -> Iterator[LiveServer]:
    store = EventLog(played)
    try:
        with serving(StateHub(), history=MatchLibrary(store)) as live:
            yield live
    finally:
        store.close()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_a_played_match_reads_in_words(history: LiveServer, browser: Any, output_dir: Path,
                                       size: str) -> None:
    context = browser.new_context(viewport=VIEWPORTS[size])
    page = context.new_page()
    try:
        page.goto(history.url + "/history")
        check_screen(page, f"history-played-{size}", output_dir)
        assert "Mesa 1" in page.inner_text("body") or size in ("phone", "small")
        page.goto(history.url + "/report/1")
        check_screen(page, f"sumula-played-{size}", output_dir)
        text = page.inner_text("body")
        assert "horário de São Paulo" in text and "Mesa 1" in text
        assert "Árbitro (demonstração)" in text
        assert "Regra CBFM 1 Toque, Art." in text  # the súmula cites in full
        assert "linha do gol de" in text or "Sensor: bola na linha" not in text
        # every value has room: no column a letter or two wide ("te m po", issue 31 §12)
        narrow = page.evaluate("""() => [...document.querySelectorAll('table:not(.meta) td')]
            .filter((td) => td.textContent.trim().length > 3
                            && td.getBoundingClientRect().width < 60).length""")
        assert narrow == 0, f"{narrow} cells narrower than 60 px"
    finally:
        context.close()


def test_the_report_command_writes_words(played: Path, tmp_path: Path) -> None:
    html = tmp_path / "s.html"
    subprocess.run([FUTMESA, "report", "1", "--db", str(played), "--html", str(html)],
                   check=True, capture_output=True, timeout=120)
    import re

    text = re.sub(r"<style.*?</style>|<[^>]+>", " ", html.read_text(), flags=re.S)
    assert internal_codes(text) == []


def test_the_report_commands_pdf_names_where_to_check_it(played: Path, tmp_path: Path) -> None:
    """Issue 31 §12: `futmesa report --pdf` had no QR code and no "Verifique em"; its
    signature lines said "Técnico" where /assinar says "Capitão"."""
    pdf = tmp_path / "s.pdf"
    subprocess.run([FUTMESA, "report", "1", "--db", str(played), "--pdf", str(pdf),
                    "--verify-url", "http://mesa.clube:8000"],
                   check=True, capture_output=True, timeout=120)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    flat = " ".join(text.split())
    assert "Verifique em: http://mesa.clube:8000/verificar/1" in flat, flat[-600:]
    assert "Capitão — Estrela do Norte" in flat and "Técnico" not in flat
