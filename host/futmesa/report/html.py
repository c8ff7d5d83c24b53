"""The súmula as a printable HTML page, from the Jinja2 template ``templates/sumula.html``."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from futmesa.matchbook.sumula import Sumula
from futmesa.report.proof_block import qr_svg

TEMPLATES = Path(__file__).parent / "templates"
ENV = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                  trim_blocks=True, lstrip_blocks=True)
ENV.globals["qr_svg"] = qr_svg  # the proof block's QR code (templates/proof.html)


def signatures(s: Sumula) -> list[str]:
    if s.lang == "pt":
        return [f"Árbitro: {s.referee}", f"Técnico — {s.teams['A']}", f"Técnico — {s.teams['B']}"]
    return [f"Referee: {s.referee}", f"Coach — {s.teams['A']}", f"Coach — {s.teams['B']}"]


def render(s: Sumula, *, links: bool = True) -> str:
    """The page; user text (team names, referee) is escaped by the template, never markup."""
    return ENV.get_template("sumula.html").render(s=s, links=links, signatures=signatures(s))
