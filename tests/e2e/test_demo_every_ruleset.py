"""Every ruleset plays the README's main job to the final whistle (issue 30): the demo's
scripted referee answers what each document asks of him — the last lance at the signal
(001 Art. XXI §1), the ball put out and back in play on a ball-in-play clock (004 A
partida), a shot asked only by the team with the lance (000 Art. 12 §3 A) — and the printed
final score is the one the stored log holds."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from futmesa.rules import RULESETS
from futmesa_testkit.liveserver import free_port

FUTMESA = str(Path(sys.executable).with_name("futmesa"))


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_demo_plays_every_ruleset_to_the_final_whistle(ruleset: str, tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    proc = subprocess.run(
        [FUTMESA, "demo", "--ruleset", ruleset, "--speed", "600", "--exit-when-done",
         "--db", str(db), "--http-host", "127.0.0.1", "--http-port", str(free_port())],
        capture_output=True, text=True, timeout=600,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "fim do 2º tempo" in out, out
    final = re.search(r"PLACAR FINAL: Estrela do Norte (\d+) × (\d+) Botafogo da Mesa", out)
    assert final, out
    # what the scripted referee and the demo print is Portuguese, never an entry's code
    assert not re.search(r"\b(shot_asked|lance_done|touch|referee|refused)\b", out), out
    # ... and names a table, a ruleset and a team as people do (issue 31 §16): no table id,
    # no ruleset id, no folded name, no "por o"
    assert "sim-SIM" not in out, out
    ids = "|".join(re.escape(r) for r in RULESETS)
    assert not re.search(rf"(?<![\w/-])({ids})(?![\w-])", out), out
    assert not re.search(r"\b(por|de|em) (o|a|os|as) ", out), out
    assert "estrela do norte" not in out and "botafogo da mesa" not in out, out
    with sqlite3.connect(db) as conn:
        finished = conn.execute("SELECT ended_at FROM matches").fetchone()[0]
        shots = conn.execute("SELECT COUNT(*) FROM entries WHERE kind = 'shot_asked'"
                             ).fetchone()[0]
    assert finished is not None
    assert shots >= 1, "the scripted shots were all refused"
    # the stored match replays to the printed score
    listed = subprocess.run([FUTMESA, "matches", "--db", str(db)], capture_output=True,
                            text=True, timeout=120)
    assert f"{final.group(1)} × {final.group(2)}" in listed.stdout, listed.stdout  # 24c955f
