"""What a referee or a federation reads: one sentence per log entry, and dates in the venue's zone.

Brazilian Portuguese by default, English when the kiosk is set to English. No internal code,
raw number or JSON reaches a person: every entry kind has its sentence, every value its word.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from futmesa.rules.base import LOST_NAMES

DEFAULT_TIMEZONE = "America/Sao_Paulo"
LANGS = ("pt", "en")

Teams = dict[str, Any]


def venue_zone(name: Any) -> ZoneInfo:
    """The venue's time zone (an IANA name from the settings); São Paulo when unset or unknown."""
    try:
        return ZoneInfo(str(name)) if name else ZoneInfo(DEFAULT_TIMEZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_TIMEZONE)


def to_unix_s(stamp: Any) -> float | None:
    """Unix seconds from a stamp in seconds or milliseconds (anything before 2001 in ms is s)."""
    if not isinstance(stamp, int | float) or isinstance(stamp, bool) or stamp <= 0:
        return None
    return stamp / 1000 if stamp > 1e11 else float(stamp)


def when(stamp: Any, zone: ZoneInfo | None = None, *, seconds: bool = False) -> str:
    """A date and time as a person at the venue reads it: ``01/12/2026 14:05``."""
    unix = to_unix_s(stamp)
    if unix is None:
        return ""
    local = datetime.fromtimestamp(unix, UTC).astimezone(zone or venue_zone(None))
    return local.strftime("%d/%m/%Y %H:%M:%S" if seconds else "%d/%m/%Y %H:%M")


def time_of_day(stamp: Any, zone: ZoneInfo | None = None) -> str:
    unix = to_unix_s(stamp)
    if unix is None:
        return ""
    return datetime.fromtimestamp(unix, UTC).astimezone(zone or venue_zone(None)).strftime(
        "%H:%M:%S")


def minutes_text(ms: Any, lang: str = "pt") -> str:
    """A duration: "2 min", "30 s", "1 min 30 s"."""
    if not isinstance(ms, int | float):
        return ""
    total = round(abs(ms) / 1000)
    m, s = divmod(total, 60)
    parts = ([f"{m} min"] if m else []) + ([f"{s} s"] if s or not m else [])
    return " ".join(parts)


def team(teams: Teams, side: Any, lang: str = "pt") -> str:
    t = teams.get(str(side)) if isinstance(teams, dict) else None
    if isinstance(t, dict) and t.get("name"):
        return str(t["name"])
    if side in ("A", "B"):
        return f"{'Time' if lang == 'pt' else 'Team'} {side}"
    return "—" if lang == "pt" else "—"


# ---- names for things: tables, rulesets, time zones, goals and sensors --------------------
RULESET_TITLES: dict[str, str] = {
    "cbfm-1toque": "CBFM — Regra 1 Toque", "gaucha": "Regra Gaúcha (LGFM)",
    "pastilha-8x2": "Pastilha 8x2 (FEFUMERJ / CBFM)",
    "pastilha-8x2-clube": "Pastilha 8x2 — clube (2 × 5 min)",
    "mesa-posta": "A mesa está posta",
}


def ruleset_title(ruleset: Any) -> str:
    """A ruleset as people name it ("CBFM — Regra 1 Toque"), never its id."""
    key = str(ruleset or "")
    return RULESET_TITLES.get(key, "Regra da mesa" if key else "")


def table_name(table_id: Any, given: Any = None, index: int | None = None,
               lang: str = "pt") -> str:
    """A table as people name it: the name from the settings or the board file, else "Mesa N".

    N is the number at the end of a numbered id ("sim-SIM00001", "mesa-3"), else the table's
    place among the host's tables (``index``, from 1). A board uid is never shown.
    """
    if isinstance(given, str) and given.strip():
        return given.strip()[:40]
    word_ = "Mesa" if lang != "en" else "Table"
    tid = str(table_id or "")
    tail = re.search(r"(?:^|[-_ ]|[A-Za-z])0*(\d{1,3})$", tid)
    hexish = re.fullmatch(r"(?:pico|esp32|rp2040)-[0-9a-fA-F]{8,}", tid)
    if tail and not hexish:
        return f"{word_} {int(tail.group(1)) or 1}"
    return f"{word_} {index or 1}"


_CITIES: dict[str, str] = {"Sao_Paulo": "São Paulo", "Belem": "Belém", "Maceio": "Maceió",
                           "Cuiaba": "Cuiabá", "Araguaina": "Araguaína"}


def zone_city(zone: Any, lang: str = "pt") -> str:
    """A time zone as a city: "horário de São Paulo" (never "America/Sao_Paulo")."""
    key = getattr(zone, "key", None) or str(zone or DEFAULT_TIMEZONE)
    city = key.rsplit("/", 1)[-1]
    city = _CITIES.get(city, city.replace("_", " "))
    if key.upper() in ("UTC", "ETC/UTC", "GMT"):
        return "UTC"
    return f"horário de {city}" if lang != "en" else f"{city} time"


def goal_owner(goal: Any, ends: Any) -> str | None:
    """The side defending goal line ``goal`` (0/1) under ``ends`` ({"A": 0, "B": 1})."""
    e = ends if isinstance(ends, dict) else {"A": 0, "B": 1}
    for side in ("A", "B"):
        if e.get(side) == goal:
            return side
    return None


def sensor_name(sensor: Any, teams: Teams, ends: Any = None, lang: str = "pt") -> str:
    """A sensor by its place on the table: "sensor do gol de Estrela do Norte"."""
    pt = lang != "en"
    if sensor in (0, 1):
        owner = goal_owner(sensor, ends)
        name = team(teams, owner, lang) if owner else ""
        return (f"sensor do gol de {name}" if pt else f"{name}'s goal sensor") if name else (
            "sensor de gol" if pt else "goal sensor")
    if sensor == 15:
        return "memória da mesa" if pt else "the table's memory"
    return "sensor da rede lateral" if pt else "side-net sensor"


# ---- words for values ---------------------------------------------------------------------
_WORDS: dict[str, dict[str, tuple[str, str]]] = {
    "fault": {"stuck": ("bloqueado por tempo demais", "blocked for too long"),
              "no_answer": ("sem resposta", "not answering"),
              "out_of_range": ("leitura fora da faixa", "reading out of range"),
              "drift": ("referência deslocada", "baseline drifted")},
    "restart": {"saida": ("saída de bola", "kick-off"), "lateral": ("lateral", "throw-in"),
                "escanteio": ("escanteio", "corner"), "tiro_de_meta": ("tiro de meta", "goal kick"),
                "bola_do_goleiro": ("bola do goleiro", "goalkeeper's ball"),
                "tiro_livre": ("tiro livre", "free kick"), "free_kick": ("tiro livre", "free kick"),
                "falta": ("falta", "free kick"),
                "falta_direta": ("falta direta", "direct free kick"),
                "falta_indireta": ("falta indireta", "indirect free kick"),
                "falta_tecnica": ("falta técnica", "technical foul kick"),
                "penalti": ("pênalti", "penalty"),
                "disciplinary_kick": ("cobrança disciplinar", "disciplinary kick"),
                "shootout_kick": ("pênalti da disputa", "shootout penalty")},
    "foul": {"falta": ("falta", "foul"), "toque": ("toque irregular", "illegal touch"),
             "mao": ("mão", "hand"), "penalti": ("pênalti", "penalty"),
             "tecnica": ("falta técnica", "technical foul"),
             "dois_toques": ("dois toques", "double touch")},
    "where": {"own_half": ("no próprio campo", "in its own half"),
              "opponent_half": ("no campo adversário", "in the opponent's half"),
              "box": ("na área", "in the box")},
    "discipline": {"disciplinary": ("falta disciplinar", "disciplinary foul"),
                   "expel": ("expulsão", "sending-off"),
                   "end_match": ("partida encerrada pelo árbitro", "match ended by the referee"),
                   "deliberate_foul": ("falta deliberada", "deliberate foul"),
                   "disqualify": ("desclassificação", "disqualification")},
    "outcome": {"saved": ("defendido", "saved"), "wide": ("para fora", "wide"),
                "post": ("na trave", "off the post"), "in_play": ("bola segue em jogo", "in play"),
                "short": ("não chegou ao gol", "short"), "miss": ("errou a bola", "missed")},
    "choice": {"left": ("canto esquerdo", "left"), "middle": ("meio", "middle"),
               "right": ("canto direito", "right"), "secreta": ("secreta", "secret"),
               "no_goal": ("sem gol", "no goal"), "corner": ("escanteio", "corner"),
               "own_goal": ("gol contra", "own goal"),
               "shot_asked": ("chute pedido (não registrado)", "shot asked (not entered)"),
               "false_trip": ("falso acionamento", "false trip"), "counts": ("vale", "counts"),
               "foul": ("falta", "foul"), "no_foul": ("sem falta", "no foul")},
    "ball": {"opponent_half": ("do campo adversário", "from the opponent's half"),
             "midline": ("do meio-campo", "from the midline"),
             "own_half": ("do próprio campo", "from its own half")},
}

# answers to the referee's grading of a disciplinary foul (003 Art. 87)
_WORDS["choice"].update({"free_kick": ("tiro livre indireto", "indirect free kick"),
                         "disqualify": ("desclassificação", "disqualification")})


def word(group: str, value: Any, lang: str = "pt") -> str:
    pair = _WORDS.get(group, {}).get(str(value))
    if pair is None:
        return str(value).replace("_", " ")
    return pair[0] if lang == "pt" else pair[1]


def _num(value: Any) -> str:
    return str(value) if value is not None else "?"


def _yes(flag: Any, pt: tuple[str, str], en: tuple[str, str], lang: str) -> str:
    words = pt if lang == "pt" else en
    return words[0] if flag else words[1]



def sentence(kind: str, data: Any, teams: Teams, lang: str = "pt", *,
             period: Any = None, targets: dict[int, dict[str, Any]] | None = None,
             ends: Any = None) -> str:
    """One sentence saying what an entry is, in ``lang`` ("pt" or "en").

    ``ends`` ({"A": 0, "B": 1}: the goal line each side defends) names goals and sensors by
    the side of the table; the starting ends when not given.
    """
    d: dict[str, Any] = data if isinstance(data, dict) else {}
    pt = lang != "en"

    def t(side: Any) -> str:
        return team(teams, side, lang)

    def L(p: str, e: str) -> str:  # noqa: N802 - one letter, read as "language"
        return p if pt else e

    disc = f"{L('botão', 'disc')} {d['disc']}" if d.get("disc") is not None else ""
    with_disc = f", {disc}" if disc else ""
    nth = f"{period}º" if pt else {1: "1st", 2: "2nd", 3: "3rd"}.get(period, f"{period}th")

    match kind:
        # -- device events --------------------------------------------------------------
        case "goal_line":
            owner = goal_owner(int(d.get("goal", 0) or 0), ends)
            if owner is None:
                return L("Sensor: bola na linha de gol", "Sensor: ball on a goal line")
            return L(f"Sensor: bola na linha do gol de {t(owner)}",
                     f"Sensor: ball on {t(owner)}'s goal line")
        case "ball_out":
            # "end": the goal end of the table the zone is at, named by the side defending it
            owner = goal_owner(d.get("end"), ends) if d.get("end") in (0, 1) else None
            if d.get("line") == "end":
                where = L(f", lado de {t(owner)}", f", {t(owner)}'s end") if owner else ""
                return L("Bola fora pela linha de fundo", "Ball out over the end line") + where
            where = L(f", no campo de {t(owner)}", f", in {t(owner)}'s half") if owner else ""
            return L("Bola fora pela lateral", "Ball out over the side line") + where
        case "palheta":
            pos = d.get("pos")
            if pos in ("A", "B"):
                # 000 Regra 1 §3: the palheta shows the side the ball went out on
                return L(f"Palheta: a bola saiu pelo lado de {t(pos)}",
                         f"Palheta: the ball went out on {t(pos)}'s side")
            return L("Palheta ao centro (sem marcação)", "Palheta in the centre (no call)")
        case "clock_started":
            reason = d.get("reason")
            if reason == 2:
                return L("Relógio correndo: bola em jogo", "Clock running: ball in play")
            if reason == 1:
                return L("Relógio retomado", "Clock resumed")
            return L("Relógio iniciado", "Clock started")
        case "clock_stopped":
            reason = d.get("reason")
            if reason == 1:
                return L("Relógio parado: bola morta", "Clock stopped: dead ball")
            if reason == 2:
                return L("Relógio parado: fim do período", "Clock stopped: end of the period")
            return L("Relógio pausado", "Clock paused")
        case "period_over":
            return L(f"Fim do {nth} tempo" if period else "Fim do período",
                     f"End of the {nth} period" if period else "End of the period")
        case "period_started":
            return L(f"Início do {nth} tempo" if period else "Início do período",
                     f"Start of the {nth} period" if period else "Start of the period")
        case "alarm":
            return L("Alarme: tempo esgotado", "Alarm: time is up")
        case "time_up":
            return L("Tempo esgotado: o período termina na próxima bola morta",
                     "Time is up: the period ends at the next dead ball")
        case "lance_expired":
            who = t(d.get("side")) if d.get("side") in ("A", "B") else ""
            if d.get("warning"):
                return L(f"Aviso: tempo do lance{' de ' + who if who else ''} acabando",
                         f"Warning: lance time{' of ' + who if who else ''} running out")
            return L(f"Tempo do lance{' de ' + who if who else ''} esgotado",
                     f"Lance time{' of ' + who if who else ''} expired")
        case "lance_started":
            who = t(d.get("side")) if d.get("side") in ("A", "B") else ""
            return L(f"Lance{' de ' + who if who else ''} iniciado",
                     f"Lance{' of ' + who if who else ''} started")
        case "button":
            b = d.get("button")
            if b in ("turnA", "turnB"):
                side = b[-1]
                return L(f"{t(side)} encerra o lance (botão da mesa)",
                         f"{t(side)} ends its lance (table button)")
            return L("Botão da mesa: chamada do árbitro", "Table button: referee called")
        case "sensor_fault":
            which = sensor_name(d.get("sensor"), teams, ends, lang)
            return L(f"Falha no {which}: {word('fault', d.get('fault'))}",
                     f"Fault on the {which}: {word('fault', d.get('fault'), 'en')}")
        case "sensor_ok":
            which = sensor_name(d.get("sensor"), teams, ends, lang)
            return L(f"{which[:1].upper()}{which[1:]} voltou a funcionar",
                     f"{which[:1].upper()}{which[1:]} working again")
        case "gap":
            rng = f"{_num(d.get('first_seq'))}–{_num(d.get('last_seq'))}"
            return L(f"Eventos da mesa perdidos (nº {rng}): confira placar e tempo",
                     f"Table events lost (no. {rng}): check score and time")
        case "boot":
            return L("Mesa ligada", "Table switched on")
        case "clock_adjusted":
            delta = d.get("delta_ms", 0) or 0
            sign = "+" if delta >= 0 else "−"
            return L(f"Relógio ajustado em {sign}{minutes_text(delta)}",
                     f"Clock adjusted by {sign}{minutes_text(delta)}")
        case "time_added":
            return L(f"Mesa: acréscimo de {minutes_text(d.get('ms'))}",
                     f"Table: {minutes_text(d.get('ms'))} added")
        case "match_over":
            return L("Mesa: fim da partida", "Table: end of the match")
        case "profile_set":
            return L(f"Mesa configurada: períodos de {minutes_text(d.get('period_ms'))}",
                     f"Table set up: periods of {minutes_text(d.get('period_ms'))}")
        # -- referee inputs -------------------------------------------------------------
        case "set_up":
            names: Teams = d["teams"] if isinstance(d.get("teams"), dict) else teams
            a, b = team(names, "A", lang), team(names, "B", lang)
            ko = d.get("kickoff")
            kick = (L(f"; saída de {team(names, ko, lang)}", f"; {team(names, ko, lang)} kick off")
                    if ko in ("A", "B") else "")
            return L(f"Partida configurada: {a} × {b}{kick}",
                     f"Match set up: {a} v {b}{kick}")
        case "kickoff":
            return L(f"Saída de bola para {t(d.get('side'))}",
                     f"Kick-off to {t(d.get('side'))}")
        case "ends":
            if int(d.get("A", 0) or 0) == 1:
                return L(f"Troca de lados: {t('A')} e {t('B')} trocam de gol",
                         f"Change of ends: {t('A')} and {t('B')} swap goals")
            return L(f"Lados: {t('A')} e {t('B')} nos gols do início",
                     f"Ends: {t('A')} and {t('B')} in their starting goals")
        case "start_period":
            return L("Árbitro autoriza o início do período", "Referee starts the period")
        case "added_time":
            return L(f"Acréscimo de {minutes_text(d.get('ms'))}",
                     f"{minutes_text(d.get('ms'))} added time")
        case "pause":
            return L("Árbitro pausa o relógio", "Referee pauses the clock")
        case "resume":
            return L("Árbitro retoma o relógio", "Referee resumes the clock")
        case "touch":
            miss = "" if d.get("hit", True) else L(" (sem tocar a bola)", " (missed the ball)")
            if d.get("out_of_turn"):
                miss += L(" — fora da vez", " — out of turn")
            return L(f"Toque de {t(d.get('side'))}{with_disc}{miss}",
                     f"Touch by {t(d.get('side'))}{with_disc}{miss}")
        case "shot_asked":
            ball = f" {word('ball', d['ball'], lang)}" if d.get("ball") else ""
            return L(f"Chute pedido por {t(d.get('side'))}{with_disc}{ball}",
                     f"Shot asked by {t(d.get('side'))}{with_disc}{ball}")
        case "shot_result":
            return L(f"Chute sem gol: {word('outcome', d.get('outcome'))}",
                     f"Shot without a goal: {word('outcome', d.get('outcome'), 'en')}")
        case "last_touch":
            return L(f"Último toque: {t(d.get('side'))}", f"Last touch: {t(d.get('side'))}")
        case "restart":
            what = word("restart", d.get("kind"), lang)
            return L(f"Reinício: {what} para {t(d.get('side'))}",
                     f"Restart: {what} to {t(d.get('side'))}")
        case "lance_done":
            return L("Último lance encerrado", "Last lance over")
        case "foul":
            what = word("foul", d.get("type") or "falta", lang)
            where = f" {word('where', d['where'], lang)}" if d.get("where") else ""
            return L(f"{what[:1].upper()}{what[1:]} de {t(d.get('side'))}{with_disc}{where}",
                     f"{what[:1].upper()}{what[1:]} by {t(d.get('side'))}{with_disc}{where}")
        case "discipline":
            what = word("discipline", d.get("type") or d.get("action") or "disciplinary", lang)
            return L(f"{what[:1].upper()}{what[1:]}: {t(d.get('side'))}{with_disc}",
                     f"{what[:1].upper()}{what[1:]}: {t(d.get('side'))}{with_disc}")
        case "substitution":
            return L(f"Substituição em {t(d.get('side'))}: sai o botão {_num(d.get('out'))}, "
                     f"entra o {_num(d.get('in'))}",
                     f"Substitution for {t(d.get('side'))}: disc {_num(d.get('out'))} off, "
                     f"{_num(d.get('in'))} on")
        case "offside":
            return L(f"Impedimento de {t(d.get('side'))}", f"Offside against {t(d.get('side'))}")
        case "ball_stopped":
            return L(f"Bola parada na pequena área de {t(d.get('side'))}",
                     f"Ball stopped in {t(d.get('side'))}'s small area")
        case "restart_failed":
            why = (L("a bola não chegou ao meio-campo", "the ball did not reach the midline")
                   if d.get("reason") == "midline"
                   else L("a bola não saiu da grande área", "the ball did not leave the big area"))
            return L(f"Cobrança falhou: {why}", f"Restart failed: {why}")
        case "draw_choice":
            choice = d.get("choice")
            what = {"ball": ("fica com a bola", "takes the ball"),
                    "cede": ("cede a bola", "gives up the ball"),
                    "field": ("escolhe o campo", "chooses the field")}.get(
                        choice, ("escolheu", "chose"))
            winner = t(d.get("winner")) if d.get("winner") in ("A", "B") else ""
            return L(f"Sorteio: {winner} {what[0]}".replace("  ", " "),
                     f"Draw: {winner} {what[1]}".replace("  ", " "))
        case "midline_deflection":
            return L("Gol anulado: desvio num botão sobre a linha divisória",
                     "Goal disallowed: deflected off a disc on the midline")
        case "cera":
            return L(f"Cera (retardar o jogo): {t(d.get('side'))}{with_disc}",
                     f"Time-wasting: {t(d.get('side'))}{with_disc}")
        case "lost":
            if d.get("kind"):
                what = LOST_NAMES.get(d["kind"], (d["kind"], d["kind"]))
                return L(f"Mesa reiniciada: {_num(d.get('count'))} evento(s) de {what[0]} "
                         "perdido(s) sem confirmação",
                         f"Table restarted: {_num(d.get('count'))} {what[1]} event(s) lost "
                         "unconfirmed")
            if d.get("reserved_seq"):
                return L("Mesa reiniciada: eventos feitos nos últimos instantes da "
                         f"inicialização anterior, depois do nº {_num(d.get('made_seq'))}, "
                         f"podem ter se perdido (no máximo até o nº {_num(d.get('reserved_seq'))})",
                         "Table restarted: events made in the previous boot's last moments, "
                         f"after no. {_num(d.get('made_seq'))}, may be lost (at most up to no. "
                         f"{_num(d.get('reserved_seq'))})")
            return L(f"Mesa reiniciada: eventos nº {_num(d.get('first_seq'))}–"
                     f"{_num(d.get('last_seq'))} da inicialização anterior perdidos",
                     f"Table restarted: events {_num(d.get('first_seq'))}–"
                     f"{_num(d.get('last_seq'))} of the previous boot lost")
        case "shootout_kick":
            res = ""
            if "scored" in d:
                res = ": " + _yes(d["scored"], ("gol", "perdido"), ("goal", "missed"), lang)
            return L(f"Pênalti da disputa: {t(d.get('side'))}{with_disc}{res}",
                     f"Shootout penalty: {t(d.get('side'))}{with_disc}{res}")
        case "keeper_choice":
            choice = d.get("choice")
            shown = f": {word('choice', choice, lang)}" if choice else ""
            return L(f"Escolha do goleiro de {t(d.get('side'))}{shown}",
                     f"{t(d.get('side'))} goalkeeper's choice{shown}")
        case "shootout_result":
            return L("Resultado do pênalti: "
                     + _yes(d.get("scored"), ("gol", "perdido"), ("goal", "missed"), "pt"),
                     "Penalty result: "
                     + _yes(d.get("scored"), ("gol", "perdido"), ("goal", "missed"), "en"))
        case "confirm":
            asked = (targets or {}).get(d.get("target"))  # type: ignore[arg-type]
            about = (L(f"sobre o registro nº {_num(d.get('target'))}",
                       f"on entry no. {_num(d.get('target'))}")
                     + (f" ({target_text(asked, teams, lang)})" if asked else ""))
            if "choice" in d:
                answer = word("choice", d.get("choice"), lang)
                if d.get("choice") in ("A", "B"):
                    answer = t(d.get("choice"))
            else:
                answer = _yes(d.get("accept"), ("aceita", "recusada"), ("accepted", "refused"),
                              lang)
            return L(f"Árbitro decide {about}: {answer}", f"Referee decides {about}: {answer}")
        case "void":
            target = (targets or {}).get(d.get("target"))  # type: ignore[arg-type]
            what = f" ({target_text(target, teams, lang)})" if target else ""
            why = f" — {L('motivo', 'reason')}: {d['reason']}" if d.get("reason") else ""
            return L(f"Anula o registro nº {_num(d.get('target'))}{what}{why}",
                     f"Voids entry no. {_num(d.get('target'))}{what}{why}")
        case "amend":
            target = (targets or {}).get(d.get("target"))  # type: ignore[arg-type]
            new_kind = d.get("kind") or (target or {}).get("kind") or ""
            new = sentence(str(new_kind), d.get("data"), teams, lang) if new_kind else ""
            why = f" — {L('motivo', 'reason')}: {d['reason']}" if d.get("reason") else ""
            return L(f"Corrige o registro nº {_num(d.get('target'))}: passa a ser «{new}»{why}",
                     f"Amends entry no. {_num(d.get('target'))}: now “{new}”{why}")
        # -- referee inputs for what the table cannot see (rules/situations.py) --------------
        case "taker":
            who = (L("o goleiro", "the goalkeeper") if d.get("goalkeeper")
                   else f"{L('o botão', 'disc')} {_num(d.get('disc'))}")
            return L(f"Cobrador escolhido: {who}", f"Taker chosen: {who}")
        case "waive":
            return L("Cobrança dispensada pelo técnico favorecido: lance normal",
                     "Restart waived by the favoured player: a normal lance")
        case "keeper_foul":
            return L(f"Falta de {t(d.get('side'))} no goleiro",
                     f"Foul by {t(d.get('side'))} on the goalkeeper")
        case "restart_side":
            flank = d.get("flank")
            return L("Cobrança pelo lado " + ("esquerdo" if flank == "left" else "direito"),
                     "Restart taken from the " + ("left" if flank == "left" else "right"))
        case "ball_on_arc":
            n = int(d.get("end", 0) or 0) + 1
            return L(f"Bola parada sobre o quarto de círculo (linha de fundo {n})",
                     f"Ball resting on the corner arc (goal line {n})")
        case "discs_moved":
            return L(f"{t(d.get('side'))} moveu botões antes do tiro de meta",
                     f"{t(d.get('side'))} moved discs before the goal kick")
        case "keeper_kick_hit":
            return L("O chutão do goleiro acertou um botão adversário",
                     "The goalkeeper's kick hit an opponent's disc")
        case "signature":
            signer = {"referee": L("pelo árbitro", "by the referee"),
                   "captain_A": L(f"pelo capitão de {t('A')}", f"by {t('A')}'s captain"),
                   "captain_B": L(f"pelo capitão de {t('B')}", f"by {t('B')}'s captain")}
            by = signer.get(str(d.get("role")), "")
            return L(f"Súmula assinada {by}: {d.get('name', '')}",
                     f"Report signed {by}: {d.get('name', '')}")
        case "reopen":
            why = f" — {L('motivo', 'reason')}: {d['reason']}" if d.get("reason") else ""
            return L(f"Partida reaberta; as assinaturas anteriores deixam de valer{why}",
                     f"Match reopened; the earlier signatures are no longer valid{why}")
        case "new_match":
            return L("Nova partida", "New match")
        case "goal":
            return L(f"Gol de {t(d.get('side'))}{with_disc}",
                     f"Goal for {t(d.get('side'))}{with_disc}")
        case "start":
            return L("Início da partida", "Match started")
    label = kind.replace("_", " ")
    return L(f"Registro «{label}»", f"Entry “{label}”")


def target_text(entry: dict[str, Any], teams: Teams, lang: str = "pt") -> str:
    return sentence(str(entry.get("kind", "")), entry.get("data"), teams, lang,
                    period=entry.get("period"), ends=entry.get("ends"))


# ---- origins, statuses, endings -------------------------------------------------------
def origin(source: Any, author: Any, lang: str = "pt") -> str:
    """Who made an entry, as a person says it (never ``device``/``referee``)."""
    who = str(author or "")
    if source == "device":
        return "Mesa" if lang == "pt" else "Table"
    if source == "system":
        return "Sistema" if lang == "pt" else "System"
    pt = lang == "pt"
    if who.startswith("demo"):
        return "Árbitro (demonstração)" if pt else "Referee (demo)"
    if who in ("desk", "venue", "venue-desk", "organiser", "organizer"):
        return "Organização" if pt else "Organisers"
    # a person's name stays; a machine-made id ("console-2", "scripted_referee") does not
    if who and who not in ("referee", "árbitro") and not re.fullmatch(r"[a-z0-9]+[-_][\w-]+",
                                                                       who):
        return who
    return "Árbitro" if pt else "Referee"


def status_text(status: dict[str, Any] | None, lang: str = "pt") -> str:
    """An entry's status: "" when it counts as logged, else voided / amended / without effect."""
    if not status:
        return ""
    state = status.get("state")
    by = status.get("by")
    ref = (f" nº {by}" if lang == "pt" else f" no. {by}") if by is not None else ""
    who = f" ({status['author']})" if status.get("author") else ""
    if state == "voided":
        return (f"Anulado pelo registro{ref}{who}" if lang == "pt"
                else f"Voided by entry{ref}{who}")
    if state == "amended":
        return (f"Corrigido pelo registro{ref}{who}" if lang == "pt"
                else f"Amended by entry{ref}{who}")
    if state == "without_effect":
        return (f"Sem efeito: substituída pelo registro{ref}" if lang == "pt" and by is not None
                else "Sem efeito" if lang == "pt"
                else f"No effect: replaced by entry{ref}" if by is not None else "No effect")
    return ""


# ---- the correction form ------------------------------------------------------------------
_FIELD_LABELS: dict[str, tuple[str, str]] = {
    "side": ("Equipe", "Team"), "disc": ("Botão", "Disc"), "out": ("Sai o botão", "Disc off"),
    "in": ("Entra o botão", "Disc on"), "goal": ("Linha de gol", "Goal line"),
    "type": ("Tipo", "Kind"), "where": ("Onde", "Where"), "kind": ("Reinício", "Restart"),
    "outcome": ("Resultado", "Outcome"), "scored": ("Gol", "Goal"), "hit": ("Tocou a bola", "Hit"),
    "ms": ("Tempo (ms)", "Time (ms)"), "pos": ("Palheta", "Palheta"), "ball": ("Bola", "Ball"),
    "choice": ("Escolha", "Choice"), "direct": ("Direto", "Direct"),
}
_FIELD_CHOICES: dict[str, str] = {"type": "foul", "where": "where", "kind": "restart",
                                  "outcome": "outcome", "ball": "ball"}
_HIDDEN_FIELDS = {"held_ms", "teams", "target", "data", "reason"}


def amend_fields(kind: str, data: Any, teams: Teams, lang: str = "pt") -> list[dict[str, Any]]:
    """The fields of the console's correction form for one entry: label, input type, value, options.

    The referee picks values; the console builds ``amend {target, data}`` from them, so nobody
    ever types JSON.
    """
    d: dict[str, Any] = data if isinstance(data, dict) else {}
    pt = lang != "en"
    out: list[dict[str, Any]] = []
    for key, value in d.items():
        if key in _HIDDEN_FIELDS:
            continue
        label = _FIELD_LABELS.get(key, (key.replace("_", " "),) * 2)[0 if pt else 1]
        field: dict[str, Any] = {"key": key, "label": label, "value": value}
        owners = {n: goal_owner(n, None) for n in (0, 1)}
        if key in ("side",) or (key == "pos" and value in ("A", "B", "C")):
            field["type"] = "choice"
            field["options"] = [{"value": s, "label": team(teams, s, lang)} for s in ("A", "B")]
            if key == "pos":
                field["options"].append({"value": "C", "label": "centro" if pt else "centre"})
        elif key == "goal":
            field["type"] = "choice"
            field["options"] = [{"value": n, "label": (f"gol de {team(teams, owners[n], lang)}"
                                                        if pt else
                                                        f"{team(teams, owners[n], lang)}'s goal")}
                                for n in (0, 1)]
        elif kind == "discipline" and key == "type":
            field["type"] = "choice"
            field["options"] = [{"value": v, "label": p if pt else e}
                                for v, (p, e) in _WORDS["discipline"].items()]
        elif key in _FIELD_CHOICES:
            group = _WORDS[_FIELD_CHOICES[key]]
            field["type"] = "choice"
            field["options"] = [{"value": v, "label": p if pt else e}
                                for v, (p, e) in group.items()]
            if value is not None and str(value) not in group:
                field["options"].insert(0, {"value": value, "label": str(value)})
        elif isinstance(value, bool):
            field["type"] = "bool"
        elif isinstance(value, int | float):
            field["type"] = "number"
        else:
            field["type"] = "text"
        out.append(field)
    return out
