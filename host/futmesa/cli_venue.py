"""`futmesa competition …`, `futmesa desk`, `futmesa venue broker-config`: the tournament day."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import click

from futmesa import i18n
from futmesa.i18n import _, ngettext

DB_HELP = "The desk's SQLite file (teams, competition, results)."  # translated by cli_words


def _fail(exc: Exception) -> click.ClickException:
    return click.ClickException(str(exc))


def venue_options(broker: str | None, credentials: str | None) -> Any:
    if not broker and not credentials:
        return None
    if not (broker and credentials):
        raise click.UsageError(_("--venue-broker and --venue-credentials go together"))
    from futmesa.venue.mqtt import Broker, VenueConfigError, load_credentials
    from futmesa.venue.table_agent import VenueOptions

    try:
        creds = load_credentials(credentials)
        return VenueOptions(Broker.parse(broker).with_credentials(creds), creds)
    except VenueConfigError as exc:
        raise click.ClickException(str(exc)) from exc


def tournament_demo(teams: int, speed: int, http_port: int, desk_port: int,
                    exit_when_done: bool, db: str | None = None, http_host: str = "127.0.0.1",
                    public_url: str | None = None, championship: bool = False,
                    exports: str | None = None) -> None:
    """``futmesa demo --tournament``: ``db`` (``--db``) names the desk's file, kept with the
    tables' event log next to it; without it nothing is kept."""
    from futmesa import server
    from futmesa.dbcheck import db_problem
    from futmesa.sim import SimTableError
    from futmesa.venue.mqtt import VenueConfigError
    from futmesa.venue.tournament import play_tournament, tables_db_for

    if db:
        for path in (db, tables_db_for(db)):
            problem = db_problem(path, create=True)
            if problem is None and Path(path).exists():
                problem = _("{path} already exists: the tournament demo starts a new "
                            "competition; give a new file").format(path=path)
            if problem:
                raise click.BadParameter(problem, param_hint="--db")
    for port in (http_port, desk_port):
        try:
            server.check_port_free(http_host, port)
        except server.PortInUseError as exc:
            raise click.ClickException(str(exc)) from exc
    try:
        result = asyncio.run(play_tournament(teams, min(speed, 30), http_port, desk_port,
                                             click.echo, exit_when_done, desk_db=db,
                                             http_host=http_host, public_url=public_url,
                                             championship=championship,
                                             exports=exports if championship else None))
    except (ValueError, SimTableError, VenueConfigError) as exc:
        raise click.ClickException(str(exc)) from exc
    except KeyboardInterrupt:
        click.echo(_("stopped"))
        _say_kept(db)
        return
    for group, rows in result.get("standings", {}).items():
        label = (_("Group {group}: ").format(group=group) if group
                 else _("Swiss table: "))
        click.echo(label + ", ".join(f"{r['name']} {r['points']}" for r in rows))
    if result.get("exports"):
        click.echo(_("The day's spreadsheets: {paths}").format(
            paths=", ".join(result["exports"])))
    _say_kept(db)


def _say_kept(db: str | None) -> None:
    from futmesa.venue.tournament import tables_db_for

    if db and Path(db).exists():
        click.echo(_("kept: the desk's file {db} (futmesa competition standings --db {db}), "
                     "the tables' event log {tables}").format(db=db, tables=tables_db_for(db)))
    elif not db:
        click.echo(_("nothing kept (the files were in a temporary folder): "
                     "--db FILE keeps the competition"))


def register(cli: click.Group) -> None:
    cli.add_command(competition)
    cli.add_command(desk)
    cli.add_command(venue)


@click.group()
def competition() -> None:
    """Teams, the draw, the schedule, walk-overs, sanctions and standings (at the desk)."""


def _db(db: str, create: bool = False):  # noqa: ANN202 - CompetitionDB, imported lazily
    """The desk's file; a mistyped --db is refused (only `new` and `import-teams` create
    one), never made into an empty file."""
    from pathlib import Path

    from futmesa.competition.db import CompetitionDB

    if not create and not Path(db).exists():
        raise click.ClickException(_("there is no file {path}: check --db (the desk's file is "
                                     "created by `futmesa competition new`)").format(path=db))
    return CompetitionDB(db)


@competition.command("import-teams")
@click.argument("csv_path", type=click.Path(exists=True, dir_okay=False))
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
def import_teams(csv_path: str, db: str) -> None:
    """Add the teams of a CSV file (name,short,color,logo,players; players split by ';')."""
    teams = _read_teams(csv_path)
    count = _db(db, create=True).import_teams(teams)
    click.echo(ngettext("{count} team imported", "{count} teams imported", count).format(
        count=count))


def _read_teams(csv_path: str) -> list[Any]:
    """The teams of an organiser's CSV, or a ClickException listing every problem."""
    from futmesa.competition.teams import TeamFileError, read_teams_csv
    from futmesa.textfiles import OrganiserFileError, read_text

    try:
        return read_teams_csv(read_text(csv_path))
    except OrganiserFileError as exc:
        raise click.ClickException(str(exc)) from None
    except TeamFileError as exc:
        raise click.ClickException("\n".join(f"{csv_path}: {line}"
                                              for line in str(exc).splitlines())) from None


@competition.command("export-teams")
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
def export_teams(db: str) -> None:
    """Print the teams as CSV."""
    from futmesa.competition.teams import write_teams_csv

    click.echo(write_teams_csv(_db(db).teams()), nl=False)


@competition.command("new")
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
@click.option("--settings", "settings_path", type=click.Path(dir_okay=False), default=None,
              help="Competition settings JSON (format, groups, points, tie_breaks, tables…).")
@click.option("--teams", "csv_path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Import this teams CSV first.")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=None,
              help="The draw's seed (the same teams and seed give the same draw); printed "
                   "with the draw.")
@click.option("--category", default=None,
              help="This competition's category (Adulto, Máster, Sub-18…): the day's "
                   "categories share the tables; with --teams, only that file's teams play it.")
@click.option("--replace", is_flag=True,
              help="Create the category again though it is under way (its matches at the "
                   "tables and still to play are closed).")
def new(db: str, settings_path: str | None, csv_path: str | None, seed: int | None,
        category: str | None, replace: bool) -> None:
    """Draw the groups and generate the schedule."""
    from futmesa.competition.db import CompetitionError
    from futmesa.competition.settings import SettingsFileError, load_settings

    try:
        settings = load_settings(settings_path)
    except SettingsFileError as exc:
        raise _fail(exc) from None
    if seed is not None:
        settings = settings.model_copy(update={"seed": seed})
    if category is not None:
        settings = settings.model_copy(update={"category": category.strip()[:40]})
    teams = _read_teams(csv_path) if csv_path else None
    from futmesa.competition.replace import check_replace, retire

    try:
        store = _db(db, create=True)
        check_replace(store, settings.category, replace)
        closed = retire(store, settings.category) if replace else 0
        if closed:
            click.echo(ngettext("{count} match of the replaced competition closed",
                                "{count} matches of the replaced competition closed",
                                closed).format(count=closed))
        if teams:
            store.import_teams(teams)
        # a category plays the teams of its own file; a single competition, every team
        keys = [t.key for t in teams] if teams and settings.category else None
        cid = store.create(settings, keys)
    except CompetitionError as exc:
        raise _fail(exc) from None
    comp = store.competition(cid)
    count = len(store.matches(cid))
    click.echo(ngettext("{name}: {count} match", "{name}: {count} matches", count).format(
        name=comp["name"], count=count))
    if any(m["stage"] == "ko" for m in store.matches(cid)):
        from futmesa.competition.settings import KNOCKOUT_DRAW_NAMES

        chosen = comp["settings"].knockout_draw or "desk"
        click.echo(_("A knockout match that ends level: {how} (\"knockout_draw\" in the "
                     "settings to change it)").format(how=_(KNOCKOUT_DRAW_NAMES[chosen])))
    _print_draw(store, cid)
    _print_schedule(store, cid)


def _print_draw(store, cid: int) -> None:  # noqa: ANN001
    """The draw sheet (seed, pots, groups with clubs) when the groups were drawn by pots
    and clubs; the Swiss phase's shape when there is one. Only this competition's teams
    (a category's), its groups as stored, and the club-mates its first round really pairs."""
    from futmesa.competition.draw import Draw, Entrant, draw, draw_sheet

    comp = store.competition(cid)
    s = comp["settings"]
    if s.format == "swiss_knockout":
        click.echo(_("Swiss phase: {rounds} rounds (each drawn when the one before is over), "
                     "then the first {advance} into the knockout").format(
            rounds=s.swiss_rounds, advance=s.advance))
        return
    if s.seed is None or s.format != "groups_knockout":
        return
    members = {k for g in comp["groups"].values() for k in g}
    teams = {k: t for k, t in store.team_map().items() if k in members}
    pots = draw([Entrant(k, t.club_key, t.pot) for k, t in teams.items()], s.groups,
                s.seed).pots
    shared = [(m["group"], m["team_a"], m["team_b"]) for m in store.matches(cid)
              if m["stage"] == "group" and m["round"] == 1 and m["team_a"] in teams
              and m["team_b"] in teams and teams[m["team_a"]].club_key
              and teams[m["team_a"]].club_key == teams[m["team_b"]].club_key]
    sheet = Draw(s.seed, comp["groups"], pots, shared)
    for line in draw_sheet(sheet, {k: t.name for k, t in teams.items()},
                           {k: t.club for k, t in teams.items()}, comp["name"]):
        click.echo(line)


def _print_schedule(store, cid: int) -> None:  # noqa: ANN001
    """One line a match: number, estimated time (or when it was given to its table), its
    table once given, stage, teams, score, status."""
    import time as _time

    from futmesa.venue.views import clock_time, estimates, match_view

    teams = store.team_map()
    matches = store.matches(cid)
    eta = estimates(store, store.competition(cid), matches)
    for m in matches:
        v = match_view(m, teams)
        when = (clock_time(eta.starts.get(m["id"])) if m["status"] == "scheduled"
                else _time.strftime("%H:%M", _time.localtime(m["updated_at"]))
                if m["status"] == "assigned" else "")
        proof = f"  ({v['proof']['text']})" if v["proof"]["text"] else ""
        click.echo(f"{v['id']:>4}  {when or '—':<6} {v['table'] or '—':<10} "
                   f"{v['label']:<22} {v['a']} {v['score']} {v['b']}  [{v['status_pt']}]"
                   f"{proof}")


@competition.command("schedule")
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
def show_schedule(db: str) -> None:
    """List the matches of every category of the day: time, table, teams, score, status."""
    from futmesa.competition.db import CompetitionError

    store = _db(db)
    try:
        day = store.active() or [store.competition()]
        for comp in day:
            if len(day) > 1:
                click.echo(f"== {comp['settings'].category or comp['name']} ==")
            _print_schedule(store, comp["id"])
    except CompetitionError as exc:
        raise _fail(exc) from exc


@competition.command("standings")
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
def show_standings(db: str) -> None:
    """Print the standings (every category of the day, each under its name)."""
    from futmesa.competition.db import CompetitionError
    from futmesa.venue.views import competition_view

    store = _db(db)
    try:
        day = store.active()
    except CompetitionError as exc:
        raise _fail(exc) from None
    if not day:
        raise click.ClickException(competition_view(store).get("error", ""))
    for comp in day:
        view = competition_view(store, cid=comp["id"])
        if len(day) > 1:
            click.echo(f"== {comp['settings'].category or comp['name']} ==")
        _print_standings(view)


def _print_standings(view: dict[str, Any]) -> None:
    for group, rows in view["standings"].items():
        click.echo(_("Group {group}").format(group=group) if group else _("Standings"))
        for i, r in enumerate(rows, 1):
            click.echo(f"  {i}. {r['name']:<24} " + _(
                "{points:>3} pts  {played} P {wins} W {draws} D {losses} L  {gf}:{ga}").format(
                points=r["points"], played=r["played"], wins=r["wins"], draws=r["draws"],
                losses=r["losses"], gf=r["goals_for"], ga=r["goals_against"])
                + f"  {'; '.join(r['notes'])}")
    for x in view["sanctions"]:
        click.echo("  " + _("sanction {id}: {team} — {kind} ({rule})").format(
            id=x["id"], team=x["name"], kind=_sanction_words(x["kind"]), rule=x["rule"]))
    for c in view["champions"]:
        if c["division"]:
            click.echo(_("Champion of {division}: {team}").format(division=c["division"],
                                                               team=c["team"]))
        else:
            click.echo(_("Champion: {team}").format(team=c["team"]))


@competition.command("shootout")
@click.argument("teams", nargs=-1, required=True)
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
@click.option("--group", default="", help="The group it decides (none: a league or a Swiss "
                                          "phase).")
@click.option("--category", default=None,
              help="The category, on a day of several (Adulto, Máster…).")
def record_shootout(teams: tuple[str, ...], db: str, group: str, category: str | None) -> None:
    """Record a tie-break shoot-out: the teams it was played between, the winner first.

    For teams level on every tie-break before "shootout" once their group is over; the
    knockout places of the group wait for it."""
    from futmesa.competition.db import CompetitionError
    from futmesa.competition.teams import team_key
    from futmesa.wordmatch import fold

    store = _db(db)
    try:
        day = store.active()
        if category is not None:
            day = [c for c in day if fold(c["settings"].category) == fold(category)]
            if not day:
                names = ", ".join(c["settings"].category for c in store.active()) or "—"
                raise CompetitionError(_("no category {name} today: the categories are "
                                         "{names}").format(name=repr(category), names=names))
        due = [c for c in day if any(r["shootout_due"] for r in store.table(c["id"]).get(
            group.upper() if group else "", []))]
        if len(due) > 1:
            raise CompetitionError(_("a shoot-out is due in group {group} of several "
                                     "categories: say which with --category").format(
                                         group=group or "—"))
        comp = (due or day or [store.competition()])[-1]
        keys = [team_key(t) for t in teams]
        unknown = [t for t, k in zip(teams, keys, strict=True) if k not in store.team_map()]
        if unknown:
            raise CompetitionError(_("no team {name}: see `futmesa competition export-teams`")
                                   .format(name=repr(unknown[0])))
        store.decisions.record_shootout(comp["id"], group.upper() if group else "", keys)
    except CompetitionError as exc:
        raise _fail(exc) from None
    click.echo(_("shoot-out recorded: {teams}").format(teams=" > ".join(teams)))
    store.advance(comp["id"])


@competition.command("export")
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
@click.option("--xlsx", "xlsx_path", type=click.Path(dir_okay=False), default=None,
              help="Write one workbook (standings, schedule, scorers, discipline) here.")
@click.option("--csv", "csv_dir", type=click.Path(file_okay=False), default=None,
              help="Write one CSV per sheet in this folder (';' and UTF-8 for Excel).")
def export(db: str, xlsx_path: str | None, csv_dir: str | None) -> None:
    """The day's standings, schedule, scorers and discipline as XLSX or CSV (every
    category of the day: its name starts each sheet's)."""
    from futmesa.competition.db import CompetitionError
    from futmesa.venue.export import day_sheets, write_csv, write_xlsx

    if not xlsx_path and not csv_dir:
        raise click.UsageError(_("say where: --xlsx FILE.xlsx or --csv FOLDER"))
    try:
        book = day_sheets(_db(db))
    except CompetitionError as exc:
        raise _fail(exc) from None
    try:
        if xlsx_path:
            click.echo(_("workbook written: {path}").format(path=write_xlsx(xlsx_path, book)))
        if csv_dir:
            for path in write_csv(csv_dir, book):
                click.echo(_("written: {path}").format(path=path))
    except OSError as exc:
        raise click.ClickException(_("cannot write there ({why}): choose another place")
                                   .format(why=exc.strerror or exc)) from None


@competition.command("ranking")
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
@click.option("--method", type=click.Choice(["placement", "openskill"]), default="placement",
              show_default=True,
              help="placement: points by the place in each competition (100, 70, 50…); "
                   "openskill: a rating with uncertainty from every match.")
def show_ranking(db: str, method: str) -> None:
    """The season ranking across every competition in the file, with each team's places."""
    from futmesa.competition.ranking import categories, ranking

    store = _db(db)
    cats = categories(store)
    shown = 0
    for cat in cats:
        rows = ranking(store, method, category=cat)
        if rows and len(cats) > 1:
            click.echo(f"== {cat or '—'} ==")
        shown += len(rows)
        for i, r in enumerate(rows, 1):
            score = (ngettext("{n} point", "{n} points", round(r.points)).format(
                n=f"{r.points:>6.0f}") if method == "placement"
                else f"{r.mu - 3 * r.sigma:>6.1f} (μ {r.mu:.1f} σ {r.sigma:.1f})")
            places = ", ".join(f"{h['competition']} {h['place']}º" for h in r.history)
            click.echo(f"{i:>3}. {r.name:<28} {score}  {places}")
    if not shown:
        raise click.ClickException(_("no competition over yet: nothing to rank (a competition "
                                     "counts once every match of it is decided)"))


def _match_words(store, match_id: int) -> str:  # noqa: ANN001
    """"Aberto · Semifinal 1: Estrela do Norte × Grêmio Botão" — a match as people name it."""
    from futmesa.venue.views import match_view

    m = store.match(match_id)
    v = match_view(m, store.team_map())
    category = store.competition(m["competition_id"])["settings"].category
    return f"{category + ' · ' if category else ''}{v['label']}: {v['a']} × {v['b']}"


@competition.command("walkover")
@click.argument("match_id", type=int)
@click.argument("absent", type=click.Choice(["A", "B"]))
@click.option("--reason", "note", default="", help="Why (recorded; e.g. did not show up).")
@click.option("--confirm", is_flag=True, help="Give it though the match is being played at a "
                                              "table (its result will be refused).")
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
def walkover(match_id: int, absent: str, note: str, confirm: bool, db: str) -> None:
    """Side ABSENT did not show up for MATCH_ID: the other side wins by W.O. (undo it with
    `competition undo`)."""
    from futmesa.competition.db import CompetitionError

    store = _db(db)
    try:
        store.decisions.walkover(match_id, absent, note, confirm=confirm)
        click.echo(_("match {id} ({match}): W.O. — to undo it: futmesa competition undo {id} "
                     "--reason …").format(id=match_id, match=_match_words(store, match_id)))
    except CompetitionError as exc:
        raise _fail(exc) from exc


@competition.command("decide")
@click.argument("match_id", type=int)
@click.argument("winner", type=click.Choice(["A", "B"]))
@click.option("--reason", required=True,
              help="Why (recorded): e.g. \"sorteio\", \"pênaltis 4 × 3 na mesa de controle\".")
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
def decide(match_id: int, winner: str, reason: str, db: str) -> None:
    """A knockout match MATCH_ID ended level: side WINNER (A or B) goes through."""
    from futmesa.competition import actions
    from futmesa.competition.db import CompetitionError

    store = _db(db)
    try:
        actions.decide(store, match_id, winner, reason)
        store.advance(store.match(match_id)["competition_id"])
        click.echo(_("match {id} ({match}): side {side} goes through — to undo it: futmesa "
                     "competition undo {id} --reason …").format(
            id=match_id, match=_match_words(store, match_id), side=winner))
    except CompetitionError as exc:
        raise _fail(exc) from exc


@competition.command("undo")
@click.argument("match_id", type=int)
@click.option("--reason", required=True, help="Why (recorded with the undo).")
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
def undo(match_id: int, reason: str, db: str) -> None:
    """Undo the newest walkover, abandonment or desk decision of MATCH_ID."""
    from futmesa.competition import actions
    from futmesa.competition.db import CompetitionError

    store = _db(db)
    try:
        a = actions.undo(store, match_id, reason)
        store.advance(store.match(a["match_id"])["competition_id"])
        click.echo(_("match {id} ({match}): {what} undone").format(
            id=a["match_id"], match=_match_words(store, a["match_id"]),
            what=_(actions.KIND_WORDS[a["kind"]])))
    except CompetitionError as exc:
        raise _fail(exc) from exc


@competition.command("actions")
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
def list_actions(db: str) -> None:
    """Every walkover, abandonment and desk decision of the day, with its reason and undo."""
    import time as _time

    from futmesa.competition import actions

    store = _db(db)
    for comp in store.active():
        for a in actions.actions(store, comp["id"]):
            at = _time.strftime("%H:%M", _time.localtime(a["created_at"]))
            what = _(actions.KIND_WORDS[a["kind"]])
            line = f"{at}  {what} — {_match_words(store, a['match_id'])}  ({a['reason'] or '—'})"
            if a["undone_at"]:
                line += "  " + _("undone: {reason}").format(reason=a["undo_reason"])
            click.echo(line)


@competition.command("abandon")
@click.argument("match_id", type=int)
@click.option("--note", default="", help="Why (e.g. power cut).")
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
def abandon(match_id: int, note: str, db: str) -> None:
    """Abandon MATCH_ID (its result will not count) and schedule its replay."""
    from futmesa.competition.db import CompetitionError

    try:
        rid = _db(db).decisions.abandon(match_id, note)
    except CompetitionError as exc:
        raise _fail(exc) from exc
    click.echo(_("match {id} abandoned; its replay: match {replay}").format(
        id=match_id, replay=rid))


@competition.command("sanction")
@click.argument("team")
@click.argument("kind", type=click.Choice(["match_points", "competition_points"]))
@click.option("--match", "match_id", type=int, default=None,
              help="The match whose points are lost (match_points).")
@click.option("--rule", default=None, help="Article (default: 001 Art. XLIII / 003 Art. 85).")
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
def sanction(team: str, kind: str, match_id: int | None, rule: str | None, db: str) -> None:
    """Loss of one match's points (match_points) or of every point and disqualification."""
    from futmesa.competition.db import CompetitionError
    from futmesa.competition.teams import team_key

    try:
        store = _db(db)
        sid = store.decisions.add_sanction(team_key(team), kind, match_id, rule)
        store.advance()
    except CompetitionError as exc:
        raise _fail(exc) from exc
    click.echo(_("sanction {id} recorded: {team} — {kind} (to withdraw it: futmesa competition "
                 "revoke {id})").format(id=sid, team=team, kind=_sanction_words(kind)))


def _sanction_words(kind: str) -> str:
    """A sanction's kind as the organiser reads it (never "match_points")."""
    return {"match_points": _("points of a match lost"),
            "competition_points": _("disqualified from the competition")}.get(kind, kind)


@competition.command("reports")
@click.option("--confirm", "confirm_id", type=int, default=None,
              help="Confirm this report: the team is disqualified (003 Art. 85).")
@click.option("--dismiss", "dismiss_id", type=int, default=None,
              help="Dismiss this report: nothing is applied.")
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
def reports(confirm_id: int | None, dismiss_id: int | None, db: str) -> None:
    """Disqualifications the tables reported: list them, confirm or dismiss one.

    A table's result never disqualifies a team by itself: the organiser decides here."""
    from futmesa.competition.db import CompetitionError

    store = _db(db)
    try:
        if confirm_id is not None:
            sid = store.decisions.decide_report(confirm_id, confirm=True)
            store.advance()
            click.echo(_("report {report} confirmed: sanction {id} (to withdraw it: futmesa "
                         "competition revoke {id})").format(report=confirm_id, id=sid))
            return
        if dismiss_id is not None:
            store.decisions.decide_report(dismiss_id, confirm=False)
            click.echo(_("report {report} dismissed").format(report=dismiss_id))
            return
        comp = store.competition()
    except CompetitionError as exc:
        raise _fail(exc) from None
    teams = store.team_map()
    rows = store.decisions.reports(comp["id"])
    if not rows:
        click.echo(_("no report from the tables"))
    for r in rows:
        name = teams[r["team"]].name if r["team"] in teams else r["team"]
        state = {None: _("TO CONFIRM"), "confirmed": _("confirmed"), "dismissed": _("dismissed"),
                 "withdrawn": _("withdrawn by the table")}.get(r["decision"], r["decision"])
        click.echo(f"{r['id']:>4}  " + _("match {id} {team} disqualified ({rule}, {table})").format(
            id=r["match_id"], team=name, rule=r["rule"], table=r["uid"]) + f"  [{state}]")


@competition.command("revoke")
@click.argument("sanction_id", type=int)
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
def revoke(sanction_id: int, db: str) -> None:
    """Withdraw a sanction (and the walk-overs a withdrawn disqualification gave)."""
    from futmesa.competition.db import CompetitionError

    try:
        store = _db(db)
        store.decisions.revoke_sanction(sanction_id)
        store.advance()
    except CompetitionError as exc:
        raise _fail(exc) from exc
    click.echo(_("sanction {id} withdrawn").format(id=sanction_id))


@competition.command("verify")
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
@click.option("--tables", "tables", multiple=True, type=click.Path(dir_okay=False),
              help="A table's database file (the --db of its `futmesa serve`); repeat it for "
                   "every file brought in.")
def verify_results(db: str, tables: tuple[str, ...]) -> None:
    """Check every result the tables sent against the tables' own logs.

    One line per result: confirmed (the chain checks in the table's file, the final hash,
    the score and the referee's signature match), unsigned, does not match (with why), or
    table not brought in. Exit status 1 when any result does not match."""
    from futmesa.venue.result_check import verify_results as check

    for path in tables:
        if not Path(path).is_file():
            raise click.ClickException(_(
                "there is no file {path}: pass in --tables the database that futmesa serve "
                "wrote at each table").format(path=path))
    ok, lines = check(db, list(tables))
    for line in lines:
        click.echo(line)
    if not ok:
        raise SystemExit(1)


@competition.command("sumulas")
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
@click.option("--tables", "tables", multiple=True, type=click.Path(dir_okay=False),
              help="A table's database file (the --db of its `futmesa serve`); repeat it for "
                   "every file brought in.")
@click.option("--out", "out", type=click.Path(dir_okay=False), default="sumulas.zip",
              show_default=True, help="The archive to write (ZIP).")
@click.option("--lang", type=click.Choice(["pt", "en"]), default=None,
              help="Language of the súmulas (default: the language of --lang before the "
                   "command).")
def sumulas(db: str, tables: tuple[str, ...], out: str, lang: str | None) -> None:
    """Every súmula of the day in one archive, for the federation.

    A folder per category, the PDF of each match the tables played (checked against their
    files: the chain, the final hash, the score, the referee's signature) and an index with
    each check's verdict and each file's SHA-256."""
    from futmesa.venue.result_check import CONFIRMED, MISMATCH, MISSING, UNSIGNED
    from futmesa.venue.sumula_archive import write_archive

    for path in tables:
        if not Path(path).is_file():
            raise click.ClickException(_(
                "there is no file {path}: pass in --tables the database that futmesa serve "
                "wrote at each table").format(path=path))
    try:
        done = write_archive(db, list(tables), out, lang or i18n.short(i18n.language()))
    except OSError as exc:
        raise click.ClickException(_("cannot write there ({why}): choose another place")
                                   .format(why=exc.strerror or exc)) from None
    c = done.counts
    click.echo(_("{path}: {n} súmulas ({confirmed} signed and confirmed, {unsigned} "
                 "unsigned, {mismatch} not checking out, {missing} from a table not "
                 "brought; {desk} decided at the desk)").format(
                     path=done.path, n=done.sumulas, confirmed=c.get(CONFIRMED, 0),
                     unsigned=c.get(UNSIGNED, 0), mismatch=c.get(MISMATCH, 0),
                     missing=c.get(MISSING, 0), desk=done.decided_at_desk))
    if c.get(MISMATCH):
        raise SystemExit(1)


@click.command()
@click.option("--db", default="desk.sqlite", show_default=True, help=DB_HELP)
@click.option("--broker", required=True, help="The venue broker, mqtt://HOST:PORT.")
@click.option("--credentials", "cred_path", required=True, type=click.Path(dir_okay=False),
              help="credentials/desk.json written by `futmesa venue broker-config`.")
@click.option("--http-host", default="0.0.0.0", show_default=True)
@click.option("--http-port", default=8100, show_default=True, type=click.IntRange(1, 65535))
@click.option("--public-url", default=None,
              help="The address phones open the pages at (e.g. http://192.168.0.10:8100): "
                   "the QR codes and shared links give it. Default: this computer's address "
                   "on the network.")
def desk(db: str, broker: str, cred_path: str, http_host: str, http_port: int,
         public_url: str | None) -> None:
    """The desk: hears every table, assigns matches, serves the venue board and standings."""
    from futmesa import server
    from futmesa.venue.desk_server import run_desk
    from futmesa.venue.mqtt import Broker, VenueConfigError, load_credentials

    try:
        creds = load_credentials(cred_path)
        if "desk" not in creds:
            raise VenueConfigError(_("{path} has no desk password: use credentials/desk.json")
                                   .format(path=cred_path))
        b = Broker.parse(broker).with_credentials(creds)
    except VenueConfigError as exc:
        raise _fail(exc) from exc
    shown = "localhost" if http_host in ("0.0.0.0", "127.0.0.1") else http_host
    click.echo(_("venue board: http://{host}:{port}/  standings: /standings  bracket: /bracket  "
                 "day summary: /summary").format(host=shown, port=http_port))
    try:
        asyncio.run(run_desk(db, b, creds["desk"], http_host, http_port,
                             public_url=public_url))
    except server.PortInUseError as exc:
        raise _fail(exc) from exc
    except KeyboardInterrupt:
        click.echo(_("stopped"))


@click.group()
def venue() -> None:
    """The venue broker (mosquitto): credentials and access rules."""


@venue.command("broker-config")
@click.option("--dir", "folder", required=True, type=click.Path(file_okay=False),
              help="Folder for mosquitto.conf, passwd, acl and the credentials files.")
@click.option("--table", "tables", multiple=True, required=True,
              help="A table id (as the kiosk footer shows it, e.g. pico-E6614103); repeat.")
@click.option("--port", default=None, type=click.IntRange(1, 65535),
              help="Port to listen on [default: 1883, or 8883 with TLS].")
@click.option("--host", required=True,
              help="The venue network's address or interface to listen on (e.g. 192.168.0.10 "
                   "or eth0); 127.0.0.1 for this machine only.")
@click.option("--certfile", type=click.Path(exists=True, dir_okay=False), default=None,
              help="The broker's TLS certificate (PEM): the listener then speaks TLS only and "
                   "every credentials file carries the certificate; connect with mqtts://.")
@click.option("--keyfile", type=click.Path(exists=True, dir_okay=False), default=None,
              help="The private key of --certfile (PEM).")
def broker_config(folder: str, tables: tuple[str, ...], port: int | None, host: str,
                  certfile: str | None, keyfile: str | None) -> None:
    """Write the broker's config with one password per table (only the desk may assign)."""
    from futmesa.venue.broker import write_config
    from futmesa.venue.mqtt import VenueConfigError

    tls = certfile is not None
    try:
        conf = write_config(folder, list(tables), port or (8883 if tls else 1883), host,
                            certfile=certfile, keyfile=keyfile)
    except VenueConfigError as exc:
        raise _fail(exc) from exc
    click.echo(_("start the broker with: mosquitto -c {conf}").format(conf=conf))
    click.echo(_("tables and desk connect with: {url}").format(
        url=f"{'mqtts' if tls else 'mqtt'}://{host}:{port or (8883 if tls else 1883)}"))
    click.echo(_("desk credentials: {path}").format(
        path=Path(folder) / "credentials" / "desk.json"))
    click.echo(_("each table's own file: {path}").format(
        path=Path(folder) / "credentials" / _("<table>.json")))


@venue.command("install")
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write the units, install.sh and README.txt into.")
@click.option("--broker-dir", required=True,
              type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="The folder `futmesa venue broker-config --dir` wrote (checked now).")
@click.option("--db", default="desk.sqlite", show_default=True,
              help="The desk's SQLite file (the one `futmesa competition new` made).")
@click.option("--user", default=None, help="User the broker and the desk run as [you].")
@click.option("--http-port", default=8100, show_default=True, type=click.IntRange(1, 65535),
              help="The desk's web port (venue board, standings).")
@click.option("--force", is_flag=True, help="Overwrite files already in --out.")
def venue_install(out: Path, broker_dir: Path, db: str, user: str | None, http_port: int,
                  force: bool) -> None:
    """Write systemd units that start the broker and the desk at every boot of this computer."""
    import getpass
    import sys

    from futmesa.dbcheck import db_problem
    from futmesa.deploy.venue import (
        VenueInstallConfig,
        VenueInstallError,
        broker_port,
        write_venue_units,
    )
    from futmesa.venue.broker import find_mosquitto
    from futmesa.venue.mqtt import VenueConfigError

    problem = db_problem(db, create=True)
    if problem:
        raise click.BadParameter(problem, param_hint="--db")
    broker_dir = broker_dir.resolve()
    try:
        port = broker_port(broker_dir)
    except VenueInstallError as exc:
        raise click.BadParameter(str(exc), param_hint="--broker-dir") from None
    try:
        mosquitto = find_mosquitto()
    except VenueConfigError:
        mosquitto = "/usr/sbin/mosquitto"  # Debian's, installed by `make setup`
    desk_db = Path(db).resolve()
    cfg = VenueInstallConfig(user=user or getpass.getuser(), workdir=str(desk_db.parent),
                             futmesa=str(Path(sys.executable).with_name("futmesa")),
                             broker_dir=str(broker_dir), broker_port=port,
                             desk_db=str(desk_db), http_port=http_port, mosquitto=mosquitto)
    try:
        paths = write_venue_units(out, cfg, force=force)
    except (FileExistsError, OSError) as exc:
        raise click.ClickException(str(exc)) from exc
    for p in paths:
        click.echo(p)
    click.echo(_("install them: cd {out} && sudo ./install.sh").format(out=out))
