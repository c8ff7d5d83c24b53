"""What a referee and a federation read is their language: a sentence per entry, never our codes.

Today's codes the súmula used to show (issue 11): ``lance_expired … warning=false``,
``goal_line: goal=0, held_ms=40``, ``reason=2``, teams as raw JSON, ``device``/``referee``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from matchbook_logs import match_row, started

from futmesa.matchbook import MatchLibrary, build, build_record
from futmesa.matchbook.citations import announcement, cite, plain
from futmesa.matchbook.entries import entry_for
from futmesa.matchbook.wording import (
    amend_fields,
    origin,
    ruleset_title,
    sentence,
    table_name,
    venue_zone,
    when,
    zone_city,
)
from futmesa.rules.model import DEVICE_KINDS
from futmesa.store import EventLog

TEAMS = {"A": {"name": "Alvorada", "color": "#1040c0"}, "B": {"name": "Botafogo"}}

# every referee input kind (docs/rulesets.md "Referee inputs") with data as the console sends it
REFEREE: list[tuple[str, dict[str, Any]]] = [
    ("set_up", {"teams": TEAMS, "kickoff": "A"}), ("kickoff", {"side": "B"}), ("ends", {"A": 1}),
    ("start_period", {}), ("added_time", {"ms": 120_000}), ("pause", {}), ("resume", {}),
    ("touch", {"side": "A", "disc": 3, "hit": False}),
    ("shot_asked", {"side": "A", "disc": 9, "ball": "opponent_half"}),
    ("shot_result", {"outcome": "post", "teammate_last": False}),
    ("last_touch", {"side": "B", "direct": False}), ("restart", {"kind": "bola_do_goleiro",
                                                                  "side": "A"}),
    ("lance_done", {}), ("foul", {"side": "B", "type": "mao", "where": "box", "disc": 4}),
    ("discipline", {"side": "B", "type": "expel", "disc": 5}),
    ("substitution", {"side": "A", "out": 4, "in": 12}), ("offside", {"side": "A"}),
    ("shootout_kick", {"side": "A", "disc": 7, "scored": True}),
    ("keeper_choice", {"side": "B", "choice": "left"}), ("shootout_result", {"scored": False}),
    ("confirm", {"target": 3, "accept": True}), ("confirm", {"target": 3, "choice": "own_goal"}),
    ("void", {"target": 3, "reason": "bola na trave"}),
    ("amend", {"target": 3, "data": {"side": "B", "disc": 9}}),
    # the inputs the blind cases lacked (issue 44)
    ("offside", {"side": "A", "disc": 6}), ("shootout_kick", {"side": "B", "goalkeeper": True}),
    ("set_piece_distance", {"side": "A", "disc": 3}), ("disc_moved", {"side": "B", "disc": 2}),
    ("positions", {"side": "A", "part": "defence"}),
    ("touch", {"side": "A", "disc": 4, "shot": True}),
    ("confirm", {"target": 3, "choice": "two_nil"}),
    ("confirm", {"target": 3, "choice": "as_played"}),
]
CODES = re.compile(r"=|[{}\[\]]|\b[a-z]+_[a-z_]+\b|\bTrue\b|\bFalse\b|\bNone\b|\btrue\b|"
                   r"\bfalse\b|Registro «|Entry “")


def device_samples() -> list[tuple[str, dict[str, Any]]]:
    import futmesa_wire as W

    out = []
    for code in W.EVENT_NAMES:
        for a, b in ((0, 0), (1, 1), (2, 0)):
            out.append(entry_for(code, a, b, 40))
    assert {k for k, _ in out} >= DEVICE_KINDS - {"gap", "clock_restored"}
    return out + [("gap", {"boot_id": 1, "first_seq": 5, "last_seq": 9}),
                  ("clock_restored", {"lost_ms": 36_000})]


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_every_entry_kind_has_a_sentence_without_codes(lang: str) -> None:
    targets = {3: {"kind": "shot_asked", "data": {"side": "A", "disc": 7}, "period": 1}}
    for kind, data in device_samples() + REFEREE:
        text = sentence(kind, data, TEAMS, lang, period=1, targets=targets)
        assert text and not CODES.search(text), (kind, data, text)


def test_todays_codes_are_gone() -> None:
    assert sentence("lance_expired", {"side": "A", "warning": False}, TEAMS) == \
        "Tempo do lance de Alvorada esgotado"
    assert sentence("goal_line", {"goal": 0, "held_ms": 40}, TEAMS) == \
        "Sensor: bola na linha do gol de Alvorada"
    assert sentence("goal_line", {"goal": 0}, TEAMS, ends={"A": 1, "B": 0}) == \
        "Sensor: bola na linha do gol de Botafogo"
    assert sentence("ball_out", {"line": "end", "zone": 4}, TEAMS) == \
        "Bola fora pela linha de fundo"
    assert sentence("ball_out", {"line": "end", "zone": 4, "end": 1}, TEAMS) == \
        "Bola fora pela linha de fundo, lado de Botafogo"
    assert sentence("ball_out", {"line": "side", "zone": 1, "end": 0}, TEAMS,
                    ends={"A": 1, "B": 0}) == "Bola fora pela lateral, no campo de Botafogo"
    assert sentence("sensor_fault", {"sensor": 1, "fault": "stuck"}, TEAMS) == \
        "Falha no sensor do gol de Botafogo: bloqueado por tempo demais"
    assert sentence("ends", {"A": 1, "B": 0}, TEAMS) == \
        "Troca de lados: Alvorada e Botafogo trocam de gol"
    assert sentence("clock_stopped", {"reason": 2}, TEAMS) == "Relógio parado: fim do período"
    assert sentence("set_up", {"teams": TEAMS, "kickoff": "A"}, TEAMS) == \
        "Partida configurada: Alvorada × Botafogo; saída de Alvorada"
    assert origin("device", "SIM00001") == "Mesa"
    assert origin("referee", "referee") == "Árbitro"
    assert origin("referee", "Ana Lima") == "Ana Lima"
    assert origin("referee", "demo-referee") == "Árbitro (demonstração)"
    assert origin("referee", "scripted-referee") == "Árbitro"
    assert sentence("lance_expired", {"side": "B", "warning": True}, TEAMS, "en") == \
        "Warning: lance time of Botafogo running out"


def test_the_correction_form_offers_fields_not_json() -> None:
    fields = amend_fields("shot_asked", {"side": "A", "disc": 7}, TEAMS)
    assert [(f["key"], f["label"], f["type"]) for f in fields] == [
        ("side", "Equipe", "choice"), ("disc", "Botão", "number")]
    assert [o["label"] for o in fields[0]["options"]] == ["Alvorada", "Botafogo"]
    goal = amend_fields("goal_line", {"goal": 0, "held_ms": 40}, TEAMS)
    assert [(f["key"], [o["label"] for o in f["options"]]) for f in goal] == [
        ("goal", ["gol de Alvorada", "gol de Botafogo"])]


def test_the_correction_form_names_every_field_in_words_and_times_in_minutes() -> None:
    """Issue 31 §5: no raw field names ("ring", "pattern", "count") and no 180000 on the form;
    a detail of the table's own record is kept as it is, not offered."""
    profile = amend_fields("profile_set", {"period_ms": 180_000, "ring": 3}, TEAMS)
    assert [(f["key"], f["label"], f["type"], f["value"]) for f in profile] == [
        ("period_ms", "Duração do tempo (min:s)", "duration", 180_000)]
    lance = amend_fields("lance_expired", {"side": "B", "warning": True, "ring": 2}, TEAMS)
    assert [f["key"] for f in lance] == ["side"]
    assert amend_fields("alarm", {"pattern": 2}, TEAMS) == []
    out = amend_fields("ball_out", {"zone": 4, "line": "side", "end": 1}, TEAMS)
    assert [(f["label"], f["type"]) for f in out] == [
        ("Zona da rede lateral", "number"), ("Linha", "choice"), ("Lado da mesa", "choice")]
    assert [o["label"] for o in out[1]["options"]] == ["linha lateral", "linha de fundo"]
    assert amend_fields("lost", {"kind": "goal_line", "count": 3}, TEAMS) == []
    added = amend_fields("added_time", {"ms": 60_000}, TEAMS, "en")
    assert [(f["label"], f["type"]) for f in added] == [("Time (min:s)", "duration")]


@pytest.mark.parametrize(("rule", "short", "full"), [
    ("000 Art. 8 §10", "CBFM 1 Toque, Art. 8 §10", "Regra CBFM 1 Toque, Art. 8 §10"),
    ("001 Art. XXI §1", "Regra Gaúcha, Art. XXI §1", "Regra Gaúcha (LGFM), Art. XXI §1"),
    ("003 Art. 29", "Pastilha 8x2, Art. 29", "Regra Pastilha 8x2 (FEFUMERJ / CBFM), Art. 29"),
    # 004's sections by their titles, quoted: never "A mesa está posta, A partida" as if one
    # name (walk45i-b, low)
    ("004 Sua vez", "A mesa está posta, «Sua vez»", "Regra «A mesa está posta», «Sua vez»"),
    ("004 A partida", "A mesa está posta, «A partida»",
     "Regra «A mesa está posta», «A partida»"),
    ("004", "A mesa está posta", "Regra «A mesa está posta»"),
    ("000 Regra 1 §3", "CBFM 1 Toque, Regra 1 §3", "Regra CBFM 1 Toque, Regra 1 §3"),
])
def test_citations_in_words(rule: str, short: str, full: str) -> None:
    assert cite(rule) == short
    assert cite(rule, full=True) == full
    assert plain(f"Gol! Alvorada — 1 × 0 ({rule})") == f"Gol! Alvorada — 1 × 0 ({short})"


def test_announcements_are_read_in_words() -> None:
    item = {"id": 1, "code": "time_up", "pt": "Acréscimo (000 Art. 8 §10)",
            "en": "Added (000 Art. 8 §10)", "rule": "000 Art. 8 §10"}
    shown = announcement(item)
    assert shown["pt"] == "Acréscimo (CBFM 1 Toque, Art. 8 §10)"
    assert shown["rule"] == "CBFM 1 Toque, Art. 8 §10"
    assert item["pt"] == "Acréscimo (000 Art. 8 §10)"  # the engine's own state is untouched


def test_names_for_tables_rulesets_and_zones() -> None:
    assert table_name("sim-SIM00001") == "Mesa 1"
    assert table_name("mesa-3") == "Mesa 3"
    assert table_name("pico-e66038b7132f5a2b", index=2) == "Mesa 2"
    assert table_name("pico-e66038b7132f5a2b", "Mesa Central") == "Mesa Central"
    # a Raspberry Pi table's id ends with its serial number, never a table number (issue 34)
    assert table_name("rpi-0000abc5", index=3) == "Mesa 3"
    assert table_name("sim-T1", lang="en") == "Table 1"
    assert ruleset_title("cbfm-1toque") == "CBFM — Regra 1 Toque"
    assert zone_city("America/Sao_Paulo") == "horário de São Paulo"
    assert zone_city(venue_zone("Europe/Lisbon"), "en") == "Lisbon time"


def test_times_are_in_the_venue_zone() -> None:
    stamp = 1_780_000_000_000  # 2026-05-28 20:26:40 UTC
    assert when(stamp) == "28/05/2026 17:26"  # São Paulo, the default
    assert when(stamp, venue_zone("Europe/Lisbon")) == "28/05/2026 21:26"
    assert when(stamp, venue_zone("Not/AZone")) == "28/05/2026 17:26"


def test_the_log_has_one_row_for_a_repeated_event() -> None:
    log = started()
    log.device("lance_started", {"side": "A"})
    log.device("lance_started", {"side": "A"})
    record = build_record(match_row(), log.rows)
    rows = build(record, timekeeping=True).table("log").rows  # type: ignore[union-attr]
    lance = [r for r in rows if "Lance de Alvorada iniciado" in r["what"]]
    assert len(lance) == 1 and lance[0]["what"].endswith("(2×)")
    assert lance[0]["number"] == "5–6"


def test_the_sumula_says_how_the_match_ended(tmp_path: Path) -> None:
    store = EventLog(tmp_path / "m.sqlite")
    first = store.new_match("sim-T1", "cbfm-1toque", {}, "")
    store.end_match(first)  # the referee started a new match before this one finished
    second = store.new_match("sim-T1", "cbfm-1toque", {}, "")
    library = MatchLibrary(store)
    meta = dict(build(library.match_record(first)).meta)
    assert meta["Situação"] == f"não concluída: substituída pela partida {second}"
    assert dict(build(library.match_record(second)).meta)["Situação"] == "em andamento"
    assert dict(build(library.match_record(first), "en").meta)["Status"] == \
        f"not completed: replaced by match {second}"
    listed = {m["id"]: m["ending"]["code"] for m in library.list_matches()}
    assert listed == {first: "replaced", second: "running"}
    store.close()


def test_a_match_ended_by_the_referee() -> None:
    """000 Art. 26 §1 C: the referee ends the match against a side (a forfeit)."""
    log = started()
    log.add("discipline", {"side": "B", "type": "end_match"})
    record = build_record(match_row(), log.rows)
    assert record["state"]["finished"]
    assert dict(build(record).meta)["Situação"] == "encerrada pelo árbitro"


def test_a_table_named_in_the_settings() -> None:
    from futmesa.config import validate_settings
    from futmesa.matchbook.live import names_of

    settings = validate_settings({"table_names": {"sim-SIM00002": "Mesa Central"},
                                  "table_name": "Mesa do canto"})
    assert names_of("sim-SIM00002", settings) == "Mesa Central"
    assert names_of("sim-SIM00009", settings) == "Mesa do canto"
    assert names_of("pico-e66038b7132f5a2b", {}) == "Mesa 1"


# the referee's words for the inputs the blind cases lacked (issue 44): 001 Art. XXXII §2,
# 003 Art. 37 §3, 000 Art. 26 §1 E, 004 Tiros de meta, 003 Art. 54 §2, 003 Art. 83 §3
NEW_INPUTS = [
    ("offside", {"side": "A", "disc": 6}, "Impedimento de Alvorada, botão 6",
     "Offside against Alvorada, disc 6"),
    ("shootout_kick", {"side": "B", "goalkeeper": True},
     "Pênalti da disputa: Botafogo, cobrado pelo goleiro",
     "Shootout penalty: Botafogo, by the goalkeeper"),
    ("set_piece_distance", {"side": "A", "disc": 3},
     "Cobrador de Alvorada, botão 3, a menos de 1 cm da bola",
     "Alvorada's kicking disc 3 less than 1 cm from the ball"),
    ("disc_moved", {"side": "B", "disc": 2}, "Botafogo moveu o botão 2 antes do reinício",
     "Botafogo moved disc 2 before the restart"),
    ("positions", {"side": "A", "part": "attack"}, "Alvorada arrumou seu ataque",
     "Alvorada arranged its attack"),
    ("positions", {"side": "B", "disc": "GK", "area": "small"},
     "Goleiro de Botafogo posicionado na pequena área",
     "Botafogo's goalkeeper placed in the small area"),
    ("touch", {"side": "A", "disc": 4, "shot": True}, "Chute batido por Alvorada, botão 4",
     "Shot struck by Alvorada, disc 4"),
    ("confirm", {"target": 3, "choice": "two_nil"}, "2 × 0", "2 × 0"),
    ("confirm", {"target": 3, "choice": "as_played"}, "o placar do momento",
     "the score of the moment"),
]


@pytest.mark.parametrize(("kind", "data", "pt", "en"), NEW_INPUTS)
def test_the_blind_cases_inputs_in_the_referees_words(kind: str, data: dict[str, Any],
                                                       pt: str, en: str) -> None:
    assert pt in sentence(kind, data, TEAMS, "pt")
    assert en in sentence(kind, data, TEAMS, "en")


def test_every_shot_outcome_the_console_offers_has_the_records_word() -> None:
    """Walk #45 H1: "bloqueada" on the button became "Chute sem gol: blocked" in Registro and
    súmula (an English code) beside the announcement's "interceptado por um botão"."""
    page = (Path(__file__).parents[2] / "host/futmesa/web/static/console.html").read_text()
    offered = re.findall(r'data-outcome="([a-z_]+)"', page)
    assert "blocked" in offered
    from futmesa.matchbook.wording import _WORDS

    assert set(offered) <= set(_WORDS["outcome"]), "an outcome the record shows as its code"
    assert sentence("shot_result", {"outcome": "blocked"}, TEAMS) == \
        "Chute sem gol: interceptado por um botão"
    assert 'data-outcome="blocked" class="outcome">{{ _("blocked by a disc") }}' in page


@pytest.mark.parametrize("lang,target_kind,means", [
    ("pt", "goal_line", "saída para Botafogo"), ("en", "goal_line", "kick-off to Botafogo"),
    ("pt", "period_over", "saída para Botafogo"),
    ("pt", "ball_out", "último toque de Botafogo"), ("en", "ball_out", "last touched by Botafogo"),
])
def test_a_team_answer_says_what_it_means(lang: str, target_kind: str, means: str) -> None:
    """Walk 45f M2: "Árbitro decide sobre o registro nº 17 (…): Internacional" left the reader
    to guess; the answer says what the team was chosen for (the kick-off, the last touch)."""
    asked = {17: {"kind": target_kind, "data": {"goal": 0, "side": "A"}, "period": 1}}
    text = sentence("confirm", {"target": 17, "choice": "B"}, TEAMS, lang, targets=asked)
    assert text.endswith(": " + means), text


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_the_last_lance_button_says_what_the_record_says(lang: str) -> None:
    """Walk 45f M6: the console's "■ Último lance terminado" became "Último lance encerrado"
    in Registro, súmula, /assinar and history: one act, one wording."""
    from futmesa.i18n import jinja_callables
    from futmesa.web.common import _pages

    html = _pages().get_template("console.html").render(
        lang=lang, html_lang=lang, rulesets=[], **jinja_callables(lang))
    said = sentence("lance_done", {}, TEAMS, lang)
    main = re.search(r'id="lance-done-main"[^>]*>■ ([^<]+)</button>', html)
    panel = re.search(r'id="act-lance-done">([^<]+) <kbd>D</kbd>', html)
    assert main and panel, "the last lance's buttons"
    assert main.group(1) == said and panel.group(1) == said, (main.group(1), said)
    assert said == ("Último lance terminado" if lang == "pt" else "Last lance over")
