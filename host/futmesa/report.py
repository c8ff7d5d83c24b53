"""The súmula (official match report, 003 Art. 25) from a stored match record.

A record, as the store's ``HistoryProvider.match_record`` returns it::

    {"match": {id, table_id, ruleset, teams, referee, created_at, ended_at, settings},
     "entries": [{id, kind, data, source, period, clock_ms, created_at, author,
                  voided, amended_by}],
     "state": <final match state, as in docs/architecture.md "Match state JSON">}

Renders it as HTML (:func:`render_html`), PDF with ReportLab (:func:`render_pdf`),
CSV of the event log (:func:`render_csv`) and JSON (:func:`render_json`). Every
text that came from a user (team names, referee) is escaped, never markup.
"""

from __future__ import annotations

import csv
import html
import io
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

Record = dict[str, Any]

KIND_LABELS: dict[str, str] = {
    "goal_line": "Bola na linha de gol",
    "goal": "Gol",
    "shot_asked": "Chute pedido",
    "foul": "Falta",
    "discipline": "Disciplina",
    "expel": "Expulsão",
    "expulsion": "Expulsão",
    "substitution": "Substituição",
    "restart": "Reinício",
    "touch": "Toque",
    "ball_out": "Bola fora",
    "palheta": "Palheta",
    "clock_started": "Relógio iniciado",
    "clock_stopped": "Relógio parado",
    "period_over": "Fim do período",
    "alarm": "Alarme",
    "lance_expired": "Tempo do lance esgotado",
    "button": "Botão",
    "sensor_fault": "Falha de sensor",
    "gap": "Lacuna de eventos",
    "void": "Anulação",
    "amend": "Correção",
    "confirm": "Confirmação",
    "set_up": "Configuração",
    "start": "Início",
    "pause": "Pausa",
    "resume": "Reinício do relógio",
    "added_time": "Acréscimo",
    "shootout_kick": "Pênalti (disputa)",
    "keeper_choice": "Escolha do goleiro",
    "shootout_result": "Resultado do pênalti",
    "shot_result": "Chute sem gol",
    "start_period": "Início do período",
    "period_started": "Período iniciado",
    "kickoff": "Saída de jogo",
    "ends": "Lados",
    "last_touch": "Último toque",
    "lance_done": "Último lance terminado",
    "lance_started": "Lance iniciado",
    "offside": "Impedimento",
    "time_up": "Tempo esgotado",
    "boot": "Mesa ligada",
    "match_over": "Fim da partida",
    "new_match": "Nova partida",
}
GOAL_KINDS = ("goal",)
DISCIPLINE_KINDS = ("discipline", "expel", "expulsion", "card")
SUBSTITUTION_KINDS = ("substitution", "sub")
FOUL_KINDS = ("foul",)


SECRET_KINDS = ("keeper_choice",)  # 004: the goalkeeper's pick is secret until the kick


def redact_secrets(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Entries with the goalkeeper's secret choice hidden, for anything shown during a match.

    The engine keeps the choice private until the kick is recorded and then reveals it in
    ``state.match.shootout.kicks``; the raw log must not give it away before that.
    """
    out = []
    for e in entries:
        if e.get("kind") in SECRET_KINDS and isinstance(e.get("data"), dict):
            e = {**e, "data": {k: ("secreta" if k == "choice" else v)
                               for k, v in e["data"].items()}}
        out.append(e)
    return out


def public_record(record: Record) -> Record:
    """The record as the world may see it now: secrets hidden until the match is over."""
    if (record.get("state") or {}).get("finished"):
        return record
    return {**record, "entries": redact_secrets(list(record.get("entries", [])))}


# ---- reading the record ---------------------------------------------------------------
def _teams(record: Record) -> dict[str, dict[str, Any]]:
    teams = (record.get("state") or {}).get("teams") or record.get("match", {}).get("teams") or {}
    return {side: dict(teams.get(side) or {}) for side in ("A", "B")}


def team_name(record: Record, side: Any) -> str:
    team = _teams(record).get(str(side)) or {}
    return str(team.get("name") or side or "")


def final_score(record: Record) -> dict[str, int]:
    score = (record.get("state") or {}).get("score") or {}
    return {"A": int(score.get("A", 0) or 0), "B": int(score.get("B", 0) or 0)}


def minute(clock_ms: Any) -> str:
    """Match minute as a referee writes it: 0:00–0:59 is the 1st minute."""
    if not isinstance(clock_ms, int | float):
        return ""
    return f"{int(clock_ms) // 60000 + 1}'"


def clock_text(clock_ms: Any) -> str:
    if not isinstance(clock_ms, int | float):
        return ""
    total = int(clock_ms) // 1000
    return f"{total // 60:02d}:{total % 60:02d}"


def when(unix_ms: Any) -> str:
    if not isinstance(unix_ms, int | float) or unix_ms <= 0:
        return str(unix_ms or "")
    # Unix seconds or milliseconds: anything before 2001 in ms is taken as seconds.
    seconds = unix_ms / 1000 if unix_ms > 1e11 else unix_ms
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")


def period_text(period: Any) -> str:
    return f"{period}º T" if period else ""


def describe(record: Record, entry: dict[str, Any]) -> str:
    """One line for an entry, in Portuguese, naming teams rather than sides."""
    kind = str(entry.get("kind", ""))
    data = entry.get("data") or {}
    label = KIND_LABELS.get(kind, kind)
    parts: list[str] = []
    if not isinstance(data, dict):
        return f"{label} {data}"
    if "side" in data:
        parts.append(team_name(record, data["side"]))
    if data.get("disc") is not None:
        parts.append(f"botão {data['disc']}")
    if kind in SUBSTITUTION_KINDS:
        parts.append(f"sai {data.get('out', '?')}, entra {data.get('in', '?')}")
    if kind in ("void", "amend", "confirm") and data.get("target") is not None:
        parts.append(f"entrada #{data['target']}")
    if kind == "confirm" and "accept" in data:
        parts.append("aceita" if data["accept"] else "rejeitada")
    if kind == "added_time" and data.get("ms") is not None:
        parts.append(f"+{int(data['ms']) // 60000} min")
    shown = {"side", "disc", "out", "in", "target", "accept", "ms"}
    extra = {k: v for k, v in data.items() if k not in shown}
    if kind == "amend" and isinstance(extra.get("data"), dict):
        extra = extra["data"]
    parts.extend(f"{k}={_plain(v)}" for k, v in extra.items())
    return f"{label}" + (f" — {', '.join(parts)}" if parts else "")


def _plain(value: Any) -> str:
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def _live_entries(record: Record, kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    return [e for e in record.get("entries", []) if e.get("kind") in kinds and not e.get("voided")]


def goals(record: Record) -> list[dict[str, Any]]:
    """Goals as the ruleset counted them (``state.match.goals``), else the referee's entries."""
    counted = ((record.get("state") or {}).get("match") or {}).get("goals")
    if isinstance(counted, list):
        return [g for g in counted if isinstance(g, dict)]
    out = []
    for e in _live_entries(record, GOAL_KINDS):
        data = e.get("data") or {}
        out.append({**data, "period": e.get("period"), "clock_ms": e.get("clock_ms"),
                    "entry": e.get("id")})
    return out


def shootout_rows(record: Record) -> list[tuple[str, str, int]]:
    """(team, marks, total) per side, from ``state.match.shootout``; [] when none was taken."""
    so = ((record.get("state") or {}).get("match") or {}).get("shootout")
    if not isinstance(so, dict):
        return []
    rows = []
    for side in ("A", "B"):
        kicks: list[Any] = []
        if isinstance(so.get(side), list):
            kicks = so[side]
        elif isinstance(so.get("kicks"), list):
            kicks = [k for k in so["kicks"] if isinstance(k, dict) and k.get("side") == side]
        scored = [_scored(k) for k in kicks]
        total = (so.get("tally") or so.get("score") or {}).get(side, sum(scored))
        rows.append((team_name(record, side), " ".join("G" if s else "X" for s in scored),
                     int(total)))
    if not any(marks for _, marks, _ in rows):
        return []
    return rows


def _scored(kick: Any) -> bool:
    if isinstance(kick, dict):
        for key in ("scored", "goal"):
            if key in kick:
                return bool(kick[key])
        return kick.get("result") in ("goal", True)
    return kick in (True, 1, "goal")


def summary(record: Record) -> dict[str, Any]:
    """Everything the súmula header shows, as plain strings."""
    match = record.get("match") or {}
    state = record.get("state") or {}
    score = final_score(record)
    settings = match.get("settings") or {}
    return {
        "id": match.get("id", state.get("match_id")),
        "competition": _competition(settings),
        "table": str(match.get("table_id") or state.get("table_id") or ""),
        "ruleset": str(match.get("ruleset") or state.get("ruleset") or ""),
        "referee": str(match.get("referee") or ""),
        "started": when(match.get("created_at")),
        "ended": when(match.get("ended_at")),
        "A": team_name(record, "A"),
        "B": team_name(record, "B"),
        "score": score,
        "result": f"{team_name(record, 'A')} {score['A']} × {score['B']} {team_name(record, 'B')}",
        "finished": bool(state.get("finished")),
    }


def _competition(settings: Any) -> str:
    """Event name and format from the match settings (``event``, ``competition``)."""
    if not isinstance(settings, dict):
        return ""
    formats = {"knockout": "mata-mata", "league": "pontos corridos"}
    parts = [str(settings.get("event") or ""),
             formats.get(str(settings.get("competition")), str(settings.get("competition") or ""))]
    return " — ".join(p for p in parts if p)


def log_rows(record: Record) -> list[dict[str, Any]]:
    """The event log, in the order stored, one plain dict per entry."""
    rows = []
    for e in record.get("entries", []):
        rows.append({
            "id": e.get("id"),
            "period": e.get("period"),
            "minute": minute(e.get("clock_ms")),
            "clock": clock_text(e.get("clock_ms")),
            "kind": e.get("kind"),
            "description": describe(record, e),
            "source": e.get("source"),
            "author": e.get("author") or "",
            "created_at": e.get("created_at"),
            "voided": bool(e.get("voided")),
            "amended_by": e.get("amended_by"),
            "data": json.dumps(e.get("data") or {}, ensure_ascii=False, sort_keys=True),
        })
    return rows


def _sections(record: Record) -> dict[str, list[list[str]]]:
    """The tables of the súmula, as rows of plain text, shared by HTML and PDF."""
    goal_rows = [
        [period_text(g.get("period")), minute(g.get("clock_ms")), team_name(record, g.get("side")),
         str(g.get("disc", "")) if g.get("disc") is not None else "",
         "gol contra" if g.get("own_goal") else ""]
        for g in goals(record)
    ]
    disc_rows = [
        [period_text(e.get("period")), minute(e.get("clock_ms")), describe(record, e)]
        for e in _live_entries(record, DISCIPLINE_KINDS + FOUL_KINDS)
    ]
    expelled = ((record.get("state") or {}).get("match") or {}).get("expelled")
    if isinstance(expelled, dict):
        for side in ("A", "B"):
            discs = expelled.get(side)
            if discs:
                shown = ", ".join(map(str, discs)) if isinstance(discs, list) else str(discs)
                disc_rows.append(["", "", f"Expulsos — {team_name(record, side)}: {shown}"])
    sub_rows = [
        [period_text(e.get("period")), minute(e.get("clock_ms")), describe(record, e)]
        for e in _live_entries(record, SUBSTITUTION_KINDS)
    ]
    by_id = {e.get("id"): e for e in record.get("entries", [])}
    correction_rows = []
    for e in record.get("entries", []):
        if e.get("kind") not in ("void", "amend"):
            continue
        data = e.get("data") or {}
        target = by_id.get(data.get("target")) or {}
        what = "anulação" if e.get("kind") == "void" else "correção"
        new = _plain(data.get("data")) if e.get("kind") == "amend" else ""
        target_kind = str(target.get("kind") or "")
        correction_rows.append([
            str(e.get("id")), what + (" (anulada)" if e.get("voided") else ""),
            f"#{data.get('target')} {KIND_LABELS.get(target_kind, target_kind)}",
            new, str(e.get("author") or ""), str(data.get("reason") or ""),
        ])
    log = [
        [str(r["id"]), period_text(r["period"]), r["clock"], r["description"],
         str(r["source"] or ""),
         ("ANULADA" if r["voided"] else "") + (f" corrigida por #{r['amended_by']}"
                                              if r["amended_by"] else "")]
        for r in log_rows(record)
    ]
    return {"goals": goal_rows, "discipline": disc_rows, "substitutions": sub_rows,
            "corrections": correction_rows, "log": log}


# ---- HTML --------------------------------------------------------------------------
_CSS = """
body{font-family:"DejaVu Sans",Arial,sans-serif;margin:2em;color:#111}
h1{margin:0 0 .2em}table{border-collapse:collapse;width:100%;margin:.5em 0 1.2em}
td,th{border:1px solid #999;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#eee}.result{font-size:2em;font-weight:bold;margin:.4em 0}
.voided td{text-decoration:line-through;color:#777}.meta td:first-child{width:12em;font-weight:bold}
.exports a{margin-right:1em}.sign{margin-top:3em;display:flex;gap:3em}
.sign div{border-top:1px solid #000;padding-top:.3em;flex:1}
@media print{.exports{display:none}}
@media (max-width:600px){body{margin:.8em}table{display:block;overflow-x:auto}
.meta td:first-child{width:auto}.sign{flex-direction:column;gap:2em}.result{font-size:1.5em}}
"""
VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'  # phones


def _table(head: list[str], rows: list[list[str]], row_class: list[str] | None = None) -> str:
    e = html.escape
    out = ["<table><thead><tr>", *(f"<th>{e(h)}</th>" for h in head), "</tr></thead><tbody>"]
    if not rows:
        out.append(f'<tr><td colspan="{len(head)}">—</td></tr>')
    for i, row in enumerate(rows):
        cls = f' class="{row_class[i]}"' if row_class and row_class[i] else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{e(str(c))}</td>" for c in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def render_html(record: Record) -> str:
    """The súmula as a self-contained HTML page (printable)."""
    e = html.escape
    s = summary(record)
    sec = _sections(record)
    mid = s["id"]
    meta = [
        ["Partida", str(mid)], ["Competição", s["competition"]], ["Mesa", s["table"]],
        ["Regra", s["ruleset"]], ["Árbitro", s["referee"]], ["Início", s["started"]],
        ["Fim", s["ended"]],
    ]
    meta_html = "<table class='meta'>" + "".join(
        f"<tr><td>{e(k)}</td><td>{e(v)}</td></tr>" for k, v in meta) + "</table>"
    so = shootout_rows(record)
    so_html = (
        "<h2>Disputa de pênaltis</h2>"
        + _table(["Equipe", "Cobranças (G = gol, X = perdido)", "Total"],
                 [[n, m, str(t)] for n, m, t in so])
        if so else ""
    )
    voided = ["voided" if r["voided"] else "" for r in log_rows(record)]
    links = (
        f'<p class="exports"><a href="/report/{e(str(mid))}.pdf">PDF</a>'
        f'<a href="/report/{e(str(mid))}.csv">CSV</a>'
        f'<a href="/report/{e(str(mid))}.json">JSON</a><a href="/history">Partidas</a></p>'
    )
    return "".join([
        f'<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">{VIEWPORT}',
        f"<title>Súmula {e(str(mid))} — {e(s['A'])} × {e(s['B'])}</title>",
        f"<style>{_CSS}</style></head><body>",
        links,
        "<h1>Súmula</h1>",
        f'<div class="result" id="result">{e(s["result"])}</div>',
        "" if s["finished"] else "<p><strong>Partida não encerrada.</strong></p>",
        meta_html,
        "<h2>Gols</h2>", _table(["Período", "Minuto", "Equipe", "Botão", ""], sec["goals"]),
        so_html,
        "<h2>Faltas e disciplina</h2>", _table(["Período", "Minuto", "Ocorrência"],
                                               sec["discipline"]),
        "<h2>Substituições</h2>", _table(["Período", "Minuto", "Ocorrência"],
                                         sec["substitutions"]),
        "<h2>Correções</h2>",
        _table(["#", "Tipo", "Entrada", "Novos dados", "Autor", "Motivo"], sec["corrections"]),
        "<h2>Registro de eventos</h2>",
        _table(["#", "Período", "Relógio", "Evento", "Origem", "Situação"], sec["log"], voided),
        f'<div class="sign"><div>Árbitro: {e(s["referee"])}</div>'
        f'<div>Técnico {e(s["A"])}</div><div>Técnico {e(s["B"])}</div></div>',
        "</body></html>",
    ])


def render_history_html(matches: list[dict[str, Any]]) -> str:
    """The list of stored matches, each linking to its súmula."""
    e = html.escape
    rows = []
    for m in matches:
        mid = m.get("id")
        teams = m.get("teams") or {}
        names = " × ".join(
            str((teams.get(s) or {}).get("name", s)) if isinstance(teams.get(s), dict)
            else str(teams.get(s, s)) for s in ("A", "B"))
        score = m.get("score")
        score_text = (f"{score.get('A', '')} × {score.get('B', '')}"
                      if isinstance(score, dict) else "")
        rows.append(
            f'<tr><td><a href="/report/{e(str(mid))}">{e(str(mid))}</a></td>'
            f"<td>{e(when(m.get('created_at')))}</td><td>{e(str(m.get('table_id', '')))}</td>"
            f"<td>{e(names)}</td><td>{e(score_text)}</td><td>{e(str(m.get('ruleset', '')))}</td>"
            f'<td><a href="/report/{e(str(mid))}.pdf">PDF</a> '
            f'<a href="/report/{e(str(mid))}.csv">CSV</a> '
            f'<a href="/report/{e(str(mid))}.json">JSON</a></td></tr>'
        )
    body = "".join(rows) or '<tr><td colspan="7">Nenhuma partida registrada.</td></tr>'
    return (
        f'<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">{VIEWPORT}'
        "<title>Partidas</title>"
        f"<style>{_CSS}</style></head><body><h1>Partidas</h1><table><thead><tr><th>#</th>"
        "<th>Data</th><th>Mesa</th><th>Equipes</th><th>Placar</th><th>Regra</th><th>Súmula</th>"
        f"</tr></thead><tbody>{body}</tbody></table></body></html>"
    )


# ---- CSV / JSON --------------------------------------------------------------------
CSV_FIELDS = ["id", "period", "minute", "clock", "kind", "description", "source", "author",
              "created_at", "voided", "amended_by", "data"]


def render_csv(record: Record) -> str:
    """The event log as CSV, one row per entry (voided entries stay, flagged)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in log_rows(record):
        writer.writerow(row)
    return out.getvalue()


def render_json(record: Record) -> str:
    """The whole record plus the computed summary, as pretty UTF-8 JSON."""
    return json.dumps({"summary": summary(record), **record}, ensure_ascii=False, indent=2,
                      default=str)


# ---- PDF ---------------------------------------------------------------------------
def _fonts() -> tuple[str, str]:
    """Vera ships inside ReportLab, so accents render the same on every machine."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    try:
        pdfmetrics.getFont("FutmesaSans")
    except KeyError:
        pdfmetrics.registerFont(TTFont("FutmesaSans", "Vera.ttf"))
        pdfmetrics.registerFont(TTFont("FutmesaSans-Bold", "VeraBd.ttf"))
    return "FutmesaSans", "FutmesaSans-Bold"


def pdf_bytes(record: Record, *, head_only: bool = False) -> bytes:
    """The súmula as an A4 PDF; ``head_only`` stops after the title and result line."""
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

    regular, bold = _fonts()
    base = ParagraphStyle("base", fontName=regular, fontSize=9, leading=11)
    h1 = ParagraphStyle("h1", parent=base, fontName=bold, fontSize=18, leading=22)
    h2 = ParagraphStyle("h2", parent=base, fontName=bold, fontSize=12, leading=15,
                        spaceBefore=8, spaceAfter=3)
    big = ParagraphStyle("big", parent=base, fontName=bold, fontSize=16, leading=20)

    def p(text: Any, style: ParagraphStyle = base) -> Paragraph:
        return Paragraph(html.escape(str(text)), style)  # user text is never markup

    def table(head: list[str], rows: list[list[str]], widths: list[float],
              voided: list[bool] | None = None) -> Table:
        data = [[p(h, ParagraphStyle("th", parent=base, fontName=bold)) for h in head]]
        data += [[p(c) for c in row] for row in rows] or [[p("—")] + [""] * (len(head) - 1)]
        t = Table(data, colWidths=[w * mm for w in widths], repeatRows=1)
        style = [
            ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]
        for i, v in enumerate(voided or []):
            if v:
                style.append(("BACKGROUND", (0, i + 1), (-1, i + 1), colors.HexColor("#f3dede")))
        t.setStyle(TableStyle(style))
        return t

    s = summary(record)
    sec = _sections(record)
    story: list[Any] = [
        p(f"Súmula — partida {s['id']}", h1),
        p(s["result"], big),
        Spacer(1, 3 * mm),
    ]
    if head_only:
        return _build(story, s)
    if not s["finished"]:
        story.append(p("Partida não encerrada.", h2))
    meta = [["Competição", s["competition"]], ["Mesa", s["table"]], ["Regra", s["ruleset"]],
            ["Árbitro", s["referee"]], ["Início", s["started"]], ["Fim", s["ended"]]]
    story.append(table(["Campo", "Valor"], meta, [40, 130]))
    story += [p("Gols", h2),
              table(["Período", "Minuto", "Equipe", "Botão", ""], sec["goals"],
                    [20, 18, 80, 20, 32])]
    so = shootout_rows(record)
    if so:
        story += [p("Disputa de pênaltis", h2),
                  table(["Equipe", "Cobranças (G gol, X perdido)", "Total"],
                        [[n, m, str(t)] for n, m, t in so], [70, 80, 20])]
    story += [p("Faltas e disciplina", h2),
              table(["Período", "Minuto", "Ocorrência"], sec["discipline"], [20, 18, 132]),
              p("Substituições", h2),
              table(["Período", "Minuto", "Ocorrência"], sec["substitutions"], [20, 18, 132]),
              p("Correções", h2),
              table(["#", "Tipo", "Entrada", "Novos dados", "Autor", "Motivo"],
                    sec["corrections"], [10, 25, 40, 40, 25, 30]),
              p("Registro de eventos", h2),
              table(["#", "T", "Relógio", "Evento", "Origem", "Situação"], sec["log"],
                    [10, 13, 19, 80, 18, 30], [r["voided"] for r in log_rows(record)]),
              Spacer(1, 14 * mm)]
    sign = Table([[p("Árbitro: " + s["referee"]), p("Técnico " + s["A"]), p("Técnico " + s["B"])]],
                 colWidths=[56 * mm] * 3)
    sign.setStyle(TableStyle([("LINEABOVE", (0, 0), (-1, 0), 0.6, colors.black)]))
    story.append(sign)
    return _build(story, s)


def _build(story: list[Any], s: dict[str, Any]) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.platypus import SimpleDocTemplate

    out = io.BytesIO()
    doc = SimpleDocTemplate(out, pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm,
                            topMargin=15 * mm, bottomMargin=15 * mm,
                            title=f"Súmula {s['id']}", author=s["referee"] or "futmesa")
    doc.build(story)
    return out.getvalue()


def render_pdf(record: Record, path: str | Path) -> Path:
    """Write the súmula PDF to ``path``; returns the path."""
    target = Path(path)
    target.write_bytes(pdf_bytes(record))
    return target


def export(record: Record, *, pdf: str | Path | None = None, html_path: str | Path | None = None,
           csv_path: str | Path | None = None, json_path: str | Path | None = None) -> list[Path]:
    """Write whichever formats were asked for (the ``futmesa report`` command)."""
    written = []
    if pdf is not None:
        written.append(render_pdf(record, pdf))
    for path, text in ((html_path, render_html), (csv_path, render_csv), (json_path, render_json)):
        if path is not None:
            target = Path(path)
            target.write_text(text(record), encoding="utf-8")
            written.append(target)
    return written
