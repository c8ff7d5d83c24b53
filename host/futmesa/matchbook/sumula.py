"""The súmula (official match report, 003 Art. 25) as a model: header and tables of plain text.

Built from a match record (:meth:`MatchLibrary.match_record`); the renderers in
:mod:`futmesa.report` print it as HTML, PDF, CSV and JSON, so every format carries the same
tables: goals, penalty shoot-out, discipline, substitutions, corrections and the event log.
Goals come from the rules (``state.match.goals``), each entry's status from the engine's
corrections: what the súmula counts is what the score counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from futmesa.matchbook.proof import Proof, proof_of
from futmesa.matchbook.status import EntryStatus
from futmesa.matchbook.wording import (
    origin,
    ruleset_title,
    sentence,
    status_text,
    table_name,
    team,
    time_of_day,
    venue_zone,
    when,
    zone_city,
)

Record = dict[str, Any]
DISCIPLINE_KINDS = ("foul", "discipline", "offside")
SUBSTITUTION_KINDS = ("substitution",)
CORRECTION_KINDS = ("void", "amend")
SECRET_KINDS = ("keeper_choice",)  # 004: the goalkeeper's pick is secret until the kick


@dataclass
class Table:
    """One table of the súmula: a key, a title, column keys with headings, rows of text."""

    key: str
    title: str
    columns: list[tuple[str, str]]
    rows: list[dict[str, str]] = field(default_factory=list)
    struck: list[bool] = field(default_factory=list)

    @property
    def head(self) -> list[str]:
        return [h for _, h in self.columns]

    def cells(self) -> list[list[str]]:
        return [[row.get(k, "") for k, _ in self.columns] for row in self.rows]

    def add(self, struck: bool = False, /, **row: Any) -> None:
        self.rows.append({k: "" if v is None else str(v) for k, v in row.items()})
        self.struck.append(struck)


@dataclass
class Sumula:
    id: Any
    title: str
    result: str
    finished: bool
    ending: str
    teams: dict[str, str]
    score: dict[str, int]
    referee: str
    meta: list[tuple[str, str]]
    tables: list[Table]
    lang: str = "pt"
    proof: Proof | None = None  # signatures, the chain's final hash, the QR (proof.py)

    def table(self, key: str) -> Table | None:
        return next((t for t in self.tables if t.key == key), None)


# ---- reading a record --------------------------------------------------------------------
def redact_secrets(entries: list[dict[str, Any]],
                   teams: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Entries with the goalkeeper's secret choice hidden, for anything shown during a match."""
    out = []
    for e in entries:
        if e.get("kind") in SECRET_KINDS and isinstance(e.get("data"), dict):
            data = {k: ("secreta" if k == "choice" else v) for k, v in e["data"].items()}
            e = {**e, "data": data}
            for key, lang in (("text", "pt"), ("text_en", "en")):
                if key in e:
                    e[key] = sentence(e["kind"], data, teams or {}, lang)
        out.append(e)
    return out


def public_record(record: Record) -> Record:
    """The record as the world may see it now: secrets hidden until the match is over."""
    if (record.get("state") or {}).get("finished"):
        return record
    return {**record, "entries": redact_secrets(list(record.get("entries", [])),
                                                teams_of(record))}


def teams_of(record: Record) -> dict[str, Any]:
    teams = (record.get("state") or {}).get("teams") or record.get("match", {}).get("teams") or {}
    return {side: dict(teams.get(side) or {}) for side in ("A", "B")}


def final_score(record: Record) -> dict[str, int]:
    score = (record.get("state") or {}).get("score") or {}
    return {"A": int(score.get("A", 0) or 0), "B": int(score.get("B", 0) or 0)}


def status_of(entry: dict[str, Any]) -> EntryStatus:
    """The entry's status as the matchbook recorded it (older records: voided / amended_by)."""
    st = entry.get("status")
    if isinstance(st, dict):
        return EntryStatus(str(st.get("state") or "effective"), st.get("by"),
                           str(st.get("author") or ""), str(st.get("reason") or ""))
    if entry.get("voided"):
        return EntryStatus("voided")
    if entry.get("amended_by"):
        return EntryStatus("amended", entry["amended_by"])
    return EntryStatus()


def minute(clock_ms: Any) -> str:
    """Match minute as a referee writes it: 0:00–0:59 is the 1st minute."""
    if not isinstance(clock_ms, int | float):
        return ""
    return f"{int(clock_ms) // 60000 + 1}'"


def clock_text(clock_ms: Any) -> str:
    if not isinstance(clock_ms, int | float):
        return ""
    total = int(clock_ms) // 1000
    return f"{total // 60:02d}:{total % 60:02d}"


def period_text(period: Any, lang: str = "pt") -> str:
    if not isinstance(period, int) or period <= 0:
        return ""
    if period >= 3:
        return "Prorrogação" if lang == "pt" else "Extra time"
    return f"{period}º tempo" if lang == "pt" else f"{'1st' if period == 1 else '2nd'} half"


def _competition(settings: Any) -> str:
    if not isinstance(settings, dict):
        return ""
    formats = {"knockout": "mata-mata", "league": "pontos corridos"}
    parts = [str(settings.get("event") or ""),
             formats.get(str(settings.get("competition")), str(settings.get("competition") or ""))]
    return " — ".join(p for p in parts if p)


def _ending(record: Record, lang: str) -> str:
    match = record.get("match") or {}
    end = match.get("ending")
    if isinstance(end, dict) and end.get(lang):
        return str(end[lang])
    if (record.get("state") or {}).get("finished"):
        return "encerrada" if lang == "pt" else "ended"
    if match.get("ended_at"):
        return "interrompida antes do fim" if lang == "pt" else "stopped before the end"
    return "em andamento" if lang == "pt" else "in progress"


def _text(entry: dict[str, Any], teams: dict[str, Any], lang: str,
          by_id: dict[Any, dict[str, Any]]) -> str:
    key = "text" if lang == "pt" else "text_en"
    text = str(entry.get(key) or sentence(str(entry.get("kind", "")), entry.get("data"), teams,
                                          lang, period=entry.get("period"), targets=by_id))
    said = (entry.get("meaning_full" if lang == "pt" else "meaning_en_full")
            or entry.get("meaning" if lang == "pt" else "meaning_en"))
    if isinstance(said, list) and said:
        text += " — " + "; ".join(map(str, said))
    return text


def shootout_marks(record: Record) -> list[tuple[str, str, int]]:
    """(team, marks, total) per side from ``state.match.shootout``; [] when none was taken."""
    so = ((record.get("state") or {}).get("match") or {}).get("shootout")
    if not isinstance(so, dict):
        return []
    teams = teams_of(record)
    rows = []
    for side in ("A", "B"):
        kicks: list[Any] = []
        if isinstance(so.get(side), list):
            kicks = so[side]
        elif isinstance(so.get("kicks"), list):
            kicks = [k for k in so["kicks"] if isinstance(k, dict) and k.get("side") == side]
        scored = [_scored(k) for k in kicks]
        total = (so.get("tally") or so.get("score") or {}).get(side, sum(scored))
        rows.append((team(teams, side), " ".join("G" if s else "X" for s in scored), int(total)))
    if not any(marks for _, marks, _ in rows):
        return []
    return rows


def _scored(kick: Any) -> bool:
    if isinstance(kick, dict):
        for key in ("scored", "goal"):
            if key in kick:
                return bool(kick[key])
        return kick.get("result") in ("goal", True)
    return kick in (True, 1, "goal")


def counted_goals(record: Record) -> list[dict[str, Any]]:
    """The goals as the rules counted them (``state.match.goals``)."""
    counted = ((record.get("state") or {}).get("match") or {}).get("goals")
    return [g for g in counted if isinstance(g, dict)] if isinstance(counted, list) else []


def _table(table_id: Any, settings: Any, lang: str) -> str:
    s = settings if isinstance(settings, dict) else {}
    named = s.get("table_names") if isinstance(s.get("table_names"), dict) else {}
    return table_name(table_id, named.get(str(table_id)) or s.get("table_name"), lang=lang)


# ---- building the model ------------------------------------------------------------------
def build(record: Record, lang: str = "pt") -> Sumula:
    """The súmula of a match record, in ``lang`` ("pt" or "en")."""
    pt = lang != "en"
    match = record.get("match") or {}
    state = record.get("state") or {}
    settings = match.get("settings") or {}
    zone = venue_zone(settings.get("timezone") if isinstance(settings, dict) else None)
    teams = teams_of(record)
    names = {s: team(teams, s, lang) for s in ("A", "B")}
    score = final_score(record)
    entries = list(record.get("entries", []))
    by_id = {e.get("id"): e for e in entries}
    statuses = {e.get("id"): status_of(e) for e in entries}

    def L(p: str, e: str) -> str:  # noqa: N802
        return p if pt else e

    result = f"{names['A']} {score['A']} × {score['B']} {names['B']}"
    mid = match.get("id", state.get("match_id"))
    ruleset = str(match.get("ruleset") or state.get("ruleset") or "")
    meta = [
        (L("Competição", "Competition"), _competition(settings)),
        (L("Mesa", "Table"), _table(match.get("table_id"), settings, lang)),
        (L("Regra", "Rules"), ruleset_title(ruleset)),
        (L("Árbitro", "Referee"), str(match.get("referee") or "")),
        (L("Início", "Start"), when(match.get("created_at"), zone)),
        (L("Fim", "End"), when(match.get("ended_at"), zone)),
        (L("Situação", "Status"), _ending(record, lang)),
        (L("Hora local", "Local time"), zone_city(zone, lang)),
    ]

    goals = Table("goals", L("Gols", "Goals"), [
        ("period", L("Tempo", "Period")), ("minute", L("Minuto", "Minute")),
        ("team", L("Equipe", "Team")), ("disc", L("Botão", "Disc")),
        ("score", L("Placar", "Score"))])
    running = {"A": 0, "B": 0}
    for g in counted_goals(record):
        side = str(g.get("side"))
        if side in running:
            running[side] += 1
        who = names.get(side, side)
        if g.get("own_goal"):
            who += L(" (gol contra)", " (own goal)")
        goals.add(period=period_text(g.get("period"), lang), minute=minute(g.get("clock_ms")),
                  team=who, disc=g.get("disc") if g.get("disc") is not None else "—",
                  score=f"{running['A']} × {running['B']}", entry=g.get("entry"))

    tables = [goals]
    so = shootout_marks(record)
    if so:
        shootout = Table("shootout", L("Disputa de pênaltis", "Penalty shoot-out"), [
            ("team", L("Equipe", "Team")),
            ("kicks", L("Cobranças (G = gol, X = perdido)", "Kicks (G = goal, X = missed)")),
            ("total", "Total")])
        for name, marks, total in so:
            shootout.add(team=name, kicks=marks, total=total)
        tables.append(shootout)

    discipline = Table("discipline", L("Faltas e disciplina", "Fouls and discipline"), [
        ("period", L("Tempo", "Period")), ("minute", L("Minuto", "Minute")),
        ("team", L("Equipe", "Team")), ("what", L("Ocorrência", "What happened"))])
    subs = Table("substitutions", L("Substituições", "Substitutions"), [
        ("period", L("Tempo", "Period")), ("minute", L("Minuto", "Minute")),
        ("team", L("Equipe", "Team")), ("out", L("Sai", "Off")), ("in", L("Entra", "On"))])
    corrections = Table("corrections", L("Correções", "Corrections"), [
        ("number", "Nº"), ("kind", L("Tipo", "Kind")),
        ("target", L("Registro corrigido", "Entry corrected")),
        ("now", L("Passa a ser", "Now reads")), ("author", L("Autor", "By")),
        ("reason", L("Motivo", "Reason")), ("status", L("Situação", "Status"))])
    for e in entries:
        st = statuses[e.get("id")]
        kind = str(e.get("kind") or "")
        data: dict[str, Any] = e["data"] if isinstance(e.get("data"), dict) else {}
        if st.state == "amended" and st.by in by_id:
            amend = by_id[st.by].get("data") or {}
            if isinstance(amend.get("data"), dict):
                data = amend["data"]
                kind = str(amend.get("kind") or kind)
        entry_side = str(data.get("side"))
        when_cols: dict[str, Any] = {"period": period_text(e.get("period"), lang),
                     "minute": minute(e.get("clock_ms"))}
        if kind in DISCIPLINE_KINDS and st.counts:
            text = sentence(str(kind), data, teams, lang, period=e.get("period"))
            discipline.add(**when_cols, team=names.get(entry_side, ""), what=text)
        elif kind in SUBSTITUTION_KINDS and st.counts:
            subs.add(**when_cols, team=names.get(entry_side, ""), out=data.get("out", ""),
                     **{"in": data.get("in", "")})
        elif kind in CORRECTION_KINDS:
            target = by_id.get(data.get("target")) or {}
            target = {k: v for k, v in target.items() if k not in ("meaning", "meaning_en",
                                                                "meaning_full", "meaning_en_full")}
            new = ""
            if kind == "amend" and isinstance(data.get("data"), dict):
                new_kind = data.get("kind") or target.get("kind") or ""
                new = sentence(str(new_kind), data["data"], teams, lang,
                               ends=target.get("ends"))
            situation = _correction_status(st, lang)
            corrections.add(
                not st.counts, number=e.get("id"),
                kind=L("Anulação", "Void") if kind == "void" else L("Correção", "Amendment"),
                target=(f"{L('nº', 'no.')} {data.get('target')} — "
                        + (_text(target, teams, lang, by_id) if target else "?")),
                now=new, author=origin(e.get("source"), e.get("author"), lang),
                reason=data.get("reason", ""), status=situation)
    expelled = ((state.get("match") or {}).get("expelled"))
    if isinstance(expelled, dict):
        for side in ("A", "B"):
            discs = expelled.get(side)
            if discs:
                many = isinstance(discs, list) and len(discs) > 1
                shown = (", ".join(L("a definir", "to be named") if d is None else str(d)
                                   for d in discs) if isinstance(discs, list) else str(discs))
                discipline.add(team=names[side],
                               what=L(f"Expulsos até o fim: botões {shown}" if many
                                      else f"Expulso até o fim: botão {shown}",
                                      f"Sent off: discs {shown}" if many
                                      else f"Sent off: disc {shown}"))
    tables += [discipline, subs, corrections, _log_table(entries, statuses, teams, lang, by_id,
                                                         zone)]
    return Sumula(
        id=mid, title=L(f"Súmula da partida nº {mid}", f"Match report no. {mid}"),
        result=result, finished=bool(state.get("finished")), ending=_ending(record, lang),
        teams=names, score=score, referee=str(match.get("referee") or ""), meta=meta,
        tables=tables, lang=lang, proof=proof_of(record, lang))


def _correction_status(st: EntryStatus, lang: str) -> str:
    """A correction's own status, short: in effect, voided by…, or replaced by…."""
    pt = lang != "en"
    by = f" nº {st.by}" if st.by is not None else ""
    who = f" ({st.author})" if st.author else ""
    if st.state == "voided":
        return f"anulada pelo{by}{who}" if pt else f"voided by no.{by[3:]}{who}"
    if st.state == "without_effect":
        return (f"sem efeito: substituída pelo{by}" if by else "sem efeito") if pt else (
            f"no effect: replaced by no.{by[3:]}" if by else "no effect")
    return "em vigor" if pt else "in effect"


def _log_table(entries: list[dict[str, Any]], statuses: dict[Any, EntryStatus],
               teams: dict[str, Any], lang: str, by_id: dict[Any, dict[str, Any]],
               zone: Any) -> Table:
    pt = lang != "en"
    log = Table("log", "Registro de eventos" if pt else "Event log", [
        ("number", "Nº"), ("time", "Hora" if pt else "Time"),
        ("period", "Tempo" if pt else "Period"), ("clock", "Relógio" if pt else "Clock"),
        ("what", "Ocorrência" if pt else "What happened"), ("origin", "Origem" if pt else "By"),
        ("status", "Situação" if pt else "Status")])
    previous: tuple[str, str, str] | None = None
    repeats = 1
    for e in entries:
        st = statuses[e.get("id")]
        text = _text(e, teams, lang, by_id)
        who = origin(e.get("source"), e.get("author"), lang)
        key = (text, who, st.state)
        if key == previous and log.rows:
            # the same thing said twice in a row (a lance timer restarted twice): one row
            repeats += 1
            row = log.rows[-1]
            first = row["number"].split("–")[0]
            row["number"] = f"{first}–{e.get('id')}"
            row["what"] = f"{text} ({repeats}×)"
            continue
        previous, repeats = key, 1
        log.add(not st.counts, number=e.get("id"),
                time=time_of_day(e.get("occurred_at") or e.get("created_at"), zone),
                period=period_text(e.get("period"), lang), clock=clock_text(e.get("clock_ms")),
                what=text, origin=who, status=status_text(st.to_dict(), lang))
    return log
