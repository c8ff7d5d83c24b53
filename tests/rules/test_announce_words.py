"""What the engine says comes from the gettext catalogs: every ``ctx.announce`` and
``ctx.confirm`` in the rules gives one English msgid marked with ``N_`` (or ``NP_``) and
named values, never a Portuguese/English pair in code; and the sentences the scenarios make
it say read exactly as recorded (tests/rules/spoken_words.json)."""

from __future__ import annotations

import ast
import json
import string
from pathlib import Path

import pytest
from spoken_words import RECORD, spoken

from futmesa.i18n import NP_, translator
from futmesa.rules import Engine, Entry, load_ruleset
from futmesa.rules.context import Labels, Word, words

RULES = Path(__file__).resolve().parents[2] / "host" / "futmesa" / "rules"
MSGID_AT = {"announce": 1, "confirm": 2}  # the position of the msgid in each call


def calls() -> list[tuple[str, ast.Call, ast.AST]]:
    """(file:line, call, enclosing function) of every ``ctx.announce/confirm(...)``."""
    found = []
    for path in sorted(RULES.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef):
                continue
            for node in ast.walk(func):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in MSGID_AT
                        and getattr(node.func.value, "id", None) == "ctx"):
                    found.append((f"{path.name}:{node.lineno}", node, func))
    return found


def fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


def marked(node: ast.AST, func: ast.AST, where: str) -> list[tuple[str | None, str]]:
    """The (context, msgid) pairs an argument can be: an ``N_``/``NP_`` call, either side of
    a conditional, or a name assigned from them in the same function (a table by kind)."""
    assert not isinstance(node, ast.Constant | ast.JoinedStr), (
        f"{where}: a bare string; mark it N_(\"English text\") and give the values by name")
    if isinstance(node, ast.IfExp):
        return marked(node.body, func, where) + marked(node.orelse, func, where)
    if isinstance(node, ast.Name):
        found = []
        for a in ast.walk(func):
            if isinstance(a, ast.Assign) and any(getattr(t, "id", None) == node.id
                                                   for t in a.targets):
                found += [m for n in ast.walk(a.value) if isinstance(n, ast.Call)
                          for m in marked_call(n)]
        assert found, f"{where}: {node.id} is not assigned any N_ msgid"
        return found
    assert isinstance(node, ast.Call), f"{where}: {ast.unparse(node)} is no marked msgid"
    found = marked_call(node)
    assert found, f"{where}: {ast.unparse(node)} is no N_/NP_ msgid"
    return found


def marked_call(call: ast.Call) -> list[tuple[str | None, str]]:
    name = getattr(call.func, "id", None)
    args = [a.value for a in call.args if isinstance(a, ast.Constant)]
    if name == "N_" and len(args) == 1:
        return [(None, args[0])]
    if name == "NP_" and len(args) == 2:
        return [(args[0], args[1])]
    return []


def given(kind: str, call: ast.Call, where: str) -> set[str]:
    """The names of the values a call gives its sentence."""
    if kind == "announce":
        return {k.arg for k in call.keywords if k.arg not in (None, "rule")}
    values = [k.value for k in call.keywords if k.arg == "values"]
    if not values:
        return set()
    (value,) = values
    assert isinstance(value, ast.Dict), f"{where}: values={{...}} by name"
    return {k.value for k in value.keys if isinstance(k, ast.Constant)}


def test_the_scan_finds_the_announcements_and_questions() -> None:
    found = calls()
    assert sum(c.func.attr == "announce" for _w, c, _f in found) > 70  # type: ignore[attr-defined]
    assert sum(c.func.attr == "confirm" for _w, c, _f in found) >= 5  # type: ignore[attr-defined]


@pytest.mark.parametrize(("where", "call", "func"), calls(),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_each_sentence_is_a_marked_msgid_with_its_values(
    where: str, call: ast.Call, func: ast.AST
) -> None:
    kind = call.func.attr  # type: ignore[attr-defined]
    at = MSGID_AT[kind]
    assert len(call.args) > at, where
    if kind == "announce":
        assert len(call.args) <= 3, f"{where}: code, msgid, rule; the values by name"
    else:
        assert len(call.args) <= 6, f"{where}: the question's values go in values={{...}}"
    arg = call.args[at]
    if isinstance(arg, ast.Attribute):  # a refusal said: refused.msgid, **refused.values
        assert ast.unparse(arg) == "refused.msgid", where
        assert [ast.unparse(k.value) for k in call.keywords if k.arg is None] == [
            "refused.values"], where
        return
    names = given(kind, call, where)
    pt = translator("pt_BR")._catalog  # type: ignore[attr-defined]
    for context, msgid in marked(arg, func, where):
        key = f"{context}\x04{msgid}" if context else msgid
        text = pt.get(key)
        assert text, f"{where}: {msgid!r} has no pt_BR translation"
        # the sentence and its translation use exactly the values the call gives (a table of
        # sentences by kind shares one set of values); an announcement may place its article
        # itself, ``{rule}`` (context.announce)
        inline = {"rule"} if kind == "announce" and "rule" in fields(msgid) else set()
        assert fields(msgid) == names | inline, (
            f"{where}: {msgid!r} uses {fields(msgid)}, gets {names}")
        assert fields(text) == names | inline, (
            f"{where}: the pt_BR text {text!r} uses {fields(text)}")


def test_the_scenarios_say_what_they_said_before() -> None:
    """Every announcement and question the scenarios produce, in both languages, is the text
    recorded before the sentences moved to the catalogs (876 of them, 78 codes)."""
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    said = spoken()
    assert said.keys() == recorded.keys()
    assert sum(len(v) for v in said.values()) > 800
    for name, items in said.items():
        assert items == recorded[name], name


def test_a_word_with_a_context_and_a_capital_is_translated_with_its_sentence() -> None:
    keeper = Labels({"left": NP_("goalkeeper's side", "left")})
    assert words("pt_BR", "{team}'s penalty: goal; goalkeeper: {keeper}",
                 {"team": "Azul", "keeper": keeper.word("left")}) == (
        "Pênalti de Azul: gol; goleiro: esquerda")
    assert words("en", "{team}'s penalty: goal; goalkeeper: {keeper}",
                 {"team": "Azul", "keeper": keeper.word("left")}) == (
        "Azul's penalty: goal; goalkeeper: left")
    assert keeper.word("nowhere") == "nowhere"  # a code without a name is shown as it is
    kick = Word("throw-in", "restart kind", capital=True)
    assert words("pt_BR", "{restart} to {team}", {"restart": kick, "team": "Azul"}) == (
        "Lateral para Azul")
    assert words("en", "{restart} to {team}", {"restart": kick, "team": "Azul"}) == (
        "Throw-in to Azul")


def test_one_english_sentence_said_two_ways_keeps_both() -> None:
    msgid = "{team} moved discs at the goal kick"
    assert words("pt_BR", msgid, {"team": "Azul"}) == "Azul moveu botões no tiro de meta"
    assert words("pt_BR", NP_("announcement", msgid), {"team": "Azul"}) == (
        "Azul arredou botões no tiro de meta")


def test_a_refused_correction_and_a_correction_are_said_from_the_catalogs() -> None:
    engine = Engine(load_ruleset("cbfm-1toque"))
    # (a fact to correct: the table's clock rows are not one, rules/corrections.correctable)
    state, _ = engine.apply(engine.initial_state(), Entry(1, "set_up", {"kickoff": "A"}))
    state, effects = engine.apply(state, Entry(2, "void", {"target": 99}))
    (said,) = [e.data for e in effects if e.kind == "announce"]
    assert (said["code"], said["pt"], said["en"]) == (
        "refused", "Esse registro não é desta partida: não há o que corrigir",
        "That entry is not in this match: there is nothing to correct")
    state, effects = engine.apply(state, Entry(3, "amend", {"target": 1}))
    (said,) = [e.data for e in effects if e.kind == "announce"]
    assert (said["pt"], said["en"]) == ("A correção precisa de 'data'",
                                        "An amendment needs 'data'")
    _state, effects = engine.apply(state, Entry(4, "void", {"target": 1}, author="Ana"))
    (said,) = [e.data for e in effects if e.kind == "announce"]
    assert (said["code"], said["pt"], said["en"]) == (
        "correction", "Registro nº 1 anulado por Ana", "Entry no. 1 voided by Ana")


def test_a_kick_off_the_document_does_not_give_is_not_cited_to_it() -> None:
    """Walk 45f M5 (pastilha): "A regra não diz" who kicks off after the goal, while the line
    under it read "…; saída para Grêmio F.C. (Pastilha 8x2, Art. 31)": the article is cited for
    the re-arrangement it gives, the kick-off said as the referee's to change."""
    steps = [("clock_started", {}), ("touch", {"side": "A", "disc": 9}),
             ("touch", {"side": "A", "disc": 10}), ("shot_asked", {"side": "A", "disc": 10}),
             ("touch", {"side": "A", "disc": 10}), ("goal_line", {"goal": 1})]
    log = [Entry(n, kind, data, "device" if kind in ("clock_started", "goal_line") else "referee",
                 1, n * 1000, n * 1000) for n, (kind, data) in enumerate(steps, 1)]
    state, _ = Engine(load_ruleset("pastilha-8x2"), {"kickoff": "A"}).replay(log)
    said = [a for a in state.m["announcements"] if a["code"] == "rearrange"]
    assert [a["pt"] for a in said] == [
        "Arrumação das equipes (003 Art. 31); saída para Time B, salvo escolha do árbitro"], said
    assert said[0]["rule"] == "003 Art. 31"
    assert [p["kind"] for p in state.m["pending"]] == ["kickoff_side"]


def test_a_sentence_whose_document_gives_no_article_cites_nothing() -> None:
    """Walk45h-a A7: every goal's restart in gaúcha read "Arrumação das equipes (); saída
    para …" on the console, the Registro and the súmula: the excerpt of 001 (chapters 7–11)
    gives no article for the re-arrangement after a goal (README's digest: "—"), and the
    sentence that places its article inline kept the empty parentheses. No article: no
    parentheses (rules/context.py announce, for every ruleset and sentence)."""
    steps = [("clock_started", {}), ("touch", {"side": "A", "disc": 9}),
             ("shot_asked", {"side": "A", "disc": 9}), ("goal_line", {"goal": 1})]
    log = [Entry(n, kind, data, "device" if kind in ("clock_started", "goal_line") else "referee",
                 1, n * 1000, n * 1000) for n, (kind, data) in enumerate(steps, 1)]
    state, _ = Engine(load_ruleset("gaucha"), {"kickoff": "A"}).replay(log)
    said = [a for a in state.m["announcements"] if a["code"] == "rearrange"]
    assert [(a["pt"], a["en"], a["rule"]) for a in said] == [(
        "Arrumação das equipes; saída para Time B, salvo escolha do árbitro",
        "Teams re-arrange; kick-off to Time B unless the referee chooses otherwise", "")], said
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    empty = {text for items in recorded.values() for item in items for text in item[1:]
             if "()" in text}
    assert not empty, sorted(empty)
