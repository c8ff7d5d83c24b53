"""A signature for one of the table's earlier matches (walk 45g G8): a match played to its end
and not signed before "Nova partida" is signed afterwards on /assinar. It is checked as the
current match's are (matchbook/signing.py: the role, the name, the drawing, the hash the signer
saw) and stored in that match's own log, chained there; only signatures — a correction or a
reopening is the current match's alone."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from futmesa.hub import RefusedError
from futmesa.i18n import N_
from futmesa.matchbook.book import load_state
from futmesa.matchbook.signing import over, signable_hashes, signed_result
from futmesa.matchbook.signing import refusal as closing_refusal

if TYPE_CHECKING:
    from futmesa.table.daemon import TableDaemon

LANGS = ("pt", "en")


def sign_earlier(t: TableDaemon, match_id: Any, data: dict[str, Any], author: str,
                 input_id: str | None) -> dict[str, Any]:
    """Store the signature ``data`` in this table's earlier match ``match_id``, or refuse it."""
    try:
        match = t.store.match(int(match_id))
    except (TypeError, ValueError):
        match = None
    if match is None or t.match is None or match["table_id"] != t.match["table_id"]:
        raise RefusedError.words(N_("no match no. {id} on this table: choose the match "
                                    "from the list on the signing page"), id=match_id)
    mid = int(match["id"])
    stored = t.store.entries(mid)

    def said(lang: str | None = None) -> str | None:
        return closing_refusal(
            "signature", data, list(stored),
            finished=lambda: over(load_state(match, stored).to_dict().get("finished"),
                                  match.get("ended_at")),
            signable=lambda: signable_hashes(list(t.store.chain_rows(mid).values())), lang=lang)

    refused = said()
    if refused:
        raise RefusedError(refused, {lang: said(lang) or refused for lang in LANGS})
    data = {**data, "result": signed_result(load_state(match, stored).m)}
    last = stored[-1] if stored else None
    entry_id = t.store.append_entry(mid, "referee", "signature", data,
                                    last.period if last else 0, last.clock_ms if last else 0,
                                    author, occurred_at=time.time() * 1000, input_id=input_id)
    return {"ok": True, "entry_id": entry_id, "match_id": mid, "state": t.state_json()}
