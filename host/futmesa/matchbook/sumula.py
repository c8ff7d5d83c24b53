"""The súmula (official match report, 003 Art. 25) as a model: header and tables of plain text.

Built from a match record (:meth:`MatchLibrary.match_record`); the renderers in
:mod:`futmesa.report` print it as HTML, PDF, CSV and JSON, so every format carries the same
tables: the account of the match, goals, penalty shoot-out, discipline, substitutions,
corrections and the event log. The account, the goals, the discipline and the substitutions
are the record's account (:mod:`.account`: the facts the console, the signing page and the
history list too, in the same words); each entry's status comes from the engine's
corrections: what the súmula counts is what the score counts. The lance timer's rows fold
away from the event log unless asked for (``timekeeping``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from futmesa.i18n import translator
from futmesa.matchbook.account import (
    Context,
    account,
    amended_form,
    entry_facts,
    goals_by_entry,
    minute,
    period_text,
)
from futmesa.matchbook.keeper_secret import redact_secrets
from futmesa.matchbook.numbers import number_of, with_numbers
from futmesa.matchbook.proof import Proof, proof_of
from futmesa.matchbook.status import EntryStatus
from futmesa.matchbook.wording import (
    clip_cited,
    clock_text,
    goal_named,
    origin,
    person,
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
CORRECTION_KINDS = ("void", "amend")
__all__ = ["Sumula", "Table", "build", "clock_text", "minute", "period_text", "public_record"]


@dataclass
class Table:
    """One table of the súmula: a key, a title, column keys with headings, rows of text."""

    key: str
    title: str
    columns: list[tuple[str, str]]
    rows: list[dict[str, str]] = field(default_factory=list)
    struck: list[bool] = field(default_factory=list)
    # a sentence said under the table, in no row of it (the lance timer's rows folded away)
    note: str = ""

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


def _competition(settings: Any, lang: str) -> str:
    """The event's name; a knockout says so ("— mata-mata": extra time and penalties), a
    league is the default play and adds nothing (walk 45g G2: "Nova partida"'s form named the
    league the first match played without a word, and the name grew "— pontos corridos")."""
    if not isinstance(settings, dict):
        return ""
    _ = translator(lang).gettext
    parts = [str(settings.get("event") or "")]
    if settings.get("competition") == "knockout":
        parts.append(_("knockout"))
    return " — ".join(p for p in parts if p)


def _ending(record: Record, lang: str) -> str:
    match = record.get("match") or {}
    end = match.get("ending")
    if isinstance(end, dict) and end.get(lang):
        return str(end[lang])
    _ = translator(lang).gettext
    if (record.get("state") or {}).get("finished"):
        return _("ended")
    if match.get("ended_at"):
        return _("stopped before the end")
    return _("in progress")


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
def facts_of(record: Record) -> list[dict[str, Any]]:
    """The record's account of the match (made with the record; for a record made without it,
    a hand-made or an older one, from its entries and the goals the rules counted)."""
    kept = record.get("account")
    if isinstance(kept, list):
        return list(kept)
    teams = teams_of(record)
    goals = goals_by_entry((record.get("state") or {}).get("match") or {})
    entries = []
    numbered = with_numbers(list(record.get("entries", [])))
    by_id = {e.get("id"): e for e in numbered}
    for e in numbered:
        if not isinstance(e.get("facts"), list):
            st = status_of(e)
            amend = by_id.get(st.by) if st.state == "amended" else None
            e = {**e, "status": st.to_dict(), "amended": amended_form(e, amend)}
            for lang, key in (("pt", "text"), ("en", "text_en")):
                e[key] = e.get(key) or sentence(str(e.get("kind") or ""), e.get("data"), teams,
                                                lang, period=e.get("period"), targets=by_id)
            e["facts"] = entry_facts(e, Context(goal=goals.get(e.get("id"))), teams)
        entries.append(e)
    return account(entries)


def build(record: Record, lang: str = "pt", *, timekeeping: bool = False) -> Sumula:
    """The súmula of a match record, in ``lang`` ("pt" or "en"); ``timekeeping``: the lance
    timer's rows in the event log too (folded away by default)."""
    match = record.get("match") or {}
    state = record.get("state") or {}
    settings = match.get("settings") or {}
    zone = venue_zone(settings.get("timezone") if isinstance(settings, dict) else None)
    teams = teams_of(record)
    names = {s: team(teams, s, lang) for s in ("A", "B")}
    score = final_score(record)
    entries = with_numbers(list(record.get("entries", [])))  # each with its nº in the match
    by_id = {e.get("id"): e for e in entries}
    statuses = {e.get("id"): status_of(e) for e in entries}
    facts = facts_of(record)
    _ = translator(lang).gettext
    mid = match.get("id", state.get("match_id"))
    tables = [_account_table(facts, lang), _goals_table(facts, names, lang)]
    so = shootout_marks(record)
    if so:
        shootout = Table("shootout", _("Penalty shoot-out"), [
            ("team", _("Team")),
            ("kicks", _("Kicks (G = goal, X = missed)")),
            ("total", "Total")])
        for name, marks, total in so:
            shootout.add(team=name, kicks=marks, total=total)
        tables.append(shootout)
    discipline, subs = _fact_tables(facts, names, lang)
    _expelled_rows(discipline, state, names, lang)
    clips = _clips_table(entries, by_id, facts, lang)
    tables += [discipline, subs, _corrections_table(entries, statuses, by_id, teams, lang),
               *([clips] if clips.rows else []),
               _log_table(entries, statuses, teams, lang, by_id, zone, timekeeping, mid)]
    return Sumula(
        id=mid, title=_("Match report no. {number}").format(number=mid),
        result=f"{names['A']} {score['A']} × {score['B']} {names['B']}",
        finished=bool(state.get("finished")), ending=_ending(record, lang),
        teams=names, score=score, referee=str(match.get("referee") or ""),
        meta=_meta(record, match, state, settings, zone, lang),
        tables=tables, lang=lang, proof=proof_of(record, lang))


def _meta(record: Record, match: dict[str, Any], state: dict[str, Any],
          settings: Any, zone: Any, lang: str) -> list[tuple[str, str]]:
    """The súmula's head: competition, table, rules, referee, when the match was made and
    kicked off, its end, status, time zone."""
    _ = translator(lang).gettext
    ruleset = str(match.get("ruleset") or state.get("ruleset") or "")
    return [
        (_("Competition"), _competition(settings, lang)),
        (_("Table"), _table(match.get("table_id"), settings, lang)),
        (_("Rules"), ruleset_title(ruleset)),
        (_("Referee"), str(match.get("referee") or "")),
        (_("Created"), when(match.get("created_at"), zone)),
        (_("Kick-off"), when(kick_off(record.get("entries") or []), zone)),
        (_("End"), when(match.get("ended_at"), zone)),
        (_("Status"), _ending(record, lang)),
        (_("Local time"), zone_city(zone, lang)),
    ]


# the 1st period's start: the table's, else the referee's (a table that never said it)
KICK_OFF_KINDS = ("period_started", "start_period")


def kick_off(entries: list[dict[str, Any]]) -> Any:
    """When the match kicked off — its 1st period's start in force (walk 49b L5: the head's
    "Início" was the match made, "Mesa configurada", a minute before) — or None."""
    for kind in KICK_OFF_KINDS:
        for e in entries:
            if e.get("kind") == kind and e.get("period") == 1 and status_of(e).counts:
                return e.get("occurred_at") or e.get("created_at")
    return None


def _said(fact: dict[str, Any], lang: str) -> tuple[str, str]:
    return (str(fact.get("when" if lang == "pt" else "when_en") or ""),
            str(fact.get("text" if lang == "pt" else "text_en") or ""))


def _account_table(facts: list[dict[str, Any]], lang: str) -> Table:
    """The account of the match: every fact in the referee's words, struck when it no longer
    counts (a void undone, a voided foul)."""
    _ = translator(lang).gettext
    table = Table("account", _("The match"), [("when", _("When")), ("what", _("What happened"))])
    for f in facts:
        place, text = _said(f, lang)
        table.add(bool(f.get("struck")), when=place, what=text)
    return table


def _goals_table(facts: list[dict[str, Any]], names: dict[str, str], lang: str) -> Table:
    """Every goal that counts, with the score after it, and every goal the referee voided,
    struck, with its account."""
    _ = translator(lang).gettext
    goals = Table("goals", _("Goals"), [
        ("when", _("When")), ("team", _("Team")), ("disc", _("Disc")),
        ("score", _("Score")), ("what", _("What happened"))])
    for f in facts:
        voided = f.get("kind") == "void_goal" and not f.get("struck")
        g = f.get("goal") if isinstance(f.get("goal"), dict) else None
        if g is None or not (f.get("kind") == "goal" or voided):
            continue
        score = g.get("score") or {}
        who = names.get(str(g.get("side")), str(g.get("side")))
        if g.get("own_goal"):  # the point's team, and whose own goal it was (walk 47a L2)
            conceder = "B" if str(g.get("side")) == "A" else "A"
            who += _(" (own goal by {team})").format(team=names.get(conceder, conceder))
        place, text = _said(f, lang)
        goals.add(voided, when=place, team=who,
                  disc=g.get("disc") if g.get("disc") is not None else "—",
                  score=f"{score.get('A', 0)} × {score.get('B', 0)}", what=text,
                  entry=g.get("entry"))
    return goals


def _fact_tables(facts: list[dict[str, Any]], names: dict[str, str],
                 lang: str) -> tuple[Table, Table]:
    """Fouls and discipline (also a foul answered to the table's question), substitutions:
    the account's facts of each."""
    _ = translator(lang).gettext
    discipline = Table("discipline", _("Fouls and discipline"), [
        ("when", _("When")), ("team", _("Team")), ("what", _("What happened"))])
    subs = Table("substitutions", _("Substitutions"), [
        ("when", _("When")), ("team", _("Team")), ("out", _("Off")), ("in", _("On")),
        ("what", _("What happened"))])
    for f in facts:
        place, text = _said(f, lang)
        side = names.get(str(f.get("side")), "")
        if f.get("kind") == "discipline":
            discipline.add(bool(f.get("struck")), when=place, team=side, what=text)
        elif f.get("kind") == "substitution":
            subs.add(bool(f.get("struck")), when=place, team=side, out=f.get("out"),
                     what=text, **{"in": f.get("in")})
    return discipline, subs


def _corrections_table(entries: list[dict[str, Any]], statuses: dict[Any, EntryStatus],
                       by_id: dict[Any, dict[str, Any]], teams: dict[str, Any],
                       lang: str) -> Table:
    """Every void and amendment: who, what, why, and whether it still stands."""
    _ = translator(lang).gettext
    corrections = Table("corrections", _("Corrections"), [
        ("number", "Nº"), ("kind", _("Kind")),
        ("target", _("Entry corrected")),
        ("now", _("Now reads")), ("author", _("By")),
        ("reason", _("Reason")), ("status", _("Status"))])
    for e in entries:
        kind = str(e.get("kind") or "")
        if kind in CORRECTION_KINDS:
            data: dict[str, Any] = e["data"] if isinstance(e.get("data"), dict) else {}
            _correction_row(corrections, e, kind, data, statuses[e.get("id")], by_id, teams,
                            lang)
    return corrections


def _correction_row(corrections: Table, e: dict[str, Any], kind: str, data: dict[str, Any],
                    st: EntryStatus, by_id: dict[Any, dict[str, Any]], teams: dict[str, Any],
                    lang: str) -> None:
    _ = translator(lang).gettext
    target = by_id.get(data.get("target")) or {}
    target = {k: v for k, v in target.items() if k not in ("meaning", "meaning_en",
                                                        "meaning_full", "meaning_en_full")}
    # the entry corrected as it was logged: what it reads now is the "Passa a ser" (M-a)
    before = {**target, **{key: target[was] for key, was in (("text", "logged"),
                                                             ("text_en", "logged_en"))
                           if target.get(was)}}
    corrections.add(
        not st.counts, number=e.get("no"),
        kind=_correction_kind(kind, str(target.get("kind") or ""), lang),
        target=(_("no. {number}").format(number=number_of(data.get("target"), by_id)) + " — "
                + (goal_named({"goal_words": e.get("goal_was")}, lang)
                   or (e.get("target_was") or {}).get("en" if lang == "en" else "pt")
                   or (_named(before, teams, lang, by_id) if target else "?"))),
        now=_given_back(e, lang) or _after(kind, data, target, teams, lang, by_id,
                                           e.get("goal_was") if st.counts else None,
                                           in_effect=st.counts),
        author=origin(e.get("source"), e.get("author"), lang),
        reason=(str(data.get("reason", "")) + clip_cited(data, by_id, lang)).strip(),
        status=_correction_status(st, lang, by_id))


def _given_back(e: dict[str, Any], lang: str) -> str:
    """An undone correction's "Passa a ser" when an earlier correction's value comes back
    (records.undone_to: "… entra o 13", never "Volta a valer como registrado: … 12"), else ""."""
    what = (e.get("undone_to") or {}).get("en" if lang == "en" else "pt")
    return translator(lang).gettext("Counts again as the earlier correction left it: "
                                    "{what}").format(what=what) if what else ""


def _named(entry: dict[str, Any], teams: dict[str, Any], lang: str,
           by_id: dict[Any, dict[str, Any]]) -> str:
    """An entry as a correction names it: the goal it counted, else its own sentence."""
    return goal_named(entry, lang) or _text(entry, teams, lang, by_id)


def _after(kind: str, data: dict[str, Any], target: dict[str, Any], teams: dict[str, Any],
           lang: str, by_id: dict[Any, dict[str, Any]], goal_was: Any = None,
           in_effect: bool = False) -> str:
    """What a correction made of its entry, in words (the "Passa a ser" column: walk #45g G5):
    the fact the amended entry now is, in effect as the rules made it (walk45h-a A3: "Falta
    técnica de Botafogo (passou do tempo do lance): …"; else its amended sentence), "Anulado: o
    gol não vale",
    or what its undo gives back."""
    _ = translator(lang).gettext
    if kind == "amend":
        if not isinstance(data.get("data"), dict):
            return ""
        if goal_was and goal_named(target, lang):  # a goal's row in effect: the goal it
            return goal_named(target, lang)  # makes now ("… botão 9" → "… botão 7", B5)
        new_kind = data.get("kind") or target.get("kind") or ""
        said = sentence(str(new_kind), data["data"], teams, lang, ends=target.get("ends"))
        facts = [f for f in target.get("facts") or [] if in_effect and not f.get("struck")]
        # the fact it now is, as its row's headline says it — «Falta de X …: Tiro livre para
        # Y», «Falta disciplinar de X: punida com falta técnica, botão 7» —, what it caused
        # after; its bare sentence only when no fact says it — never twice (walk45i-b M-b)
        said_now = [str(f.get("text" if lang == "pt" else "text_en") or "") for f in facts]
        own = any(not f.get("caused") for f in facts)
        # (a fact that is the sentence itself, "Substituição …: entra o 13", is said: walk45i-a
        # M4 found 'Passa a ser' empty for it)
        parts = said_now if own else [said, *(f for f in said_now if f != said)]
        return " — ".join(dict.fromkeys(p for p in parts if p))
    inner = target.get("data") if isinstance(target.get("data"), dict) else {}
    back = by_id.get(inner.get("target")) or {}
    if target.get("kind") == "void":
        return _("{what} counts again").format(
            what=_named(back, teams, lang, by_id) if back else "?")
    if target.get("kind") == "amend":
        return _("Reads as logged again: {what}").format(
            what=sentence(str(back.get("kind") or ""), back.get("data"), teams, lang,
                          period=back.get("period"), ends=back.get("ends")) if back else "?")
    if goal_named(target, lang):
        return _("Voided: the goal does not count")
    return _("Voided: it no longer counts")


def _correction_kind(kind: str, target_kind: str, lang: str) -> str:
    """A correction's Tipo as the console says it: a void of a void or of an amendment undoes
    it ("Anulação desfeita", "Correção desfeita"), never a second "Anulação" (walk 45f M3)."""
    _ = translator(lang).gettext
    if kind == "void" and target_kind == "void":
        return _("Void undone")
    if kind == "void" and target_kind == "amend":
        return _("Correction undone")
    return _("Void") if kind == "void" else _("Amendment")


def _clips_table(entries: list[dict[str, Any]], by_id: dict[Any, dict[str, Any]],
                 facts: list[dict[str, Any]], lang: str) -> Table:
    """Every clip of the match (docs/camera.md): the entry it shows, its length, its whole
    SHA-256 (what `futmesa verify` checks the file against), and the entries that cite it —
    or why there is none."""
    _ = translator(lang).gettext
    clips = Table("clips", _("Video clips"), [
        ("number", "Nº"), ("shows", _("What it shows")), ("length", _("Length")),
        ("sha256", "SHA-256"), ("cited", _("Cited by"))])
    citing: dict[Any, list[str]] = {}
    for e in entries:
        data = e.get("data") if isinstance(e.get("data"), dict) else {}
        if isinstance(data.get("clip"), int):
            citing.setdefault(data["clip"], []).append(_("no. {number}").format(
                number=e.get("no")))
    for e in entries:
        data = e.get("data") if isinstance(e.get("data"), dict) else {}
        if e.get("kind") != "clip":
            continue
        shown = by_id.get(data.get("shows")) or {}
        # what it shows in the account's words ("Gol de …", and its void when voided)
        said = "; ".join(_said(f, lang)[1] for f in facts if data.get("shows") in (
            f.get("entry"), (f.get("goal") or {}).get("entry")))
        what = (_("no. {number}").format(number=number_of(data.get("shows"), by_id)) + " — "
                + (said or str(shown.get("text" if lang == "pt" else "text_en") or "?")))
        digest = str(data.get("sha256") or "")
        if digest:
            seconds = max(0, int(data.get("to_ms", 0)) - int(data.get("from_ms", 0))) / 1000
            length = f"{seconds:.1f} s".replace(".", "," if lang == "pt" else ".")
        else:  # the clip's absence, in the record where it would be
            length = str(e.get("text" if lang == "pt" else "text_en") or "")
        clips.add(number=e.get("no"), shows=what, length=length,
                  sha256=" ".join(digest[i:i + 16] for i in range(0, len(digest), 16)) or "—",
                  cited=", ".join(citing.get(e.get("id"), [])))
    return clips


def _expelled_rows(discipline: Table, state: dict[str, Any], names: dict[str, str],
                   lang: str) -> None:
    """The discs sent off, each side on one line."""
    _ = translator(lang).gettext
    expelled = ((state.get("match") or {}).get("expelled"))
    if not isinstance(expelled, dict):
        return
    for side in ("A", "B"):
        discs = expelled.get(side)
        if discs:
            many = isinstance(discs, list) and len(discs) > 1
            shown = (", ".join(_("to be named") if d is None else str(d)
                               for d in discs) if isinstance(discs, list) else str(discs))
            discipline.add(team=names[side],
                           what=(_("Sent off: discs {discs}") if many
                                 else _("Sent off: disc {discs}")).format(discs=shown))


def _correction_status(st: EntryStatus, lang: str, by_id: dict[Any, dict[str, Any]]) -> str:
    """A correction's own status, short: in effect, voided by…, or replaced by…."""
    _ = translator(lang).gettext
    who = f" ({person(st.author)})" if person(st.author) else ""
    if st.state == "voided":
        return (_("voided by no. {number}{author}").format(number=number_of(st.by, by_id),
                                                             author=who)
                if st.by is not None else _("voided{author}").format(author=who))
    if st.state == "without_effect":
        return (_("no effect: replaced by no. {number}").format(number=number_of(st.by, by_id))
                if st.by is not None else _("no effect"))
    return _("in effect")


def _log_table(entries: list[dict[str, Any]], statuses: dict[Any, EntryStatus],
               teams: dict[str, Any], lang: str, by_id: dict[Any, dict[str, Any]],
               zone: Any, timekeeping: bool = False, mid: Any = None) -> Table:
    _ = translator(lang).gettext
    log = Table("log", _("Event log"), [
        ("number", "Nº"), ("time", _("Time")), ("period", _("Period")), ("clock", _("Clock")),
        ("what", _("What happened")), ("origin", _("Origin")), ("status", _("Status"))])
    previous: tuple[str, str, str] | None = None
    repeats = 1
    folded = 0
    for e in entries:
        if e.get("folded") and not timekeeping:
            folded += 1  # the lance timer's rows: in the record, folded away unless asked
            continue
        st = statuses[e.get("id")]
        text = _text(e, teams, lang, by_id)
        who = origin(e.get("source"), e.get("author"), lang)
        key = (text, who, st.state)
        if key == previous and log.rows:
            # the same thing said twice in a row (a lance timer restarted twice): one row
            repeats += 1
            row = log.rows[-1]
            first = row["number"].split("–")[0]
            row["number"] = f"{first}–{e.get('no')}"
            row["what"] = f"{text} ({repeats}×)"
            continue
        previous, repeats = key, 1
        inside = bool(e.get("interval"))
        shootout = bool(e.get("shootout"))
        over = bool(e.get("after_match"))  # made after the final whistle (walk45j-a 7)
        log.add(not st.counts, number=e.get("no"),
                time=time_of_day(e.get("occurred_at") or e.get("created_at"), zone),
                period=_("After the match") if over else _("Penalty shoot-out") if shootout
                else _("Interval") if inside else period_text(e.get("period"), lang),
                clock="" if inside or shootout or over
                else "—" if e.get("no_clock") else clock_text(e.get("clock_ms")),
                what=text, origin=who, status=status_text(
                    {**(e.get("status") or {}), **st.to_dict(),
                     "by_no": (by_id.get(st.by) or {}).get("no")}, lang, e.get("kind")))
    if folded:  # said under the table, never a row with no number (walk45i-b, low)
        log.note = _("{count} lance-timer entries (lance started, warnings, expiries) "
                     "folded away: each lance's time is in the match's full record").format(
                         count=folded)
    return log
