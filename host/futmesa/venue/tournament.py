"""`futmesa demo --tournament N` and `--championship`: a whole competition on simulated
tables, in one process.

A real mosquitto on a free 127.0.0.1 port with generated credentials, the
teams, the simulated tables (the real firmware under `micropython`) served by
one daemon that publishes to the broker, the desk assigning matches and
serving the venue board, and a scripted referee at every table. The
tournament: N teams in two groups, the group winners meet in the final. The
championship (issue 33): two categories sharing six tables — Aberto, twelve teams of
four clubs in three pots, a Swiss phase of three rounds (each drawn when the last is
over) into semi-finals and a final; Sub-18, eight teams in two groups into an Ouro final
(the group winners) and a Prata final (the runners-up); at the end the day's spreadsheets
are written.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from futmesa import children, server
from futmesa.competition.db import CompetitionDB
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv
from futmesa.i18n import _
from futmesa.netaddr import public_base_url
from futmesa.sim.table import SimTable
from futmesa.venue.broker import Mosquitto
from futmesa.venue.desk_server import run_desk
from futmesa.venue.mqtt import Broker
from futmesa.venue.planwatch import PlanWatch
from futmesa.venue.simref import SimReferee
from futmesa.venue.table_agent import VenueOptions
from futmesa.venue.views import competition_view

TEAMS_CSV = """name,short,color,logo,players
Estrela do Norte,EST,#c8102e,,
Botafogo da Mesa,BOT,#1d1d1b,,
Grêmio Botão,GRE,#0d80bf,,
União Operária,UNI,#2e7d32,,
Atlético Pastilha,ATL,#6a1b9a,,
Palmeirinhas,PAL,#006437,,
Ferroviário,FER,#b71c1c,,
Náutico da Palheta,NAU,#ef6c00,,
Flamenguinho,FLA,#d50000,,
Vasquinho,VAS,#212121,,
Santos do Dadinho,SAN,#9e9e9e,,
Cruzeiro Mirim,CRU,#1565c0,,
Internacional de Botão,INT,#b71c1c,,
Bahia da Mesa,BAH,#0277bd,,
Coritiba Pastilha,CFC,#1b5e20,,
Sport Recife Mesa,SPT,#e53935,,
"""

CHAMPIONSHIP_CSV = """name;short;color;clube;pote
Estrela do Norte;EST;#c8102e;Clube Botão RS;1
Botafogo da Mesa;BOT;#1d1d1b;Mesa Carioca;1
Grêmio Botão;GRE;#0d80bf;Clube Botão RS;1
União Operária;UNI;#2e7d32;Liga Sul;1
Atlético Pastilha;ATL;#6a1b9a;Mesa Carioca;2
Palmeirinhas;PAL;#006437;Liga Sul;2
Ferroviário;FER;#b71c1c;Clube Botão RS;2
Náutico da Palheta;NAU;#ef6c00;Palheta Norte;2
Flamenguinho;FLA;#d50000;Mesa Carioca;3
Vasquinho;VAS;#212121;Palheta Norte;3
Santos do Dadinho;SAN;#9e9e9e;Liga Sul;3
Cruzeiro Mirim;CRU;#1565c0;Palheta Norte;3
"""
SUB18_CSV = """name;color;club;pot
Juventude Botão;#00796b;Clube Botão RS;1
Guarani Mirim;#f9a825;Liga Sul;1
Ponte Pretinha;#212121;Mesa Carioca;2
América Jovem;#c62828;Palheta Norte;2
Paraná da Palheta;#1565c0;Clube Botão RS;3
Avaí Botonista;#2e7d32;Liga Sul;3
Ceará Mirim;#424242;Mesa Carioca;4
Remo Jovem;#0d47a1;Palheta Norte;4
"""
CHAMPIONSHIP_TABLES = 6
CHAMPIONSHIP_SEED = 2026  # the same draw every time: the demo can be checked


# a fast clock profile: 1-minute halves, a short interval, no per-move timeouts
# lance longer than the half: no lance expiry in a scripted match
FAST_MATCH = {"period_ms": 60000, "interval_ms": 3000, "lance_ms": 300000}


def championship_settings(tables: int) -> dict[str, Any]:
    return {"name": _("Demonstration championship (Swiss phase and knockout)"),
            "category": "Aberto",
            "format": "swiss_knockout", "swiss_rounds": 3, "advance": 4, "tables": tables,
            # the simulated referees start a match as soon as it is given: no changeover
            "seed": CHAMPIONSHIP_SEED, "changeover_minutes": 0,
            # a level knockout match: the desk decides (the demo's organiser, by lots)
            "knockout_draw": "desk", "match_settings": dict(FAST_MATCH)}


def under18_settings(tables: int) -> dict[str, Any]:
    return {"name": _("Demonstration championship (groups, Ouro and Prata)"),
            "category": "Sub-18", "format": "groups_knockout", "groups": 2, "advance": 1,
            "divisions": ["Ouro", "Prata"], "tables": tables, "seed": CHAMPIONSHIP_SEED,
            "changeover_minutes": 0, "knockout_draw": "advantage",
            "match_settings": dict(FAST_MATCH)}


def tournament_settings(teams: int, tables: int) -> dict[str, Any]:
    return {"name": _("Demonstration tournament ({teams} teams)").format(teams=teams),
            "format": "groups_knockout", "groups": 2, "advance": 1, "tables": tables,
            "match_settings": dict(FAST_MATCH)}


async def play_tournament(teams: int, speed: int, http_port: int, desk_port: int,
                          say: Callable[[str], None], exit_when_done: bool,
                          desk_db: str | None = None, http_host: str = "127.0.0.1",
                          public_url: str | None = None, championship: bool = False,
                          exports: str | Path | None = None) -> dict[str, Any]:
    """Play the competition; returns the final view (standings, champion) and where the
    files are. ``desk_db`` names the desk's file (the tables' event log goes next to it:
    :func:`tables_db_for`), kept; without it every file is in a temporary folder removed
    at the end. The broker's folder (its generated passwords) is always temporary.
    ``championship``: the championship day instead (see the module); its spreadsheets go
    to ``exports``."""
    logging.getLogger("httpx").setLevel(logging.WARNING)  # the referees poll all the time
    if not championship and (not 4 <= teams <= 16 or teams % 2):
        raise ValueError(_("--tournament takes an even number of teams from 4 to 16"))
    tables = CHAMPIONSHIP_TABLES if championship else teams // 2
    folder = children.temp_dir("futmesa-tournament-")
    sims: list[SimTable] = []
    broker: Mosquitto | None = None
    try:
        desk_file = desk_db or str(folder / "desk.sqlite")
        tables_file = tables_db_for(desk_db) if desk_db else str(folder / "tables.sqlite")
        comp = CompetitionDB(desk_file)
        if championship:
            young = read_teams_csv(SUB18_CSV)
            open_ = read_teams_csv(CHAMPIONSHIP_CSV)
            comp.import_teams(young + open_)
            comp.create(parse_settings(under18_settings(tables)), [t.key for t in young])
            cid = comp.create(parse_settings(championship_settings(tables)),
                              [t.key for t in open_])
        else:
            comp.import_teams(read_teams_csv("\n".join(TEAMS_CSV.splitlines()[: teams + 1])))
            cid = comp.create(parse_settings(tournament_settings(teams, tables)))
        sims = [SimTable(speed=speed, uid=f"SIMT{i + 1:04d}") for i in range(tables)]
        table_ids = [f"sim-{s.uid}" for s in sims]
        broker = Mosquitto(folder / "broker", table_ids)
        broker.start()
        for s in sims:
            s.start()
        outcome = await _play(comp, sims, broker, desk_file, tables_file, http_port, desk_port,
                              say, exit_when_done, http_host, public_url)
        if exports is not None:
            outcome["exports"] = write_exports(comp, Path(exports))
    finally:
        for s in sims:
            s.stop()
        if broker is not None:
            broker.stop()
        children.remove_temp_dir(folder)
    outcome["cid"] = cid
    outcome["kept"] = [desk_file, tables_file] if desk_db else []
    return outcome


def write_exports(comp: CompetitionDB, folder: Path) -> list[str]:
    """The day's spreadsheets (venue/export.py): one workbook and a CSV per sheet."""
    from futmesa.venue.export import day_sheets, write_csv, write_xlsx

    book = day_sheets(comp)
    paths = [write_xlsx(folder / "campeonato.xlsx", book), *write_csv(folder / "csv", book)]
    return [str(p) for p in paths]


def _day_views(comp: CompetitionDB) -> list[dict[str, Any]]:
    """Every category's view (the newest last), or the one competition's."""
    day = comp.active()
    return [competition_view(comp, cid=c["id"]) for c in day] or [competition_view(comp)]


def _over(view: dict[str, Any]) -> bool:
    """A champion, and every match played (each division's knockout too)."""
    return bool(view.get("champion")) and all(
        m["status"] in ("finished", "walkover", "bye", "abandoned")
        for m in view.get("matches", []))


def _organiser(comp: CompetitionDB, say: Callable[[str], None]) -> None:
    """The demo's organiser at the desk: a knockout match the table ended level is decided
    by lots (competition decide), as a real desk would with its own reason."""
    import random

    from futmesa.competition import actions

    for c in comp.active():
        for m in actions.undecided(comp.matches(c["id"])):
            side = random.Random(CHAMPIONSHIP_SEED + m["id"]).choice("AB")
            actions.decide(comp, m["id"], side, _("drawing lots (demonstration)"))
            comp.advance(c["id"])
            say(_("match {id} ended level: decided at the desk by lots, side {side} goes "
                  "through").format(id=m["id"], side=side))


def tables_db_for(desk_db: str | Path) -> str:
    """The tables' event log kept next to the desk's file: ``torneio.sqlite`` →
    ``torneio-mesas.sqlite``."""
    p = Path(desk_db)
    return str(p.with_name(f"{p.stem}-mesas{p.suffix or '.sqlite'}"))


async def _play(comp: CompetitionDB, sims: list[SimTable], broker: Mosquitto, desk_file: str,
                tables_file: str, http_port: int, desk_port: int, say: Callable[[str], None],
                exit_when_done: bool, http_host: str,
                public_url: str | None) -> dict[str, Any]:
    table_ids = [f"sim-{s.uid}" for s in sims]
    desk_url = public_base_url(http_host, desk_port)
    tables_url = public_base_url(http_host, http_port, public_url)
    say(_("broker: mosquitto on {url}").format(url=broker.url))
    say(_("venue board: {url}/   standings: {url}/standings   bracket: {url}/bracket   "
          "day summary: {url}/summary").format(url=desk_url))
    say(_("tables: {url}/?table=<id>  ({ids})").format(url=tables_url, ids=", ".join(table_ids)))
    say(_("Ctrl-C to stop"))
    b = Broker("127.0.0.1", broker.port)
    outcome: dict[str, Any] = {}
    stops: list[Callable[[], None]] = []

    async def desk_ready(desk: Any, desk_server: Any) -> None:
        stops.append(lambda: setattr(desk_server, "should_exit", True))

    async def tables_ready(running: server.Running) -> None:
        stops.append(running.stop)
        while any(d.table_id is None for d in running.daemons):
            await asyncio.sleep(0.05)
        refs = [SimReferee(f"http://127.0.0.1:{http_port}", str(d.table_id), s.goal, say)
                for d, s in zip(running.daemons, sims, strict=True)]
        stop = asyncio.Event()
        tasks = [asyncio.create_task(r.run(stop)) for r in refs]
        # tables announced = tables played, the estimates' errors
        watch = PlanWatch(comp, speed=sims[0].speed)
        while True:
            await asyncio.to_thread(_organiser, comp, say)
            await asyncio.to_thread(watch.look)
            views = await asyncio.to_thread(_day_views, comp)
            if all(_over(v) for v in views):
                outcome.update(views[-1])
                break
            await asyncio.sleep(0.5)
        watch.check_played()
        outcome["plan"] = plan = watch.summary()
        say(_("plan: {count} matches started; estimate error at the start: median {median:.1f} "
              "min, worst {worst:.1f} min (in the day's minutes, the tables at {speed}×); "
              "{problems} problems").format(count=plan["matches"], median=plan["median_min"],
                                            worst=plan["worst_min"], speed=sims[0].speed,
                                            problems=len(plan["problems"])))
        for line in plan["problems"]:
            say(line)
        for v in views:
            for c in v["champions"]:
                where = " ".join(x for x in (v.get("category") or "", c["division"]) if x)
                say(_("CHAMPION ({where}): {team}").format(where=where, team=c["team"])
                    if len(views) > 1 else _("CHAMPION: {team}").format(team=c["team"]))
        if exit_when_done:
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
            for r in refs:
                await r.close()
            for fn in stops:
                fn()
        else:
            say(_("the venue board stays at {url}/ — Ctrl-C to stop").format(url=desk_url))

    await asyncio.gather(
        run_desk(desk_file, b, broker.credentials["desk"], http_host, desk_port,
                 on_ready=desk_ready),
        server.run([s.host_port for s in sims], tables_file, "cbfm-1toque", None,
                   http_host=http_host, http_port=http_port, on_ready=tables_ready,
                   quiet=True, venue=VenueOptions(b, broker.credentials)),
    )
    return outcome
