"""The working context of one engine step: the match dict being changed, the
entry being applied and the effects collected so far, with small helpers the
rule functions use to announce, command the device and ask for confirmation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from futmesa.i18n import N_, translator

from .answers import answer_words
from .model import Effect, Entry

SIDES = ("A", "B")


class Refused(Exception):
    """A referee input the rules do not accept. The reason is one English msgid of the catalogs
    (marked with ``N_``) and its named values: ``Refused(N_("Disc {disc} was sent off"),
    disc=disc)``; ``rule`` cites the article. A value that is itself a word of the catalogs is
    given as ``Word(msgid)`` and is translated with the sentence. ``.pt`` and ``.en`` are the
    reason in each language; ``str()`` is the English."""

    def __init__(self, msgid: str, *, rule: str = "", **values: Any) -> None:
        self.msgid, self.values, self.rule = msgid, values, rule
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        """The reason in ``lang`` ("pt_BR" or "en", any form ``i18n.normalize`` takes)."""
        return words(lang, self.msgid, self.values)

    @property
    def pt(self) -> str:
        return self.text("pt_BR")

    @property
    def en(self) -> str:
        return self.text("en")


# reasons that only say "not now": when the match is over or in its interval, that is the
# reason the referee reads instead (walk #45 M9: "a bola não está em jogo" after the whistle)
_NOT_NOW = frozenset({"The ball is not in play", "Asked at or after the alarm: no shot"})


def refusal_now(m: Mapping[str, Any], refused: Refused) -> Refused:
    """``refused`` as the referee reads it in the match ``m`` as it stands: a "not now" reason
    says the match is over, or in its interval, when it is."""
    if refused.msgid not in _NOT_NOW:
        return refused
    if m.get("finished"):
        return Refused(N_("The match is over"))
    if m.get("status") == "interval":
        return Refused(N_("It is the interval: the ball is not in play"))
    return refused


class Word(str):
    """A value of a sentence that is itself a msgid of the catalogs, translated with it;
    ``context`` for one marked with ``NP_``; ``capital``: its first letter made upper case
    (and the rest lower, as ``str.capitalize``) once translated, where it opens a sentence."""

    context: str | None
    capital: bool

    def __new__(cls, msgid: str, context: str | None = None, capital: bool = False) -> Word:
        word = super().__new__(cls, msgid)
        word.context, word.capital = context, capital
        return word

    def text(self, lang: str) -> str:
        t = translator(lang)
        said = t.pgettext(self.context, str(self)) if self.context else t.gettext(str(self))
        return said.capitalize() if self.capital else said


class Phrase(Word):
    """A value of a sentence that is itself a sentence of the catalogs with its own values
    (a console control's words quoted in a refusal: «Bola de {team}: …»)."""

    values: dict[str, Any]

    def __new__(cls, msgid: str, **values: Any) -> Phrase:
        word = super().__new__(cls, msgid)
        word.values = values
        return word

    def text(self, lang: str) -> str:
        return words(lang, str(self), self.values)


def words(lang: str, msgid: str | tuple[str, str],
          values: Mapping[str, Any] | None = None) -> str:
    """``msgid`` in ``lang`` with its ``{name}`` values filled (``Word`` values translated);
    a brace the text shows is written ``{{`` in the msgid. ``msgid`` may be an ``NP_``
    (context, msgid) pair, for an English sentence said two ways in Portuguese."""
    t = translator(lang)
    said = t.pgettext(*msgid) if isinstance(msgid, tuple) else t.gettext(msgid)
    return said.format(**{k: v.text(lang) if isinstance(v, Word) else v
                                      for k, v in (values or {}).items()})


UNCITED = "\x00"  # an inline {rule} with no article, taken out with its parentheses


def uncited(text: str) -> str:
    """``text`` without an inline citation that has no article ("Arrumação das equipes ( );
    …" reads "Arrumação das equipes; …")."""
    return re.sub(r"\s*\(\x00\)|\x00", "", text)


class Either(Word):
    """The answers ``codes`` of a question as a value of its sentence, "no goal, corner or a
    false trip", each in the words its button shows (answers.py), so what a question says it
    offers is what it offers."""

    codes: tuple[str, ...]
    named: dict[str, Any] | None

    def __new__(cls, codes: Iterable[str], named: dict[str, Any] | None = None) -> Either:
        listed = tuple(codes)
        word = super().__new__(cls, ", ".join(listed))
        word.codes = listed
        word.named = named  # the question's own words for some answers (answers.py)
        return word

    def text(self, lang: str) -> str:
        said = list(answer_words(self.codes, lang, self.named).values())
        if len(said) < 2:
            return "".join(said)
        return words(lang, N_("{some} or {last}"), {"some": ", ".join(said[:-1]),
                                                    "last": said[-1]})


class Labels(Mapping[str, tuple[str, str]]):
    """Names of codes (a restart kind, a device event, a shot's outcome) as msgids of the
    catalogs with a context, ``{code: NP_(context, "English")}``; read as (pt, en) pairs, the
    form the sentences that show them take."""

    def __init__(self, names: dict[str, tuple[str, str]]) -> None:
        self._names = names

    def __getitem__(self, code: str) -> tuple[str, str]:
        context, msgid = self._names[code]
        return (translator("pt_BR").pgettext(context, msgid),
                translator("en").pgettext(context, msgid))

    def word(self, code: str, capital: bool = False) -> str:
        """The name of ``code`` as a value of a sentence (a ``Word`` translated with it); a
        code without a name is shown as it is."""
        if code not in self._names:
            return code.capitalize() if capital else code
        context, msgid = self._names[code]
        return Word(msgid, context, capital)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


def other(side: str) -> str:
    return "B" if side == "A" else "A"


class Ctx:
    """One step of the engine: rule functions change `m` and collect effects."""

    def __init__(self, m: dict[str, Any], entry: Entry) -> None:
        self.m = m
        self.entry = entry
        self.effects: list[Effect] = []

    # -- reading the entry ---------------------------------------------------------
    def side(self, key: str = "side", required: bool = True) -> str:
        value = self.entry.data.get(key)
        if value in SIDES:
            return str(value)
        if not required and value is None:
            return ""
        # in the referee's words, never the input's keys (walk #45 M4)
        raise Refused(N_("Which team? Choose it first, then tap again"))

    def disc(self, key: str = "disc", required: bool = False) -> int | None:
        value = self.entry.data.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 99:
            return value
        if value is None and not required:
            return None
        if value is None:  # "Chute pedido" with no number keyed (walk #45 M4)
            raise Refused(N_("Which disc? Key in its number first, then tap again"))
        raise Refused(N_("A disc's number is 0 to 99"))

    def instant(self) -> int:
        """When this entry happened, on the one clock device events and referee inputs share:
        `at` (host ms; a device event's tick is mapped to it by the link's time sync), else
        the device's ticks, else its match clock. Same-instant calls compare these."""
        return self.entry.at or self.entry.ticks or self.entry.clock_ms

    # -- output ----------------------------------------------------------------------
    def name(self, side: str) -> str:
        return str(self.m["teams"][side]["name"])

    def announce(
        self, code: str, msgid: str | tuple[str, str], /, rule: str = "", **values: Any
    ) -> None:
        """Say ``msgid`` (one English msgid of the catalogs, marked ``N_``) with its named
        ``values``; the item keeps the sentence in each language ("pt", "en") with the
        article cited after it — or where the msgid places it, ``{rule}`` (a sentence whose
        second half the article does not say); no article (a document silent on it): no
        parentheses, never "()" (walk45h-a A7)."""
        inline = isinstance(msgid, str) and "{rule}" in msgid
        cited = f" ({rule})" if rule and not inline else ""
        values = {**values, "rule": rule or UNCITED} if inline else values
        item = {
            "id": len(self.m["announcements"]) + 1,
            "entry": self.entry.id,
            "code": code,
            "pt": uncited(words("pt_BR", msgid, values)) + cited,
            "en": uncited(words("en", msgid, values)) + cited,
            "rule": rule,
        }
        self.m["announcements"].append(item)
        self.effects.append(Effect("announce", dict(item)))

    def device(self, cmd: str, **data: Any) -> None:
        self.effects.append(Effect("device", {"cmd": cmd, **data}))

    def confirm(
        self,
        kind: str,
        rule: str,
        msgid: str | tuple[str, str],
        options: list[str],
        default: str,
        reject: str,
        values: dict[str, Any] | None = None,
        named: dict[str, Any] | None = None,
        **extra: Any,
    ) -> None:
        """Raise an ambiguous reading to the referee's console: the question is one English
        msgid of the catalogs (``N_``) filled with ``values`` (the answers it names: an
        ``Either`` of its options); ``extra`` is kept on the item for the rule that takes the
        answer. The item's ``answers`` are the options' words in each language (answers.py,
        ``named``: this question's own words for some), the ones the console's buttons show."""
        item = {
            "id": self.entry.id,
            "kind": kind,
            "rule": rule,
            "pt": words("pt_BR", msgid, values),
            "en": words("en", msgid, values),
            "options": options,
            "answers": {"pt": answer_words(options, "pt_BR", named),
                        "en": answer_words(options, "en", named)},
            "default": default,
            "reject": reject,
            "period": self.m["period"],
            # when the question's entry happened: a goal its answer decides was scored then,
            # not when the referee answered (goals.py goal_record; walk45i-b H1)
            "clock_ms": self.entry.clock_ms,
            "at": self.instant(),
            **extra,
        }
        self.m["pending"].append(item)
        self.effects.append(Effect("confirm", dict(item)))
