"""The answer to every referee input says what the rules stored, in the Registro's words
(walk 45h-b B6): the console's result line reads it — the fact and its consequence, never a
bare "nº 22" nor the button's own label. Real daemon, real SQLite, the rules of
cbfm-1toque."""

from __future__ import annotations

from pathlib import Path

from test_daemon_referee import _shot_asked

from futmesa.web.console import entry_view


def _row(daemon, entry_id: int, lang: str) -> dict:
    live = daemon.book.live_log
    record = next(e for e in live.since(None, -1)["entries"] if e["id"] == entry_id)
    return entry_view(record, live.teams, {}, lang)


def test_every_answer_says_the_registro_words_of_what_it_stored(tmp_path: Path) -> None:
    daemon, _device = _shot_asked(tmp_path, 10)
    daemon.referee("shot_result", {"outcome": "saved"}, "ref")
    foul = daemon.referee("foul", {"side": "A", "disc": 4, "type": "falta",
                                   "where": "own_half"}, "ref")
    card = daemon.referee("discipline", {"side": "B", "disc": 7, "type": "disciplinary"}, "ref")
    void = daemon.referee("void", {"target": foul["entry_id"], "reason": "engano"}, "ref")
    for answer in (foul, card, void):
        for lang in ("pt", "en"):
            said = answer["said"][lang]
            row = _row(daemon, answer["entry_id"], lang)
            # the Registro row's sentence (or its fact in the account, which says more) first
            assert said.startswith((row["text"], *row["fact_lines"][:1])), (said, row)
            assert "nº" not in said.replace(row["text"], ""), said
    # the foul's consequence, in the rules' words: the kick and for whom
    assert "Falta de" in foul["said"]["pt"] and "indireta" in foul["said"]["pt"], foul["said"]
    assert "Falta disciplinar" in card["said"]["pt"] and "botão 7" in card["said"]["pt"], \
        card["said"]
    # a void names what it voided in words, not only its row's number
    assert "Falta de Time A, botão 4" in void["said"]["pt"] and "Anula" in void["said"]["pt"], \
        void["said"]
