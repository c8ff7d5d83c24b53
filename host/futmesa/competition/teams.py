"""Teams a person writes in a CSV file: checked with pydantic, imported and exported."""

from __future__ import annotations

import csv
import io
import re
import unicodedata

from pydantic import BaseModel, Field, ValidationError, field_validator

CSV_COLUMNS = ("name", "short", "color", "logo", "players")
COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


class TeamFileError(ValueError):
    """A teams CSV that cannot be used; the message says which line and what to write."""


def team_key(name: str) -> str:
    """A stable key for a team name: "Grêmio F.C." -> "gremio-f-c"."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


class Team(BaseModel):
    """One team (in futebol de mesa usually one *técnico*, sometimes a club's squad)."""

    name: str = Field(min_length=1, max_length=60)
    short: str = Field(default="", max_length=12)
    color: str = "#444444"
    logo: str = ""
    players: list[str] = Field(default_factory=list)

    @field_validator("name", "short", "logo")
    @classmethod
    def _strip(cls, value: str) -> str:
        return value.strip()

    @field_validator("color")
    @classmethod
    def _color(cls, value: str) -> str:
        value = value.strip() or "#444444"
        if not COLOR.match(value):
            raise ValueError("a colour is written #rrggbb, e.g. #c8102e")
        return value.lower()

    @property
    def key(self) -> str:
        return team_key(self.name)

    def label(self) -> str:
        return self.short or self.name

    def as_side(self) -> dict[str, str]:
        """The team as a match's settings.teams.X (what the rules engine reads)."""
        return {"name": self.name, "color": self.color}


def read_teams_csv(text: str) -> list[Team]:
    """Parse a teams CSV (header: name,short,color,logo,players; players split by ';')."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    if reader.fieldnames is None or "name" not in [f.strip().lower() for f in reader.fieldnames]:
        raise TeamFileError("the teams CSV needs a header line starting with: "
                            + ",".join(CSV_COLUMNS))
    teams: list[Team] = []
    seen: set[str] = set()
    for line_no, row in enumerate(reader, start=2):
        row = {(k or "").strip().lower(): (v or "") for k, v in row.items()}
        if not any(v.strip() for v in row.values()):
            continue
        players = [p.strip() for p in row.get("players", "").split(";") if p.strip()]
        try:
            team = Team(name=row.get("name", ""), short=row.get("short", ""),
                        color=row.get("color", ""), logo=row.get("logo", ""), players=players)
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(p) for p in err["loc"])
            raise TeamFileError(f"line {line_no}, column {field}: {err['msg']}") from exc
        if team.key in seen:
            raise TeamFileError(f"line {line_no}: the team {team.name!r} is listed twice")
        seen.add(team.key)
        teams.append(team)
    if len(teams) < 2:
        raise TeamFileError("the teams CSV lists fewer than two teams")
    return teams


def write_teams_csv(teams: list[Team]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for t in teams:
        writer.writerow([t.name, t.short, t.color, t.logo, ";".join(t.players)])
    return out.getvalue()
