"""`futmesa watch` speaks the TV's words: the table's name and the ruleset's title (never a board
uid or a ruleset id), every announcement of the newest entry in order (the goal, then the
restart), rule citations in words."""

from __future__ import annotations

from rich.console import Console

from futmesa import watch
from futmesa_testkit.liveserver import make_state


def text_of(panel: object) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(panel)
    return console.export_text()


def test_watch_names_the_table_and_shows_the_goal_then_the_restart() -> None:
    st = make_state(table_id="sim-SIM00003", score={"A": 1, "B": 0})
    st["match"]["announcements"] = [
        {"id": 1, "entry": 4, "code": "set_up", "pt": "Equipes definidas"},
        {"id": 2, "entry": 9, "code": "goal", "pt": "Gol! Alvorada — 1 × 0 (000 Art. 12 §1)"},
        {"id": 3, "entry": 9, "code": "rearrange",
         "pt": "Arrumação das equipes; saída para Botafogo (000 Art. 6 §1)"},
    ]
    out = text_of(watch.render(st, connected=True))
    assert "Mesa 3" in out and "CBFM — Regra 1 Toque" in out
    assert "sim-SIM00003" not in out and "cbfm-1toque" not in out
    goal = out.index("Gol! Alvorada — 1 × 0 (CBFM 1 Toque, Art. 12 §1)")
    restart = out.index("Arrumação das equipes; saída para Botafogo (CBFM 1 Toque, Art. 6 §1)")
    assert goal < restart
    assert "Equipes definidas" not in out  # an older entry's words are gone
    assert "000 Art" not in out
