"""The browser pages' own markup in the asked language (issue 23): ``?lang=en`` or an English
browser gets English words, a Brazilian one (or none) Portuguese, and ``<html lang>`` tells the
page's script which catalog to speak."""

from __future__ import annotations

import html
import re

import httpx
import pytest

from futmesa_testkit.liveserver import LiveServer

# no page follows its phone's language: the table's pages (console, goalkeeper, signing) speak
# as the TV does, ?lang= or the host's (issue 45 walk: /assinar read English on an English phone
# beside a Portuguese console); a TV's kiosk browser is often left in English too
PAGES = ("/", "/console", "/console/expert", "/console/keeper", "/assinar")
ROOM = set(PAGES)
# Portuguese words that never occur in English (a mirror of test_cli_sweep.py's English ones)
PORTUGUESE = {"de", "da", "do", "das", "dos", "para", "com", "sem", "não", "uma", "que", "na",
              "ou", "equipe", "mesa", "partida", "falta", "toque", "botão", "chute", "relógio",
              "gol", "árbitro", "goleiro", "súmula", "placar", "escolha", "assinar", "assine",
              "nome", "resumo", "ações", "dados", "enviar", "pronto", "esquerda", "direita",
              "meio", "quem", "quadro", "apagar", "reabrir", "motivo", "fechar", "escolhe"}
# (a ruleset's title is the name of its document: the console lists the registry's titles)
NAMES = re.compile(r"Regra Gaúcha|A mesa está posta|Pastilha 8x2[^<\n]*|CBFM — Regra 1 Toque"
                   r"|CBFM|Português|futmesa"
                   r"|docs/\S+")


def markup_words(page: str) -> str:
    """What a person reads in a page's markup: its text and labels, not its code."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    labels = re.findall(r'(?:aria-label|placeholder|title)="([^"]*)"', page)
    return html.unescape(" ".join([re.sub(r"<[^>]+>", " ", page), *labels]))


def portuguese(text: str) -> list[str]:
    words = re.findall(r"[A-Za-zÀ-ú]+", NAMES.sub(" ", text))
    return sorted({w for w in words if w.lower() in PORTUGUESE})


def test_the_detector_finds_portuguese() -> None:
    assert portuguese(markup_words("<p>Escolha secreta do goleiro</p>"))
    assert not portuguese(markup_words("<p>Goalkeeper's secret choice</p><script>'de'</script>"))


@pytest.mark.parametrize("path", PAGES)
def test_a_page_speaks_the_asked_language(live: LiveServer, path: str) -> None:
    sep = "&" if "?" in path else "?"
    english = httpx.get(f"{live.url}{path}{sep}lang=en")
    browser = httpx.get(live.url + path, headers={"Accept-Language": "en-GB,en;q=0.8"})
    default = httpx.get(live.url + path)
    brazil = httpx.get(live.url + path, headers={"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"})
    for answer in (english, browser, default, brazil):
        assert answer.status_code == 200, (path, answer.text[:200])
        assert "{{" not in answer.text and "{%" not in answer.text, path  # rendered
    english_ones, portuguese_ones = (english, browser), (default, brazil)
    if path in ROOM:
        english_ones, portuguese_ones = (english,), (default, brazil, browser)
    for answer in english_ones:
        assert '<html lang="en"' in answer.text, path
        assert not portuguese(markup_words(answer.text)), (path, portuguese(
            markup_words(answer.text)))
    for answer in portuguese_ones:
        assert '<html lang="pt-BR"' in answer.text, path
        assert portuguese(markup_words(answer.text)), path  # the same page, in Portuguese
