"""One log entry as the views read it (its sentence, status, the rules' words, its facts in
the account of the match: :mod:`.account`), and what that needs from the whole match: the goal
each side defended then, what the rules announced, the goals, the voids, the intervals."""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Mapping
from typing import Any, NamedTuple

from futmesa.matchbook.account import (
    Context,
    Said,
    amend_goal_text,
    amended_form,
    applied,
    entry_facts,
    folds,
    given_back,
    goal_text,
    goals_by_entry,
    headline,
    interval_after,
    period_length,
    placed,
    placed_in_interval,
    when,
)
from futmesa.matchbook.citations import plain
from futmesa.matchbook.entries import to_entry
from futmesa.matchbook.numbers import number_of, numbered
from futmesa.matchbook.status import (
    MOOT,
    VOIDED,
    EntryStatus,
    entry_statuses,
    with_moot_answers,
)
from futmesa.matchbook.wording import (
    clip_cited,
    confirmed_clock,
    origin,
    restart_taken_text,
    sentence,
    target_text,
)
from futmesa.rules.corrections import amend_adds, correctable, resolve
from futmesa.store import StoredEntry

# the announcements that only restate an entry of another name: "Chute de X: defendido" on
# "Chute sem gol: defendido", "Lateral para X" on "Reinício: lateral para X" (a code ending
# "_": any of that family) — walk45g, low: said twice on one row
RESTATES = {"shot_result": "shot_over", "restart": "restart_"}


# the rows the rules' own words say better than the entry's sentence: the shot a "Chute sem
# gol" closes is the rules' to know, and they name its team and disc ("Chute de Botafogo,
# botão 8: defendido": walk45i-a M5, the Vez line said it and the Registro did not)
SAID_BY_RULES = {"shot_result": "shot_over"}


def rule_words(state: dict[str, Any], kinds: dict[int, str]) -> dict[int, dict[str, str]]:
    """Each entry :data:`SAID_BY_RULES` names, in the rules' words without their citation
    ({"pt", "en"}), by entry id."""
    out: dict[int, dict[str, str]] = {}
    for a in state.get("announcements") or []:
        entry = a.get("entry") if isinstance(a, dict) else None
        if isinstance(entry, int) and entry not in out and a.get("code") == SAID_BY_RULES.get(
                kinds.get(entry) or ""):
            said = Said(str(a["code"]), str(a.get("pt", "")), str(a.get("en", "")),
                        str(a.get("rule") or ""))
            out[entry] = {"pt": said.words("pt"), "en": said.words("en")}
    return out


def taken_words(state: dict[str, Any], touches: Mapping[int, Any], teams: dict[str, Any],
                entry: int | None = None) -> dict[int, dict[str, str]]:
    """Each plain touch (``touches``: the touch entries' data by id; a touch that says more —
    from the opponent's half, short of the area, a miss — keeps its own sentence) the rules
    read as taking a restart (``restarts_taken``), in words ({"pt", "en"}: "Saída de jogo para
    Alvorada: cobrança dada pelo botão 5", never a plain "Toque de Alvorada, botão 5": walk
    50a L5), by entry id; only ``entry``'s if given (the newest)."""
    taken = state.get("restarts_taken") or []
    if entry is not None:
        taken = [t for t in taken[-1:] if isinstance(t, dict) and t.get("entry") == entry]
    out: dict[int, dict[str, str]] = {}
    for t in taken:
        said = {lang: restart_taken_text(t, teams, lang) for lang in ("pt", "en")}
        data = touches.get(t.get("entry")) if isinstance(t, dict) else None
        if isinstance(data, dict) and set(data) <= {"side", "disc"} and said["pt"]:
            out[t["entry"]] = said
    return out


def answered_words(state: dict[str, Any], entry: int | None = None) -> dict[int, dict[str, str]]:
    """The words of the button each answer (``confirm``) tapped, by entry id ({"pt", "en"}:
    the engine's ``answered``, rules/answers.py chosen_words); only ``entry``'s if given."""
    return {a["entry"]: {lang: str(a.get(lang) or "") for lang in ("pt", "en")}
            for a in state.get("answered") or []
            if isinstance(a, dict) and isinstance(a.get("entry"), int)
            and entry in (None, a["entry"])}


def answer_options(state: dict[str, Any], entry: int | None = None) -> dict[int, dict[str, Any]]:
    """The answers each answer's (``confirm``) question offered, by entry id: ``options`` (the
    codes) and ``answers`` (their words in each language, as its buttons said them: the
    engine's ``answer_options``, rules/goals.py on_confirm) — what a correction of the answer
    may choose (wording.amend_fields, walk52a F4); only ``entry``'s if given."""
    return {a["entry"]: {"options": list(a.get("options") or []),
                         "answers": dict(a.get("answers") or {})}
            for a in state.get("answer_options") or []
            if isinstance(a, dict) and isinstance(a.get("entry"), int)
            and entry in (None, a["entry"])}


def restates(kind: str | None, code: Any) -> bool:
    """Whether an announcement ``code`` only restates an entry of ``kind``."""
    said = RESTATES.get(kind or "")
    return bool(said) and isinstance(code, str) and (
        code == said or (said.endswith("_") and code.startswith(said)))


def meanings(state: dict[str, Any], kinds: dict[int, str]) -> dict[int, list[dict[str, str]]]:
    """What the rules announced for each entry (a goal, a restart…), by entry id.

    An announcement that only restates the entry (its code is the entry's kind, or the one
    :func:`restates` names for it) is left out.
    """
    out: dict[int, list[dict[str, str]]] = {}
    for a in state.get("announcements") or []:
        kind = kinds.get(a["entry"]) if isinstance(a, dict) and isinstance(
            a.get("entry"), int) else None
        if (isinstance(a, dict) and a.get("code") != "refused"
                and isinstance(a.get("entry"), int)
                and a.get("code") not in (kind, "correction")
                and not restates(kind, a.get("code"))):
            said = {"pt": str(a.get("pt", "")), "en": str(a.get("en", "")),
                    "code": str(a.get("code") or ""), "rule": str(a.get("rule") or "")}
            listed = out.setdefault(a["entry"], [])
            if not _arrangement_of(said, listed):
                listed.append(said)
    return out


def _arrangement_of(said: dict[str, str], listed: list[dict[str, str]]) -> bool:
    """Whether ``said`` is the teams' arrangement for the goal kick already listed under the
    same article ("Arrumação das equipes; tiro de meta para X", rules/core.py set_restart):
    its words take the goal kick's place, which keeps its code (walk 49b L2: "Tiro de meta
    para X (Art. 13); Arrumação das equipes; tiro de meta para X (Art. 13)")."""
    if said["code"] != "rearrange":
        return False
    kick = next((s for s in listed if s["code"] == "restart_tiro_de_meta"
                 and s["rule"] == said["rule"]), None)
    if kick is None:
        return False
    kick.update(pt=said["pt"], en=said["en"])
    return True


def said_of(meaning: list[dict[str, str]] | None) -> tuple[Said, ...]:
    return tuple(Said(m.get("code", ""), m.get("pt", ""), m.get("en", ""), m.get("rule", ""))
                 for m in meaning or [])


def amended_of(row: dict[str, Any], st: EntryStatus | None,
               by_id: dict[int, dict[str, Any]]) -> dict[str, Any] | None:
    """An entry (its ``kind`` and ``data``) as the amendment in effect on it makes it
    (:func:`~.account.amended_form`), or None when none is."""
    if st is None or st.state != "amended" or st.by is None:
        return None
    return amended_form(row, by_id.get(st.by))


def now_reads(e: StoredEntry, amended: dict[str, Any] | None, teams: dict[str, Any],
              ends: dict[str, int] | None, lang: str, targets: Any = None,
              interval: bool = False) -> str | None:
    """An amended entry as it now reads (``amended``: the amendment's kind and data), said as
    its own sentence is (``targets``, ``interval``: :func:`entry_record`), else None."""
    if amended is None:
        return None
    return sentence(amended["kind"], amended["data"], teams, lang, period=e.period, ends=ends,
                    targets=targets, interval=interval)


def amended_words(e: StoredEntry, record: dict[str, Any], teams: dict[str, Any],
                  targets: Any, interval: bool) -> dict[str, str | None]:
    """An amended entry's sentence in each language (``now_pt``, ``now_en``; None: not
    amended), made its row's ``text``: every line of the row reads the amended fact, as if
    entered so; the sentence as logged kept (``logged``: Correções' "before", walk45i-b M-a)."""
    now = {f"now_{lang}": now_reads(e, record["amended"], teams, record["ends"], lang, targets,
                                    interval) for lang in ("pt", "en")}
    if now["now_pt"] is not None:
        record["logged"], record["logged_en"] = record["text"], record["text_en"]
        record["text"], record["text_en"] = now["now_pt"], str(now["now_en"])
    return now


def placement(e: StoredEntry, ctx: Context) -> dict[str, Any]:
    """Where an entry is placed in the match, as every view shows it."""
    return {
        "interval": ctx.interval,  # made between two periods: placed "Intervalo"
        "shootout": ctx.shootout,  # made in the penalty shoot-out: placed "Disputa de pênaltis"
        "after_match": ctx.place == "over",  # made after the final whistle: "Depois do jogo"
        # made with no period on the table's clock (before the match, or the table just back
        # from a power cut, its clock not yet restored): placed with no clock, never "00:00"
        # mid-match (walk50b L3: taken for a clock reset)
        "no_clock": not e.period,
        "length_ms": ctx.length_ms,  # its period's length: no minute is placed past it
    }


def entry_record(e: StoredEntry, status: EntryStatus | None, teams: dict[str, Any],
                 by_id: dict[int, dict[str, Any]],
                 meaning: list[dict[str, str]] | None = None,
                 ends: dict[str, int] | None = None,
                 ctx: Context | None = None) -> dict[str, Any]:
    """One entry as the views read it: the stored row, its status, its sentences and meaning,
    where it is placed, whether it folds away, and its facts in the account (``ctx``)."""
    st = status or EntryStatus()
    ctx = ctx or Context(said=said_of(meaning))
    if st.state == "voided" and ctx.was is not None and e.kind not in ("void", "amend"):
        meaning = ctx.was.get("meaning") or []  # what it was, never what its void made of it
        ctx = ctx._replace(said=said_of(meaning))  # its facts too, struck (a foul stays one)
    targets = _targets(e, ctx, by_id, teams)
    record = {
        "id": e.id, "no": (by_id.get(e.id) or {}).get("no"),  # the match's number (numbers.py)
        "kind": e.kind, "data": e.data, "source": e.source, "period": e.period,
        "clock_ms": e.clock_ms, "created_at": e.created_at, "occurred_at": e.occurred_at,
        "author": e.author,
        "status": {**st.to_dict(), **({"by_no": (by_id.get(st.by) or {}).get("no")}
                                      if st.by is not None else {}),  # "by": its nº too
                   **withdrawn_goal(e, st, by_id)},
        "voided": st.state in ("voided", "without_effect", "moot"),
        "amended_by": st.by if st.state == "amended" else None,
        "ends": ends,  # the goal each side defended then (names goal lines by side)
        "origin": origin(e.source, e.author),
        "origin_en": origin(e.source, e.author, "en"),
        # an alarm ends the interval only once the table closed the period (its own alarm
        # closing it, and any in a shoot-out, are not the interval's)
        **row_text(e, st, ctx, by_id, targets, teams, ends),
        **placement(e, ctx),
        "undoes": ctx.undone is not None,  # a void undoing a correction (offers no undo)
        # the value an earlier correction gives back when this undoes a later one (Correções)
        "undone_to": {lang: given_back(ctx, teams, lang) for lang in ("pt", "en")}
        if ctx.undone and ctx.undone.get("now") else None,
        # the goal it counts, or counted before its void: how a correction or an answer names it
        "goal_words": (by_id.get(e.id) or {}).get("goal_words"),
        **offered_of(e.id, by_id),  # an answer: its question's answers (its correction form)
        "corrects_kind": corrects_kind(e, by_id),
        # an amendment of a goal's row: the goal as it was before it (Correções: B5)
        "goal_was": goal_words((ctx.was or {}).get("goal"), teams) if e.kind == "amend"
        else None,
        # an amendment's entry as the one before it made it (Correções' "Registro corrigido")
        "target_was": {lang: target_text(targets[e.data["target"]], teams, lang, targets)
                       for lang in ("pt", "en")} if ctx.corrects is not None else None,
        # the rules' words, their citations in words: short for screens, full for the súmula
        "meaning": [plain(m["pt"]) for m in meaning or []],
        "meaning_en": [plain(m["en"]) for m in meaning or []],
        "meaning_full": [plain(m["pt"], full=True) for m in meaning or []],
        "meaning_en_full": [plain(m["en"], full=True) for m in meaning or []],
    }
    # the fact as the rules apply it: every fact and table reads the amended one (walk45h-a A4)
    record["amended"] = amended_of({"kind": e.kind, "data": e.data}, st, by_id)
    now = amended_words(e, record, teams, targets, ctx.place == "interval")
    asked = by_id.get(e.data.get("target")) if e.kind == "confirm" and isinstance(
        e.data, dict) and isinstance(e.data.get("target"), int) else None
    target_kind, target = applied(asked) if asked is not None else (None, {})
    if e.kind == "clip":  # the entries whose moment the clip holds: a correction may cite it
        record["covers"] = clip_covers(e, by_id)
    record["facts"] = entry_facts({**record, **now, "target_side": target.get("side"),
                                   "target_disc": target.get("disc"),
                                   "target_kind": target_kind}, ctx, teams)
    # the lance timer's rows: folded away unless asked; never a foul (account.folds)
    record["folded"] = folds(e.kind, record["facts"])
    # what the console offers to void or correct: what the engine corrects (one place)
    record["correctable"] = (st.counts and not record["folded"] and correctable(
        e.kind, "void", goal_answered=bool((by_id.get(e.id) or {}).get("goal_answered"))))
    # what its correction form starts from: its data as it reads now (amended: the amended
    # data, walk45h-a A4) and what the engine lets a correction add (a goal's scorer,
    # walk45h-b B5: corrections.AMEND_ADDS)
    adds = {k: ctx.goal.get(k) for k in amend_adds(e.kind)
            if ctx.goal is not None and ctx.goal.get(k) is not None}
    now_data = record["amended"]["data"] if record["amended"] else e.data
    record["amend_data"] = ({**now_data, **adds} if (adds or record["amended"])
                            and isinstance(now_data, dict) else None)
    if st.counts:
        goal_amended(e, record, by_id)
    _void_in_words(e, record, by_id)
    record["headline"] = headline(record, ctx)  # the fact entered; what it caused under it
    return record


def offered_of(entry: int, by_id: Mapping[int, dict[str, Any]]) -> dict[str, Any]:
    """``{"answer_options": …}`` for an answer whose question's answers are known
    (:func:`answer_options`), else {}."""
    offered = (by_id.get(entry) or {}).get("answer_options")
    return {"answer_options": offered} if offered else {}


def corrects_kind(e: StoredEntry, by_id: Mapping[int, dict[str, Any]]) -> str | None:
    """The kind of entry a void or an amendment corrects, else None: a correction of the
    goalkeeper's secret choice keeps its words hidden (keeper_secret.redact_secrets)."""
    if e.kind not in ("void", "amend") or not isinstance(e.data, dict):
        return None
    target = e.data.get("target")
    return (by_id.get(target) or {}).get("kind") if isinstance(target, int) else None


def _targets(e: StoredEntry, ctx: Context, by_id: dict[int, dict[str, Any]],
             teams: dict[str, Any]) -> Mapping[int, dict[str, Any]]:
    """The entries `e` names, as it names them: an answer names what it decided in words; an
    amendment's target as the amendment before this one made it."""
    targets = asked_named(e, by_id, teams)
    if ctx.corrects is not None:
        corrected = e.data["target"]
        targets = ChainMap({corrected: {**by_id[corrected], **ctx.corrects,
                                        "rule_words": None}}, targets)
    return targets


def _void_in_words(e: StoredEntry, record: dict[str, Any],
                   by_id: dict[int, dict[str, Any]]) -> None:
    """A void's row reads in the referee's words, with the clip it cites, if any."""
    for fact in record["facts"]:
        if fact["kind"] in ("void_goal", "undo"):
            fact["text"] += clip_cited(e.data, by_id, "pt")
            fact["text_en"] += clip_cited(e.data, by_id, "en")
            record["text"], record["text_en"] = fact["text"], fact["text_en"]


def withdrawn_goal(e: StoredEntry, st: EntryStatus,
                   by_id: dict[int, dict[str, Any]]) -> dict[str, bool]:
    """``{"goal": True}`` for an answer withdrawn with the goal it was asked about (its status
    then says "o gol foi anulado", not "a pergunta": walk45i-a, low), else {}."""
    asked = e.data.get("target") if st.state == "moot" and isinstance(e.data, dict) else None
    return {"goal": True} if isinstance(asked, int) and (by_id.get(asked) or {}).get(
        "goal_words") else {}


def row_text(e: StoredEntry, st: EntryStatus, ctx: Context, by_id: dict[int, dict[str, Any]],
             targets: Any, teams: dict[str, Any],
             ends: dict[str, int] | None) -> dict[str, str]:
    """An entry's sentence in each language (``text``, ``text_en``): the rules' words where
    they say more (:data:`SAID_BY_RULES`), as logged — a voided row as the rules said it
    before its void, an amended one in its own sentence —, else :func:`sentence`."""
    own = ((by_id.get(e.id) or {}).get("rule_words") if st.state == "effective" else
           (ctx.was or {}).get("rule_words") if st.state == "voided" else None)
    if own is None and carries_out_catch_up(e, by_id):
        own = {lang: confirmed_clock(e.data.get("to_ms"), lang) for lang in ("pt", "en")}
    return {key: own[lang] if own else sentence(e.kind, e.data, teams, lang, period=e.period,
                                                targets=targets, ends=ends,
                                                interval=ctx.place == "interval",
                                                closing=ctx.place == "closing")
            for lang, key in (("pt", "text"), ("en", "text_en"))}


def carries_out_catch_up(e: StoredEntry, by_id: Mapping[int, dict[str, Any]]) -> bool:
    """Whether ``e`` is the table's adjustment that carries out the referee's "advance the
    clock" (``clock_catch_up``, the power cut's "Sim"): the newest clock move before it in its
    period is that answer, by the same time. Its row confirms the answer; read "Relógio
    ajustado em +28 s" after "Árbitro adianta o relógio 28 s", it was a second advance
    (walk 49a H1). ``by_id``: the match's entries in the log's order."""
    if e.source != "device" or e.kind != "clock_adjusted" or not isinstance(e.data, dict):
        return False
    ids = list(by_id)
    at = ids.index(e.id) if e.id in ids else len(ids)
    for row in (by_id[i] for i in reversed(ids[:at])):
        if row.get("period") != e.period or row.get("kind") not in (
                "clock_catch_up", "clock_adjusted"):
            continue
        return row["kind"] == "clock_catch_up" and isinstance(row.get("data"), dict) \
            and row["data"].get("ms") == e.data.get("delta_ms")
    return False


def goal_amended(e: StoredEntry, record: dict[str, Any],
                 by_id: dict[int, dict[str, Any]]) -> None:
    """An amendment in effect of a goal's row said as the goal it was and the goal it makes
    (its ``text``, its correction fact), never "passa a ser «Sensor: …»" (walk45h-b B5)."""
    target = e.data.get("target") if e.kind == "amend" and isinstance(e.data, dict) else None
    now = (by_id.get(target) or {}).get("goal_words") if isinstance(target, int) else None
    if not record.get("goal_was") or not now:
        return
    for lang, key in (("pt", "text"), ("en", "text_en")):
        record[key] = amend_goal_text(e.data, record["goal_was"][lang], now[lang],
                                      lang) + clip_cited(e.data, by_id, lang)
    for fact in record["facts"]:
        if fact["kind"] == "correction":
            fact["text"], fact["text_en"] = record["text"], record["text_en"]


def asked_named(e: StoredEntry, by_id: dict[int, dict[str, Any]],
                teams: dict[str, Any]) -> Any:
    """``by_id`` with the entry an answer (``confirm``) decided named in words and placed
    (``fact_words``: "Tempo do lance de X esgotado", "1º tempo 1'"): the answer says the fact,
    never the number of a row folded away or left out of the PDF (walk45h-b B4)."""
    target = e.data.get("target") if e.kind == "confirm" and isinstance(e.data, dict) else None
    asked = by_id.get(target) if isinstance(target, int) else None
    if asked is None:
        return by_id
    # the words of the button this answer tapped, the row's to say (walk45j-b 34-lance-ans)
    said = {"answer_words": (by_id.get(e.id) or {}).get("answer_words")}
    if asked.get("goal_words"):  # a goal's question names the goal (goal_words)
        return ChainMap({target: {**asked, **said}}, by_id)
    made = answer_made(asked, by_id, teams)
    named = {lang: [made[lang] if made else sentence(
                        str(asked.get("kind") or ""), asked.get("data"), teams, lang,
                        period=asked.get("period"), ends=asked.get("ends")),
                    when(asked.get("period"), asked.get("clock_ms"), False, lang,
                         asked.get("length_ms"))] for lang in ("pt", "en")}
    return ChainMap({target: {**asked, "fact_words": named, **said}}, by_id)


def answer_made(answer: dict[str, Any], by_id: Mapping[int, dict[str, Any]],
                teams: dict[str, Any]) -> dict[str, str] | None:
    """A question asked on an answer (the bico of the free kick a lance-time foul gave, 000
    Art. 26 §2 II B) is about what that answer made: the facts it entered, as its own row
    heads them ("Falta disciplinar de Botafogo (1ª): passou do tempo do lance"), else the
    rules' first words on it — never "Árbitro decide sobre o registro nº 41: falta", a stored
    number inside a second "decide sobre" (walk46a M1); None for any other entry."""
    if answer.get("kind") != "confirm":
        return None
    said = said_of(answer.get("said"))
    data = answer.get("data") if isinstance(answer.get("data"), dict) else {}
    question = by_id.get(data.get("target")) if isinstance(data.get("target"), int) else None
    target_kind, target = applied(question) if question is not None else (None, {})
    record = {**answer, "status": {}, "target_side": target.get("side"),
              "target_disc": target.get("disc"), "target_kind": target_kind}
    facts = [f for f in entry_facts(record, Context(said=said), teams) if not f.get("caused")]
    if facts:
        return {lang: "; ".join(str(f[key]) for f in facts)
                for lang, key in (("pt", "text"), ("en", "text_en"))}
    return {lang: said[0].words(lang) for lang in ("pt", "en")} if said else None


def clip_covers(clip: StoredEntry, by_id: dict[int, dict[str, Any]]) -> list[int]:
    """The earlier entries made within a clip's span (its first to last frame, half a second
    of slack: a USB camera's own latency), the clips aside (docs/camera.md)."""
    d = clip.data if isinstance(clip.data, dict) else {}
    start, end = d.get("from_ms"), d.get("to_ms")
    if not isinstance(start, int | float) or not isinstance(end, int | float):
        return []
    return [i for i, b in sorted(by_id.items()) if i < clip.id and b.get("kind") != "clip"
            and isinstance(b.get("at"), int | float) and start - 500 <= b["at"] <= end + 500]


def ends_by_entry(state: dict[str, Any], stored: list[StoredEntry]) -> dict[int, dict[str, int]]:
    """The goal each side defended when each entry was made, from the log's "ends" inputs and
    the engine's "change_ends" announcements (so a goal line is named by its side)."""
    swaps = {a.get("entry") for a in state.get("announcements") or []
             if isinstance(a, dict) and a.get("code") == "change_ends"}
    ends = {"A": 0, "B": 1}
    out: dict[int, dict[str, int]] = {}
    for e in stored:
        out[e.id] = ends
        if e.kind == "ends" and isinstance(e.data, dict) and e.data.get("A") in (0, 1):
            ends = {"A": int(e.data["A"]), "B": 1 - int(e.data["A"])}
        if e.id in swaps:
            ends = {"A": ends["B"], "B": ends["A"]}
    return out


class RecordInputs(NamedTuple):
    """What the records of a log need from the whole match, by entry id: the goal each side
    defended then, its status, the rules' words on it, and each entry as a correction names it."""

    ends: dict[int, dict[str, int]]
    statuses: dict[int, EntryStatus]
    said: dict[int, list[dict[str, str]]]
    by_id: dict[int, dict[str, Any]]
    contexts: dict[int, Context]


def record_inputs(m: dict[str, Any], stored: list[StoredEntry],
                  was: dict[int, dict[str, Any]] | None = None) -> RecordInputs:
    """:class:`RecordInputs` of ``stored`` in the match ``m`` (the engine's state); ``was``:
    each void's target as it stood before the void (:func:`.book.before_voids`)."""
    ends = ends_by_entry(m, stored)
    numbers = numbered(e.id for e in stored)
    by_id = {e.id: {"kind": e.kind, "data": e.data, "period": e.period, "ends": ends.get(e.id),
                    "at": e.occurred_at, "no": numbers[e.id], "clock_ms": e.clock_ms,
                    "length_ms": period_length(m, e.period)} for e in stored}
    statuses = with_moot_answers(entry_statuses(m.get("corrections") or []), {
        e.id: e.data["target"] for e in stored if e.kind == "confirm"
        and isinstance(e.data, dict) and isinstance(e.data.get("target"), int)})
    for entry_id, st in statuses.items():  # an answer reads the amended fact it answers
        row = by_id.get(entry_id)
        amended = amended_of(row, st, by_id) if row is not None else None
        if row is not None and amended is not None:
            row["amended"] = amended
    said = meanings(m, {e.id: e.kind for e in stored})
    for entry_id, tapped in answered_words(m).items():
        if entry_id in by_id:
            by_id[entry_id]["answer_words"] = tapped
    for entry_id, offered in answer_options(m).items():
        if entry_id in by_id:
            by_id[entry_id]["answer_options"] = offered
    for e in stored:  # what an answer made names it, for a question asked on it (answer_made)
        if e.kind == "confirm" and e.id in said:
            by_id[e.id]["said"] = said[e.id]
    as_tapped(by_id, statuses, was or {})
    kinds = {e.id: e.kind for e in stored}
    for entry_id, words in rule_words(m, kinds).items():
        by_id[entry_id]["rule_words"] = words  # "Chute de X, botão 8: defendido" (M5)
    touches = {e.id: e.data for e in stored if e.kind == "touch"}
    for entry_id, words in taken_words(m, touches, m.get("teams") or {}).items():
        by_id[entry_id]["rule_words"] = words  # "Saída de jogo para X: cobrança …"
    goals = goals_by_entry(m)
    fouls = fouls_by_entry(m)
    for goal in goals.values():  # a goal an answer counted: its sensor's row is not the goal's
        if goal.get("asked") in by_id:
            by_id[goal["asked"]]["goal_answered"] = goal["entry"]
    name_goals(by_id, goals, statuses, was or {}, m.get("teams") or {})
    contexts: dict[int, Context] = {}
    state = ""
    corrects = amended_before(stored)
    back = undone_to(stored)
    for e in stored:
        words = said_of(said.get(e.id))
        place, state = interval_after(state, e.kind, words)
        ctx = entry_context(e, statuses.get(e.id), by_id, was or {}, goals.get(e.id), words,
                            placed_in_interval(place))
        contexts[e.id] = ctx._replace(
            length_ms=period_length(m, e.period), corrects=corrects.get(e.id),
            counted=fouls.get(e.id, ()), **placed(place, state),
            **({"undone": {**ctx.undone, "now": back[e.id]}} if ctx.undone and e.id in back
               else {}))
    return RecordInputs(ends, statuses, said, by_id, contexts)


def as_tapped(by_id: dict[int, dict[str, Any]], statuses: dict[int, EntryStatus],
              was: dict[int, dict[str, Any]]) -> None:
    """Each answer voided, or withdrawn with the entry it answered, in the words it had just
    before that void (``was``: :func:`.book.before_voids`): the button the referee tapped and
    what the rules said of it — never what the void made of it ("sem gol" for a voided "chute
    pedido (não registrado)", "falta" for "falta disciplinar": walk48b H1)."""
    for entry_id, st in statuses.items():
        row = by_id.get(entry_id)
        then = was.get(st.by) if st.state in (VOIDED, MOOT) and st.by is not None else None
        if row is None or row["kind"] != "confirm" or then is None:
            continue
        for key, words in (("answer_words", then.get("answered")),
                           ("said", then.get("answers_said"))):
            row.pop(key, None)
            if (words or {}).get(entry_id):
                row[key] = words[entry_id]


def fouls_by_entry(m: dict[str, Any]) -> dict[int, tuple[tuple[str, str, int], ...]]:
    """The fouls each entry made the rules count, (side, kind, how many), by entry id: the
    engine's ``fouls_counted`` (rules/engine.py counted_by), what the TV's counters add up."""
    out: dict[int, tuple[tuple[str, str, int], ...]] = {}
    for c in m.get("fouls_counted") or []:
        if isinstance(c, dict) and isinstance(c.get("entry"), int):
            out[c["entry"]] = (*out.get(c["entry"], ()),
                               (str(c.get("side")), str(c.get("kind")), int(c.get("n") or 0)))
    return out


def amended_before(stored: list[StoredEntry]) -> dict[int, dict[str, Any]]:
    """Each amendment of an entry an earlier amendment had already changed, by its id: that
    entry as the rules read it just before it ({"kind", "data"}: rules/corrections.resolve of
    the log up to it) — a second correction says what the first made ("13 → 14"), never the
    row as logged again (issue 45 #2)."""
    out: dict[int, dict[str, Any]] = {}
    amended: set[int] = set()
    entries: list[Any] = []
    for i, e in enumerate(stored):
        target = e.data.get("target") if e.kind == "amend" and isinstance(e.data, dict) else None
        if not isinstance(target, int) or isinstance(target, bool):
            continue
        if target in amended:
            entries = entries or [to_entry(s) for s in stored]
            now = next((x for x in resolve(entries[:i])[0] if x.id == target), None)
            if now is not None and isinstance(now.data, dict):
                out[e.id] = {"kind": now.kind, "data": dict(now.data)}
        amended.add(target)
    return out


def undone_to(stored: list[StoredEntry]) -> dict[int, dict[str, Any]]:
    """Each void undoing an amendment of an entry an earlier amendment still changes, by its id:
    that entry as the rules read it just after the void ({"kind", "data"}: rules/corrections
    .resolve of the log up to it) — the undo of "13 → 14" gives back "13", not the row as
    logged (issue 45)."""
    out: dict[int, dict[str, Any]] = {}
    rows = {e.id: e for e in stored}
    entries: list[Any] = []
    for i, e in enumerate(stored):
        undone = rows.get(target_of(e) or -1) if e.kind == "void" else None
        if undone is None or undone.kind != "amend" or target_of(undone) not in rows:
            continue
        entry = rows[target_of(undone) or -1]
        if not any(a.kind == "amend" and target_of(a) == entry.id
                   for a in stored[:stored.index(undone)]):
            continue  # no earlier amendment of it: it reads as logged again
        entries = entries or [to_entry(s) for s in stored]
        now = next((x for x in resolve(entries[:i + 1])[0] if x.id == entry.id), None)
        if now is not None and (now.kind, now.data) != (entry.kind, entry.data):
            out[e.id] = {"kind": now.kind, "data": dict(now.data)}
    return out


def target_of(e: StoredEntry | None) -> int | None:
    """The entry a correction or an answer names (its ``target``), or None."""
    target = e.data.get("target") if e is not None and isinstance(e.data, dict) else None
    return target if isinstance(target, int) and not isinstance(target, bool) else None


def goal_words(goal: dict[str, Any] | None, teams: dict[str, Any]) -> dict[str, str] | None:
    """A goal as the account names it, in each language (None: no goal)."""
    return {lang: goal_text(goal, teams, lang) for lang in ("pt", "en")} if goal else None


def name_goals(by_id: dict[int, dict[str, Any]], goals: dict[int, dict[str, Any]],
               statuses: dict[int, EntryStatus], was: dict[int, dict[str, Any]],
               teams: dict[str, Any]) -> None:
    """Each entry that counts a goal (or counted it before its void: ``was``) named by the
    goal in ``by_id`` (``goal_words``): an answer or a correction of it names the goal, never
    the sensor's row (walk #45g G3, G5)."""
    for entry_id, row in by_id.items():
        st = statuses.get(entry_id)
        goal = goals.get(entry_id) or ((was.get(st.by) or {}).get("goal") if st is not None
                                       and st.state == "voided" and st.by is not None else None)
        named = goal_words(goal, teams)
        if named:
            row["goal_words"] = named


def entry_context(e: StoredEntry, st: EntryStatus | None, by_id: dict[int, dict[str, Any]],
                  was: dict[int, dict[str, Any]], goal: dict[str, Any] | None,
                  words: tuple[Said, ...], inside: bool) -> Context:
    """An entry's :class:`~.account.Context`: the goal it counts, what it voids or undoes."""
    mine = None
    undone = None
    if e.kind == "void":
        target = e.data.get("target") if isinstance(e.data, dict) else None
        corrected = by_id.get(target) if isinstance(target, int) else None
        if corrected is not None and corrected["kind"] in ("void", "amend"):
            inner = corrected["data"] if isinstance(corrected["data"], dict) else {}
            undone = {"kind": corrected["kind"], "target": inner.get("target"),
                      "no": number_of(inner.get("target"), by_id),
                      "entry": by_id.get(inner.get("target")),  # named in words (45i-a M4)
                      "goal": (was.get(target) or {}).get("goal")}
        else:
            mine = was.get(e.id)
    elif e.kind == "amend":  # the goal it corrected, as it was (book.before_voids)
        mine = gone_goal(was.get(e.id), e, by_id)
    elif st is not None and st.state == "voided" and st.by is not None:
        mine = was.get(st.by)
    return Context(goal, mine, undone, words, inside)


def gone_goal(mine: dict[str, Any] | None, e: StoredEntry,
              by_id: dict[int, dict[str, Any]]) -> dict[str, Any] | None:
    """An amendment's target as it stood before it (``mine``: book.before_voids), marked
    ``gone`` when it is an answer that counted a goal the amendment took away (corrected to
    «sem gol»: walk52a F5), with the answer it now gives (``answer_now``: its button's words)."""
    target = by_id.get(target_of(e) or -1) or {}
    # (a goal's own row corrected keeps saying what the correction made of it: "Corrige
    # «Sensor …»", tests/web/test_corrections_api)
    if not mine or not mine.get("goal") or target.get("goal_words") \
            or target.get("kind") != "confirm":
        return mine
    return {**mine, "gone": True, "answer_now": target.get("answer_words")}
