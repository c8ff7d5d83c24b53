"""An answer's row says its question's fact and the button tapped in words (issue 45, walk46a
M1): after a lance-time disciplinary foul the CBFM asks "Botafogo escolhe o bico de área de
onde cobra" (000 Art. 26 §2 II B), and "✓ Área de Alvorada, bico esquerdo" was written
"Árbitro decide sobre «Árbitro decide sobre o registro nº 41: falta» (2º tempo 1'): A left" on
the phone, the Registro and the súmula — a stored number, "decide sobre" twice, a code.

Beside the case, a property over every question the rules scenarios reach in every ruleset,
each answered with each of its buttons (and the question an answer raises, answered too): the
answer's row names no record number, says no answer code and says the button's words. A real
SQLite log, read live and stored, as every view reads it."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from test_account import TEAMS, Table, flat, kicked_off
from test_registro_corrections import _rows, _stored

from futmesa import report
from futmesa.matchbook import MatchBook, MatchLibrary, build
from futmesa.matchbook.answer import answer_words
from futmesa.rules import Engine, Entry, load_ruleset
from futmesa.store import EventLog

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))
from rules_scenario import _entry, load  # noqa: E402

SCENARIOS = Path(__file__).resolve().parents[1] / "rules" / "scenarios"
BICO = ("Árbitro decide sobre «Falta disciplinar de Botafogo da Mesa (1ª): passou do tempo do "
        "lance» (1º tempo 2'): Área de Estrela do Norte, bico esquerdo")
BICO_EN = ("Referee decides on “Disciplinary foul by Botafogo da Mesa (no. 1): over the lance "
           "time” (1st half 2'): Estrela do Norte's area, left corner")


def bico_asked(t: Table) -> dict[str, Any]:
    """Botafogo, about to take a goal kick, runs out its lance: the disciplinary foul answered,
    Estrela do Norte is asked which bico it takes the free kick from (000 Art. 26 §2 II B)."""
    for disc in (10, 8):  # the kick-off's two lances (000 Art. 9 §2)
        t.put("touch", {"side": "A", "disc": disc})
    t.put("touch", {"side": "B", "disc": 5})
    t.put("touch", {"side": "A", "disc": 4})
    t.put("last_touch", {"side": "A"})
    t.device("ball_out", {"line": "end", "end": 1})
    assert t.book.state.m["restart"]["kind"] == "tiro_de_meta"
    t.device("lance_started", {"side": "B"})
    t.device("lance_expired", {"side": "B", "warning": True})
    t.device("lance_expired", {"side": "B", "count": 1})
    asked = t.device("lance_expired", {"side": "B", "count": 2})
    t.put("confirm", {"target": asked, "choice": "foul"})
    return next(p for p in t.book.state.m["pending"] if p["kind"] == "kick_spot")


def test_the_bico_answer_says_the_foul_and_the_button_tapped(tmp_path: Path) -> None:
    t = kicked_off(tmp_path / "m.sqlite", clock=65_000)
    question = bico_asked(t)
    # the engine names its buttons, so the console and the Registro say them alike
    assert question["answers"]["pt"]["A_left"] == "Área de Estrela do Norte, bico esquerdo"
    assert question["answers"]["en"]["B_right"] == "Botafogo da Mesa's area, right corner"
    answer = t.put("confirm", {"target": question["id"], "choice": "A_left"})
    for rows in (_rows(t), _stored(t)):
        assert rows[answer]["text"] == BICO, rows[answer]["text"]
        line = answer_words(rows[answer])  # the console's result line
        assert line is not None and line["pt"] == BICO + (
            " · Tiro livre de Estrela do Norte: cobrança no bico esquerdo da área grande de "
            "Estrela do Norte (CBFM 1 Toque, Art. 26 §2 II B)"), line
    record = MatchLibrary(t.store).match_record(t.book.id)
    row = next(e for e in record["entries"] if e["id"] == answer)
    assert row["text_en"] == BICO_EN, row["text_en"]
    register = build(record).table("log")  # the súmula's event register
    assert register is not None and any(BICO in flat(str(r)) for r in register.rows)
    assert BICO in flat(report.render_html(record))


# ---- every question the scenarios reach, answered with each button ------------------------
ENGLISH = re.compile(r"\b[A-Za-z]+(?:_[A-Za-z0-9]+)+\b")  # an answer's code: own_half, A_left
CITATION = re.compile(r"\((?:A mesa está posta|CBFM|Gaúcha|Pastilha)[^()]*\)")  # a rule cited


def said_right(row: dict[str, Any], question: dict[str, Any], choice: Any) -> list[str]:
    """What is wrong with an answer's row (``row``: a Registro row, pt and en): a record
    number, "decide sobre" twice, a code, or not the button's words."""
    wrong = []
    for lang, key in (("pt", "text"), ("en", "text_en")):
        text = str(row.get(key) or "")
        line = (answer_words(row) or {}).get(lang, "")
        if re.search(r"registro nº|entry no\.", line):
            wrong.append(f"a record number: {line}")
        if line.count("decide sobre") + line.count("decides on") > 1:
            wrong.append(f"decides twice: {line}")
        words = (question.get("answers") or {}).get(lang) or {}
        # an option's code, "A_left" or "A left", where no button says it ("no goal" is one)
        # (the rules' citation is no answer: "(A mesa está posta, «Bola fora»)" holds an "A")
        plain = CITATION.sub("", line)
        codes = ENGLISH.findall(plain) + [
            c for c in (str(o).replace("_", " ") for o in question.get("options") or [])
            if re.search(rf"\b{c}\b", plain) and not any(c in str(w) for w in words.values())]
        if codes:
            wrong.append(f"a code {codes}: {line}")
        button = words.get(choice)
        if button is None and choice in ("A", "B"):
            button = TEAMS[choice]["name"]
        if button is None and question.get("input") == "disc":
            button = f"{choice}"
        if button is None or button not in text:
            wrong.append(f"not the button's words {button!r}: {text}")
    return wrong


def refused(effects: list[Any], entry: Entry) -> bool:
    return any(e.kind == "announce" and e.data.get("code") == "refused"
               and e.data.get("entry") == entry.id for e in effects)


def stored_match(store: EventLog, doc: dict[str, Any], entries: list[Entry]) -> int:
    """A scenario's entries stored as a match of their own in ``store`` (its ids the store's:
    a target is renumbered); the match's id."""
    match_id = store.new_match("sim-T1", doc["ruleset"], doc["settings"])
    ids: dict[int, int] = {}
    for e in entries:
        data = dict(e.data)
        if isinstance(data.get("target"), int):
            data["target"] = ids.get(data["target"], data["target"])
        ids[e.id] = store.append_entry(match_id, e.source, e.kind, data, e.period,
                                       e.clock_ms, e.author, ticks=e.ticks,
                                       occurred_at=float(e.at))
    return match_id


class Cases:
    """The stored matches of the property: a scenario's log up to a question, and its answer
    (each in its own match of one real SQLite file)."""

    def __init__(self, path: Path) -> None:
        self.store = EventLog(path)
        self.seen: set[tuple[Any, ...]] = set()
        self.wrong: list[str] = []
        self.asked: set[tuple[str, str]] = set()

    def answer(self, doc: dict[str, Any], engine: Engine, state: Any,
               question: dict[str, Any], label: str, on: str = "") -> None:
        """Each button of ``question`` tapped on ``state`` (its log stored), its row checked;
        the question its answer raises (``on``: the question answered), answered in turn."""
        self.asked.add((doc["ruleset"], question["kind"], on))
        restart = state.m.get("restart") or {}
        for choice in question["options"] or [3]:  # a disc's number, where one is asked
            # once per ruleset, question, button, and restart waiting (a lance-time foul as a
            # goal kick waits raises the bico's question, 000 Art. 26 §2 II B)
            key = (doc["ruleset"], question["kind"], choice, on,
                   None if restart.get("taken") else restart.get("kind"))
            if key in self.seen:
                continue
            self.seen.add(key)
            last = state.log[-1]
            tap = Entry(id=last.id + 1, kind="confirm",
                        data={"target": question["id"], "choice": choice}, source="referee",
                        period=last.period, clock_ms=last.clock_ms, ticks=last.ticks,
                        author="Rui", at=last.at + 1000)
            after, effects = engine.apply(state, tap)
            if refused(effects, tap):
                continue  # the daemon logs no input the rules refuse
            for where, row in self.stored(doc, list(after.log)).items():
                for fault in said_right(row, question, choice):
                    self.wrong.append(f"{label}, {question['kind']}={choice} ({where}): {fault}")
            self.withdrawn(doc, engine, after, tap, question, f"{label}, {question['kind']}")
            for p in after.m["pending"] if not on else []:
                if p["id"] == tap.id:  # the question the answer raised
                    self.answer(doc, engine, after, p, f"{label} → {question['kind']}",
                                question["kind"])

    def withdrawn(self, doc: dict[str, Any], engine: Engine, state: Any, tap: Entry,
                  question: dict[str, Any], label: str) -> None:
        """The answer ``tap`` voided, and the entry its question asked about voided (the
        answer withdrawn with it): its row, struck, still says the button tapped — never
        what the void made of it ("sem gol" for "chute pedido (não registrado)": walk48b
        H1)."""
        for what, target in (("voided", tap.id), ("withdrawn", question["id"])):
            last = state.log[-1]
            void = Entry(id=last.id + 1, kind="void", data={"target": target, "reason": "x"},
                         source="referee", period=last.period, clock_ms=last.clock_ms,
                         ticks=last.ticks, author="Rui", at=last.at + 1000)
            after, effects = engine.apply(state, void)
            if refused(effects, void):
                continue  # not a fact to correct (the table's clock rows: corrections.py)
            for where, row in self.stored(doc, list(after.log), tap.id).items():
                faults = said_right(row, question, tap.data["choice"]) + (
                    [] if row["voided"] else ["not struck"])
                for fault in faults:
                    self.wrong.append(f"{label}={tap.data['choice']} {what} ({where}): "
                                      f"{fault}")

    def stored(self, doc: dict[str, Any], entries: list[Entry],
               entry: int | None = None) -> dict[str, dict[str, Any]]:
        """The row of ``entry`` (the last entry's if None), live and read back, the log
        stored in a match of its own (its ids the store's: a target is renumbered)."""
        match_id = stored_match(self.store, doc, entries)
        match = self.store.match(match_id)
        assert match is not None
        book = MatchBook.opened(self.store, match)
        at = len(entries) - 1 if entry is None else [e.id for e in entries].index(entry)
        row = book.state.log[at].id
        live = {r["id"]: r for r in book.live_log.since(None, 0)["entries"]}
        record = MatchLibrary(self.store).match_record(match_id)
        return {"live": live[row],
                "stored": next(r for r in record["entries"] if r["id"] == row)}


# questions no scenario asks (each scenario enters the answer itself, or none)
MORE = {
    "cbfm-1toque/bico_after_the_lance_time.yaml": """
articles: ["000 Art. 26 §2 II B"]
steps:  # B runs out its lance as it was to take a goal kick (walk46a M1)
  - clock_started: {}
  - touch: {side: A, disc: 10}
  - touch: {side: A, disc: 8}
  - touch: {side: B, disc: 5}
  - touch: {side: A, disc: 4}
  - last_touch: {side: A}
  - ball_out: {line: end, end: 1}
  - lance_started: {side: B}
  - lance_expired: {side: B, warning: true}
  - lance_expired: {side: B, count: 1}
  - lance_expired: {side: B, count: 2}
""",
    "cbfm-1toque/reposicao_short_of_the_midline.yaml": """
articles: ["000 Art. 16 §3"]
steps:  # the opponent's choice, asked
  - clock_started: {}
  - touch: {side: A, disc: 9}
  - touch: {side: A, disc: 10}
  - ball_stopped: {side: B, area: small}
  - touch: {side: B, disc: 4}
  - restart_failed: {reason: midline}
""",
    "pastilha-8x2/disqualified_a_goal_down.yaml": """
articles: ["003 Art. 83 §3"]
steps:  # the final score the referee decides
  - clock_started: {}
  - touch: {side: A, disc: 9}
  - touch: {side: A, disc: 10}
  - shot_asked: {side: A, disc: 10}
  - touch: {side: A, disc: 10}
  - goal_line: {goal: 1}
    t: 42000
  - discipline: {side: B, type: disqualify}
""",
}


def scenarios(tmp_path: Path) -> list[Path]:
    """Every rules scenario, and :data:`MORE`."""
    for name, text in MORE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return [*sorted(SCENARIOS.glob("*/*.yaml")), *(tmp_path / name for name in MORE)]


def scenario_engine(path: Path) -> tuple[dict[str, Any], Engine]:
    """A rules scenario (its teams :data:`TEAMS`) and its ruleset's engine."""
    doc = load(path)
    doc["settings"] = {**doc["settings"], "teams": TEAMS}
    return doc, Engine(load_ruleset(doc["ruleset"]), doc["settings"])


def played(doc: dict[str, Any], engine: Engine, name: str) -> Iterator[tuple[int, Any]]:
    """(step number, the match after it) for each of the scenario's entries the rules take:
    the daemon logs no input the rules refuse."""
    state = engine.initial_state()
    now = count = 0
    for n, step in enumerate(doc["steps"], 1):
        if "expect" in step:
            continue
        now = int(step["t"]) if "t" in step else now
        count += 1  # a refused entry's id is used up too (rules_scenario.run)
        entry = _entry(step, count, now, f"{name} {n}")
        after, effects = engine.apply(state, entry)
        if not refused(effects, entry):
            state = after
            yield n, state


def test_every_answer_row_says_its_question_and_button_in_words(tmp_path: Path) -> None:
    cases = Cases(tmp_path / "m.sqlite")
    for path in scenarios(tmp_path):
        doc, engine = scenario_engine(path)
        before: set[Any] = set()
        for n, state in played(doc, engine, path.name):
            for p in state.m["pending"]:
                if p["id"] not in before:
                    cases.answer(doc, engine, state, p, f"{path.parent.name}/{path.name} {n}")
            before = {p["id"] for p in state.m["pending"]}
    assert {("cbfm-1toque", "kick_spot", "lance_timeout"), ("cbfm-1toque", "kick_spot", ""),
            ("cbfm-1toque", "expel_disc", ""), ("cbfm-1toque", "failed_restart_choice", ""),
            ("pastilha-8x2", "discipline_grade", ""), ("pastilha-8x2", "final_score", ""),
            ("pastilha-8x2", "extra_time_kickoff", "goal_at_alarm"),
            ("gaucha", "goal_no_shot", ""), ("mesa-posta", "goal_no_shot", "")} <= cases.asked, (
        sorted(cases.asked))
    assert not cases.wrong, "\n".join(cases.wrong)
