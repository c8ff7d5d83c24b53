"""The browser pages' words come from the gettext catalogs (issue 23): served as JSON per
language and as one script ahead of common.js."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from futmesa_testkit.liveserver import LiveServer

ROOT = Path(__file__).resolve().parents[2]
PAGES = [*(ROOT / "host/futmesa/web/static").glob("*.html"),
         *(ROOT / "host/futmesa/venue/templates").glob("*.html")]


def test_the_catalog_is_served_per_language(live: LiveServer) -> None:
    pt = httpx.get(live.url + "/i18n/pt_BR.json").json()
    en = httpx.get(live.url + "/i18n/en.json").json()
    assert pt["Interval"] == "Intervalo" and pt["Half {n}"] == "{n}º tempo"
    assert en["Interval"] == "Interval"
    assert pt["Goal for {team}{disc}"] == "Gol de {team}{disc}"  # the same catalog as the súmula
    assert httpx.get(live.url + "/i18n/pt.json").json() == pt
    assert httpx.get(live.url + "/i18n/klingon.json").status_code == 404
    script = httpx.get(live.url + "/i18n/words.js")
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.text.startswith("var FM_WORDS = ") and '"Intervalo"' in script.text


def test_every_page_loads_the_words_before_common_js() -> None:
    for page in PAGES:
        html = page.read_text(encoding="utf-8")
        if "/static/common.js" not in html:
            continue
        assert re.search(r'<script src="/i18n/words.js"></script>\s*'
                         r'<script src="/static/common.js"></script>', html), page.name


def test_common_js_holds_no_dictionary_of_its_own() -> None:
    js = (ROOT / "host/futmesa/web/static/common.js").read_text(encoding="utf-8")
    assert "Intervalo" not in js and "Aguardando a mesa" not in js
    assert '_("Interval")' in js


def test_the_venue_pages_speak_the_requested_language() -> None:
    from futmesa.venue.web import render

    comp = {"name": "Copa", "standings": {"A": []}, "matches": [], "champion": "Estrela",
            "bracket": {}, "sanctions": [{"name": "X", "kind": "competition_points",
                                          "rule": "r", "match_id": None}],
            "tie_breaks": ["saldo"], "points": {"win": 3, "draw": 1, "loss": 0},
            "ruleset_title": "R", "played": 1, "total": 2, "printed_at": "hoje"}
    pages = ("board.html", "standings.html", "bracket.html", "summary.html")
    pt = {name: render(name, "pt_BR", c=comp) for name in pages}
    en = {name: render(name, "en", c=comp) for name in pages}
    assert "Classificação" in pt["standings.html"] and "Standings" in en["standings.html"]
    assert "Grupo A" in pt["standings.html"] and "Group A" in en["standings.html"]
    assert "perda dos pontos da competição" in pt["summary.html"]
    assert "Campeão: Estrela" in pt["bracket.html"] and "Champion: Estrela" in en["bracket.html"]
    assert '"aguardando in' in pt["board.html"] and '"awaiting the start"' in en["board.html"]
    for name, html in en.items():
        assert '<html lang="en">' in html, name
        assert not re.search(r"Classificação|Mesas|Partidas|Sanções|Campeão", html), name
