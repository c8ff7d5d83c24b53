"""``futmesa competition verify`` on real SQLite files, without a network: a table's log (an
event log with its hash chain), the outbox's result, the desk storing it; then each way the
desk's result and the table's file can disagree gives a "não confere" line naming why, and
exit status 1. An older desk file (before results carried their proof) opens and gets the
column."""

from __future__ import annotations

import base64
import io
import sqlite3
from pathlib import Path

from click.testing import CliRunner
from PIL import Image

from futmesa.cli import cli
from futmesa.competition.db import CompetitionDB
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv
from futmesa.store import EventLog
from futmesa.venue.desk import Desk
from futmesa.venue.mqtt import Broker
from futmesa.venue.outbox import Outbox

TEAMS = "name,color\nAlfa,#ff0000\nBeta,#00ff00\n"


def png() -> str:
    out = io.BytesIO()
    Image.new("1", (60, 20), 1).save(out, "PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


class Day:
    """A desk file with one competition match given to mesa-1, and mesa-1's log."""

    def __init__(self, tmp_path: Path) -> None:
        self.desk_db = tmp_path / "desk.sqlite"
        self.comp = CompetitionDB(self.desk_db)
        self.comp.import_teams(read_teams_csv(TEAMS))
        cid = self.comp.create(parse_settings({"format": "league", "ruleset": "pastilha-8x2"}))
        self.cm = self.comp.matches(cid)[0]["id"]
        self.comp.set_assigned(self.cm, "mesa-1")
        self.table_db = tmp_path / "mesa-1.sqlite"
        self.log = EventLog(self.table_db)
        self.outbox = Outbox(self.log)
        self.desk = Desk(str(self.desk_db), Broker("127.0.0.1", 1), "unused")  # not started
        # Alfa wins by a disqualification of Beta (003 Art. 83 §3): 2 × 0, no clock needed
        self.mid = self.log.new_match("mesa-1", "pastilha-8x2", {"competition_match": self.cm})
        self.log.append_entry(self.mid, "referee", "discipline",
                              {"side": "B", "type": "disqualify"}, 1, 1000, "árbitro")
        self.log.end_match(self.mid)

    def sign(self) -> int:
        return self.log.append_entry(self.mid, "referee", "signature", {
            "role": "referee", "name": "Rui", "signs": self.log.chain_head(self.mid),
            "image": png()}, 2, 0, "Rui")

    def send(self) -> None:
        """The table's outbox to the desk, as the venue carries it."""
        self.outbox.scan("mesa-1")
        self.outbox.recheck("mesa-1")
        for body in self.outbox.pending("mesa-1"):
            self.desk.receive_result("mesa-1", body)
        self.outbox.acknowledge("mesa-1", self.desk.acked("mesa-1"))

    def verify(self, *tables: Path) -> tuple[int, str]:
        args = ["competition", "verify", "--db", str(self.desk_db)]
        for t in tables:
            args += ["--tables", str(t)]
        r = CliRunner().invoke(cli, args)
        return r.exit_code, r.output

    def desk_sql(self, sql: str, *args: object) -> None:
        db = sqlite3.connect(self.desk_db)
        db.execute(sql, args)
        db.commit()
        db.close()


def test_verify_confirms_a_signed_result_and_names_each_disagreement(tmp_path: Path) -> None:
    day = Day(tmp_path)
    day.send()
    code, out = day.verify(day.table_db)
    assert code == 0 and f"partida {day.cm} (Alfa × Beta 2 × 0; mesa mesa-1, partida " \
        f"{day.mid} da mesa): sem assinatura — o banco confirma" in out, out
    schedule = CliRunner().invoke(cli, ["competition", "schedule", "--db", str(day.desk_db)])
    assert "[encerrada]  (sem assinatura)" in schedule.output, schedule.output
    entry = day.sign()
    day.send()
    [stored] = [m for m in day.comp.matches(1) if m["id"] == day.cm]
    assert stored["result"]["proof"]["signature"]["entry"] == entry
    code, out = day.verify(day.table_db)
    assert code == 0 and ": confirmada — hash final" in out and "assinada por Rui" in out, out
    schedule = CliRunner().invoke(cli, ["competition", "schedule", "--db", str(day.desk_db)])
    short = stored["result"]["proof"]["final_hash"][:12]
    assert f"[encerrada]  (assinada (Rui) · {short})" in schedule.output, schedule.output

    # the desk holds another score than the table's log gives
    day.desk_sql("UPDATE comp_results SET score_a=5 WHERE match_id=?", day.cm)
    code, out = day.verify(day.table_db)
    assert code == 1 and "não confere — o placar recebido (5 × 0) não é o da súmula da mesa " \
        "(2 × 0)" in out, out
    day.desk_sql("UPDATE comp_results SET score_a=2 WHERE match_id=?", day.cm)
    assert day.verify(day.table_db)[0] == 0

    # the desk's final hash is none of the table's
    proof = day.comp.match(day.cm)["result"]["proof"]
    day.desk_sql("UPDATE comp_results SET proof=json_set(proof, '$.final_hash', ?)"
                 " WHERE match_id=?", "0" * 64, day.cm)
    code, out = day.verify(day.table_db)
    assert code == 1 and "não é o de nenhum registro da partida" in out, out
    day.desk_sql("UPDATE comp_results SET proof=json_set(proof, '$.final_hash', ?)"
                 " WHERE match_id=?", proof["final_hash"], day.cm)

    # the desk's signature is not the file's: named by the id the table stored it with (never
    # "registro nº", the number a súmula gives an entry)
    day.desk_sql("UPDATE comp_results SET proof=json_set(proof, '$.signature.entry', ?)"
                 " WHERE match_id=?", entry + 50, day.cm)
    code, out = day.verify(day.table_db)
    assert code == 1 and (f"a assinatura do árbitro recebida (id gravado {entry + 50}) não é "
                          "uma assinatura válida") in out, out
    day.desk_sql("UPDATE comp_results SET proof=json_set(proof, '$.signature.entry', ?)"
                 " WHERE match_id=?", entry, day.cm)

    # the table's log has entries the desk never got (the table did not send them)
    day.log.append_entry(day.mid, "referee", "signature", {
        "role": "captain_A", "name": "Ana", "signs": day.log.chain_head(day.mid),
        "image": png()}, 2, 0, "Ana")
    code, out = day.verify(day.table_db)
    assert code == 1 and "tem registros gravados depois do resultado recebido" in out, out
    day.send()  # sent: the desk is up to date again
    assert day.verify(day.table_db)[0] == 0

    # one entry of the table's file altered: its chain no longer checks, the entry is named
    db = sqlite3.connect(day.table_db)
    db.execute("UPDATE entries SET clock_ms = 999 WHERE id=?", (entry - 1,))
    db.commit()
    db.close()
    code, out = day.verify(day.table_db)
    assert code == 1 and f"partida {day.cm} (" in out \
        and f"o registro nº {entry - 1} foi alterado depois de gravado" in out, out


def test_verify_never_writes_a_tables_file(tmp_path: Path) -> None:
    day = Day(tmp_path)
    day.sign()
    day.send()
    day.log.close()
    before = day.table_db.read_bytes()
    assert day.verify(day.table_db)[0] == 0
    assert day.table_db.read_bytes() == before


def test_an_older_desk_file_gets_the_proof_column(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript("""CREATE TABLE comp_results (match_id INTEGER PRIMARY KEY, uid TEXT NOT NULL,
        score_a INTEGER NOT NULL, score_b INTEGER NOT NULL, winner TEXT, reason TEXT NOT NULL,
        rule TEXT NOT NULL DEFAULT '', detail TEXT NOT NULL DEFAULT '{}', source TEXT NOT NULL,
        received_at REAL NOT NULL);
        INSERT INTO comp_results VALUES
            (1, 'mesa-1:1', 1, 0, 'A', 'time', '', '{}', 'table', 0);""")
    db.commit()
    db.close()
    CompetitionDB(path).close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT uid, proof FROM comp_results").fetchall() == [("mesa-1:1", None)]
    db.close()


def test_verify_says_what_to_pass_for_a_wrong_file(tmp_path: Path) -> None:
    day = Day(tmp_path)
    day.send()
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database")
    runner = CliRunner()
    for args, says in [
        (["--db", str(tmp_path / "none.sqlite")], "não há o arquivo"),
        (["--db", str(junk)], "não é um banco de dados"),
        (["--db", str(day.table_db)], "não é o arquivo da mesa de controle"),
        (["--db", str(day.desk_db), "--tables", str(junk)], "não é um banco de dados do futmesa"),
        (["--db", str(day.desk_db), "--tables", str(tmp_path / "x.sqlite")], "não há o arquivo"),
    ]:
        r = runner.invoke(cli, ["competition", "verify", *args])
        assert r.exit_code == 1 and says in r.output, (args, r.output)
        assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    day.log.close()
    tables = sqlite3.connect(day.table_db)
    names = {r[0] for r in tables.execute("SELECT name FROM sqlite_master")}
    tables.close()
    assert "competitions" not in names  # the table's file passed as --db was not changed


def test_a_level_knockout_decided_at_the_desk_checks_out(tmp_path: Path) -> None:
    """A desk decision is not a score change (issue 47, organiser's walk): 'competition verify'
    and the súmulas' index compare the table's score and winner, and say the decision beside."""
    from futmesa.competition import actions

    desk_db = tmp_path / "desk.sqlite"
    comp = CompetitionDB(desk_db)
    comp.import_teams(read_teams_csv(TEAMS))
    cid = comp.create(parse_settings({"format": "league", "ruleset": "cbfm-1toque"}))
    cm = comp.matches(cid)[0]["id"]
    comp.set_assigned(cm, "mesa-1")
    db = sqlite3.connect(desk_db)
    db.execute("UPDATE comp_matches SET stage='ko' WHERE id=?", (cm,))  # a final
    db.commit()
    db.close()
    log = EventLog(tmp_path / "mesa-1.sqlite")
    mid = log.new_match("mesa-1", "cbfm-1toque", {"competition_match": cm,
                                                  "competition": "knockout"})
    for i, kind in enumerate(["clock_started", "alarm", "clock_started", "alarm"]):
        log.append_entry(mid, "referee", kind, {}, 1, 1500000 * i, "árbitro")
    log.end_match(mid)  # 0 × 0: CBFM 1 Toque leaves a level knockout to the desk
    outbox = Outbox(log)
    outbox.scan("mesa-1")
    desk = Desk(str(desk_db), Broker("127.0.0.1", 1), "unused")  # not started
    for body in outbox.pending("mesa-1"):
        desk.receive_result("mesa-1", body)
    actions.decide(comp, cm, "B", "sorteio")
    r = CliRunner().invoke(cli, ["--lang", "pt_BR", "competition", "verify", "--db",
                                 str(desk_db), "--tables", str(tmp_path / "mesa-1.sqlite")])
    assert r.exit_code == 0, r.output
    assert "não confere" not in r.output.splitlines()[0], r.output
    assert "empate decidido na mesa de controle: sorteio" in r.output, r.output
