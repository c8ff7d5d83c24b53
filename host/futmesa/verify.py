"""``futmesa verify``: the hash chains of an event log, and a JSON súmula against itself and
against the log. Every check says in one Portuguese line what it found; the first entry that
does not match is named.

The database is opened read-only: checking a file never changes it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from futmesa import chain
from futmesa.matchbook.signing import signatures


def open_readonly(path: str | Path) -> sqlite3.Connection:
    """The event log, read-only; SystemExit with what to do when it is not one."""
    try:
        db = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
        db.execute("SELECT id FROM entries LIMIT 1").fetchall()
    except sqlite3.DatabaseError as exc:
        raise SystemExit(f"erro: {path} não é um banco de dados do futmesa ({exc}); "
                         "passe o arquivo gravado por futmesa serve em --db") from None
    return db


def _check_line(check: chain.ChainCheck) -> str:
    if not check.ok:
        return f"partida {check.match_id}: NÃO confere — {check.problem}"
    text = (f"partida {check.match_id}: a cadeia confere — {check.chained} registros "
            f"encadeados, hash final {chain.short(check.final_hash) or '—'}")
    if check.unchained:
        text += (f"; {check.unchained} registros gravados antes da cadeia existir "
                 "não estão encadeados (sem prova, não é erro)")
    return text


def verify_db(path: str | Path, match_id: int | None = None) -> tuple[bool, list[str]]:
    """Check every match's chain (or one match's); (all good, one line per match)."""
    db = open_readonly(path)
    try:
        ids = [int(r[0]) for r in db.execute("SELECT id FROM matches ORDER BY id")]
        if match_id is not None:
            if match_id not in ids:
                return False, [f"erro: não há partida {match_id} em {path} "
                               "(futmesa matches --db F lista as partidas)"]
            ids = [match_id]
        checks = [chain.check_match(db, mid) for mid in ids]
    finally:
        db.close()
    if not checks:
        return True, [f"{path}: nenhuma partida gravada"]
    return all(c.ok for c in checks), [_check_line(c) for c in checks]


def _signature_keys(items: list[Any]) -> list[tuple[Any, ...]]:
    return [(s.get("entry"), s.get("role"), s.get("name"), s.get("signs"), bool(s.get("valid")))
            for s in items if isinstance(s, dict)]


def verify_sumula(path: str | Path, db_path: str | Path | None = None) -> tuple[bool, list[str]]:
    """Check a JSON súmula: its entries give its final hash and its signatures; with the
    database, the match stored there is the same match (same hashes, same final hash)."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        match_id = int(doc["match"]["id"])
        entries = [e for e in doc["entries"] if isinstance(e, dict)]
        claimed = doc.get("chain") or {}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return False, [f"erro: {path} não é uma súmula JSON do futmesa ({exc}); gere-a com "
                       "futmesa report PARTIDA --json F"]
    try:
        check = chain.check_record_entries(match_id, entries)
    except (ValueError, TypeError, KeyError) as exc:
        return False, [f"súmula {path}: NÃO confere — um registro está ilegível ({exc})"]
    if not check.ok:
        return False, [f"súmula {path}: NÃO confere — {check.problem}"]
    lines = []
    if check.final_hash != claimed.get("final_hash"):
        return False, [f"súmula {path}: NÃO confere — o hash final impresso "
                       f"({chain.short(str(claimed.get('final_hash') or '')) or '—'}) não é o "
                       f"dos registros ({chain.short(check.final_hash) or '—'})"]
    derived = _signature_keys([s.to_dict() for s in signatures(entries)])
    if derived != _signature_keys(doc.get("signatures") or []):
        return False, [f"súmula {path}: NÃO confere — as assinaturas listadas não são as dos "
                       "registros"]
    lines.append(f"súmula {path}: confere consigo mesma — {check.chained} registros, "
                 f"hash final {chain.short(check.final_hash) or '—'}, "
                 f"{sum(1 for s in derived if s[4])} assinatura(s) válida(s)")
    if db_path is None:
        return True, lines
    db = open_readonly(db_path)
    try:
        stored = chain.check_match(db, match_id)
    finally:
        db.close()
    if not stored.entries:
        return False, lines + [f"banco {db_path}: não há a partida {match_id}"]
    if not stored.ok:
        return False, lines + [f"banco {db_path}: " + _check_line(stored)]
    for eid, (_, digest) in check.hashes.items():
        held = stored.hashes.get(eid)
        if held is None or held[1] != digest:
            return False, lines + [f"banco {db_path}: o registro nº {eid} da súmula não é o "
                                   "gravado no banco"]
    if stored.final_hash != check.final_hash:
        extra = stored.chained - check.chained
        return False, lines + [f"banco {db_path}: a partida {match_id} tem {extra} registro(s) "
                               "gravado(s) depois desta súmula (hash final "
                               f"{chain.short(stored.final_hash)}): peça a súmula nova"]
    return True, lines + [f"banco {db_path}: a partida {match_id} é a mesma da súmula "
                          f"(hash final {chain.short(stored.final_hash)})"]
