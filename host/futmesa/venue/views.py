"""What the desk's pages show, built from the competition tables (no match state computed here).

Team keys become names, matches get readable labels and scores; the same
dicts feed the HTML pages (Jinja2) and the JSON API. Their words come from the catalogs, in the
language ``competition_view`` is given (a page's request language), else the process language.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from futmesa.chain import SHORT
from futmesa.competition.db import CompetitionDB, CompetitionError
from futmesa.competition.settings import TIE_BREAK_NAMES
from futmesa.i18n import N_, language, short, translator
from futmesa.matchbook.citations import cite
from futmesa.matchbook.wording import ruleset_title, table_name
from futmesa.venue.eta import Estimate, estimate, match_seconds, round_starts, rounds_to_draw

_LANG: ContextVar[str | None] = ContextVar("venue_view_language", default=None)


def _(msgid: str) -> str:
    """``msgid`` in the language of the view being built (see ``competition_view``)."""
    return translator(_LANG.get()).gettext(msgid)


# a match's status and a result's reason, as shown (translated where shown, with _())
STATUS_PT = {"scheduled": N_("to play"), "assigned": N_("at a table"),
             "finished": N_("finished"), "walkover": N_("walkover"),
             "abandoned": N_("abandoned"), "bye": N_("bye (counted as a win)")}
# a knockout match the table ended level, waiting for the organiser (competition decide)
AWAITS_DESK = N_("draw — waits for the desk's decision")
REASON_PT = {"time": "", "shootout": N_("penalties"), "advantage": N_("advantage"),
             "forfeit": N_("loss of points / disqualification"), "walkover": N_("walkover")}


def _shown(words: dict[str, str], key: str) -> str:
    """``words[key]`` translated (an empty entry stays empty); an unknown key as it is."""
    text = words.get(key, key)
    return _(text) if text else ""


def _name(teams: dict[str, Any], key: str | None, src: str = "") -> str:
    if key and key in teams:
        return str(teams[key].name)
    if src.startswith("group:"):
        _kind, g, pos = src.split(":")
        return _("{position}º of group {group}").format(position=pos, group=g)
    if src.startswith("winner:"):
        return _("winner of match {match}").format(match=src.split(":")[1])
    if src.startswith("swiss:"):
        return _("{position}º of the Swiss table").format(position=src.split(":")[1])
    return _("to be decided")


UNSIGNED = N_("unsigned")  # the label of a result no referee signed (translated where shown)


def proof_view(r: dict[str, Any] | None) -> dict[str, Any]:
    """How a result's proof is shown: "sem assinatura", or the short form of the chain's final
    hash (the one the súmula prints) of a result the referee signed."""
    if not r or r.get("source") == "desk":
        return {"signed": False, "hash": "", "short": "", "label": "", "text": ""}  # none/W.O.
    proof = r.get("proof") or {}
    final = str(proof.get("final_hash") or "")
    short = final[:SHORT]
    if proof and not proof.get("chain_ok", True):
        label = _("chain does not check out at the table")
        return {"signed": False, "hash": final, "short": short, "label": label,
                "text": f"{label} · {short}"}
    sig = proof.get("signature")
    if not sig:
        return {"signed": False, "hash": final, "short": short, "label": _(UNSIGNED),
                "text": _(UNSIGNED)}
    label = _("signed ({name})").format(name=sig.get("name") or _("referee"))
    return {"signed": True, "hash": final, "short": short, "label": label,
            "text": f"{label} · {short}"}


def _awaits_desk(m: dict[str, Any]) -> bool:
    """A knockout match the table ended level and the desk has not decided yet."""
    r = m.get("result") or {}
    return (m["stage"] == "ko" and m["status"] == "finished" and bool(r)
            and r.get("winner") not in ("A", "B"))


def match_view(m: dict[str, Any], teams: dict[str, Any]) -> dict[str, Any]:
    r = m.get("result")
    score = f"{r['score_a']} × {r['score_b']}" if r else "×"
    reason = _shown(REASON_PT, r["reason"]) if r else ""
    if r and r.get("reason") == "shootout":
        so = (r.get("detail") or {}).get("shootout") or {}
        totals = so.get("totals") or {}
        if totals:
            reason = _("penalties {a} × {b}").format(a=totals.get("A", 0), b=totals.get("B", 0))
    return {
        "id": m["id"], "stage": m["stage"], "group": m["group"], "round": m["round"],
        "label": m["label"] or (_("Group {group}").format(group=m["group"]) if m["group"]
                                else _("Swiss round {round}").format(round=m["round"])
                                if m["stage"] == "swiss" else _("League")),
        "slot": m["slot"] + 1,
        # the table the desk gave it, never the schedule's planned one: a match is
        # announced at a table only once it is that table's (the assigner's choice)
        "table": table_name(m["table_id"], index=m["planned_table"],
                            lang=short(_LANG.get() or language())) if m["table_id"] else "",
        "table_id": m["table_id"],
        "final": m["stage"] == "ko" and any(x == "Final" or x.endswith(": Final")
                                            for x in (m["group"], m["label"])),
        "a": _name(teams, m["team_a"], m["src_a"]),
        "b": _("bye") if m["status"] == "bye" else _name(teams, m["team_b"], m["src_b"]),
        "color_a": teams[m["team_a"]].color if m["team_a"] in teams else "#888888",
        "color_b": teams[m["team_b"]].color if m["team_b"] in teams else "#888888",
        "score": score, "reason": reason,
        "rule": cite((r or {}).get("rule", "")) if (r or {}).get("reason") != "time" else "",
        "status": m["status"],
        "status_pt": _(AWAITS_DESK) if _awaits_desk(m) else _shown(STATUS_PT, m["status"]),
        "replay_of": m["replay_of"], "note": m["note"],
        "winner": (r or {}).get("winner"),
        "proof": proof_view(r),
    }


def clock_time(ts: float | None) -> str:
    """An estimated time as the venue reads it: "~14:20" (the host's local time)."""
    return "" if ts is None else "~" + time.strftime("%H:%M", time.localtime(ts))


def estimates(db: CompetitionDB, comp: dict[str, Any], matches: list[dict[str, Any]],
              now: float | None = None, speed: float = 1.0) -> Estimate:
    """The estimated start of every match still to play and the day's finish (eta.py): the
    day's categories share the tables, so their matches are estimated together, with the
    Swiss rounds not drawn yet (eta.rounds_to_draw). ``speed``: a simulated day's tables
    run that many times faster (the demo, the walk test): the lengths are divided by it."""
    day = db.active()
    if not any(c["id"] == comp["id"] for c in day) or len(day) < 2:
        day = [comp]
    every: list[dict[str, Any]] = []
    lengths: dict[int, float] = {}
    for c in day:
        mine = list(matches) if c["id"] == comp["id"] else db.matches(c["id"])
        mine += rounds_to_draw(c["settings"], mine, c["id"])
        one = match_seconds(c["settings"]) / speed
        lengths.update((m["id"], one) for m in mine)
        every += mine
    s = comp["settings"]
    length = match_seconds(s) / speed
    tables = max(c["settings"].tables for c in day)
    return estimate(every, tables, time.time() if now is None else now, length,
                    rest=s.rest_slots * length, lengths=lengths)


def competition_view(db: CompetitionDB, lang: str | None = None,
                     cid: int | None = None) -> dict[str, Any]:
    """Everything the standings, bracket and summary pages show, in ``lang`` (None: the
    process language), for competition ``cid`` (None: the newest)."""
    token = _LANG.set(lang)
    try:
        return _competition_view(db, cid)
    finally:
        _LANG.reset(token)


def _competition_view(db: CompetitionDB, cid: int | None = None) -> dict[str, Any]:
    try:
        comp = db.competition(cid)
    except CompetitionError as exc:
        return {"error": str(exc)}
    teams = db.team_map()
    matches = db.matches(comp["id"])
    table = db.table(comp["id"])
    s = comp["settings"]
    standings = {
        g: [{**row, "name": _name(teams, row["team"]),
             "color": teams[row["team"]].color if row["team"] in teams else "#888888"}
            for row in rows]
        for g, rows in table.items()
    }
    views = [match_view(m, teams) for m in matches]
    eta = estimates(db, comp, matches)
    for v in views:
        v["eta"] = clock_time(eta.starts.get(v["id"]))
        v["late"] = v["id"] in eta.late
    ko_rounds: dict[str, list[dict[str, Any]]] = {}
    for v in views:
        if v["stage"] == "ko" and v["status"] != "abandoned":
            ko_rounds.setdefault(v["group"], []).append(v)
    sanctions = [{**x, "name": _name(teams, x["team"]), "rule": cite(x.get("rule"))}
                 for x in db.decisions.sanctions(comp["id"])]
    champions = _champions(matches, teams, s, lambda: table)
    champion = next((c["team"] for c in champions
                     if c["division"] == (s.divisions or [""])[0]), None)
    return {
        "id": comp["id"], "name": comp["name"], "ruleset": s.ruleset,
        "ruleset_title": ruleset_title(s.ruleset, _LANG.get()), "format": s.format,
        "points": s.points.model_dump(),
        "tie_breaks": [_(TIE_BREAK_NAMES[t]) for t in s.tie_breaks],
        "standings": standings, "matches": views, "bracket": ko_rounds,
        "sanctions": sanctions, "champion": champion, "champions": champions,
        "played": sum(1 for m in matches if m["status"] in ("finished", "walkover")),
        "total": sum(1 for m in matches if m["status"] != "abandoned"),
        "unsigned": sum(1 for v in views if v["proof"]["text"] and not v["proof"]["signed"]),
        "printed_at": time.strftime("%d/%m/%Y %H:%M"),
        "finish": clock_time(eta.finish),
        "category": s.category,
        **_day(db, comp, teams, eta),
    }


def _champions(matches: list[dict[str, Any]], teams: dict[str, Any], s: Any,
               table: Callable[[], dict[str, list[dict[str, Any]]]]) -> list[dict[str, Any]]:
    """One champion per knockout decided: the competition's, or each division's (Ouro…); a
    league's (*pontos corridos*) is the top of its table once every match is played (and
    no tie-break shoot-out for the place is still to play)."""
    if not any(m["stage"] == "ko" for m in matches):
        if not matches or any(m["status"] in ("scheduled", "assigned") for m in matches):
            return []
        rows = [r for r in table().get("", []) if not r["disqualified"]]
        if not rows or rows[0].get("shootout_due"):
            return []
        return [{"division": "", "team": _name(teams, rows[0]["team"])}]
    champions = []
    for division in s.divisions or [""]:
        ko = [m for m in matches if m["stage"] == "ko"
              and (not division or m["group"].startswith(f"{division}: "))]
        last = max((m["round"] for m in ko), default=0)
        final = [m for m in ko if m["round"] == last and m["status"] in ("finished", "walkover")]
        if final and final[-1]["result"] and final[-1]["result"].get("winner") in ("A", "B"):
            f = final[-1]
            champions.append({"division": division, "team": _name(
                teams, f["team_a"] if f["result"]["winner"] == "A" else f["team_b"])})
    return champions


def _day(db: CompetitionDB, comp: dict[str, Any], teams: dict[str, Any],
         eta: Estimate) -> dict[str, Any]:
    """With several categories the same day: which they are (the pages' chooser), every
    category's matches still to play, for the board's "next matches", and every category's
    champions as they are decided."""
    day = db.active()
    if len(day) < 2:
        return {"day": [], "day_matches": None, "day_champions": [], "day_playing": None,
                "day_title": ""}
    out = []
    crowned = []
    playing = []
    for c in day:
        matches = db.matches(c["id"])
        crowned += [{**x, "category": c["settings"].category or c["name"]}
                    for x in _champions(matches, teams, c["settings"],
                                        lambda cid=c["id"]: db.table(cid))]
        for m in matches:
            if m["status"] not in ("scheduled", "assigned"):
                if m["table_id"] and m["status"] == "finished":
                    # a table still showing the match just over: its card keeps that
                    # match's label, never the next one's (the board finds it by id)
                    v = match_view(m, teams)
                    v["label"] = f"{c['settings'].category or c['name']} · {v['label']}"
                    playing.append(v)
                continue
            v = match_view(m, teams)
            v["eta"] = clock_time(eta.starts.get(m["id"]))
            v["late"] = m["id"] in eta.late
            v["label"] = f"{c['settings'].category or c['name']} · {v['label']}"
            if m["status"] == "assigned":
                playing.append(v)  # every category's card on the board: its category named
            else:
                out.append((eta.starts.get(m["id"], float("inf")), m["slot"], v))
    out.sort(key=lambda x: (x[0], x[1]))
    return {"day": [{"id": c["id"], "name": c["name"], "category": c["settings"].category}
                    for c in day], "day_title": _day_title([c["name"] for c in day]),
            "day_matches": [v for _at, _slot, v in out], "day_champions": crowned,
            "day_playing": playing}


def _day_title(names: list[str]) -> str:
    """The pages' title on a day of several categories: the day's name (their competitions'
    common name, or the words their names begin with), never one category's."""
    if len(set(names)) == 1:
        return names[0]
    words = [n.split() for n in names]
    common = []
    for group in zip(*words, strict=False):
        if len(set(group)) > 1:
            break
        common.append(group[0])
    return " ".join(common).rstrip(" (·-—:") or _("Championship day")


def team_view(db: CompetitionDB, key: str, lang: str | None = None,
              now: float | None = None, cid: int | None = None) -> dict[str, Any] | None:
    """One team's page (issue 33): its next match — table, estimated time, opponent — its
    results so far and its place; None for a team none of the day's competitions has.
    With several categories the same day, the page is the team's own category's (for a
    player entered in two, the one with the sooner match); ``cid`` chooses one."""
    token = _LANG.set(lang)
    try:
        teams = db.team_map()
        if key not in teams:
            return None
        found = _team_competition(db, key, cid)
        if found is None:
            return None
        comp, matches = found
        eta = estimates(db, comp, matches, now)
        mine = [m for m in matches if key in (m["team_a"], m["team_b"])]
        coming = [m for m in mine if m["status"] in ("scheduled", "assigned")]
        coming.sort(key=lambda m: (m["status"] != "assigned", m["slot"], m["id"]))
        nxt = None
        if coming:
            m = coming[0]
            v = match_view(m, teams)
            other = v["b"] if m["team_a"] == key else v["a"]
            nxt = {"table": v["table"], "label": v["label"], "opponent": other,
                   "now": m["status"] == "assigned", "late": m["id"] in eta.late,
                   "eta": clock_time(eta.starts.get(m["id"]))}
        else:
            nxt = _waiting(comp, matches, key, eta)
        results = []
        for m in mine:
            if m["status"] not in ("finished", "walkover", "bye"):
                continue
            v = match_view(m, teams)
            side = "A" if m["team_a"] == key else "B"
            r = m.get("result") or {}
            won = m["status"] == "bye" or r.get("winner") == side
            lost = r.get("winner") not in (None, side)
            mine_goals, theirs = (r.get("score_a"), r.get("score_b")) if side == "A" else (
                r.get("score_b"), r.get("score_a"))
            results.append({
                "label": v["label"], "opponent": v["b"] if side == "A" else v["a"],
                "score": "" if m["status"] == "bye" else f"{mine_goals} × {theirs}",
                "outcome": _("won") if won else _("lost") if lost else _("drew"),
                "reason": v["reason"]})
        place = None
        for group, rows in db.table(comp["id"]).items():
            for i, row in enumerate(rows, start=1):
                if row["team"] == key:
                    place = {"group": group, "place": i, "points": row["points"],
                             "played": row["played"]}
        t = teams[key]
        return {"name": comp["name"], "category": comp["settings"].category,
                "team": t.name, "club": t.club, "color": t.color,
                "key": key, "next": nxt, "results": results, "standing": place,
                "finish": clock_time(eta.finish)}
    finally:
        _LANG.reset(token)


def _waiting(comp: dict[str, Any], matches: list[dict[str, Any]], key: str,
             eta: Estimate) -> dict[str, Any] | None:
    """What a team with no match to play yet waits for (issue 47 §3): the desk's decision of
    its level knockout match, the draw of the next Swiss round, or the end of the phase
    that fills the knockout, with when; None when the team has nothing left (its phase over
    without a place, or knocked out)."""
    s = comp["settings"]
    if any(_awaits_desk(m) and key in (m["team_a"], m["team_b"]) for m in matches):
        return {"waiting": _(AWAITS_DESK), "eta": ""}
    if key in {t for m in matches if m["stage"] == "ko" for t in (m["team_a"], m["team_b"])}:
        return None  # in the knockout already: its next match is listed when it has one
    rounds = round_starts(eta, comp["id"])
    if rounds:
        r = min(rounds)
        return {"waiting": _("waits for the draw of round {round}").format(round=r),
                "eta": clock_time(rounds[r])}
    open_ko = [m for m in matches if m["stage"] == "ko" and m["status"] == "scheduled"
               and any(src.startswith(("swiss:", "group:")) and not team for src, team in
                       ((m["src_a"], m["team_a"]), (m["src_b"], m["team_b"])))]
    if not open_ko:
        return None
    phase_left = [m for m in matches if m["stage"] != "ko"
                  and m["status"] in ("scheduled", "assigned")]
    if not phase_left:
        return None
    first = min(eta.starts.get(m["id"], float("inf")) for m in open_ko)
    word = (_("waits for the end of the Swiss phase") if s.format == "swiss_knockout"
            else _("waits for the end of the group phase"))
    return {"waiting": word, "eta": clock_time(first if first != float("inf") else None)}


def _team_competition(db: CompetitionDB, key: str, cid: int | None
                      ) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """The competition a team's page shows, with its matches: ``cid`` if the team plays in
    it; else, of the day's competitions the team plays in, the one where its next match is
    soonest (one on a table now first), else the newest it played in."""
    try:
        day = [db.competition(cid)] if cid else list(reversed(db.active()))
    except CompetitionError:
        return None
    best: tuple[tuple[int, int, int], dict[str, Any], list[dict[str, Any]]] | None = None
    for rank, comp in enumerate(day):
        matches = db.matches(comp["id"])
        members = {k for g in comp["groups"].values() for k in g}
        mine = [m for m in matches if key in (m["team_a"], m["team_b"])]
        if not mine and key not in members:
            continue
        coming = [(m["status"] != "assigned", m["slot"]) for m in mine
                  if m["status"] in ("scheduled", "assigned")]
        order = (*min(coming), rank) if coming else (2, 0, rank)
        if best is None or order < best[0]:
            best = (order, comp, matches)
    return None if best is None else (best[1], best[2])


def teams_index(db: CompetitionDB) -> list[dict[str, str]]:
    """Every team of the day's competitions, for the printable sheet of QR codes (with its
    category when the day has several)."""
    try:
        day = db.active()
    except CompetitionError:
        return []
    teams = db.team_map()
    several = len(day) > 1
    where: dict[str, list[str]] = {}
    for comp in day:
        keys = [k for g in comp["groups"].values() for k in g] or (
            list(teams) if not several else [])
        for k in keys:
            where.setdefault(k, []).append(comp["settings"].category or comp["name"])
    return [{"key": k, "name": teams[k].name, "club": teams[k].club,
             "category": " · ".join(where[k]) if several else ""}
            for k in sorted(where, key=lambda k: teams[k].name.casefold()) if k in teams]


def ranking_view(db: CompetitionDB, method: str = "placement") -> list[dict[str, Any]]:
    """The season ranking as the page shows it: one table a category (its name, its rows)."""
    from futmesa.competition.ranking import categories, ranking

    out = []
    for cat in categories(db):
        rows = []
        for r in ranking(db, method, category=cat):
            score = (f"{r.points:.0f}" if method == "placement"
                     else f"{r.mu - 3 * r.sigma:.1f}")
            rows.append({"team": r.team, "name": r.name, "score": score,
                         "history": r.history})
        if rows:
            out.append({"category": cat, "rows": rows})
    return out
