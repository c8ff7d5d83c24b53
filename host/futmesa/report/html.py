"""The súmula as a printable HTML page, from the Jinja2 template ``templates/sumula.html``."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from futmesa.i18n import jinja_callables, translator
from futmesa.matchbook.sumula import Sumula
from futmesa.report.proof_block import qr_svg

TEMPLATES = Path(__file__).parent / "templates"
ENV = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                  trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.i18n"])
ENV.install_null_translations(newstyle=True)  # each render passes its language's gettext
ENV.globals["qr_svg"] = qr_svg  # the proof block's QR code (templates/proof.html)


def signatures(s: Sumula) -> list[str]:
    _ = translator(s.lang).gettext
    return [_("Referee: {name}").format(name=s.referee),
            _("Captain — {team}").format(team=s.teams["A"]),
            _("Captain — {team}").format(team=s.teams["B"])]


def render(s: Sumula, *, links: bool = True) -> str:
    """The page in the súmula's language (its words through the i18n extension); user text
    (team names, referee) is escaped by the template, never markup."""
    return ENV.get_template("sumula.html").render(s=s, links=links, signatures=signatures(s),
                                                  **jinja_callables(s.lang))
