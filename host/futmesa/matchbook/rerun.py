"""A stored match replayed under another ruleset, and what would differ, in words.

``futmesa rerun MATCH --ruleset R`` prints these lines. The same stored log (device events
and referee inputs, corrections resolved) is replayed through :func:`replay_match` under
the ruleset it was played with and under ``R``; the lines compare the results, the fouls
and expulsions, then every entry whose meaning differs: what each ruleset announced, or
asked the referee to confirm, for it. Everything is a sentence in Portuguese (or English),
with the rulesets' titles and the teams' names, never an internal code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from futmesa.i18n import N_, translator
from futmesa.matchbook.book import UnloadableMatch, ending, engine_for, replay_match
from futmesa.matchbook.citations import plain
from futmesa.matchbook.numbers import numbered
from futmesa.matchbook.wording import sentence, team
from futmesa.rules import Engine, load_ruleset
from futmesa.store import StoredEntry


@dataclass(frozen=True)
class Rerun:
    """The comparison: a title line and the differences (empty when nothing differs); an
    entry's difference is three lines: the entry, then what each ruleset made of it."""

    title: str
    differences: list[str]
    nothing: str  # the line to print when there is no difference


def _title(name: str) -> str:
    try:
        return str(load_ruleset(name).title)
    except KeyError:
        return name


def _result(state: dict[str, Any], match: dict[str, Any], teams: dict[str, Any],
            lang: str) -> str:
    score = state.get("score") or {}
    text = (f"{team(teams, 'A', lang)} {score.get('A', 0)} × {score.get('B', 0)} "
            f"{team(teams, 'B', lang)}")
    t = translator(lang)
    how = ending(match, state, None)[lang]
    result = state.get("result") if isinstance(state.get("result"), dict) else None
    if result and result.get("winner") in ("A", "B"):
        how += ", " + t.gettext("won by {team}").format(team=team(teams, result["winner"], lang))
    elif result:
        how += ", " + t.gettext("a draw")
    so = (result or {}).get("shootout")
    if isinstance(so, dict):
        how += " " + t.gettext("(penalties {a}–{b})").format(a=so.get("A", 0), b=so.get("B", 0))
    return f"{text} ({how})"


def _discipline(state: dict[str, Any], teams: dict[str, Any], lang: str) -> tuple[str, str]:
    fouls, expelled = state.get("fouls") or {}, state.get("expelled") or {}
    t = translator(lang)

    def side_fouls(side: str) -> str:
        f = fouls.get(side) or {}
        return t.gettext("{team}: {fouls} fouls, {technical} technical, {disciplinary} "
                         "disciplinary").format(team=team(teams, side, lang),
                                                fouls=f.get("fouls", 0),
                                                technical=f.get("technical", 0),
                                                disciplinary=f.get("disciplinary", 0))

    def side_expelled(side: str) -> str:
        discs = expelled.get(side) or []
        listed = ", ".join(str(d) for d in discs) or t.pgettext("sent off", "none")
        return f"{team(teams, side, lang)}: {listed}"

    return ("; ".join(side_fouls(s) for s in ("A", "B")),
            "; ".join(side_expelled(s) for s in ("A", "B")))


def _meanings(state: dict[str, Any], lang: str) -> dict[int, list[str]]:
    """What the rules said of each entry: announcements, and questions put to the referee."""
    out: dict[int, list[str]] = {}
    ask = translator(lang).gettext("asks the referee: {question}")
    for a in state.get("announcements") or []:
        if isinstance(a, dict) and isinstance(a.get("entry"), int) and a.get("code") != "refused":
            out.setdefault(a["entry"], []).append(plain(a.get(lang) or a.get("pt", "")))
    for p in state.get("pending") or []:
        if isinstance(p, dict) and isinstance(p.get("id"), int):
            out.setdefault(p["id"], []).append(
                ask.format(question=plain(p.get(lang) or p.get("pt", ""))))
    return out


def _codes(state: dict[str, Any]) -> dict[int, list[str]]:
    """The same meanings as codes, to compare (a rule citation differing alone is no change)."""
    out: dict[int, list[str]] = {}
    for a in state.get("announcements") or []:
        if isinstance(a, dict) and isinstance(a.get("entry"), int) and a.get("code") != "refused":
            out.setdefault(a["entry"], []).append(str(a.get("code")))
    for p in state.get("pending") or []:
        if isinstance(p, dict) and isinstance(p.get("id"), int):
            out.setdefault(p["id"], []).append(f"confirm:{p.get('kind')}")
    return out


def rerun(match: dict[str, Any], stored: list[StoredEntry], to_ruleset: str,
          lang: str = "pt") -> Rerun:
    """The stored match replayed under ``to_ruleset``, compared with how it was played.

    :class:`UnloadableMatch` when the match, or its settings under ``to_ruleset``, cannot be
    loaded; KeyError (naming the known rulesets) for an unknown ``to_ruleset``.
    """
    t = translator(lang)
    from_ruleset = str(match["ruleset"])
    before = replay_match(engine_for(match), stored).to_dict()
    rules = load_ruleset(to_ruleset)
    try:
        engine = Engine(rules, match.get("settings"))
    except Exception as exc:  # noqa: BLE001 - the settings under the other ruleset
        raise UnloadableMatch(int(match.get("id") or 0),
                              N_("its settings do not fit {ruleset} ({why})"),
                              ruleset=rules.title, why=exc) from None
    after = replay_match(engine, stored).to_dict()
    teams = before.get("teams") or {}
    a_title, b_title = _title(from_ruleset), rules.title
    title = t.gettext("Match {id}: played under {a}; replayed under {b}").format(
        id=match.get("id"), a=a_title, b=b_title)
    lines: list[str] = []

    def both(label: str, before: str, after: str) -> str:
        return t.gettext("{label}: {before} under {a}; {after} under {b}").format(
            label=label, before=before, a=a_title, after=after, b=b_title)

    r_before, r_after = _result(before, match, teams, lang), _result(after, match, teams, lang)
    if r_before != r_after:
        lines.append(both(t.gettext("Result"), r_before, r_after))
    fouls_b, exp_b = _discipline(before, teams, lang)
    fouls_a, exp_a = _discipline(after, teams, lang)
    if fouls_b != fouls_a:
        lines.append(both(t.gettext("Fouls"), fouls_b, fouls_a))
    if exp_b != exp_a:
        lines.append(both(t.gettext("Sent off"), exp_b, exp_a))

    codes_b, codes_a = _codes(before), _codes(after)
    said_b, said_a = _meanings(before, lang), _meanings(after, lang)
    by_id = {e.id: e for e in stored}
    numbers = numbered(by_id)  # the match's numbers, as every view says them
    rows = {i: {"kind": e.kind, "data": e.data, "period": e.period, "no": numbers[i]}
            for i, e in by_id.items()}
    nothing_said = t.gettext("nothing")
    under = t.gettext("under {ruleset}: {said}")
    for entry_id in sorted(set(codes_b) | set(codes_a)):
        if codes_b.get(entry_id, []) == codes_a.get(entry_id, []):
            continue
        e = by_id.get(entry_id)
        what = (sentence(e.kind, e.data, teams, lang, period=e.period, targets=rows)
                if e else "?")
        lines.append("\n    ".join((
            t.gettext("Entry {id} ({what}):").format(id=numbers.get(entry_id, "?"),
                                                     what=what),
            under.format(ruleset=a_title, said="; ".join(said_b.get(entry_id, [])) or nothing_said),
            under.format(ruleset=b_title, said="; ".join(said_a.get(entry_id, [])) or nothing_said),
        )))
    nothing = t.gettext("No difference: under {ruleset} the match would have the same result "
                        "and calls").format(ruleset=b_title)
    return Rerun(title=title, differences=lines, nothing=nothing)
