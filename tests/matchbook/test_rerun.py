"""``futmesa rerun``: a stored match replayed under another ruleset, said in words.

The same log means different things under different rulesets: a corner kicked straight in
is a goal under 004 ("Mesa Posta": no shot needs asking from a corner) and a question to the
referee under 000 (Art. 12: a goal needs a shot asked). The lines an organiser reads name
the rulesets and teams and say what each ruleset did, never an internal code.
"""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner
from matchbook_logs import match_row, started

from futmesa.cli import cli
from futmesa.matchbook.rerun import rerun
from futmesa.store import EventLog

CODE = re.compile(r"\b[a-z]+_[a-z_]+\b")  # goal_line, shot_asked, confirm goal_no_shot…


def corner_straight_in() -> list:
    log = started()
    log.device("touch", {"side": "A", "disc": 9})
    log.add("last_touch", {"side": "B"})
    log.device("ball_out", {"zone": 8, "line": "end", "end": 1})
    log.device("touch", {"side": "A", "disc": 11})
    log.device("goal_line", {"goal": 1, "held_ms": 40})
    return log.rows


def test_rerun_says_in_portuguese_what_differs() -> None:
    rows = corner_straight_in()
    out = rerun(match_row("cbfm-1toque"), rows, "mesa-posta")
    assert out.title.startswith("Partida 1: jogada com CBFM")
    result, *entries = out.differences
    # the result: 0 × 0 as played, 1 × 0 under 004, with the teams' names
    assert result.startswith("Resultado: Alvorada 0 × 0 Botafogo")
    assert "Alvorada 1 × 0 Botafogo" in result
    goal_line = next(line for line in entries if line.startswith(f"Registro {rows[-1].id} "))
    _, played, replayed = goal_line.split("\n")
    assert played.strip().startswith("com CBFM")
    assert "pergunta ao árbitro" in played  # 000 Art. 12: no shot asked, the referee decides
    assert replayed.strip().startswith("com A mesa está posta: Gol! Alvorada")  # 004
    for line in [out.title, *out.differences]:
        assert not CODE.search(line), f"an internal code in: {line}"


def test_rerun_in_english_and_under_the_same_ruleset() -> None:
    rows = corner_straight_in()
    out = rerun(match_row("cbfm-1toque"), rows, "mesa-posta", "en")
    assert out.title.startswith("Match 1: played under CBFM")
    assert out.differences[0].startswith("Result: Alvorada 0 × 0 Botafogo")
    same = rerun(match_row("cbfm-1toque"), rows, "cbfm-1toque")
    assert same.differences == []
    assert same.nothing.startswith("Nenhuma diferença")


def test_rerun_command_on_a_stored_log(tmp_path: Path) -> None:
    db = tmp_path / "log.sqlite"
    store = EventLog(str(db))
    row = match_row("cbfm-1toque")
    mid = store.new_match("sim-T1", row["ruleset"], row["settings"])
    for e in corner_straight_in():
        store.append_entry(mid, e.source, e.kind, e.data, e.period, e.clock_ms, e.author)
    store.close()
    runner = CliRunner()
    out = runner.invoke(cli, ["rerun", str(mid), "--ruleset", "mesa-posta", "--db", str(db)])
    assert out.exit_code == 0, out.output
    assert out.output.startswith(f"Partida {mid}: jogada com CBFM")
    assert "Resultado: Alvorada 0 × 0 Botafogo" in out.output
    en = runner.invoke(cli, ["rerun", str(mid), "--ruleset", "mesa-posta", "--db", str(db),
                             "--lang", "en"])
    assert "Result: Alvorada 0 × 0 Botafogo" in en.output
    missing = runner.invoke(cli, ["rerun", "99", "--ruleset", "mesa-posta", "--db", str(db)])
    assert missing.exit_code != 0
    assert "não há partida 99" in missing.output
    assert "Traceback" not in missing.output
