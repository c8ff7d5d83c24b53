"""Teams a person writes in a CSV file: checked with pydantic, imported and exported.

The file may come from any spreadsheet (:mod:`futmesa.competition.files`: UTF-8, UTF-16,
cp1252; ``,`` or ``;``). Two names are the same team when their Unicode-normalised
casefolds are equal ("Grêmio" and "GRÊMIO"; "東京 FC" and "大阪 FC" are two teams). Every
problem of the file is reported at once, one line each.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata

from pydantic import BaseModel, Field, ValidationError, field_validator

from futmesa.competition.files import cell, sniff_delimiter, uncell
from futmesa.i18n import _, ngettext
from futmesa.wordmatch import fold

CSV_COLUMNS = ("name", "short", "color", "logo", "players", "club", "pot")
# every column also in Portuguese, as an organiser writes them (accents and case aside)
COLUMN_WORDS = {"nome": "name", "equipe": "name", "time": "name", "sigla": "short",
                "cor": "color", "escudo": "logo", "jogadores": "players", "clube": "club",
                "pote": "pot"}


def column(header: str | None) -> str:
    """A header cell as the column it names: "Nome", "CLUBE", "Pote" → name, club, pot."""
    word = fold(header or "")
    return COLUMN_WORDS.get(word, word)
MAX_POT = 16
COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
MAX_TEAMS = 256  # a league of 256 is 32,640 matches: a season, not a day
MAX_PROBLEMS_SHOWN = 20


class TeamFileError(ValueError):
    """A teams CSV that cannot be used; one line per problem, saying where and what to write."""


def team_key(name: str) -> str:
    """A team's identity: its name's NFKC casefold with runs of blanks made one space
    ("Grêmio  F.C." -> "grêmio f.c."); empty when the name has no letter or digit."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    if not any(ch.isalnum() for ch in folded):
        return ""
    return " ".join(folded.split())


def _name_limit() -> int:
    """The longest team name a table's match settings take (futmesa.config's team model):
    the one limit from the teams file to the table and the TV (issue 47 §5)."""
    from futmesa.config import Team as SideSettings

    return next(m.max_length for m in SideSettings.model_fields["name"].metadata
                if getattr(m, "max_length", None))


TEAM_NAME_MAX = _name_limit()


class Team(BaseModel):
    """One team (in futebol de mesa usually one *técnico*, sometimes a club's squad)."""

    name: str = Field(min_length=1, max_length=TEAM_NAME_MAX)
    short: str = Field(default="", max_length=12)
    color: str = "#444444"
    logo: str = ""
    players: list[str] = Field(default_factory=list)
    club: str = Field(default="", max_length=60)  # club-mates are kept apart in the draw
    pot: int | None = Field(default=None, ge=1, le=MAX_POT)  # the seeding pot, 1 the best

    @field_validator("pot", mode="before")
    @classmethod
    def _pot(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip()
            if not value:
                return None
            if not value.isdigit():
                raise ValueError(_("the pot is a whole number from 1 (the best) to {most}")
                                 .format(most=MAX_POT))
            return int(value)
        return value

    @field_validator("club")
    @classmethod
    def _club(cls, value: str) -> str:
        return " ".join(uncell(value.strip()).split())

    @property
    def club_key(self) -> str:
        """The club's identity as the draw compares it ("" for none)."""
        return team_key(self.club) if self.club else ""

    @field_validator("name", "short", "logo")
    @classmethod
    def _strip(cls, value: str) -> str:
        return uncell(value.strip())

    @field_validator("name")
    @classmethod
    def _has_letters(cls, value: str) -> str:
        if not team_key(value):
            raise ValueError(_("the name needs at least one letter or digit"))
        return value

    @field_validator("color")
    @classmethod
    def _color(cls, value: str) -> str:
        value = value.strip() or "#444444"
        if not COLOR.match(value):
            raise ValueError(_("a colour is written #rrggbb, for example #c8102e"))
        return value.lower()

    @property
    def key(self) -> str:
        return team_key(self.name)

    def label(self) -> str:
        return self.short or self.name

    def as_side(self) -> dict[str, str]:
        """The team as a match's settings.teams.X (what the rules engine reads)."""
        return {"name": self.name, "color": self.color}


def _problem(line_no: int, exc: ValidationError,
             header: dict[str, str] | None = None) -> list[str]:
    """Each problem of a row, at its line and under the column's name as the file wrote it
    ("pote", not "pot")."""
    out = []
    for err in exc.errors():
        field = ".".join(str(p) for p in err["loc"])
        shown = (header or {}).get(field, field)
        msg = str(err["msg"]).removeprefix("Value error, ")
        if err["type"] == "string_too_short":
            msg = _("is empty")
        elif err["type"] == "string_too_long" and field == "name":
            msg = _("has more than {most} characters: shorten it (the tables and the board "
                    "show at most {most})").format(most=TEAM_NAME_MAX)
        elif err["type"] == "string_too_long":
            msg = _("has more than {most} characters").format(
                most=err.get("ctx", {}).get("max_length"))
        out.append(_("line {line}, column {column}: {problem}").format(
            line=line_no, column=shown, problem=msg))
    return out


def read_teams_csv(text: str) -> list[Team]:
    """Parse a teams CSV (header: name,short,color,logo,players[,club,pot], or in Portuguese
    nome,sigla,cor,escudo,jogadores[,clube,pote]; players split by
    ';', or by ',' when the columns are split by ';'; `club` (or `clube`) keeps club-mates
    apart in the draw, `pot` (or `pote`) is the seeding pot, 1 the best). TeamFileError
    lists every problem."""
    text = text.lstrip("\ufeff")
    delimiter = sniff_delimiter(text)
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    if reader.fieldnames is None or "name" not in [column(f) for f in reader.fieldnames]:
        raise TeamFileError(_("the teams CSV needs a header line with: {columns}").format(
            columns=",".join(CSV_COLUMNS)))
    split_players = "," if delimiter == ";" else ";"
    header = {column(f): f.strip() for f in reader.fieldnames}  # as the file wrote them
    teams: list[Team] = []
    seen: dict[str, int] = {}
    problems: list[str] = []
    try:
        for line_no, row in enumerate(reader, start=2):
            row = {column(k): (v if isinstance(v, str) else "") for k, v in row.items()}
            if not any(v.strip() for v in row.values()):
                continue
            players = [uncell(p.strip()) for p in row.get("players", "").split(split_players)
                       if p.strip()]
            try:
                team = Team(name=row.get("name", ""), short=row.get("short", ""),
                            color=row.get("color", ""), logo=row.get("logo", ""),
                            players=players, club=row.get("club", ""),
                            pot=row.get("pot", ""))
            except ValidationError as exc:
                problems.extend(_problem(line_no, exc, header))
                continue
            if team.key in seen:
                problems.append(_("line {line}: the team {name} is already on line "
                                  "{first}").format(line=line_no, name=repr(team.name),
                                                    first=seen[team.key]))
                continue
            seen[team.key] = line_no
            teams.append(team)
    except csv.Error as exc:
        problems.append(_("line {line}: malformed CSV ({problem})").format(
            line=reader.line_num, problem=exc))
    if len(teams) > MAX_TEAMS:
        problems.append(_("{count} teams: a competition has at most {most}").format(
            count=len(teams), most=MAX_TEAMS))
    elif len(teams) < 2 and not problems:
        problems.append(_("the CSV lists fewer than two teams"))
    if problems:
        shown = problems[:MAX_PROBLEMS_SHOWN]
        if len(problems) > len(shown):
            more = len(problems) - len(shown)
            shown.append(ngettext("… and {count} more problem", "… and {count} more problems",
                                  more).format(count=more))
        raise TeamFileError("\n".join(shown))
    return teams


def write_teams_csv(teams: list[Team]) -> str:
    """The teams as CSV; a name a spreadsheet would run as a formula is written inert."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for t in teams:
        writer.writerow([cell(t.name), cell(t.short), t.color, cell(t.logo),
                         ";".join(str(cell(p)) for p in t.players), cell(t.club),
                         "" if t.pot is None else t.pot])
    return out.getvalue()
