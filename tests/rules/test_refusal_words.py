"""A refusal's words come from the gettext catalogs: every ``Refused(...)`` in the rules gives
one English msgid marked with ``N_`` and named values, never a Portuguese/English pair in code;
``.pt`` is the pt_BR catalog's text, ``.en`` (and ``str()``) the English."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from futmesa.i18n import catalog_dict, translator
from futmesa.rules import Engine, Entry, load_ruleset
from futmesa.rules.base import LOST_NAMES, RESTART_NAMES
from futmesa.rules.context import Refused, Word, words
from futmesa.rules.goals import SHOT_OUTCOMES
from futmesa.rules.settings import BadSettings, check_settings

RULES = Path(__file__).resolve().parents[2] / "host" / "futmesa" / "rules"


def refusals() -> list[tuple[str, ast.Call]]:
    """(file:line, call) of every ``Refused(...)`` in the rules package."""
    found = []
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Refused":
                found.append((f"{path.name}:{node.lineno}", node))
    return found


def fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


def test_the_scan_finds_the_refusals() -> None:
    assert len(refusals()) > 80  # the scan below is not vacuous


@pytest.mark.parametrize(("where", "call"), refusals(),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_each_refusal_is_one_marked_msgid_with_its_values(where: str, call: ast.Call) -> None:
    assert len(call.args) == 1, f"{where}: one msgid, the values by name (no pt/en pair)"
    arg = call.args[0]
    assert not isinstance(arg, ast.Constant | ast.JoinedStr), (
        f"{where}: a bare string; mark it N_(\"English text\") and give the values by name")
    if isinstance(arg, ast.Attribute):  # re-raised from BadSettings: bad.msgid, **bad.values
        assert [k.arg for k in call.keywords] == [None], where
        return
    assert isinstance(arg, ast.Call) and getattr(arg.func, "id", None) == "N_", where
    (literal,) = arg.args
    assert isinstance(literal, ast.Constant) and isinstance(literal.value, str), where
    msgid = literal.value
    given = {k.arg for k in call.keywords} - {"rule"}
    assert catalog_dict("pt_BR").get(msgid), f"{where}: {msgid!r} has no pt_BR translation"
    pt = translator("pt_BR").gettext(msgid)
    # the sentence and its translation use exactly the values the call gives
    assert fields(msgid) == given, f"{where}: {msgid!r} uses {fields(msgid)}, gets {given}"
    assert fields(pt) == given, f"{where}: the pt_BR text {pt!r} uses {fields(pt)}"


def test_a_refusal_reads_in_each_language_from_the_catalogs() -> None:
    refused = Refused("Disc {disc} was sent off", disc=7, rule="003 Art. 5")
    assert refused.pt == "O botão 7 foi expulso"
    assert refused.en == "Disc 7 was sent off"
    assert str(refused) == "Disc 7 was sent off"
    assert refused.rule == "003 Art. 5"
    plain = Refused("The ball is not in play")
    assert (plain.pt, plain.en, plain.rule) == ("A bola não está em jogo",
                                                 "The ball is not in play", "")


def test_a_word_value_is_translated_with_its_sentence() -> None:
    said = "{team}'s technical foul kick is taken from the corner of the small area"
    values = {"team": Word("The match is over"), "n": "The match is over"}
    assert words("pt_BR", said, values) == (
        "A falta técnica para A partida já terminou é cobrada do bico da pequena área")
    assert words("en", said, values) == (
        "The match is over's technical foul kick is taken from the corner of the small area")
    # a plain str value is shown as it is (a team's name is nobody's msgid)
    assert words("pt_BR", said, {"team": "The match is over"}) == (
        "A falta técnica para The match is over é cobrada do bico da pequena área")


def test_a_refused_input_is_announced_in_portuguese_and_english() -> None:
    engine = Engine(load_ruleset("pastilha-8x2"))
    state, _ = engine.apply(engine.initial_state(), Entry(1, "clock_started", {}, "device"))
    expel = {"side": "A", "type": "expel", "disc": 4}
    state, _ = engine.apply(state, Entry(2, "discipline", expel))
    _state, effects = engine.apply(state, Entry(3, "discipline", expel))
    (said,) = [e.data for e in effects if e.data.get("code") == "refused"]
    assert said["pt"].startswith("O botão 4 já foi expulso")
    assert said["en"].startswith("Disc 4 is already sent off")


@pytest.mark.parametrize(("data", "pt"), [
    ({"side": "A"}, "Qual botão?"),  # no number keyed (walk #45 M4)
    ({"side": "A", "disc": 123}, "O número de um botão vai de 0 a 99"),
    ({"disc": 9}, "Qual equipe?"),
])
def test_a_missing_disc_or_team_is_asked_for_in_the_referees_words(
        data: dict[str, object], pt: str) -> None:
    """Walk #45 M4: "Chute pedido" with no number keyed was refused as "'disc' deve ser o número
    do botão (0–99)", the input's internal key on the referee's phone."""
    engine = Engine(load_ruleset("cbfm-1toque"))
    state = engine.initial_state()
    for i, (kind, d, source) in enumerate((("start_period", {}, "referee"),
                                           ("clock_started", {}, "device")), 1):
        state, _ = engine.apply(state, Entry(i, kind, d, source))
    _state, effects = engine.apply(state, Entry(3, "shot_asked", data))
    (said,) = [e.data for e in effects if e.data.get("code") == "refused"]
    assert said["pt"].startswith(pt), said["pt"]
    assert not re.search(r"'\w+'", said["pt"] + said["en"]), said  # no quoted input key


def test_bad_settings_refused_at_set_up_read_in_portuguese() -> None:
    with pytest.raises(BadSettings) as bad:
        check_settings({"kickoff": "C"})
    assert str(bad.value) == 'settings "kickoff" must be one of A, B'
    engine = Engine(load_ruleset("cbfm-1toque"))
    _state, effects = engine.apply(engine.initial_state(),
                                   Entry(1, "set_up", {"kickoff": "C"}))
    (said,) = [e.data for e in effects if e.data.get("code") == "refused"]
    assert said["pt"] == 'a configuração "kickoff" deve ser um de A, B'
    assert said["en"] == 'settings "kickoff" must be one of A, B'


def test_label_tables_read_pairs_from_the_catalogs() -> None:
    assert LOST_NAMES["goal_line"] == ("gol (linha do gol)", "goal line")
    assert RESTART_NAMES["lateral"] == ("lateral", "throw-in")
    assert RESTART_NAMES.get("no_such_kind", ("x", "x")) == ("x", "x")
    assert SHOT_OUTCOMES["miss"] == ("furou", "missed the ball")
    pt = translator("pt_BR")._catalog  # type: ignore[attr-defined]
    for table in (LOST_NAMES, RESTART_NAMES, SHOT_OUTCOMES):
        for code, (context, msgid) in table._names.items():
            assert pt.get(f"{context}\x04{msgid}"), f"{code}: {msgid!r} has no pt_BR text"


def test_no_module_level_table_of_pt_en_pairs_is_left_in_the_rules() -> None:
    for path in sorted(RULES.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
                values = node.value.values
                pairs = [v for v in values if isinstance(v, ast.Tuple) and len(v.elts) == 2
                         and all(isinstance(e, ast.Constant) for e in v.elts)]
                assert not (values and len(pairs) == len(values)), (
                    f"{path.name}:{node.lineno}: a table of (pt, en) pairs; use Labels of NP_")


def test_a_cera_says_cera_in_the_record() -> None:
    """003 Art. 84: a lance past its time again after the warning is "cera", punished as a
    disciplinary foul — the record says cera, not only "falta disciplinar" (walk #45g, high 1:
    the referee tapped cera and the súmula never said it)."""
    engine = Engine(load_ruleset("pastilha-8x2"))
    state = engine.initial_state()
    steps = [("clock_started", {}, "device"),
             ("lance_expired", {"side": "A", "warning": False, "count": 1}, "device"),
             ("lance_expired", {"side": "A", "warning": False, "count": 2}, "device"),
             ("confirm", {"target": 3, "choice": "foul", "where": "own_half"}, "referee")]
    said: list[dict[str, str]] = []
    for n, (kind, data, source) in enumerate(steps, 1):
        state, effects = engine.apply(state, Entry(n, kind, data, source))
        said += [e.data for e in effects if e.data.get("code") == "disciplinary"]
    (foul,) = said
    assert foul["pt"].startswith("Cera de "), foul["pt"]
    assert "falta disciplinar (1ª)" in foul["pt"]
    assert foul["en"].startswith("Time-wasting (cera) by ")
