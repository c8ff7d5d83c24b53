"""What the desk accepts from a table: a result for the match it was given, with a sane score.

A table is trusted for the match the desk assigned to it, and for nothing else. A result
message is refused (with one line in Portuguese saying why, for the desk's screen and log)
when it is not a JSON object of the expected shape, names another table's match, a match
not (or no longer) assigned to that table, a match that already has another result, or
carries a score that is not a small non-negative whole number. A forfeit or
disqualification the result reports is never applied by the desk on its own: it becomes a
referee's report the organiser confirms (``futmesa competition reports``).
"""

from __future__ import annotations

import json
from typing import Any

MAX_GOALS = 99  # no match of futebol de mesa ends with 100 goals to one side
MAX_ID = 2**63 - 1  # the largest SQLite INTEGER
MAX_RESULT_BYTES = 16 * 1024  # a result is a few hundred bytes
MAX_TEXT = 80


class Refused(ValueError):
    """A table's message the desk does not accept; ``str()`` is the reason, in Portuguese."""


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key, "")
    if value is None:
        value = ""
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise Refused(f'o campo "{key}" do resultado não é um texto curto')
    return value


def parse_result(table: str, payload: bytes) -> dict[str, Any]:
    """The result message a table published on its own result topic, checked for shape."""
    if len(payload) > MAX_RESULT_BYTES:
        raise Refused(f"mensagem de {len(payload)} bytes: um resultado tem poucas centenas")
    try:
        body = json.loads(payload)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused("mensagem ilegível (não é JSON)") from None
    if not isinstance(body, dict):
        raise Refused("mensagem ilegível (não é um objeto JSON)")
    uid, digest = body.get("uid"), body.get("digest")
    if not isinstance(uid, str) or not uid.startswith(f"{table}:") or len(uid) > 200:
        raise Refused(f"o resultado {str(uid)[:60]!r} não é de uma partida desta mesa")
    if not isinstance(digest, str) or not 1 <= len(digest) <= 64:
        raise Refused("resultado sem assinatura (digest)")
    cm = body.get("competition_match")
    if cm is not None and not (_int(cm) and 1 <= cm <= MAX_ID):
        raise Refused(f"número de partida impossível: {str(cm)[:30]}")
    for key in ("score_a", "score_b"):
        goals = body.get(key)
        if not (_int(goals) and 0 <= goals <= MAX_GOALS):
            raise Refused(f"placar impossível ({key} = {str(goals)[:30]}): gols são de 0 a "
                          f"{MAX_GOALS}")
    if body.get("winner") not in (None, "A", "B"):
        raise Refused(f"vencedor impossível: {str(body.get('winner'))[:30]}")
    for key in ("reason", "rule"):
        _text(body, key)
    if not isinstance(body.get("detail", {}), dict) or not isinstance(body.get("teams", {}),
                                                                      dict):
        raise Refused('os campos "detail" e "teams" do resultado devem ser objetos')
    if body.get("reason") == "time":
        a, b = body["score_a"], body["score_b"]
        expected = "A" if a > b else "B" if b > a else None
        if body.get("winner") != expected:
            raise Refused(f"resultado incoerente: {a} × {b} no tempo, vencedor "
                          f"{body.get('winner')}")
    return body


def check_assignment(table: str, body: dict[str, Any], match: dict[str, Any]) -> None:
    """Refused unless ``match`` (CompetitionDB.match) may take this table's result now."""
    cm = match["id"]
    if match["table_id"] is None:
        raise Refused(f"a partida {cm} ainda não foi dada a nenhuma mesa")
    if match["table_id"] != table:
        raise Refused(f"a partida {cm} foi dada à mesa {match['table_id']}, não a esta")
    status = match["status"]
    old = match.get("result")
    if status == "assigned":
        return
    if status == "finished" and old and old.get("uid") == body["uid"]:
        return  # the same table match, corrected after its end (a void or amend)
    if status == "finished":
        raise Refused(f"a partida {cm} já tem resultado (de {old['uid'] if old else '?'})")
    state = {"scheduled": "ainda não foi dada a nenhuma mesa", "walkover": "foi decidida "
             "por W.O. na mesa de controle", "abandoned": "foi abandonada (vale a repetição)"}
    raise Refused(f"a partida {cm} {state.get(status, status)}")


def disqualified_side(body: dict[str, Any]) -> str | None:
    """'A'/'B' when the result reports a disqualification (003 Art. 85) of that side."""
    loser = (body.get("detail") or {}).get("loser")
    if body.get("reason") == "forfeit" and "Art. 85" in str(body.get("rule", "")) \
            and loser in ("A", "B"):
        return str(loser)
    return None
