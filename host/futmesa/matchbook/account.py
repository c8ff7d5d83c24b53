"""The account of a match: the facts a referee, a captain or a federation reads, in the
referee's words — the goals, the voids and the voids undone, the fouls and the discipline (also
a foul answered to a question of the table), the substitutions, the last lance, the ends of the
periods, a table's restart with the time its clock did not count — each placed when it happened
("1º tempo 12'", "Intervalo").

Made once, from the rules' output, as a part of each entry's record (``facts``,
:func:`entry_facts`, called by :mod:`.records`): the console's Registro shows an entry's facts,
and :func:`account` lists them all in the log's order for the súmula (PDF, HTML, CSV, JSON), the
signing page and the history. So a fact cannot be on one of them and missing from another.

Each record also says where it is placed (``interval``: made between two periods) and whether
it is a time-keeping row (``folded``: the lance timer's start, warning and expiry), which the
screens and the súmula fold away unless asked for — never an expiry the rules made a foul of
(001 Art. XXIX e): a foul is a foul row, shown and correctable (:func:`folds`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from futmesa.i18n import translator
from futmesa.matchbook.wording import clock_text, target_text, team

Fact = dict[str, Any]

# the lance timer's own rows: kept in the record, folded away on the screens and the súmula
FOLDED_KINDS = frozenset({"lance_started", "lance_expired"})
# entries that are a foul or a sanction by themselves
# (and the kicker under 1 cm from the ball, 000 Art. 26 §1 E: a warning, then the foul)
DISCIPLINE_KINDS = ("foul", "discipline", "offside", "cera", "keeper_foul", "set_piece_distance")
SUBSTITUTION_KINDS = ("substitution",)
CORRECTION_KINDS = ("void", "amend")
# what the rules add on any entry: a disc sent off, a team disqualified
SANCTION_CODES = frozenset({"expelled", "expelled_named", "disqualified"})
# how the time of the match went: the last lance, the end of a period, of the match (the
# added time announced is the referee's own entry, listed as such)
TIME_CODES = frozenset({"last_lance", "period_end", "match_end"})
# the rules' word that a question they asked went unanswered: withdrawn, and why (the lance
# time's, rules/lance_questions.closed; walk48b M1) — the entry's own fact, its row not folded
QUESTION_CODES = frozenset({"lance_question_closed"})
# the rules' word that a foul is not taken: it came once time was up (000 Art. 18 §4, 001 Art.
# XXI §2, 003 Art. 74 §único e, 004 A partida) — said on the foul's own line (walk46b M4)
NOT_TAKEN_CODES = frozenset({"foul_after_time"})
LANGS = (("pt", "text"), ("en", "text_en"))


class Said(NamedTuple):
    """What the rules announced about one entry (``code``, its words, its citation)."""

    code: str
    pt: str
    en: str
    rule: str

    def words(self, lang: str) -> str:
        """The announcement without its citation ("Falta disciplinar de Botafogo (1ª)")."""
        text = self.pt if lang == "pt" else self.en
        cited = f" ({self.rule})"
        return text[:-len(cited)] if self.rule and text.endswith(cited) else text


class Context(NamedTuple):
    """What an entry's facts need from the whole match: the goal it scored (with the score
    after it), what a void it is found before it (:func:`futmesa.matchbook.book.before_voids`),
    what the rules said on it, and whether it was made in the interval."""

    goal: dict[str, Any] | None = None
    was: dict[str, Any] | None = None  # this void's target as it stood before the void
    undone: dict[str, Any] | None = None  # the correction this void undoes, as it stood
    said: tuple[Said, ...] = ()
    interval: bool = False
    length_ms: int | None = None  # the length of the entry's period (its minutes end there)
    shootout: bool = False  # made in the penalty shoot-out: placed "Disputa de pênaltis"
    place: str = ""  # where the entry is (:func:`interval_after`'s place)
    after: str = ""  # where the match is after it (:func:`interval_after`'s state)
    # an amendment's entry as an earlier amendment made it ({"kind", "data"}): what it
    # corrects is quoted so, never as logged (issue 45 #2); None: it read as logged
    corrects: dict[str, Any] | None = None
    # the fouls the rules counted for this entry, (side, kind, how many): each listed on a
    # foul fact of its side (``counted``), so the account's fouls are the TV's counters
    counted: tuple[tuple[str, str, int], ...] = ()


# ---- placing an entry: "1º tempo 12'" or "Intervalo" ----------------------------------------
def minute(clock_ms: Any, length_ms: Any = None) -> str:
    """Match minute as a referee writes it: 0:00–0:59 is the 1st minute, up to the period's
    last (``length_ms``): in a 2-minute half 1:50 and the alarm at 2:00 are "2'". Past the
    length it is the minute of added time, the football way: 2:30 is "2'+1" and the end of
    2 minutes added, at 4:00, "2'+2" — never capped at "2'", which hid that an event was in
    added time (walk52b L1). The TV's goal list counts the same way (web/static/kiosk.js)."""
    if not isinstance(clock_ms, int | float):
        return ""
    clock = max(int(clock_ms), 0)
    if isinstance(length_ms, int) and length_ms > 0 and clock > length_ms:
        added = -(-(clock - length_ms) // 60000)  # the minute past the length it is in
        return f"{-(-length_ms // 60000)}'+{added}"
    if isinstance(length_ms, int) and length_ms > 0:
        clock = min(clock, length_ms - 1)
    return f"{clock // 60000 + 1}'"


def period_length(m: dict[str, Any], period: Any) -> int | None:
    """The length of ``period`` in the match ``m`` (the engine's state): its clock profile's
    period, or extra period, in ms; None when the state does not say."""
    profile = m.get("clock_profile") if isinstance(m.get("clock_profile"), dict) else {}
    if not isinstance(period, int) or period <= 0 or not profile:
        return None
    extra = period > int(profile.get("periods") or 2)
    length = profile.get("extra_ms" if extra else "period_ms")
    return int(length) if isinstance(length, int | float) and length > 0 else None


def period_text(period: Any, lang: str = "pt") -> str:
    if not isinstance(period, int) or period <= 0:
        return ""
    _ = translator(lang).gettext
    if period >= 3:
        return _("Extra time")
    return _("1st half") if period == 1 else _("2nd half")


def when(period: Any, clock_ms: Any, interval: bool, lang: str = "pt",
         length_ms: Any = None, shootout: bool = False, over: bool = False) -> str:
    """Where an entry is placed in the match: "1º tempo 12'", "Intervalo", "Disputa de
    pênaltis", "Depois do jogo" (``over``: made after the final whistle), or nothing."""
    if over:
        return translator(lang).gettext("After the match")
    if shootout:
        return translator(lang).gettext("Penalty shoot-out")
    if interval:
        return translator(lang).gettext("Interval")
    named = period_text(period, lang)
    return " ".join(p for p in (named, minute(clock_ms, length_ms) if named else "") if p)


# the table's rows that close the match at the final whistle (placed in its last period)
CLOSING_KINDS = frozenset({"alarm", "period_over", "clock_stopped", "match_over"})


def interval_after(state: str, kind: str,
                   said: tuple[Said, ...] | list[Said]) -> tuple[str, str]:
    """(where an entry of ``kind`` is, where the match is after it), given where the one
    before it left the match: "" in a period, "ending" from the rules' end of a period (the
    "period_end") to the table's own close of it ("period_over", its alarm before it is the
    period's), "closed" from the table's close to the rules' end when the table closed first
    (the last lance, 003 Art. 74 §único: still the period's), "interval" once both closed it,
    to the start of the next period (an alarm then ends the interval), "shootout" from the
    rules' penalty shoot-out (004 Disputa de pênaltis) on, "over" from the rules' end of the
    match on, also the shoot-out's (a correction made after the final whistle: "Depois do
    jogo", walk45j-a 7, issue 45 #1; the table's own close of the match stays the period's).
    The table's alarm that closes a period the rules ended first (at its dead ball, 004 A
    partida; at the final whistle) is the period's, "closing" (it ends the period, never time
    running out: walk 50a L1), and so is its clock's stop after its close ("shut")."""
    # the table closed a period the rules had ended: its clock's stop then is the period's
    stop = state == "shut" and kind == "clock_stopped"
    state = "interval" if state == "shut" else state
    if kind == "period_started" or (kind == "clock_started"
                                    and any(s.code == "period_start" for s in said)):
        # the referee's start_period is made in the interval: placed there; the table's
        # start of the period is the period's (a clock restored from the log starts the next
        # period with clock_started alone: table/behind.py)
        state = ""
    # the table's own end of the period, the end of the match: not in an interval
    place = state
    if state in ("ending", "interval") and (
            kind == "period_over" or any(s.code == "match_end" for s in said)):
        place = ""
    if state == "over" and kind in CLOSING_KINDS:
        place = ""  # the table's alarm and close at the final whistle: the last period's
    if kind == "alarm" and state in ("ending", "over"):
        place = "closing"
    place = "" if stop else place
    for s in said:
        if s.code == "period_end":
            state = "interval" if state == "closed" else "ending"
        elif s.code in ("period_start", "match_end"):
            # the shoot-out's deciding kick ends the match too: what follows is after it
            state = "over" if s.code == "match_end" else ""
        elif s.code == "shootout":
            state = "shootout"
    if kind == "period_over" and state in ("ending", ""):
        state = "shut" if state == "ending" else "closed"
    return place, state


def placed_in_interval(place: str) -> bool:
    """Whether an entry at ``place`` (:func:`interval_after`) is placed "Intervalo"."""
    return place in ("ending", "interval")


def placed(place: str, after: str) -> dict[str, Any]:
    """A :class:`Context`'s fields for an entry at ``place`` that leaves the match ``after``."""
    return {"shootout": place == "shootout", "place": place, "after": after}


def goals_by_entry(m: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Each counted goal by the entry it counts for, with the score after it."""
    running = {"A": 0, "B": 0}
    out: dict[int, dict[str, Any]] = {}
    for g in m.get("goals") or []:
        if not isinstance(g, dict) or g.get("side") not in running:
            continue
        running[g["side"]] += 1
        if isinstance(g.get("entry"), int):
            out[g["entry"]] = {**g, "score": dict(running),
                               "length_ms": period_length(m, g.get("period"))}
    return out


# ---- the facts of one entry ---------------------------------------------------------------
def amended_form(row: dict[str, Any], amend: dict[str, Any] | None) -> dict[str, Any] | None:
    """An entry (``row``: its ``kind`` and ``data``) as the amendment ``amend`` (the amend's
    row, its data holding the new ``data`` and maybe ``kind``) makes it, as the rules apply it
    (rules/corrections.py): {"kind", "data"}; None when ``amend`` carries no data. An amended
    entry's facts are made of this, never of what was logged (walk45h-a A3, A4: the
    Substituições table said "entra o 12" beside its sentence's "entra o 13")."""
    said = (amend or {}).get("data")
    if not isinstance(said, dict) or not isinstance(said.get("data"), dict):
        return None
    kind = said.get("kind")
    return {"kind": kind if isinstance(kind, str) and kind else str(row.get("kind") or ""),
            "data": dict(said["data"])}


def applied(row: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """(kind, data) of an entry's row as the rules apply it: its amendment's (``amended``,
    :func:`amended_form`) when it has one in effect, else as logged."""
    now = row.get("amended") if isinstance(row.get("amended"), dict) else row
    data = now.get("data")
    return str(now.get("kind") or ""), data if isinstance(data, dict) else {}


def goal_text(goal: dict[str, Any], teams: dict[str, Any], lang: str) -> str:
    """ "Gol de Estrela do Norte (1 × 0, 12', botão 9)", "(…, botão 8, pênalti)"."""
    _ = translator(lang).gettext
    score = goal.get("score") or {}
    values = {"team": team(teams, goal.get("side"), lang),
              "score": f"{score.get('A', 0)} × {score.get('B', 0)}",
              "minute": minute(goal.get("clock_ms"), goal.get("length_ms")),
              "disc": goal.get("disc")}
    if goal.get("own_goal") and goal.get("side") in ("A", "B"):
        # whose it was and who gets the point, as the TV's GOL CONTRA screen says them
        own = team(teams, "B" if goal["side"] == "A" else "A", lang)
        return _("Own goal by {own}, point to {team} ({score}, {minute})").format(
            own=own, **values)
    if goal.get("own_goal"):
        return _("Own goal, point to {team} ({score}, {minute})").format(**values)
    if goal.get("penalty"):  # the penalty's kick scored it (rules/goals.py; walk 50a L4)
        return (_("Goal for {team} ({score}, {minute}, penalty)") if goal.get("disc") is None
                else _("Goal for {team} ({score}, {minute}, disc {disc}, penalty)")
                ).format(**values)
    if goal.get("disc") is None:
        return _("Goal for {team} ({score}, {minute})").format(**values)
    return _("Goal for {team} ({score}, {minute}, disc {disc})").format(**values)


def amend_goal_text(data: dict[str, Any], before: str, now: str, lang: str) -> str:
    """An amendment of a goal's row in the referee's words: the goal it was, the goal it
    makes ("Corrige o gol de X (1 × 0, 2', botão 9): passa a ser Gol de X (…, botão 7)")."""
    _ = translator(lang).gettext
    reason = str(data.get("reason") or "").strip()
    why = _(" — reason: {reason}").format(reason=reason) if reason else ""
    return _("Corrects the {goal}: now {now}").format(
        goal=before[:1].lower() + before[1:], now=now) + why


def amend_void_text(data: dict[str, Any], ctx: Context, teams: dict[str, Any],
                    lang: str) -> str:
    """A correction of an answer that took its goal away, said as a void of that goal is
    ("Gol de X (2 × 3, 2') anulado pelo árbitro: a resposta passa a ser «sem gol» — motivo:
    …"): the goal stood, and no longer does (walk52a F5: it vanished with no trace)."""
    _ = translator(lang).gettext
    was = ctx.was or {}
    goal = goal_text(was["goal"], teams, lang)
    answer = str((was.get("answer_now") or {}).get(lang) or "")
    text = (_("{goal} voided by the referee: the answer is now “{answer}”").format(
        goal=goal, answer=answer) if answer else
        _("{goal} voided by the referee").format(goal=goal))
    reason = str(data.get("reason") or "").strip()
    return text + (_(" — reason: {reason}").format(reason=reason) if reason else "")


def amend_fact(record: dict[str, Any], data: dict[str, Any], ctx: Context,
               teams: dict[str, Any]) -> tuple[str, dict[str, str], dict[str, Any]]:
    """An amendment's fact (its kind, its texts, what else it carries): a correction that took
    a goal away annuls it, as a void does — GOL ANULADO on the TV (answer.correction_words),
    struck in the súmula's Gols (walk52a F5); else a correction, in its row's words."""
    if ctx.was and ctx.was.get("gone"):
        return ("void_goal", {lang: amend_void_text(data, ctx, teams, lang)
                              for lang, _k in LANGS}, {"goal": ctx.was["goal"]})
    return "correction", {lang: str(record.get(key) or "") for lang, key in LANGS}, {}


def void_text(data: dict[str, Any], ctx: Context, teams: dict[str, Any],
              lang: str) -> str | None:
    """A void in the referee's words, when it voids a goal or undoes a correction (else None:
    the entry's own sentence says it)."""
    _ = translator(lang).gettext
    reason = str(data.get("reason") or "").strip()
    if ctx.was is not None and ctx.was.get("goal"):
        goal = goal_text(ctx.was["goal"], teams, lang)
        return (_("{goal} voided by the referee: {reason}").format(goal=goal, reason=reason)
                if reason else _("{goal} voided by the referee").format(goal=goal))
    if ctx.undone is not None:  # said with what comes back and why (walk 45f M3)
        # the row that comes back in words, never only its number: the Resumo shows none
        # (walk45i-a M4)
        entry = ctx.undone.get("entry")
        what = target_text(entry, teams, lang) if isinstance(entry, dict) else ""
        number = ctx.undone.get("no", "?")  # the match's number (numbers.py)
        why = _(" — reason: {reason}").format(reason=reason) if reason else ""
        back = given_back(ctx, teams, lang)  # an earlier correction's value comes back
        if back:
            return _("Correction undone: “{what}” counts again as the earlier correction "
                     "left it").format(what=back) + why
        if ctx.undone.get("kind") == "amend":
            return (_("Correction undone: “{what}” counts as logged again").format(what=what)
                    if what else _("Correction undone: entry no. {number} reads as logged "
                                   "again").format(number=number)) + why
        if ctx.undone.get("goal"):
            return _("Void undone: {goal} counts again").format(
                goal=goal_text(ctx.undone["goal"], teams, lang)) + why
        return (_("Void undone: “{what}” counts again").format(what=what) if what
                else _("Void undone: entry no. {number} counts again").format(number=number)
                ) + why
    return None


def given_back(ctx: Context, teams: dict[str, Any], lang: str) -> str:
    """What an undone correction gives back, when an earlier correction still changes its
    entry (``ctx.undone["now"]``: records.undone_to): the entry as that one left it
    ("… entra o 13" when "13 → 14" is undone), never the row as logged (issue 45); else ""."""
    undone = ctx.undone or {}
    entry, now = undone.get("entry"), undone.get("now")
    if undone.get("kind") != "amend" or not isinstance(entry, dict) or not now:
        return ""
    return target_text({**entry, **now, "rule_words": None}, teams, lang)


def foul_words(counted: list[Said], disc: Any, lang: str) -> str:
    """A disciplinary foul in one shape everywhere: the rules' words with its count, and the
    disc when named ("Falta disciplinar de Estrela do Norte (1ª), botão 3")."""
    _ = translator(lang).gettext
    named = _("disc {number}").format(number=disc) if disc is not None else ""
    return ", ".join(p for p in ("; ".join(s.words(lang) for s in counted), named) if p)


def foul_by(side: Any, disc: Any, teams: dict[str, Any], lang: str) -> str:
    """A disciplinary foul the rules did not count as one (a disqualification instead)."""
    _ = translator(lang).gettext
    named = _("disc {number}").format(number=disc) if disc is not None else ""
    return ", ".join(p for p in (_("Disciplinary foul by {team}").format(
        team=team(teams, side, lang)), named) if p)


def graded_words(text: str, graded: list[Said], lang: str) -> str:
    """A foul's sentence with what the rules made of it: "…: Tiro livre indireto para …"."""
    kick = "; ".join(s.words(lang) for s in graded)
    return f"{text}: {kick}" if text and kick else text


def not_taken_words(text: str, lang: str) -> str:
    """A foul the rules did not have taken, time being up, said so on its own line: "Falta
    de Botafogo, botão 5 na área — não contada, sem cobrança: tempo esgotado" (walk46b M4: "na
    área" alone read as a penalty given). Nor counted: the engine adds it to no counter (003
    Art. 74 §único e, "não haverá falta"; the same in the four rulesets), so the Resumo's
    fouls add up to the TV's counters (walk49a M4)."""
    return translator(lang).gettext("{foul} — not counted, not taken: time was up").format(
        foul=text)


def lance_foul_words(counted: list[Said], said: list[Said], offender: Any,
                     teams: dict[str, Any], lang: str) -> str:
    """A foul answered to the lance time's question, said as the offender's foul and why:
    "Falta disciplinar de Botafogo (1ª): passou do tempo do lance", or where the rules make it a
    technical foul "Falta técnica de Estrela do Norte (passou do tempo do lance): <the kick>"."""
    _ = translator(lang).gettext
    if counted:
        return _("{foul}: over the lance time").format(foul=foul_words(counted, None, lang))
    kick = "; ".join(s.words(lang) for s in said)
    if offender in ("A", "B"):
        return _("Technical foul by {team} (over the lance time): {kick}").format(
            team=team(teams, offender, lang), kick=kick or _("foul"))
    return _("Over the lance time: {what}").format(what=kick or _("foul"))


def discipline_texts(record: dict[str, Any], kind: str, data: dict[str, Any],
                     said: tuple[Said, ...]) -> dict[str, str]:
    """The fact of an entry of :data:`DISCIPLINE_KINDS` in each language: a disciplinary foul
    in the rules' words with its count, as everywhere else; a foul with the rules' grading of
    it ("tiro livre indireto para …"), as announced, or that it was not taken (time up); as
    amended: the rules' re-run words and the amended disc, as if entered so (M-a)."""
    counted = [s for s in said if s.code == "disciplinary"] if kind == "discipline" else []
    graded = [s for s in said if s.code.startswith("restart_")] if kind == "foul" else []
    texts = {lang: foul_words(counted, data.get("disc"), lang) if counted
             else graded_words(str(record.get(f"now_{lang}") or record.get(key) or ""),
                               graded, lang) for lang, key in LANGS}
    if kind == "foul" and any(s.code in NOT_TAKEN_CODES for s in said):
        texts = {lang: not_taken_words(text, lang) for lang, text in texts.items()}
    return texts


def entry_facts(record: dict[str, Any], ctx: Context, teams: dict[str, Any]) -> list[Fact]:
    """The facts one entry's record adds to the account (``text``/``text_en`` each), struck
    when the entry no longer counts; an amended entry's facts are the amended fact's
    (``amended``: :func:`applied`)."""
    kind, data = applied(record)
    status = record.get("status") or {}
    counts = status.get("state", "effective") in ("effective", "amended")
    out: list[Fact] = []

    def add(what: str, texts: dict[str, str], **extra: Any) -> None:
        out.append({"entry": record.get("id"), "kind": what, "struck": not counts,
                    "text": texts["pt"], "text_en": texts["en"], **extra})

    def said(code_set: frozenset[str] | set[str] | None = None) -> list[Said]:
        return [s for s in ctx.said if code_set is None or s.code in code_set]

    sanctions = set(SANCTION_CODES)

    if ctx.goal is not None:
        add("goal", {lang: goal_text(ctx.goal, teams, lang) for lang, _k in LANGS},
            side=ctx.goal.get("side"), goal=ctx.goal)
    if kind == "void":
        texts = {lang: void_text(data, ctx, teams, lang) for lang, _k in LANGS}
        if texts["pt"] is not None:
            # a void of a goal names it; the undo of one says a goal counts again (restores)
            add("void_goal" if ctx.was and ctx.was.get("goal") else "undo",
                {k: v or "" for k, v in texts.items()},
                **({"goal": ctx.was["goal"]} if ctx.was and ctx.was.get("goal") else
                   {"restores": True} if ctx.undone and ctx.undone.get("goal") else {}))
        else:
            add("correction", {lang: str(record.get(key) or "") for lang, key in LANGS})
    elif kind == "amend":
        what, texts, extra = amend_fact(record, data, ctx, teams)
        add(what, texts, **extra)
    elif kind == "discipline" and not ctx.said and not data.get("action") \
            and data.get("type", "disciplinary") == "disciplinary":
        pass  # the rules asked the referee to grade it (003 Art. 87): the answer's fact says it
    elif kind in DISCIPLINE_KINDS:
        add("discipline", discipline_texts(record, kind, data, ctx.said), side=data.get("side"))
    elif kind in SUBSTITUTION_KINDS:
        add("substitution", {lang: str(record.get(f"now_{lang}") or record.get(key) or "")
                             for lang, key in LANGS}, side=data.get("side"),
            out=data.get("out"), **{"in": data.get("in")})
    elif kind == "lance_expired" and said(frozenset({"lance_over"})):
        # the device's expiry that is the foul itself (001 Art. XXIX e): what the rules made
        add("discipline", {lang: lance_foul_words([], [s for s in said() if s.code.startswith(
            "restart_")], data.get("side"), teams, lang) for lang, _k in LANGS},
            side=data.get("side"))
    elif kind == "confirm" and data.get("choice") == "foul" and (
            counts or status.get("state") == "voided"):
        # a foul answered to the table's question (the lance time): what the rules made of it
        # (voided, struck with its void, as a foul row is: both listed, account.listed_facts)
        add("discipline", {lang: lance_foul_words(said(frozenset({"disciplinary"})), said(),
                                                  record.get("target_side"), teams, lang)
                           for lang, _k in LANGS}, side=record.get("target_side"))
    elif kind == "confirm" and record.get("target_kind") == "discipline" and counts \
            and said(frozenset({"disciplinary", "disqualified"})):
        # the referee's grading of a disciplinary foul (003 Art. 87): the foul in its one
        # shape, with its count, its disc and what the grading made of it
        graded = [s for s in said() if s.code.startswith("restart_") or s.code == "disqualified"]
        counted = said(frozenset({"disciplinary"}))
        disc = record.get("target_disc")
        add("discipline", {lang: graded_words(
            foul_words(counted, disc, lang) if counted
            else foul_by(record.get("target_side"), disc, teams, lang),
            graded, lang) for lang, _k in LANGS}, side=record.get("target_side"))
        sanctions -= {"disqualified"}  # said in the grading's fact
    elif kind == "lance_done":
        add("time", {lang: str(record.get(key) or "") for lang, key in LANGS})
    elif kind == "added_time":
        # why the period ended past its length (walk 49b L4): placed at its minute
        add("added_time", {lang: str(record.get(f"now_{lang}") or record.get(key) or "")
                           for lang, key in LANGS})
    elif kind == "clock_restored":
        add("restart", {lang: restart_text(record, lang) for lang, _k in LANGS},
            lost_ms=data.get("lost_ms") or 0)
    if counts:
        _caused_facts(out, ctx, said(), sanctions if kind != "discipline" else set(), add)
    return out


def _caused_facts(out: list[Fact], ctx: Context, said: list[Said], sanctions: set[str],
                  add: Callable[..., None]) -> None:
    """What an entry that counts caused (``caused``: said under its row, never its headline):
    the questions it closed, the sanctions, the fouls counted, the end of a period."""
    for s in (s for s in said if s.code in QUESTION_CODES):
        add("question", {lang: s.words(lang) for lang, _k in LANGS})
    for s in (s for s in said if s.code in sanctions):
        add("discipline", {lang: s.words(lang) for lang, _k in LANGS}, caused=True)
    _mark_counted(out, ctx, said, add)
    for s in (s for s in said if s.code in TIME_CODES):
        add("time", {lang: s.words(lang) for lang, _k in LANGS}, caused=True)


def _mark_counted(out: list[Fact], ctx: Context, said: list[Said],
                  add: Callable[..., None]) -> None:
    """Each foul the engine counted on this entry marks the entry's own foul fact of that team
    (``counted``), or is a fact of its own, in the rules' words, where the rules gave it (001
    Art. XXII §1): the account's fouls are the counters the TV shows."""
    for side, made in counted_by_side(ctx.counted).items():
        own = next((f for f in out if f["kind"] == "discipline" and not f.get("caused")
                    and f.get("side") == side), None)
        if own is not None:
            own["counted"] = made
        else:
            add("discipline", {lang: rules_foul_words(said, lang) for lang, _k in LANGS},
                caused=True, side=side, counted=made)


def counted_by_side(counted: tuple[tuple[str, str, int], ...]) -> dict[str, dict[str, int]]:
    """The fouls an entry made the rules count, by side: {"A": {"technical": 1}}."""
    out: dict[str, dict[str, int]] = {}
    for side, kind, n in counted:
        row = out.setdefault(side, {})
        row[kind] = row.get(kind, 0) + n
    return {side: {k: n for k, n in row.items() if n} for side, row in out.items()
            if any(row.values())}


def rules_foul_words(said: list[Said], lang: str) -> str:
    """A foul the rules gave on an entry that is not a foul, in the words the console and the
    TV said it: "O chute de Grêmio F.C. terminou no próprio gol: não é gol; Falta técnica para
    Internacional" — what the entry's other facts say (a sanction, an end of time) aside."""
    return "; ".join(s.words(lang) for s in said
                     if s.code not in SANCTION_CODES and s.code not in TIME_CODES)


def headline(record: dict[str, Any], ctx: Context) -> dict[str, list[str]]:
    """A row's headline in each language: the facts the entry entered, never what it caused
    (an end of the match under the shot that ended it, walk45h-b B7); a goal voided keeps the
    goal it was (struck with its row)."""
    own = [f for f in record.get("facts") or [] if not f.get("caused")]
    was = (ctx.was or {}).get("goal") if record.get("kind") not in CORRECTION_KINDS else None
    named = record.get("goal_words") if not own and was else None
    return {lang: [str(f.get(key) or "") for f in own] or ([str(named[lang])] if named else [])
            for lang, key in LANGS}


def folds(kind: str, facts: list[Fact]) -> bool:
    """Whether an entry's row is the lance timer's own, folded away: its start, warning or
    expiry, unless the rules made a foul of it (gaúcha's expiry is the technical foul) or
    withdrew a question on it (the referee reads what became of it, walk48b M1)."""
    return kind in FOLDED_KINDS and not any(f.get("kind") in ("discipline", "question")
                                            for f in facts)


# ---- a table's restart: its clock restored, the time it did not count, the referee's word ----


def restart_text(record: dict[str, Any], lang: str) -> str:
    """A reset table's clock restored (the host's ``clock_restored`` entry, walk 47a H1): "Mesa
    reiniciada: relógio restaurado em 00:22; 00:36 não contados" — what the referee decided
    is said by :func:`restart_decided` once the account has the entries after it."""
    _ = translator(lang).gettext
    data = record.get("data") if isinstance(record.get("data"), dict) else {}
    text = _("Table restarted: clock restored at {clock}").format(
        clock=clock_text(record.get("clock_ms")))
    # said to the second as the referee was asked it (the console rounds it: "00:28" for
    # 27.6 s), so the line and the question name one time (walk 49a H1)
    lost = round((data.get("lost_ms") or 0) / 1000) * 1000
    return text + ("; " + _("{time} not counted").format(time=clock_text(lost)) if lost else "")


def restart_decided(records: list[dict[str, Any]], index: int, lang: str) -> str:
    """What the referee decided on the time a restart did not count: the clock advanced by it
    (play went on: ``clock_catch_up``) or added time given, after it in that period (the
    entry in force), or the clock kept as restored — by the referee's "Não" (``clock_kept``),
    or with no answer, said apart (walk50b M2). The
    table's own entries of no period (its profile set again as it came back) are not the
    period's end (walk 49a H1: they hid the referee's "Sim")."""
    _ = translator(lang).gettext
    period = records[index].get("period")
    for r in records[index + 1:]:
        if not r.get("period"):
            continue
        if r.get("period") != period or r.get("kind") == "clock_restored":
            break
        state = (r.get("status") or {}).get("state", "effective")
        if state not in ("effective", "amended"):
            continue
        ms = (r.get("data") or {}).get("ms")
        if r.get("kind") == "clock_catch_up":
            return _("clock advanced {time} by the referee").format(time=clock_text(ms))
        if r.get("kind") == "added_time":
            return _("added time of {time} given").format(time=clock_text(ms))
        if r.get("kind") == "clock_kept":  # "Não: o jogo parou" (walk50b M2)
            return _("clock kept as restored by the referee")
    return _("clock kept as restored, no answer from the referee")


# ---- the account: every record's facts, placed ------------------------------------------------
# the facts of a correction that say it in the words of the row it corrects (a goal's void
# names the goal itself: "Gol de … anulado pelo árbitro", listed whatever its row lists)
NAMES_ITS_ROW = frozenset({"correction", "undo"})
# the facts of a row that are the Registro's bookkeeping, not the match's: a question withdrawn
# unanswered ("Pergunta encerrada sem resposta: … sem falta", walk48b M1) is said on its row in
# the Registro and the súmula's event log, never in the account — five of them took 5 of the
# 19 lines of the Resumo da partida and pushed the goals and the fouls apart (walk52b L5)
UNLISTED = frozenset({"question"})


def listed_facts(records: list[dict[str, Any]]) -> list[tuple[dict[str, Any], Fact]]:
    """(record, fact) of every fact the account lists, in the log's order: a correction's
    (its void, amendment or undo) only when the row it corrects lists a fact — the annulment
    of a fact never listed (an answer to "Quem dá a saída?") is not listed either: both or
    neither (issue 45, kick-off walk). Every correction stays in the Registro and the
    súmula's Correções; a question withdrawn (:data:`UNLISTED`) only there."""
    listed: set[Any] = set()
    out: list[tuple[dict[str, Any], Fact]] = []
    for r in records:
        data = r.get("data") if isinstance(r.get("data"), dict) else {}
        orphan = r.get("kind") in CORRECTION_KINDS and data.get("target") not in listed
        facts = [f for f in r.get("facts") or [] if f.get("kind") not in UNLISTED
                 and not (orphan and f.get("kind") in NAMES_ITS_ROW)]
        if facts:
            listed.add(r.get("id"))
        out.extend((r, f) for f in facts)
    return out


def asked_moment(r: dict[str, Any], by_id: dict[Any, dict[str, Any]]) -> dict[str, Any]:
    """The record whose moment an entry's facts are placed at: an answer (``confirm``) is
    dated at the event its question asked about, never when the referee answered it — a
    lance-time foul of the 1st half answered in the interval is "1º tempo 3'", not
    "Intervalo" (walk52b L2); a question on an answer goes back to the first event."""
    seen = {id(r)}
    while r.get("kind") == "confirm" and isinstance(r.get("data"), dict):
        asked = by_id.get(r["data"].get("target"))
        if asked is None or id(asked) in seen:
            break
        seen.add(id(asked))
        r = asked
    return r


def account(records: list[dict[str, Any]]) -> list[Fact]:
    """Every fact of the match the account lists (:func:`listed_facts`) in the log's order,
    each with where it is placed (``when``, ``when_en``): an answer where its question's
    event is (:func:`asked_moment`)."""
    out: list[Fact] = []
    index = {id(r): i for i, r in enumerate(records)}
    by_id = {r.get("id"): r for r in records if r.get("id") is not None}
    for listed, f in listed_facts(records):
        # how the time went (an end the answer made) is when it went: the answer's own
        r = listed if f.get("kind") == "time" else asked_moment(listed, by_id)
        if f.get("kind") == "restart" and f.get("lost_ms"):
            f = {**f, **{key: f"{f[key]} — {restart_decided(records, index[id(listed)], lang)}"
                         for lang, key in LANGS}}
        # a goal is placed when it was scored; its void, like every correction, when made
        goal = (f.get("goal") if f.get("kind") == "goal" and isinstance(f.get("goal"), dict)
                else None)
        period = goal.get("period") if goal else r.get("period")
        clock = goal.get("clock_ms") if goal else r.get("clock_ms")
        length = (goal or r).get("length_ms")
        inside = bool(r.get("interval")) and goal is None
        shootout = bool(r.get("shootout")) and goal is None
        over = bool(r.get("after_match")) and goal is None
        if f.get("kind") == "time" and not inside:
            clock = None  # the end of a period is the period's, not a minute past it
        out.append({**f, "when": when(period, clock, inside, "pt", length, shootout, over),
                    "when_en": when(period, clock, inside, "en", length, shootout, over)})
    return out


def line(fact: Fact, lang: str = "pt") -> str:
    """One fact as one line: "1º tempo 12' — Gol de … (1 × 0, 12', botão 9)"."""
    text = str(fact.get("text" if lang == "pt" else "text_en") or "")
    place = str(fact.get("when" if lang == "pt" else "when_en") or "")
    return f"{place} — {text}" if place else text
