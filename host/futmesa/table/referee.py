"""The referee's input on its way into the match: refused when there is no match or it is
closed, tried by the rules first, stored with its time, then applied (or the match rebuilt in
time order when it was pressed before what the table did since)."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from futmesa.config import SettingsError, validate_settings
from futmesa.health import is_write_failure
from futmesa.hub import RefusedError
from futmesa.i18n import N_, _, language, short, translator
from futmesa.matchbook.answer import answered, new_match_words
from futmesa.matchbook.citations import announcement
from futmesa.matchbook.keeper_secret import SECRET_KINDS
from futmesa.matchbook.records import answer_options
from futmesa.matchbook.signing import SIGNING_KINDS, signable_hashes, signed_result
from futmesa.matchbook.signing import refusal as closing_refusal
from futmesa.matchbook.wording import team
from futmesa.rules import Entry, load_ruleset
from futmesa.table.sign_earlier import sign_earlier

if TYPE_CHECKING:
    from futmesa.table.daemon import TableDaemon

log = logging.getLogger("futmesa.table")
LANGS = ("pt", "en")


def checked_new_match(data: dict[str, Any]) -> tuple[str | None, dict[str, Any] | None]:
    """The ruleset and engine settings of a "Nova partida", or RefusedError saying what is wrong."""
    ruleset = data.get("ruleset") or None
    if ruleset is not None:
        try:
            load_ruleset(str(ruleset))
        except KeyError as exc:
            raise RefusedError(str(exc.args[0] if exc.args else exc)) from None
    settings = data.get("settings")
    if settings is None:
        return ruleset, None
    try:
        return ruleset, validate_settings(settings)
    except SettingsError as exc:
        raise RefusedError.words(N_("invalid settings: {why}"), why=exc) from None


def over_organisers(organiser: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """A new match's settings: what the console or the desk gave laid over the organiser's
    (the table's name, referee, interval... stay unless given), or RefusedError when the two
    together contradict each other."""
    try:
        return validate_settings({**organiser, **given})
    except SettingsError as exc:
        raise RefusedError.words(N_("invalid settings: {why}"), why=exc) from None


class RefereeInputs:
    """The referee input path of one table (runs on the table's queue)."""

    def __init__(self, table: TableDaemon) -> None:
        self.table = table

    def take(self, kind: str, data: dict[str, Any], author: str, pressed_at: float | None,
             input_id: str | None) -> dict[str, Any]:
        """Log the input, apply it, and return the new state (RefusedError if refused)."""
        t = self.table
        self._refuse_without_match()
        done = t.store.input_entry(input_id) if input_id else None
        if done is not None:
            return {"ok": True, "entry_id": done[1], "already": True, "effects": [],
                    "state": t.state_json()}
        if kind == "new_match":
            ruleset, settings = checked_new_match(data)  # before anything is written
            match_id = t.new_match(ruleset, settings)
            # the console's result line says which match it opened (walk45i-a, low)
            return {"ok": True, "match_id": match_id, "state": t.state_json(),
                    "said": new_match_words(t.store.match(match_id))}
        assert t.book is not None
        author = self._who(author)
        if kind in SIGNING_KINDS and "match" in data:  # /assinar names the match it shows
            data = dict(data)
            target = data.pop("match")
            if kind == "signature" and target not in (None, t.match["id"]):
                return sign_earlier(t, target, data, author, input_id)
            if target not in (None, t.match["id"]):
                raise RefusedError.words(N_("An earlier match is not reopened: only the "
                                            "table's current match is corrected"))
        self._refuse_if_closed(kind, data)
        self._refuse_secret_amend(kind, data)
        self._refuse_unoffered_answer(kind, data)
        if kind in ("clock_catch_up", "clock_kept") and not t.resets.asking():  # answered once
            raise RefusedError.words(N_("The power-cut question is no longer open: the clock "
                                        "stays as it is"))
        if kind == "signature":  # the result it attests, as the rules read it now
            data = {**data, "result": signed_result(t.book.state.m)}
        now = time.time() * 1000
        at = t.book.timeline.referee_stamp(now, pressed_at, kind)
        probe = Entry(id=0, kind=kind, data=data, source="referee",
                      period=t.clock.status.period if t.clock.status else 0,
                      clock_ms=self._clock_at(at, now), author=author, at=at)
        self._probe(probe)
        entry = Entry(id=self._store(probe, input_id), kind=kind, data=data, source="referee",
                      period=probe.period, clock_ms=probe.clock_ms, author=author, at=at)
        t.health.log_ok()
        if kind in ("added_time", "clock_catch_up", "clock_kept"):  # the reset offer answered
            t.resets.decided()
        if t.book.timeline.placed_before_device(at):
            # pressed before events the table sent since (it reached us late): the match is
            # rebuilt in the order things happened; what the device did meanwhile stands,
            # so no device command is sent for it
            log.info(_("referee input %s was pressed %.1f s before it arrived, before "
                       "the last table event; replaying the match in time order"), kind,
                     (now - at) / 1000)
            t.rebuild()
            effects = []
        else:
            effects = t.apply(entry)
        # what the rules said, cited as people cite rules ("CBFM 1 Toque, Art. 26 §1 F", never
        # the document's file number; walk 45f, M1); and what they stored, in the Registro's
        # words: the console's result line after every input (matchbook/answer.py, B6)
        rows = t.book.live_log.rows()  # an entry named by its number in the Registro
        return {"ok": True, "entry_id": entry.id,
                "effects": [announcement({"kind": e.kind, **e.data}, rows=rows) for e in effects],
                "said": answered(t.book.live_log.record(entry.id), effects),
                "state": t.state_json()}

    def _clock_at(self, at: float, now: float) -> int:
        """The table's clock an input pressed at host Unix ms ``at`` is stamped with: while the
        table is not heard, the clock every screen stands at (TableClock.at_ms, walk50b M1)."""
        t = self.table
        return t.clock.at_ms(at, now, t.running_rate(), None if t.connected else t.lost_wall_ms)

    def _who(self, author: str) -> str:
        """The input's author: a console that does not say who it is (its generic "árbitro" /
        "referee", or nothing) writes as the match's referee, the one its settings name
        (walk 45g G2: the first match's registro said "Árbitro" for "Árbitro Walk"), else as
        no one named: "" — the rules then say "anulado pelo árbitro", never "por referee"
        (issue 45 #3: the HTTP API's default author was stored and read out)."""
        named = str((self.table.match or {}).get("referee") or "").strip()
        generic = {"", "referee", *(translator(lang).gettext("referee") for lang in LANGS)}
        if author.strip().lower() in generic:
            return named
        return author

    def _refuse_without_match(self) -> None:
        """No match open (no table yet, or the log could not be opened): refused, saying why."""
        if self.table.match is not None and self.table.book is not None:
            return
        faults = self.table.health.faults()
        if faults:  # the match could not be opened: the log cannot be written
            raise RefusedError(faults[0].said(), {lang: faults[0].said(lang) for lang in LANGS})
        raise RefusedError.words(N_("no table has connected yet: check the USB cable"))

    def _refuse_if_closed(self, kind: str, data: dict[str, Any]) -> None:
        """A closed match (the referee signed) takes no input but "reabrir"."""
        t = self.table
        assert t.match is not None and t.book is not None
        match_id = t.match["id"]
        book = t.book

        def closing(lang: str | None = None) -> str | None:
            return closing_refusal(
                kind, data, list(book.state.log),
                finished=lambda: bool(book.state.m.get("finished")),
                signable=lambda: signable_hashes(list(t.store.chain_rows(match_id).values())),
                lang=lang)

        refusal = closing()
        if refusal:
            raise RefusedError(refusal, {lang: closing(lang) or refusal for lang in LANGS})

    def _refuse_secret_amend(self, kind: str, data: dict[str, Any]) -> None:
        """The goalkeeper's secret choice (004 «Pênaltis») is never corrected by the referee
        while the match goes on: its form could only show it, or overwrite it with «secreta»
        (walk51a H1); voided, the goalkeeper chooses again on his own page."""
        book = self.table.book
        assert book is not None
        target = data.get("target")
        if kind != "amend" or book.state.m.get("finished"):
            return
        if any(e.id == target and e.kind in SECRET_KINDS for e in book.state.log):
            raise RefusedError.words(N_(
                "The goalkeeper's choice is secret: the referee does not correct it. For the "
                "goalkeeper to choose again, tap “Ask the goalkeeper to choose again” on its "
                "entry in the Log"))

    def _refuse_unoffered_answer(self, kind: str, data: dict[str, Any]) -> None:
        """An answer corrected to no answer its question offered is refused, saying which it
        offered (walk52a F4: «sem gol» typed for «no_goal» took a ✓; the rules then refused
        the answer on the replay and the question came back, no decision standing)."""
        book = self.table.book
        assert book is not None
        inner = data.get("data")
        if kind != "amend" or not isinstance(inner, dict) or "choice" not in inner:
            return
        offered = answer_options(book.state.m).get(data.get("target"))  # type: ignore[arg-type]
        if offered and inner["choice"] not in offered["options"]:
            raise unoffered_answer(inner["choice"], offered, book.state.m.get("teams") or {})

    def would_take(self, kind: str, data: dict[str, Any]) -> bool:
        """Would the rules take this input now (the camera's proposals offer only what they
        would: docs/camera.md)? Nothing is logged."""
        t = self.table
        if t.book is None or t.book.state.m.get("finished"):
            return False
        now = time.time() * 1000
        at = t.book.timeline.referee_stamp(now, None, kind)
        probe = Entry(id=0, kind=kind, data=data, source="referee",
                      period=t.clock.status.period if t.clock.status else 0,
                      clock_ms=self._clock_at(at, now), author="", at=at)
        try:
            self._probe(probe)
        except RefusedError:
            return False
        return True

    def _probe(self, probe: Entry) -> None:
        """The rules try the input first: one they refuse changes nothing and is not logged;
        the console shows why — the article in words, never the document's file number."""
        assert self.table.book is not None
        try:
            effects = self.table.book.probe(probe)
        except (ValueError, KeyError, TypeError) as exc:
            raise RefusedError(str(exc)) from exc
        refused = [e.data for e in effects
                   if e.kind == "announce" and e.data.get("code") == "refused"]
        if refused:  # an entry it names, by its number in the Registro (matchbook/numbers.py)
            said = announcement(refused[0], rows=self.table.book.live_log.rows())
            texts = {lang: str(said.get(lang) or said.get("pt", "")) for lang in LANGS}
            raise RefusedError(texts[short(language())], texts)

    def _store(self, probe: Entry, input_id: str | None) -> int:
        """The input into the log; a disk that cannot take it refuses it, saying to retry."""
        t = self.table
        assert t.match is not None
        try:
            return t.store.append_entry(t.match["id"], "referee", probe.kind, probe.data,
                                        probe.period, probe.clock_ms, probe.author,
                                        occurred_at=probe.at, input_id=input_id)
        except Exception as exc:
            if not is_write_failure(exc):
                raise
            fault = t.health.log_failed(exc)
            again = N_("{fault}: try again once the warning is gone")
            raise RefusedError(_(again).format(fault=fault.said()), {
                lang: translator(lang).gettext(again).format(fault=fault.said(lang))
                for lang in LANGS}) from exc


UNOFFERED = N_("“{choice}” is not one of the question's answers: choose one of {answers}")


def unoffered_answer(choice: Any, offered: dict[str, Any], teams: dict[str, Any]
                     ) -> RefusedError:
    """The refusal of an answer its question did not offer, naming those it offered in the
    words of its buttons (records.answer_options), a team by its name."""
    texts = {}
    for lang in LANGS:
        said = (offered.get("answers") or {}).get(lang) or {}
        answers = ", ".join(f"«{said.get(o) or team(teams, o, lang)}»"
                            for o in offered.get("options") or [])
        texts[lang] = translator(lang).gettext(UNOFFERED).format(choice=choice, answers=answers)
    return RefusedError(texts["en" if short(language()) == "en" else "pt"], texts)
