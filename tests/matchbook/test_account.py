"""One account of the match (issue 45): the console's log, the súmula (its model, HTML, PDF),
the signing page and the history list the same facts in the same words — a goal voided and the
void undone, a disciplinary foul answered to the lance timer's question, a foul in the
offender's field, a substitution in the interval — because they all read matchbook/account.py.

The match is stored in a real SQLite event log and applied to the live book as the table daemon
does; the stored match is read back as the history and the súmula read it.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from futmesa import report
from futmesa.matchbook import MatchBook, MatchLibrary, build
from futmesa.matchbook.account import account, line
from futmesa.matchbook.entries import to_entry
from futmesa.sim.referee_moves import kick_off_first
from futmesa.store import EventLog
from futmesa.web.console import entry_view, live_log_view
from futmesa.web.history import history_rows, render_history
from futmesa.web.signing import signing_view

TEAMS = {"A": {"name": "Estrela do Norte"}, "B": {"name": "Botafogo da Mesa"}}
HALF = 180_000


class Table:
    """A match stored, then applied to its book, as the table daemon does."""

    def __init__(self, path: Path, ruleset: str = "cbfm-1toque") -> None:
        self.store = EventLog(path)
        match_id = self.store.new_match("sim-T1", ruleset, {"teams": TEAMS, "period_ms": HALF})
        match = self.store.match(match_id)
        assert match is not None
        self.book = MatchBook.opened(self.store, match)
        self.t = 1_780_000_000_000.0
        self.period, self.clock = 1, 0

    def put(self, kind: str, data: dict[str, Any] | None = None, source: str = "referee") -> int:
        self.t += 1000
        entry_id = self.store.append_entry(self.book.id, source, kind, dict(data or {}),
                                           self.period, self.clock,
                                           "Rui" if source == "referee" else "T1",
                                           occurred_at=self.t)
        stored = next(e for e in self.store.entries(self.book.id) if e.id == entry_id)
        self.effects = self.book.apply(to_entry(stored))  # what the rules did on it
        return entry_id

    def device(self, kind: str, data: dict[str, Any] | None = None) -> int:
        return self.put(kind, data, "device")

    def kick_off_first(self, side: str = "A") -> None:
        """`side`'s kick-off touch, as the referee enters it before the shot, when the kick-off
        is not taken and the rules ask no shot from it (000 Art. 12 §5, 003 Art. 34)."""
        move = kick_off_first(self.book.state.to_dict(), side)
        if move is not None:
            self.put(*move)

    def start_half(self, period: int) -> None:
        """A half begun as the referee and the device enter it, its clock at 0."""
        self.period, self.clock = period, 0
        self.put("start_period")
        self.device("period_started")
        self.device("clock_started", {"reason": 0})


def kicked_off(path: Path, ruleset: str = "cbfm-1toque", clock: int = 0) -> Table:
    """A match of `ruleset` set up (A kicks off), its 1st half under way at `clock` ms."""
    t = Table(path, ruleset)
    t.put("set_up", {"kickoff": "A"})
    t.start_half(1)
    t.clock = clock
    return t


def a_match(path: Path) -> Table:
    """Goal voided and brought back, a lance-time foul, a foul in the offender's field, the
    interval with a substitution and the interval's alarm."""
    t = kicked_off(path, clock=65_000)  # "2'" as a referee writes it
    t.kick_off_first()  # no shot from the kick-off (000 Art. 12 §5)
    t.put("shot_asked", {"side": "A", "disc": 9})
    goal = t.device("goal_line", {"goal": 1, "held_ms": 40})
    void = t.put("void", {"target": goal, "reason": "a bola não entrou"})
    t.put("void", {"target": void, "reason": "revisto no replay"})
    t.clock = 120_000
    # no lance runs before the kick-off after a goal (000 Art. 6): B kicks off, its 2nd lance
    # of the kick-off (Art. 9 §2) runs out
    t.put("touch", {"side": "B", "disc": 5})
    t.device("lance_started", {"side": "B"})
    t.device("lance_expired", {"side": "B", "warning": True})
    t.device("lance_expired", {"side": "B", "count": 1})
    asked = t.device("lance_expired", {"side": "B", "count": 2})
    assert [p["kind"] for p in t.book.state.m["pending"]] == ["lance_timeout"]  # kicked off
    t.put("confirm", {"target": asked, "choice": "foul"})
    t.put("foul", {"side": "A", "disc": 4, "where": "opponent_half"})
    t.clock = HALF
    t.device("alarm")
    if t.book.state.m["status"] == "last_lance":
        t.put("lance_done")  # the last lance (000 Art. 8 §10) played: the half is over
    t.device("period_over")
    t.clock = HALF + 60_000  # the table's clock after the half: the interval
    t.put("substitution", {"side": "B", "out": 5, "in": 12})
    t.device("alarm")
    return t


MEANT = [
    "1º tempo 2' — Gol de Estrela do Norte (1 × 0, 2', botão 9)",
    "1º tempo 2' — Gol de Estrela do Norte (1 × 0, 2', botão 9) anulado pelo árbitro: "
    "a bola não entrou",
    "1º tempo 2' — Anulação desfeita: Gol de Estrela do Norte (1 × 0, 2', botão 9) volta a "
    "valer — motivo: revisto no replay",
    "1º tempo 3' — Falta disciplinar de Botafogo da Mesa (1ª): passou do tempo do lance",
    "1º tempo 3' — Falta de Estrela do Norte, botão 4 no campo do infrator: Falta (cobrança "
    "direta ou indireta) para Botafogo da Mesa",
    "1º tempo — Fim do 1º tempo",
    "Intervalo — Substituição em Botafogo da Mesa: sai o botão 5, entra o 12",
]


UNDONE = MEANT[2].split(" — ", 1)[1]


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(text))


def told(lines: list[str]) -> list[str]:
    """The facts but how the time went (the last lance, as the rules play it, comes and goes
    with the rules' own changes): the end of the half stays."""
    return [x for x in lines if "último lance" not in x.lower() and "Último lance" not in x]


def test_every_view_lists_the_same_facts_in_the_same_words(tmp_path: Path) -> None:
    t = a_match(tmp_path / "m.sqlite")
    record = MatchLibrary(t.store).match_record(t.book.id)
    facts = record["account"]
    assert told([line(f) for f in facts]) == MEANT
    # the void that was undone is struck: it no longer stands
    assert [f["struck"] for f in facts if line(f) in MEANT] == [False, True] + [False] * 5
    # the console's live log makes the same account as the stored match
    live = live_log_view(t.book.live_log, None, "0", "pt")
    assert told([line(f) for f in account(live["entries"])]) == MEANT
    assert told([line(f) for f in t.book.live_log.account()]) == MEANT
    # the súmula: its account table, its goals, its discipline, its substitutions
    s = build(record)
    rows = s.table("account")
    assert rows is not None and told([f"{r['when']} — {r['what']}" for r in rows.rows]) == MEANT
    discipline = s.table("discipline")
    assert discipline is not None and [r["what"] for r in discipline.rows] == [
        "Falta disciplinar de Botafogo da Mesa (1ª): passou do tempo do lance",
        "Falta de Estrela do Norte, botão 4 no campo do infrator: Falta (cobrança direta ou "
        "indireta) para Botafogo da Mesa"]
    assert [r["team"] for r in discipline.rows] == ["Botafogo da Mesa", "Estrela do Norte"]
    subs = s.table("substitutions")
    assert subs is not None and [(r["when"], r["out"], r["in"]) for r in subs.rows] == [
        ("Intervalo", "5", "12")]
    # the súmula's Correções: the undo is "Anulação desfeita", as the console says (walk 45f M3)
    corrections = s.table("corrections")
    assert corrections is not None and [r["kind"] for r in corrections.rows] == [
        "Anulação", "Anulação desfeita"]
    # the CSV says what the PDF strikes (walk 45f M4): the voided goal is not in force
    resumo = report.render_csv(record).split("# Resumo da partida\n", 1)[1].split("\n\n")[0]
    rows_csv = list(csv.reader(io.StringIO(resumo), delimiter=";"))
    assert rows_csv[0][-1] == "Em vigor"
    assert [r[-1] for r in rows_csv[1:] if "anulado pelo árbitro" in r[1]] == ["não — riscado"]
    assert [r[-1] for r in rows_csv[1:] if r[1].startswith("Anulação desfeita")] == ["sim"]
    page = flat(report.render_html(record))
    for said in MEANT:
        assert said.split(" — ", 1)[1] in page, said
    # /assinar: the summary the captains sign
    signing = signing_view(record, "http://h/verificar/1")
    assert told([x for x in signing["summary"] if " — " in x and "Regra" not in x]) == MEANT
    # /history: how it ended and what happened
    rows_h = history_rows(MatchLibrary(t.store).list_matches())
    assert told([f["line"] for f in rows_h[0]["facts"]]) == MEANT
    assert all(said in flat(render_history(MatchLibrary(t.store).list_matches()))
               for said in MEANT)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils missing")
def test_the_sumula_pdf_lists_the_account(tmp_path: Path) -> None:
    t = a_match(tmp_path / "m.sqlite")
    record = MatchLibrary(t.store).match_record(t.book.id)
    pdf = tmp_path / "s.pdf"
    pdf.write_bytes(report.pdf_bytes(record))
    text = flat(subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True,
                               text=True, check=True).stdout)
    for said in MEANT:
        assert said.split(" — ", 1)[1] in text, said
    # the time-keeping rows fold away, said in one line
    assert "Lance de Botafogo da Mesa iniciado" not in text
    assert "4 registros do tempo de lance" in text
    # no command line in an official document (issue 45, walk, low)
    assert "futmesa report" not in text and "timekeeping" not in text
    assert "o tempo de cada lance está no registro completo" in text
    pdf.write_bytes(report.pdf_bytes(record, timekeeping=True))  # asked for: every row
    text = flat(subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True,
                               text=True, check=True).stdout)
    assert "Lance de Botafogo da Mesa iniciado" in text


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils missing")
def test_the_folded_lance_timer_is_said_under_the_event_log_not_in_a_row(
        tmp_path: Path) -> None:
    """Walk45i-b, low (sumula1-4.png): "33 registros do tempo de lance … recolhidos" was a
    row of the event log with no number, its words in the Ocorrência cell under the
    signature's row. It is a note under the table: in no row, and the PDF, the HTML and the
    JSON say it after the table."""
    t = a_match(tmp_path / "m.sqlite")
    record = MatchLibrary(t.store).match_record(t.book.id)
    log = build(record).table("log")
    assert log is not None and log.note.startswith("4 registros do tempo de lance"), log.note
    assert not [r for r in log.rows if "tempo de lance" in r.get("what", "")], log.rows[-1]
    pdf = tmp_path / "s.pdf"
    pdf.write_bytes(report.pdf_bytes(record))
    lines = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                           text=True, check=True).stdout.splitlines()
    said = [x for x in lines if "registros do tempo de lance" in x]
    what = [x for x in lines if "Ocorrência" in x][0].index("Ocorrência")
    assert said and said[0].index("4 registros") < what, said  # not in the Ocorrência cell
    page = report.render_html(record)
    after = page.split('id="t-log"', 1)[1].split("</table>", 1)[1]
    assert "4 registros do tempo de lance" in after.split("<h2>", 1)[0], after[:300]
    assert json.loads(report.render_json(record))["tables"]["log"]["note"] == log.note


def test_the_registro_offers_the_undo_and_folds_the_lance_timer(tmp_path: Path) -> None:
    t = a_match(tmp_path / "m.sqlite")
    live = live_log_view(t.book.live_log, None, "0", "pt")
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for e in live["entries"]:
        by_kind.setdefault(e["kind"], []).append(e)
    void, undo = by_kind["void"]
    # the void undone offers nothing; the undo offers no further undo (issue 45 blind walk,
    # low 10: an endless chain of "Desfazer anulação"): the goal it gave back is in force and
    # is voided again by its own "Anular"
    assert undo["undo"] is None and not undo["correctable"]
    assert void["undo"] is None and not void["correctable"]
    assert void["text"] == ("Gol de Estrela do Norte (1 × 0, 2', botão 9) anulado pelo "
                            "árbitro: a bola não entrou")
    assert undo["text"] == UNDONE
    # the goal keeps what it was
    goal = by_kind["goal_line"][0]
    assert goal["correctable"]
    assert goal["meaning"][0].startswith("Gol! Estrela do Norte — 1 × 0")
    assert goal["fact_lines"] == ["Gol de Estrela do Norte (1 × 0, 2', botão 9)"]
    # the lance timer's rows: in the record, folded, never corrected
    timers = by_kind["lance_started"] + by_kind["lance_expired"]
    assert timers and all(e["folded"] and not e["correctable"] for e in timers)
    # the table's own clock rows ("Relógio parado: bola morta", "Mesa configurada", "Relógio
    # iniciado"; its alarms, "Fim do 1º tempo", "Alarme: fim do intervalo", and its close of
    # the half, "Relógio da mesa encerra o 1º tempo"): said, never offered Anular / Corrigir
    # (walk #45, low; walk 45f, M8)
    clock = [e for k in ("clock_started", "clock_stopped", "profile_set", "period_started",
                         "alarm", "period_over")
             for e in by_kind.get(k, [])]
    assert {e["kind"] for e in clock} >= {"clock_started", "alarm", "period_over"}, sorted(by_kind)
    assert not [e["text"] for e in clock if e["correctable"]]
    # the interval: the substitution and the alarm placed in it
    assert by_kind["substitution"][0]["interval"]
    assert by_kind["alarm"][1]["interval"] and by_kind["alarm"][1]["text"] == (
        "Alarme: fim do intervalo")
    assert not by_kind["alarm"][0]["interval"]
    # the end of the half is said once (issue 45, walk, low): on the alarm the rules ended it
    # with; the table's own close of it reads as the table's
    # (under the alarm's row, as what it caused: never its headline, walk45h-b B7)
    said = [x for e in live["entries"]
            for x in [e["text"], *(e.get("fact_lines") or []), *e["meaning"]]]
    assert sum(x.startswith("Fim do 1º tempo") for x in said) == 1, said
    assert by_kind["alarm"][0]["fact_lines"] == [], by_kind["alarm"][0]
    assert by_kind["period_over"][0]["text"] == "Relógio da mesa encerra o 1º tempo"


def test_a_voided_goal_reads_as_what_it_was_struck_in_the_goals_table(tmp_path: Path) -> None:
    t = kicked_off(tmp_path / "m.sqlite")
    t.kick_off_first()  # no shot from the kick-off (000 Art. 12 §5)
    t.put("shot_asked", {"side": "A", "disc": 9})
    goal = t.device("goal_line", {"goal": 1, "held_ms": 40})
    t.put("void", {"target": goal, "reason": "tiro de meta"})
    record = MatchLibrary(t.store).match_record(t.book.id)
    goals = build(record).table("goals")
    assert goals is not None and goals.struck == [True]
    assert goals.rows[0]["what"] == ("Gol de Estrela do Norte (1 × 0, 1', botão 9) anulado pelo "
                                     "árbitro: tiro de meta")
    # the struck row keeps what the goal was; never rewritten as "Gol anulado…"
    row = next(e for e in record["entries"] if e["id"] == goal)
    assert row["voided"] and row["meaning"][0].startswith("Gol! Estrela do Norte — 1 × 0")
    assert build(record).score == {"A": 0, "B": 0}
    view = entry_view(row, TEAMS, {}, "pt")
    # headed by the goal it was, struck with its row (walk45h-b B7, low)
    assert view["fact_lines"] == ["Gol de Estrela do Norte (1 × 0, 1', botão 9)"]
    assert not view["correctable"]


def test_a_foul_reads_where_it_was_entered() -> None:
    from futmesa.matchbook.wording import sentence

    said = {w: sentence("foul", {"side": "A", "disc": 4, "where": w}, TEAMS)
            for w in ("opponent_half", "own_half", "box")}
    assert said == {
        "opponent_half": "Falta de Estrela do Norte, botão 4 no campo do infrator",
        "own_half": "Falta de Estrela do Norte, botão 4 no campo de quem sofreu a falta",
        "box": "Falta de Estrela do Norte, botão 4 na área"}
    en = sentence("foul", {"side": "A", "where": "opponent_half"}, TEAMS, "en")
    assert en == "Foul by Estrela do Norte in the offender's half"


def test_the_account_is_served_as_the_history_and_the_sumula_read_it(tmp_path: Path) -> None:
    import httpx

    from futmesa_testkit.liveserver import serving

    t = a_match(tmp_path / "m.sqlite")
    with serving(history=MatchLibrary(t.store)) as live:
        body = httpx.get(f"{live.url}/api/account?match={t.book.id}", timeout=30).json()
        history = httpx.get(f"{live.url}/history", timeout=30).text
        page = httpx.get(f"{live.url}/report/{t.book.id}", timeout=30).text
        every = httpx.get(f"{live.url}/report/{t.book.id}?timekeeping=1", timeout=30).text
    assert told([line(f) for f in body["facts"]]) == MEANT
    for said in MEANT:
        assert said in flat(history) and said.split(" — ", 1)[1] in flat(page), said
    assert "Lance de Botafogo da Mesa iniciado" not in page
    assert "Lance de Botafogo da Mesa iniciado" in every


def test_a_void_at_the_end_of_a_long_log_costs_no_replay(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The book keeps the match as it stood before each void it applies: a void at the end
    reads its target from it, never replaying the log (issue 32 §6's linear cost)."""
    from futmesa.matchbook import book

    t = a_match(tmp_path / "m.sqlite")
    foul = max(e.id for e in t.store.entries(t.book.id) if e.kind == "foul")

    def no_replay(*args: Any) -> Any:
        raise AssertionError("the log was replayed for a void at its end")

    monkeypatch.setattr(book, "replay_match", no_replay)
    void = t.put("void", {"target": foul, "reason": "foi do outro time"})
    record = next(e for e in t.book.live_log.since(None, 0)["entries"] if e["id"] == foul)
    assert record["voided"] and record["facts"][0]["struck"]
    monkeypatch.undo()
    stored = MatchLibrary(t.store).match_record(t.book.id)
    assert next(e for e in stored["entries"] if e["id"] == void)["text"].startswith(
        "Anula «Falta de Estrela do Norte, botão 4")  # the row in words (walk45i-a M4)


def test_futmesa_report_folds_the_lance_timer_unless_asked(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from futmesa.cli import cli

    t = a_match(tmp_path / "m.sqlite")
    t.store.close()
    for extra, shown in (([], False), (["--timekeeping"], True)):
        out = tmp_path / f"s{len(extra)}.html"
        result = CliRunner().invoke(cli, ["report", str(t.book.id), "--db",
                                           str(tmp_path / "m.sqlite"), "--html", str(out),
                                           *extra])
        assert result.exit_code == 0, result.output
        page = flat(out.read_text(encoding="utf-8"))
        assert ("Lance de Botafogo da Mesa iniciado" in page) == shown
        assert ("o tempo de cada lance está no registro completo" in page) != shown
        assert "futmesa report 1 --timekeeping" not in page  # no command line in a súmula


def test_the_kicker_under_1_cm_is_in_the_discipline_table(tmp_path: Path) -> None:
    # 000 Art. 26 §1 E: the first time the warning, then the disciplinary foul — both in the
    # súmula's discipline, in the referee's words (issue 44)
    t = kicked_off(tmp_path / "m.sqlite", clock=5_000)
    t.put("set_piece_distance", {"side": "A", "disc": 3})
    t.put("set_piece_distance", {"side": "A", "disc": 3})
    record = MatchLibrary(t.store).match_record(t.book.id)
    discipline = build(record).table("discipline")
    assert discipline is not None
    said = [r["what"] for r in discipline.rows]
    assert said == ["Cobrador de Estrela do Norte, botão 3, a menos de 1 cm da bola"] * 2
    assert [r["team"] for r in discipline.rows] == ["Estrela do Norte"] * 2


def test_no_minute_is_placed_past_the_halfs_length(tmp_path: Path) -> None:
    """Issue 45 (walk, sumula1-1.png): a goal at 2:50 of a 3-minute half is "3'", and a void
    made after the alarm's instant is in the minute past it, "3'+1" (walk52b L1: added time is
    said so), on every view — never "4'" in a 3-minute half."""
    t = kicked_off(tmp_path / "m.sqlite", clock=HALF - 10_000)
    t.kick_off_first()  # no shot from the kick-off (000 Art. 12 §5)
    t.put("shot_asked", {"side": "A", "disc": 9})
    goal = t.device("goal_line", {"goal": 1, "held_ms": 40})
    t.clock = HALF + 30_000  # the table's clock read past the half's end
    t.put("void", {"target": goal, "reason": "a bola não entrou"})
    record = MatchLibrary(t.store).match_record(t.book.id)
    meant = ["1º tempo 3'+1 — Gol de Estrela do Norte (1 × 0, 3', botão 9) anulado pelo "
             "árbitro: a bola não entrou"]
    assert [line(f) for f in record["account"]] == meant
    assert [line(f) for f in t.book.live_log.account()] == meant


def test_the_added_time_announced_is_in_the_account(tmp_path: Path) -> None:
    """Walk 49b L4: 1 min of added time announced (the TV's "+1 acréscimo") was only in the
    event log: the Resumo (súmula, /assinar, /history) ended the half a minute past its length
    with no word why. Now the acréscimo is a line of its own, placed when announced."""
    t = kicked_off(tmp_path / "m.sqlite", clock=HALF - 20_000)
    t.put("added_time", {"ms": 60_000})
    record = MatchLibrary(t.store).match_record(t.book.id)
    meant = ["1º tempo 3' — Acréscimo de 1 min"]
    assert [line(f) for f in record["account"]] == meant
    assert [line(f) for f in t.book.live_log.account()] == meant
    assert [line(f, "en") for f in record["account"]] == ["1st half 3' — 1 min added time"]


def test_a_disciplinary_foul_reads_one_way_with_its_count(tmp_path: Path) -> None:
    """Issue 45 (walk, sumula2-1/sumula3-1.png): a foul from Disciplina had no count ("Falta
    disciplinar: Estrela do Norte, botão 3") while the lance-time one had "(1ª)"; in gaucha the
    lance-time foul was listed under its offender as "Falta técnica para Botafogo"."""
    t = kicked_off(tmp_path / "m.sqlite", clock=30_000)
    t.put("discipline", {"side": "A", "type": "disciplinary", "disc": 3})
    record = MatchLibrary(t.store).match_record(t.book.id)
    assert [line(f) for f in record["account"] if f["kind"] == "discipline"] == [
        "1º tempo 1' — Falta disciplinar de Estrela do Norte (1ª), botão 3"]
    g = kicked_off(tmp_path / "g.sqlite", "gaucha", clock=30_000)
    g.device("lance_started", {"side": "A"})
    g.device("lance_expired", {"side": "A", "warning": True})
    g.device("lance_expired", {"side": "A", "count": 1})  # 001 XXIX e: the foul itself
    assert g.book.state.m["pending"] == []
    record = MatchLibrary(g.store).match_record(g.book.id)
    fouls = [f for f in record["account"] if f["kind"] == "discipline"]
    assert len(fouls) == 1 and fouls[0]["side"] == "A", fouls
    assert fouls[0]["text"].startswith(
        "Falta técnica de Estrela do Norte (passou do tempo do lance): "), fouls[0]["text"]
    assert "Botafogo da Mesa" in fouls[0]["text"]


def test_a_gaucha_disciplinary_foul_says_the_consoles_word(tmp_path: Path) -> None:
    """Walk #45 M6: the referee's Disciplina "falta disciplinar" read "Indisciplina de …: falta
    técnica" in the súmula — another word for the same fact; in gaúcha it is a disciplinary foul
    punished as a technical foul (001 Art. XXIX f)."""
    g = kicked_off(tmp_path / "g.sqlite", "gaucha", clock=30_000)
    g.put("discipline", {"side": "B", "type": "disciplinary"})
    record = MatchLibrary(g.store).match_record(g.book.id)
    assert [line(f) for f in record["account"] if f["kind"] == "discipline"] == [
        "1º tempo 1' — Falta disciplinar de Botafogo da Mesa: punida com falta técnica"]


def test_the_referees_start_of_the_2nd_half_is_placed_in_the_interval(tmp_path: Path) -> None:
    """Issue 45 (walk, low): "Árbitro autoriza o início do período" after the 1st half was
    stamped "1º tempo 02:00"; it is made in the interval."""
    t = a_match(tmp_path / "m.sqlite")
    start = t.put("start_period")
    live = live_log_view(t.book.live_log, None, "0", "pt")
    assert next(e for e in live["entries"] if e["id"] == start)["interval"]
    record = MatchLibrary(t.store).match_record(t.book.id)
    assert next(e for e in record["entries"] if e["id"] == start)["interval"]
    first = next(e for e in record["entries"] if e["kind"] == "start_period")
    assert not first["interval"]


def test_a_correction_is_placed_when_it_was_made(tmp_path: Path) -> None:
    """Issue 45 (walk, sumula1-1.png): a void was stamped with its goal's time ("1º tempo 2'")
    and its undo with its own ("2º tempo 3'"); every correction is placed when it was made."""
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.kick_off_first()  # no shot from the kick-off (000 Art. 12 §5)
    t.put("shot_asked", {"side": "A", "disc": 9})
    goal = t.device("goal_line", {"goal": 1, "held_ms": 40})
    t.clock = 150_000
    void = t.put("void", {"target": goal, "reason": "a bola não entrou"})
    t.put("void", {"target": void, "reason": "revisto"})
    record = MatchLibrary(t.store).match_record(t.book.id)
    assert [(f["kind"], f["when"]) for f in record["account"]] == [
        ("goal", "1º tempo 2'"), ("void_goal", "1º tempo 3'"), ("undo", "1º tempo 3'")]
    assert [(f["kind"], f["when"]) for f in t.book.live_log.account()] == [
        ("goal", "1º tempo 2'"), ("void_goal", "1º tempo 3'"), ("undo", "1º tempo 3'")]


def test_a_foul_says_how_the_rules_graded_it(tmp_path: Path) -> None:
    """Issue 45 (walk, sumula3-1.png): pastilha's grading of a foul was missing."""
    g = kicked_off(tmp_path / "p.sqlite", "pastilha-8x2", clock=30_000)
    g.put("foul", {"side": "A", "disc": 4, "where": "own_half"})
    record = MatchLibrary(g.store).match_record(g.book.id)
    assert [f["text"] for f in record["account"] if f["kind"] == "discipline"] == [
        "Falta de Estrela do Norte, botão 4 no campo de quem sofreu a falta: Falta (cobrança "
        "indireta) para Botafogo da Mesa"]


def test_a_graded_disciplinary_foul_reads_in_its_one_shape_everywhere(tmp_path: Path) -> None:
    """Issue 45 (blind walk, medium 4): in pastilha-8x2 the referee grades a disciplinary foul
    (003 Art. 87) and the summaries read only "Falta disciplinar: Botafogo da Mesa, botão 3":
    the answer carries the foul in its one shape — who, count, disc, the grading's kick: the
    indirect one Art. 87 gives, never a bare "Tiro livre" (walk45g, G6, 53-pastilha-after-grade)."""
    g = kicked_off(tmp_path / "p.sqlite", "pastilha-8x2", clock=30_000)
    for disc in (3, 5):
        asked = g.put("discipline", {"side": "B", "type": "disciplinary", "disc": disc})
        assert [p["kind"] for p in g.book.state.m["pending"]] == ["discipline_grade"]
        g.put("confirm", {"target": asked, "choice": "free_kick"})
    meant = [f"1º tempo 1' — Falta disciplinar de Botafogo da Mesa ({n}ª), botão {d}: "
             "Falta (cobrança indireta) para Estrela do Norte" for n, d in ((1, 3), (2, 5))]
    record = MatchLibrary(g.store).match_record(g.book.id)
    assert [line(f) for f in record["account"] if f["kind"] == "discipline"] == meant
    # the console's Registro (the answer's row says it), the súmula, /assinar
    live = live_log_view(g.book.live_log, None, "0", "pt")
    assert [line(f) for f in account(live["entries"]) if f["kind"] == "discipline"] == meant
    shown = [x for e in live["entries"] for x in e.get("fact_lines") or []]
    assert [x for x in shown if x.startswith("Falta disciplinar")] == [
        m.split(" — ", 1)[1] for m in meant]
    discipline = build(record).table("discipline")
    assert discipline is not None and [r["what"] for r in discipline.rows] == [
        m.split(" — ", 1)[1] for m in meant]
    signing = signing_view(record, "http://h/verificar/1")
    assert [x for x in signing["summary"] if "Falta disciplinar" in x] == meant
    # graded as a disqualification: the foul and the sanction in one sentence
    asked = g.put("discipline", {"side": "B", "type": "disciplinary", "disc": 7})
    g.put("confirm", {"target": asked, "choice": "disqualify"})
    record = MatchLibrary(g.store).match_record(g.book.id)
    last = [f["text"] for f in record["account"] if f["kind"] == "discipline"][-1]
    assert last.startswith("Falta disciplinar de Botafogo da Mesa"), last
    assert "botão 7" in last and "desclassificad" in last, last


def a_shootout(path: Path) -> Table:
    """mesa-posta (004 Disputa de pênaltis): a draw at the end of the 2nd half goes to
    penalties, in any competition; the shoot-out ends 3 × 0."""
    t = Table(path, "mesa-posta")
    t.put("set_up", {"kickoff": "A"})
    for period, side in ((1, "A"), (2, "B")):
        t.start_half(period)
        t.clock = HALF
        t.device("alarm")  # time is up: the half ends at the next dead ball
        t.put("foul", {"side": side})
        t.device("alarm")  # the device's alarm as it closes the half
        t.device("period_over")
    assert t.book.state.m["phase"] == "shootout"
    for disc in (1, 2, 3):
        t.put("shootout_kick", {"side": "A", "disc": disc, "scored": True})
        t.put("shootout_kick", {"side": "B", "disc": disc, "scored": False})
    assert t.book.state.m["finished"]
    return t


def test_a_shootout_is_placed_in_the_shootout_and_its_score_said(tmp_path: Path) -> None:
    """Issue 45 (walk, H1/H6, 144-mp-final-tv, sumula-mp-2): the shoot-out's entries were
    placed "Intervalo", the device's alarm closing the 2nd half read "fim do intervalo", a
    miss read "errou a bola", and the Resumo said "vitória de …" without the shoot-out."""
    t = a_shootout(tmp_path / "m.sqlite")
    record = MatchLibrary(t.store).match_record(t.book.id)
    kicks = [e for e in record["entries"] if e["kind"] == "shootout_kick"]
    assert kicks and not any(e["interval"] for e in kicks) and all(e["shootout"] for e in kicks)
    alarms = [e["text"] for e in record["entries"] if e["kind"] == "alarm"]
    assert not any("intervalo" in a for a in alarms), alarms
    missed = [e["text"] for e in kicks if e["data"].get("scored") is False]
    assert missed and not any("errou a bola" in x for x in missed), missed
    end = [line(f) for f in record["account"] if f["kind"] == "time"][-1]
    assert end == ("Disputa de pênaltis — Empate 0 × 0; pênaltis 3 × 0: vitória de "
                   "Estrela do Norte"), end
    live = live_log_view(t.book.live_log, None, "0", "pt")
    assert [line(f) for f in account(live["entries"])] == [line(f) for f in record["account"]]
    rows = build(record).table("log")
    assert rows is not None
    numbers = {str(e["id"]) for e in kicks}
    assert {(r["period"], r["clock"]) for r in rows.rows if r["number"] in numbers} == {
        ("Disputa de pênaltis", "")}, rows.rows


def test_a_correction_after_the_shootout_is_placed_after_the_match(tmp_path: Path) -> None:
    """Issue 45 #1: once the shoot-out decided the match, a correction made then still read
    "Disputa de pênaltis" as if it were a kick; made after the final whistle, it is placed
    "Depois do jogo" (Registro, súmula Resumo and event log), as after any final whistle."""
    t = a_shootout(tmp_path / "m.sqlite")
    foul = [e.id for e in t.store.entries(t.book.id) if e.kind == "foul"][-1]
    amend = t.put("amend", {"target": foul, "data": {"side": "B", "disc": 7},
                            "reason": "era o botão 7"})
    assert t.book.state.m["finished"]
    live = live_log_view(t.book.live_log, None, "0", "pt")
    record = MatchLibrary(t.store).match_record(t.book.id)
    for entries in (live["entries"], record["entries"]):
        row = next(e for e in entries if e["id"] == amend)
        assert (row["after_match"], row["shootout"]) == (True, False), row
        last_kick = [e for e in entries if e["kind"] == "shootout_kick"][-1]
        assert last_kick["shootout"] and not last_kick["after_match"], last_kick
    for facts in (record["account"], account(live["entries"])):
        assert [(f["kind"], f["when"]) for f in facts][-2:] == [
            ("time", "Disputa de pênaltis"), ("correction", "Depois do jogo")], facts
    rows = build(record).table("log")
    assert rows is not None
    assert next(r["period"] for r in rows.rows if r["number"] == str(
        next(e["no"] for e in record["entries"] if e["id"] == amend))) == "Depois do jogo"


def test_a_void_after_the_final_whistle_leaves_the_match_finished(tmp_path: Path) -> None:
    """Issue 45 (walk 028–030, H4/M8): voiding a goal the referee had confirmed through "A
    confirmar" after the final whistle sent the match back to "Intervalo" and asked the old
    question again; the void was dated "Intervalo" in Registro, "2º tempo" in the súmula. The
    match stays finished with the result recomputed, the void dated one way everywhere."""
    t = Table(tmp_path / "m.sqlite")
    t.put("set_up", {"kickoff": "A"})
    for half in (1, 2):
        t.start_half(half)
        if half == 2:
            t.clock = 60_000
            t.kick_off_first("B")  # a goal straight from it offers no shot (walk52a M3)
            t.put("touch", {"side": "B", "disc": 9})
            ball_in = t.device("goal_line", {"goal": 1, "held_ms": 40})  # no shot asked
            asked = t.put("confirm", {"target": ball_in, "choice": "shot_asked"})
            assert t.book.state.m["score"] == {"A": 0, "B": 1}
        t.clock = HALF
        t.device("alarm")
        if t.book.state.m["status"] == "last_lance":
            t.put("lance_done")
        t.device("period_over")
    assert t.book.state.m["status"] == "finished"
    void = t.put("void", {"target": asked, "reason": "o chute não foi pedido"})
    m = t.book.state.m
    assert (m["status"], m["score"], m["pending"]) == ("finished", {"A": 0, "B": 0}, [])
    assert m["result"]["winner"] is None
    live = live_log_view(t.book.live_log, None, "0", "pt")
    record = MatchLibrary(t.store).match_record(t.book.id)
    placed = [next(e for e in view["entries"] if e["id"] == void)
              for view in (live, record)]
    assert [(e["interval"], e["period"]) for e in placed] == [(False, 2), (False, 2)]
    # walk45j-a 7 (sumula1-1.png): dated "2º tempo 2'" after "Fim de jogo", it read as play in
    # the 2nd half; a correction after the final whistle is placed "Depois do jogo" everywhere
    assert [e["after_match"] for e in placed] == [True, True], placed
    for facts in (record["account"], t.book.live_log.account()):
        after = [(f["kind"], f["when"], f["when_en"]) for f in facts][-2:]
        assert after[0][1] == "2º tempo", after  # the end of the match: its last period's
        assert after[-1][1:] == ("Depois do jogo", "After the match"), after
    closing = [e for e in record["entries"] if e["kind"] in ("alarm", "period_over")][-2:]
    assert not any(e["after_match"] for e in closing), closing


def test_a_lance_overrun_foul_is_a_foul_row_never_folded_as_time(tmp_path: Path) -> None:
    """Issue 45 walk H2 (083-gau-lance-q, sumula-gau-1): gaúcha's expiry that is the technical
    foul itself (001 Art. XXIX e) was folded under "Mostrar o tempo de lance" with no
    Anular/Corrigir, while it counted on the TV and filled the súmula. A foul is a foul row:
    shown, correctable, in the súmula's event log; the lance timer's own rows stay folded."""
    g = kicked_off(tmp_path / "g.sqlite", "gaucha", clock=30_000)
    started = g.device("lance_started", {"side": "A"})
    warned = g.device("lance_expired", {"side": "A", "warning": True})
    foul = g.device("lance_expired", {"side": "A", "count": 1})  # the foul itself
    live = live_log_view(g.book.live_log, None, "0", "pt")
    rows = {e["id"]: e for e in live["entries"]}
    assert not rows[foul]["folded"] and rows[foul]["correctable"], rows[foul]
    assert [f["key"] for f in rows[foul]["fields"]] == ["side"]  # Corrigir: whose foul it was
    assert rows[foul]["fact_lines"][0].startswith("Falta técnica de Estrela do Norte"), \
        rows[foul]["fact_lines"]
    for timer in (started, warned):
        assert rows[timer]["folded"] and not rows[timer]["correctable"]
    record = MatchLibrary(g.store).match_record(g.book.id)
    entries = {e["id"]: e for e in record["entries"]}
    assert not entries[foul]["folded"] and entries[warned]["folded"]
    # voided, the foul's row stays in sight, struck, with its void
    g.put("void", {"target": foul, "reason": "o lance já tinha sido jogado"})
    live = live_log_view(g.book.live_log, None, "0", "pt")
    rows = {e["id"]: e for e in live["entries"]}
    assert not rows[foul]["folded"] and rows[foul]["voided"], rows[foul]


def test_the_interval_alarm_after_the_last_lance_and_a_void_ends_the_interval(
        tmp_path: Path) -> None:
    """Issue 45 (walk45g, G1, 60-after-void-interval.png): pastilha's table closed the 1st half
    before the last lance was played (Art. 74 §único), the rules' end of the half came with
    the last shot, a goal was voided in the interval; the interval's end alarm then read
    "Alarme: tempo esgotado". What an alarm ends is where the table's clock is: after the
    table's close of a half, before the next, it ends the interval, however the rules' end of
    the half and the corrections fall."""
    t = kicked_off(tmp_path / "m.sqlite", "pastilha-8x2", clock=20_000)
    t.put("shot_asked", {"side": "B", "disc": 7, "ball": "opponent_half"})
    goal = t.device("goal_line", {"goal": 0, "held_ms": 40})
    t.put("foul", {"side": "A", "disc": 4, "type": "falta", "where": "opponent_half"})
    t.clock = HALF
    t.device("alarm", {"pattern": 2})
    t.device("period_over")
    t.device("clock_stopped", {"reason": 2})
    assert t.book.state.m["status"] == "last_lance", t.book.state.m["status"]
    t.put("shot_asked", {"side": "B", "disc": 11, "ball": "opponent_half"})
    t.put("shot_result", {"outcome": "wide"})  # the last lance: the rules end the half
    t.put("void", {"target": goal, "reason": "bola entrou por baixo da rede"})
    end = t.device("alarm", {"pattern": 1})
    live = live_log_view(t.book.live_log, None, "0", "pt")
    record = MatchLibrary(t.store).match_record(t.book.id)
    for entries in (live["entries"], record["entries"]):
        alarms = [(e["id"] == end, e["text"]) for e in entries if e["kind"] == "alarm"]
        assert alarms == [(False, "Alarme: tempo esgotado"),
                          (True, "Alarme: fim do intervalo")], alarms
        assert next(e for e in entries if e["id"] == end)["interval"]
        shot = [e for e in entries if e["kind"] == "shot_result"]
        assert shot and not shot[0]["interval"]  # the last lance is the half's


def test_an_own_goal_says_whose_it_was(tmp_path: Path) -> None:
    """Issue 45 (walk45g, G10, sumula3.txt, 76-gol-contra.png): "Gol contra, ponto para
    Botafogo" never said which team put the ball in its own goal; the TV did ("gol contra de
    Alvorada"). The account — Registro, súmula, /assinar — says both, as the TV does."""
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    goal = t.device("goal_line", {"goal": 0, "held_ms": 40})  # into A's goal, no shot asked
    asked = [p for p in t.book.state.m["pending"] if p["kind"] == "goal_no_shot"]
    assert asked, t.book.state.m["pending"]
    t.put("confirm", {"target": asked[0]["id"], "choice": "own_goal"})
    meant = ("Gol contra de Estrela do Norte, ponto para Botafogo da Mesa (0 × 1, 2')")
    record = MatchLibrary(t.store).match_record(t.book.id)
    goals = [f["text"] for f in record["account"] if f["kind"] == "goal"]
    assert goals == [meant], goals
    live = live_log_view(t.book.live_log, None, "0", "pt")
    assert [f["text"] for f in account(live["entries"]) if f["kind"] == "goal"] == [meant]
    table = build(record).table("goals")
    assert table is not None and [r["what"] for r in table.rows] == [meant], table.rows
    # the Gols table's team column: the point's team and whose own goal (walk 47a L2: it read
    # "Botafogo da Mesa (gol contra)", as if Botafogo had put it in its own goal)
    assert [r["team"] for r in table.rows] == [
        "Botafogo da Mesa (gol contra de Estrela do Norte)"], table.rows
    assert goal


def test_a_shot_without_a_goal_is_said_once(tmp_path: Path) -> None:
    """Issue 45 (walk45g, low, sumula2.txt): "Chute sem gol: defendido — Chute de Alvorada:
    defendido": the rules' words restated the entry on its own row (Registro, súmula); since
    walk45i-a M5 the row is the rules' words, which name the shooter and its disc."""
    t = kicked_off(tmp_path / "m.sqlite", clock=30_000)
    t.kick_off_first()  # no shot from the kick-off (000 Art. 12 §5)
    t.put("shot_asked", {"side": "A", "disc": 9})
    shot = t.put("shot_result", {"outcome": "saved"})
    record = MatchLibrary(t.store).match_record(t.book.id)
    live = live_log_view(t.book.live_log, None, "0", "pt")
    for entries in (record["entries"], live["entries"]):
        row = next(e for e in entries if e["id"] == shot)
        assert row["text"] == "Chute de Estrela do Norte, botão 9: defendido"
        assert not [m for m in row["meaning"] if m.startswith("Chute de")], row["meaning"]
    rows = build(record).table("log")
    assert rows is not None
    said = [r for r in rows.rows if r["number"] == str(shot)]
    assert said and str(said[0]).count("Chute de") == 1, said


def test_a_restart_entered_is_said_once(tmp_path: Path) -> None:
    """Issue 45 (walk45g, low, 74-gaucha-registro.png): "Reinício: bola do goleiro para
    Alvorada — Bola do goleiro para Alvorada": the restart's announcement restated its row."""
    t = kicked_off(tmp_path / "m.sqlite", "gaucha", clock=30_000)
    entry = t.put("restart", {"kind": "lateral", "side": "B"})
    record = MatchLibrary(t.store).match_record(t.book.id)
    row = next(e for e in record["entries"] if e["id"] == entry)
    assert row["text"].startswith("Reinício: lateral para Botafogo da Mesa"), row["text"]
    assert not [m for m in row["meaning"] if m.startswith("Lateral para")], row["meaning"]


def test_a_goal_kick_with_its_arrangement_is_said_once(tmp_path: Path) -> None:
    """Walk 49b L2: the ball-out answer read "… último toque de Botafogo — Tiro de meta para
    Alvorada (… Art. 13); Arrumação das equipes; tiro de meta para Alvorada (… Art. 13)" in the
    súmula's event log: the goal kick and the arrangement for it, both cited to Art. 13."""
    t = kicked_off(tmp_path / "m.sqlite", clock=30_000)
    for side, disc in (("A", 10), ("A", 8), ("B", 5)):
        t.put("touch", {"side": side, "disc": disc})
    t.device("ball_out", {"line": "end", "end": 0, "zone": 3})
    asked = t.book.state.m["pending"][0]
    assert asked["kind"] == "ball_out_touch", asked
    answer = t.put("confirm", {"target": asked["id"], "choice": "B"})
    record = MatchLibrary(t.store).match_record(t.book.id)
    row = next(e for e in record["entries"] if e["id"] == answer)
    assert row["meaning"] == ["Arrumação das equipes; tiro de meta para Estrela do Norte "
                              "(CBFM 1 Toque, Art. 13)"], row["meaning"]
    assert row["meaning_en"] == ["Teams re-arrange for Estrela do Norte's goal kick "
                                 "(CBFM 1 Toque, Art. 13)"], row["meaning_en"]
    log = build(record).table("log")
    assert log is not None
    what = next(r["what"] for r in log.rows if r["number"] == str(answer))
    assert what.lower().count("tiro de meta") == 1, what


def test_a_void_of_a_fact_the_account_does_not_list_is_not_listed(tmp_path: Path) -> None:
    """Issue 45 (blind walk, kick-off): the answer to "Quem dá a saída?" voided from the
    Registro — the Resumo listed "Anula «…: saída para …»", the annulment of a fact it never
    showed. Either both or neither: an answer the account does not list, its void and that
    void's undo are not listed; a goal, its void and the undo still are."""
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.kick_off_first()  # no shot from the kick-off (000 Art. 12 §5)
    t.put("shot_asked", {"side": "A", "disc": 9})
    goal = t.device("goal_line", {"goal": 1, "held_ms": 40})
    asked = [p for p in t.book.state.m["pending"] if p["kind"] == "kickoff_side"]
    assert asked, t.book.state.m["pending"]
    answer = t.put("confirm", {"target": asked[0]["id"], "choice": "A"})
    void = t.put("void", {"target": answer, "reason": "engano"})
    t.put("void", {"target": void, "reason": "era isso mesmo"})
    t.put("void", {"target": goal, "reason": "a bola não entrou"})
    meant = [("void_goal", "Gol de Estrela do Norte (1 × 0, 2', botão 9) anulado pelo "
                           "árbitro: a bola não entrou")]
    record = MatchLibrary(t.store).match_record(t.book.id)
    assert [(f["kind"], f["text"]) for f in record["account"]] == meant, record["account"]
    assert [(f["kind"], f["text"]) for f in t.book.live_log.account()] == meant
    # the súmula's Correções still lists every correction, as the Registro does
    corrections = build(record).table("corrections")
    assert corrections is not None and len(corrections.rows) == 3, corrections.rows


def test_a_voided_lance_foul_answer_stays_listed_struck_with_its_void(tmp_path: Path) -> None:
    """The other half of "both or neither": the foul answered to the lance timer's question,
    its answer voided, stays in the account struck beside its void (as a foul row does),
    never the void alone."""
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    t.put("touch", {"side": "A", "disc": 5})
    t.put("touch", {"side": "A", "disc": 6})
    t.device("lance_started", {"side": "B"})
    t.device("lance_expired", {"side": "B", "warning": True})
    t.device("lance_expired", {"side": "B", "count": 1})
    asked = t.device("lance_expired", {"side": "B", "count": 2})
    answer = t.put("confirm", {"target": asked, "choice": "foul"})
    t.put("void", {"target": answer, "reason": "engano"})
    record = MatchLibrary(t.store).match_record(t.book.id)
    for facts in (record["account"], t.book.live_log.account()):
        assert [(f["kind"], f["struck"]) for f in facts] == [
            ("discipline", True), ("correction", False)], facts
        assert facts[0]["text"] == ("Falta disciplinar de Botafogo da Mesa (1ª): passou do "
                                    "tempo do lance")


def test_a_foul_after_time_up_says_on_its_line_that_it_was_not_taken(tmp_path: Path) -> None:
    """Walk46b M4 (12-penalti, 41-assinar, sumula1-1): in the mesa-posta, time up with the ball
    in play, a foul in the box ends the half and is not taken (004 A partida, scenario
    mesa-posta/37) — the Resumo, "Faltas e disciplina" and /assinar read only "Falta de
    Botafogo, botão 5 na área", a penalty for a captain. Every view says what became of it on
    the foul's own line."""
    t = kicked_off(tmp_path / "m.sqlite", "mesa-posta", clock=20_000)
    t.put("touch", {"side": "A", "disc": 9})
    t.clock = HALF
    t.device("time_up")
    foul = t.put("foul", {"side": "B", "disc": 5, "type": "falta", "where": "box"})
    # walk49a M4: the engine counts no foul once time is up (003 Art. 74 §único e: "não haverá
    # falta com o relógio parado"; 004 A partida: the half ends on it) — the TV's counter stays
    # 0; the line says it is not counted, so the Resumo's fouls still add up to the TV's
    assert t.book.state.m["fouls"]["B"]["fouls"] == 0
    said = ("Falta de Botafogo da Mesa, botão 5 na área — não contada, sem cobrança: "
            "tempo esgotado")
    meant = [f"1º tempo 3' — {said}"]
    record = MatchLibrary(t.store).match_record(t.book.id)
    assert [line(f) for f in record["account"] if f["kind"] == "discipline"] == meant
    # the console's Registro: the foul's own row says it
    live = live_log_view(t.book.live_log, None, "0", "pt")
    row = next(e for e in live["entries"] if e["id"] == foul)
    assert said in [row["text"], *row.get("fact_lines", [])], row
    assert [line(f) for f in account(live["entries"]) if f["kind"] == "discipline"] == meant
    # the súmula's Resumo and Faltas e disciplina, /assinar, /history
    s = build(record)
    resumo, discipline = s.table("account"), s.table("discipline")
    assert resumo is not None and said in [r["what"] for r in resumo.rows]
    assert discipline is not None and [r["what"] for r in discipline.rows] == [said]
    assert [x for x in signing_view(record, "http://h/verificar/1")["summary"]
            if "Falta de" in x] == meant
    rows_h = history_rows(MatchLibrary(t.store).list_matches())
    assert [f["line"] for f in rows_h[0]["facts"] if "Falta de" in f["line"]] == meant


def test_a_table_restart_and_the_time_it_did_not_count_are_in_the_account(tmp_path: Path) -> None:
    """Walk 47a H1: the table lost power in the 2nd half and came back with its clock restored;
    36 s it did not count were offered and not added — and the súmula's Resumo, /assinar and
    /history never said it: the captains signed a half 36 s short. The host logs the restore
    (``clock_restored``) and the account says it, with what the referee decided."""
    t = kicked_off(tmp_path / "m.sqlite", clock=22_000)
    t.put("clock_restored", {"lost_ms": 36_000}, "system")
    meant = "1º tempo 1' — Mesa reiniciada: relógio restaurado em 00:22; 00:36 não contados"
    record = MatchLibrary(t.store).match_record(t.book.id)
    unanswered = meant + " — relógio mantido como restaurado, sem resposta do árbitro"
    assert [line(f) for f in record["account"] if f["kind"] == "restart"] == [unanswered]
    signing = signing_view(record, "http://h/verificar/1")
    assert unanswered in signing["summary"], signing["summary"]
    rows_h = history_rows(MatchLibrary(t.store).list_matches())
    assert unanswered in [f["line"] for f in rows_h[0]["facts"]]
    t.put("clock_catch_up", {"ms": 36_000})  # "O jogo continuou?" — Sim
    live = live_log_view(t.book.live_log, None, "0", "pt")
    assert [line(f) for f in account(live["entries"]) if f["kind"] == "restart"] == [
        meant + " — relógio adiantado 00:36 pelo árbitro"]


def restored_from_log(path: Path) -> Table:
    """Walk 49a: «A mesa está posta» at 01:32, the table back blank from a power cut: the host
    logs the restore (00:27.6 not counted, offered as 00:28), then the table sets itself up
    again (its profile, an entry of no period) and is set to 01:32, running."""
    t = kicked_off(path, "mesa-posta", clock=92_413)
    t.put("clock_restored", {"lost_ms": 27_587}, "system")
    t.period, t.clock = 0, 0
    t.device("profile_set", {"period_ms": HALF})
    t.period, t.clock = 1, 92_413
    t.device("clock_adjusted", {"delta_ms": 92_413, "to_ms": 92_413})
    t.device("clock_started", {"reason": 1})
    return t


def test_the_tables_rows_of_no_period_read_no_clock_after_a_power_cut(tmp_path: Path) -> None:
    """Walk50b L3: after a power cut the table's own rows made before its clock was restored
    («Mesa configurada: períodos de …», of no period) read Relógio 00:00 between the half's
    rows at 01:32 in the súmula's «Registro de eventos» and in the console's Registro — a
    reader took it for a clock reset. They read no clock (—), as nothing says the time then."""
    t = restored_from_log(tmp_path / "m.sqlite")
    profile = next(e.id for e in t.store.entries(t.book.id) if e.kind == "profile_set")
    record = MatchLibrary(t.store).match_record(t.book.id)
    rows = {r["number"]: r for r in build(record).table("log").rows}  # type: ignore[union-attr]
    row = rows[str(next(e["no"] for e in record["entries"] if e["id"] == profile))]
    assert row["what"].startswith("Mesa configurada") and row["clock"] == "—", row
    assert row["period"] == ""
    live = live_log_view(t.book.live_log, None, "0", "pt")
    for entries in (record["entries"], live["entries"]):  # what the console's Registro reads
        mine = next(e for e in entries if e["id"] == profile)
        assert mine["no_clock"] is True, mine
        assert not any(e["no_clock"] for e in entries if e["kind"] == "clock_adjusted")


def restart_lines(t: Table) -> list[list[str]]:
    """The restart's line in the súmula's Resumo, on /assinar and on /history."""
    record = MatchLibrary(t.store).match_record(t.book.id)
    signing = signing_view(record, "http://h/verificar/1")["summary"]
    rows_h = history_rows(MatchLibrary(t.store).list_matches())
    return [[line(f) for f in record["account"] if f["kind"] == "restart"],
            [x for x in signing if "Mesa reiniciada" in x],
            [f["line"] for f in rows_h[0]["facts"] if "Mesa reiniciada" in f["line"]]]


def test_the_restart_line_follows_the_referees_answer_after_the_table_set_itself_up(
        tmp_path: Path) -> None:
    """Walk 49a H1: the referee tapped «Sim: adiantar o relógio 00:28»; the TV and the Registro
    said the clock was advanced, but the Resumo (súmula, /assinar, /history) read «00:27 não
    contados — relógio mantido como restaurado»: the table's own set-up entry (of no period)
    between the restore and the answer hid the answer. The line says the question's 00:28 and
    the referee's answer; «Não» keeps the clock as restored, said apart from no answer
    (walk50b M2: «Não» stored nothing, the súmula could not tell them apart)."""
    meant = "1º tempo 2' — Mesa reiniciada: relógio restaurado em 01:32; 00:28 não contados"
    t = restored_from_log(tmp_path / "none.sqlite")  # no answer
    t.clock = 105_630
    t.put("touch", {"side": "A", "disc": None})
    assert restart_lines(t) == [[
        meant + " — relógio mantido como restaurado, sem resposta do árbitro"]] * 3
    t = restored_from_log(tmp_path / "no.sqlite")
    t.clock = 105_630
    t.put("clock_kept", {"ms": 28_000})  # "Não: a bola parou"
    t.put("touch", {"side": "A", "disc": None})
    assert restart_lines(t) == [[meant + " — relógio mantido como restaurado pelo árbitro"]] * 3
    t = restored_from_log(tmp_path / "yes.sqlite")
    t.clock = 105_630
    t.put("clock_catch_up", {"ms": 28_000})  # "A bola continuou rolando?" — Sim
    t.clock = 133_641
    confirmed = t.device("clock_adjusted", {"delta_ms": 28_000, "to_ms": 133_641})
    assert restart_lines(t) == [[meant + " — relógio adiantado 00:28 pelo árbitro"]] * 3
    # the table's adjustment that carries out the answer is its confirmation, not a second
    # advance («Árbitro adianta o relógio 28 s», then «Relógio ajustado em +28 s»)
    record = MatchLibrary(t.store).match_record(t.book.id)
    live = live_log_view(t.book.live_log, None, "0", "pt")
    for rows in (record["entries"], live["entries"]):
        row = next(e for e in rows if e["id"] == confirmed)
        assert row["text"] == "A mesa confirma: relógio agora em 02:13", row["text"]


def test_a_penalty_goal_is_called_a_penalty_in_every_view(tmp_path: Path) -> None:
    """Walk 50a L4 (19, sumula1-1/2): a goal scored from the penalty read "Gol de Alvorada (2 × 1,
    1', botão 8)" in the Gols table, the Resumo, /assinar and /history; only the Registro's
    line said "Pênalti de Alvorada: gol". The rules mark the goal the penalty's kick scored
    (004 Pênaltis) and every view names it so."""
    t = kicked_off(tmp_path / "m.sqlite", "mesa-posta", clock=20_000)
    t.put("touch", {"side": "A", "disc": 5})
    t.put("foul", {"side": "B", "disc": 2, "type": "falta", "where": "box"})
    t.put("keeper_choice", {"side": "B", "choice": "right"})
    t.put("shot_asked", {"side": "A", "disc": 8, "ball": "opponent_half"})
    t.device("goal_line", {"goal": t.book.state.m["ends"]["B"], "held_ms": 40})
    assert [g.get("penalty") for g in t.book.state.m["goals"]] == [True]
    meant = ["1º tempo 1' — Gol de Estrela do Norte (1 × 0, 1', botão 8, pênalti)"]
    record = MatchLibrary(t.store).match_record(t.book.id)
    assert [line(f) for f in record["account"] if f["kind"] == "goal"] == meant
    live = live_log_view(t.book.live_log, None, "0", "pt")
    assert [line(f) for f in account(live["entries"]) if f["kind"] == "goal"] == meant
    goals = build(record).table("goals")
    assert goals is not None and [r["what"] for r in goals.rows] == [meant[0].split(" — ")[1]]
    assert [x for x in signing_view(record, "http://h/verificar/1")["summary"]
            if "Gol de" in x] == meant
    rows_h = history_rows(MatchLibrary(t.store).list_matches())
    assert [f["line"] for f in rows_h[0]["facts"] if "Gol de" in f["line"]] == meant
    # a goal of a shot that was no penalty's stays a plain goal
    t.put("touch", {"side": "B", "disc": 3})
    t.put("shot_asked", {"side": "B", "disc": 9, "ball": "opponent_half"})
    t.device("goal_line", {"goal": t.book.state.m["ends"]["A"], "held_ms": 40})
    assert [g.get("penalty") for g in t.book.state.m["goals"]] == [True, None]


def test_the_alarm_that_closes_a_half_at_its_dead_ball_is_the_halfs(tmp_path: Path) -> None:
    """Walk 50a L1 (sumula1-3.png, nº 46–48): in «A mesa está posta» time ran out at 02:00 with
    the ball in play; the ball out at 02:08 ended the half (004 A partida) and the table then
    sounded its end-of-half alarm, which read "Intervalo — Alarme: tempo esgotado", as if
    time ran out in the interval. The table's alarm, its close and its clock's stop that end
    the half the rules ended are the half's, and the alarm says it ends the half."""
    t = kicked_off(tmp_path / "m.sqlite", "mesa-posta", clock=20_000)
    t.put("touch", {"side": "A", "disc": 5})
    t.clock = 120_000
    t.device("time_up")
    t.clock = 128_541
    t.device("ball_out", {"zone": 1, "line": "side", "end": 0})
    assert t.book.state.m["status"] == "interval", t.book.state.m["status"]
    alarm = t.device("alarm", {"pattern": 2})
    close = t.device("period_over")
    stop = t.device("clock_stopped", {"reason": 2})
    sub = t.put("substitution", {"side": "A", "out": 5, "in": 12})
    end = t.device("alarm", {"pattern": 1})
    live = live_log_view(t.book.live_log, None, "0", "pt")
    record = MatchLibrary(t.store).match_record(t.book.id)
    for entries in (live["entries"], record["entries"]):
        rows = {e["id"]: e for e in entries}
        assert [(rows[i]["interval"], rows[i]["text"]) for i in (alarm, close, stop, sub, end)
                ] == [(False, "Alarme: fim do período"),
                      (False, "Relógio da mesa encerra o 1º tempo"),
                      (False, "Relógio parado: fim do período"),
                      (True, "Substituição em Estrela do Norte: sai o botão 5, entra o 12"),
                      (True, "Alarme: fim do intervalo")], [rows[i] for i in (alarm, stop)]
    log = build(record).table("log")
    assert log is not None
    when = {r["number"]: (r["period"], r["clock"]) for r in log.rows}
    assert when[str(alarm)] == ("1º tempo", "02:08") and when[str(sub)][0] == "Intervalo", when


def test_the_touch_that_takes_a_restart_says_the_restart_and_its_disc(tmp_path: Path) -> None:
    """Walk 50a L5 (04, sumula nº 6): «▶ Cobrança dada pelo nº 5» was answered and stored as
    "Toque de Alvorada, botão 5": nowhere did the record say the kick-off was taken, nor by
    whom. The touch the rules read as taking the restart says so; a touch after it stays one."""
    t = kicked_off(tmp_path / "m.sqlite", "mesa-posta")
    kick = t.put("touch", {"side": "A", "disc": 5})
    touch = t.put("touch", {"side": "A", "disc": 7})
    meant = {kick: "Saída de jogo para Estrela do Norte: cobrança dada pelo botão 5",
             touch: "Toque de Estrela do Norte, botão 7"}
    live = live_log_view(t.book.live_log, None, "0", "pt")
    record = MatchLibrary(t.store).match_record(t.book.id)
    for entries in (live["entries"], record["entries"]):
        assert {e["id"]: e["text"] for e in entries if e["id"] in meant} == meant
    log = build(record).table("log")
    assert log is not None
    numbers = {e["id"]: str(e["no"]) for e in record["entries"]}
    assert [r["what"] for r in log.rows if r["number"] == numbers[kick]] == [meant[kick]]


def test_minutes_in_added_time_read_past_the_halfs_length(tmp_path: Path) -> None:
    """Walk52b L1 (sumula1-1.png): with 2 minutes added to a 3-minute half, events at 02:14,
    04:05 and 05:00 all read "3'": the minutes were capped at the half's length. A minute
    inside the half keeps the referee's count (02:14 is the 3rd minute, the alarm's 03:00 the
    3rd); past the length it is the minute of added time, "3'+1", "3'+2", on every view."""
    t = kicked_off(tmp_path / "m.sqlite", clock=134_000)
    t.put("discipline", {"side": "A", "type": "disciplinary", "disc": 3})
    t.put("added_time", {"ms": 120_000})
    t.clock = 185_000
    t.put("discipline", {"side": "B", "type": "disciplinary", "disc": 4})
    t.clock = 245_000
    t.put("discipline", {"side": "A", "type": "disciplinary", "disc": 5})
    t.clock = 300_000
    t.put("discipline", {"side": "B", "type": "disciplinary", "disc": 6})
    record = MatchLibrary(t.store).match_record(t.book.id)
    for facts in (record["account"], t.book.live_log.account()):
        assert [f["when"] for f in facts] == [
            "1º tempo 3'", "1º tempo 3'", "1º tempo 3'+1", "1º tempo 3'+2", "1º tempo 3'+2"]
        assert [f["when_en"] for f in facts][2] == "1st half 3'+1"


def test_a_goal_in_added_time_says_its_minute_past_the_length(tmp_path: Path) -> None:
    """Walk52b L1: the goal's own words carry the same minute as its place."""
    t = kicked_off(tmp_path / "m.sqlite", clock=HALF - 10_000)
    t.put("added_time", {"ms": 120_000})
    t.kick_off_first()
    t.clock = HALF + 65_000
    t.put("shot_asked", {"side": "A", "disc": 9})
    t.device("goal_line", {"goal": 1, "held_ms": 40})
    record = MatchLibrary(t.store).match_record(t.book.id)
    assert [line(f) for f in record["account"] if f["kind"] == "goal"] == [
        "1º tempo 3'+2 — Gol de Estrela do Norte (1 × 0, 3'+2, botão 9)"]


def test_an_answer_in_the_interval_is_placed_at_the_lance_it_decides(tmp_path: Path) -> None:
    """Walk52b L2 (sumula1-1/2.png): the question «Tempo do lance de Estrela do Norte esgotado
    (1º tempo 3')» answered 10 s into the interval listed «Intervalo — Falta disciplinar de
    Estrela do Norte (1ª)» in the Resumo and in «Faltas e disciplina». An answer is dated at
    the moment of the event it decides: 1º tempo 3'."""
    t = kicked_off(tmp_path / "m.sqlite", clock=HALF - 20_000)
    t.kick_off_first()
    t.device("lance_started", {"side": "A"})
    t.device("lance_expired", {"side": "A", "warning": True})
    t.device("lance_expired", {"side": "A", "count": 1})
    asked = t.device("lance_expired", {"side": "A", "count": 2})
    assert [p["kind"] for p in t.book.state.m["pending"]] == ["lance_timeout"]
    t.clock = HALF
    t.device("alarm")
    if t.book.state.m["status"] == "last_lance":
        t.put("lance_done")
    t.device("period_over")
    t.clock = HALF + 10_000
    t.put("confirm", {"target": asked, "choice": "foul"})
    t.put("substitution", {"side": "B", "out": 5, "in": 12})
    record = MatchLibrary(t.store).match_record(t.book.id)
    meant = ["1º tempo 3' — Falta disciplinar de Estrela do Norte (1ª): passou do tempo do lance",
             "Intervalo — Substituição em Botafogo da Mesa: sai o botão 5, entra o 12"]
    for facts in (record["account"], t.book.live_log.account()):
        assert [line(f) for f in facts if f["kind"] != "time"] == meant
    discipline = build(record).table("discipline")
    assert discipline is not None
    assert [r["when"] for r in discipline.rows] == ["1º tempo 3'"]
