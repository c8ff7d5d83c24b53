"""The referee console speaks one language (issue 23): in English (``?lang=en``) its first
screen, each sheet and the shortcuts hold no Portuguese word, and in Portuguese (the default,
a Brazilian phone) no English one. A mirror of tests/i18n/test_cli_sweep.py's detector."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from futmesa_testkit.liveserver import TOKEN, LiveServer, ScriptedTable

pytestmark = pytest.mark.browser

# Portuguese words that never occur in an English sentence ("a", "no", "lateral" do)
PORTUGUESE = {"de", "da", "do", "das", "dos", "para", "com", "sem", "não", "uma", "um", "que",
              "na", "nas", "ou", "em", "equipe", "equipes", "mesa", "mesas", "partida", "falta",
              "toque", "botão", "botões", "chute", "relógio", "gol", "árbitro", "pênalti",
              "escanteio", "cobrança", "registro", "sorteio", "acréscimo", "tempo", "fechar",
              "anular", "corrigir", "vez", "pronto", "nada", "pendente", "súmula", "período",
              "jogo", "bola", "goleiro", "campo", "saída", "telões", "placar", "regra",
              "aplicar", "substituição", "disciplina", "impedimento", "iniciar", "próxima",
              "assinar", "acesso", "tela", "teclado", "quem", "cobra", "defende", "sai",
              "entra", "motivo", "enviar", "cancelar", "atalhos", "esta", "este", "pela"}
# English words that never occur in a Portuguese sentence
ENGLISH = {"the", "of", "to", "with", "for", "and", "this", "that", "shot", "foul", "touch",
           "team", "teams", "match", "clock", "log", "more", "close", "kick", "goal", "void",
           "referee", "ready", "nothing", "pending", "start", "next", "turn", "home", "away",
           "sign", "report", "access", "screen", "screens", "who", "takes", "add", "off",
           "on", "by", "chosen", "last", "penalty", "corner", "throw", "free", "draw",
           "period", "sound", "theme", "send", "cancel", "reason", "shortcuts", "delete"}
# names, not sentences: the rulesets' titles, the language buttons, the product, the keys
# (the console's rules choice lists the registry's titles: matchbook.wording.ruleset_choices)
NAMES = re.compile(r"Regra Gaúcha|Gaúcha|A mesa está posta|Pastilha 8x2[^<\n]*|CBFM — Regra 1 Toque"
                   r"|CBFM|Português|English"
                   r"|futmesa|\bEnter\b|\bEsc\b")

# what a screen says: its visible text, its options, the labels a screen reader speaks
SCREEN_TEXT = """(root) => {
  const out = [root.innerText];
  const shown = (el) => !el.closest("[hidden], dialog:not([open])");
  for (const o of root.querySelectorAll("option")) if (shown(o)) out.push(o.textContent);
  for (const el of root.querySelectorAll("*")) { // words the style sheet adds (::after)
    for (const at of ["::before", "::after"]) {
      const c = getComputedStyle(el, at).content;
      if (c && c !== "none" && c !== "normal" && shown(el)) out.push(c);
    }
  }
  for (const el of root.querySelectorAll("[aria-label], [placeholder], [title]")) {
    if (!shown(el)) continue;
    for (const a of ["aria-label", "placeholder", "title"]) out.push(el.getAttribute(a) || "");
  }
  return out.join("\\n");
}"""


def words_of(text: str, vocabulary: set[str], names: list[str]) -> list[str]:
    found = []
    for line in text.splitlines():
        for name in names:
            line = line.replace(name, " ")
        words = re.findall(r"[A-Za-zÀ-ú]+", NAMES.sub(" ", line))
        found += [f"{w!r} in {line.strip()!r}" for w in words if w.lower() in vocabulary]
    return found


def test_the_detectors_tell_the_languages_apart() -> None:
    assert words_of("Falta da equipe escolhida", PORTUGUESE, [])
    assert not words_of("Foul by the chosen team", PORTUGUESE, [])
    assert words_of("Foul by the chosen team", ENGLISH, [])
    assert not words_of("Falta da equipe escolhida", ENGLISH, [])
    assert not words_of("Regra Gaúcha", PORTUGUESE, [])  # a ruleset's title is a name


def screens(page: Any, shot: Path) -> dict[str, str]:
    """The console's first screen, each sheet and the shortcuts' help: their words (the first
    screen and the foul sheet photographed as ``shot``-….png)."""
    page.wait_for_function("document.getElementById('token-status').textContent.includes('✓')")
    page.wait_for_function("document.getElementById('c-name-A').textContent !== '—'")
    seen = {"first screen": page.title() + "\n" + page.eval_on_selector("body", SCREEN_TEXT)}
    page.screenshot(path=f"{shot}-first.png")
    sheets = page.eval_on_selector_all("[data-sheet]", "bs => bs.map((b) => b.dataset.sheet)")
    assert len(sheets) == 5
    for sheet in sheets:
        page.click(f"[data-sheet={sheet}]")
        page.wait_for_selector(f"#{sheet}:not([hidden])")
        if sheet == "sheet-log":
            page.wait_for_selector("#log li")
        seen[sheet] = page.eval_on_selector(f"#{sheet}", SCREEN_TEXT)
        if sheet == "sheet-foul":
            page.screenshot(path=f"{shot}-foul.png")
        page.click(f"#{sheet} [data-close]")
    page.keyboard.press("?")
    page.wait_for_selector("#help[open]")
    seen["help"] = page.eval_on_selector("#help", SCREEN_TEXT)
    return seen


def test_the_console_speaks_one_language(
    table_server: tuple[LiveServer, ScriptedTable], browser: Any, output_dir: Path
) -> None:
    live, _table = table_server
    state = httpx.get(live.url + "/api/state").json()
    teams = [t.get("name", "") for t in (state.get("teams") or {}).values() if t.get("name")]
    for query, vocabulary, other, locale in (
            ("lang=en&", PORTUGUESE, "Foul by the chosen team", "pt-BR"),
            ("", ENGLISH, "Falta da equipe escolhida", "pt-BR"),
            ("", ENGLISH, "Falta da equipe escolhida", "en-US")):  # an English phone: as the TV
        ctx = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True,
                                  has_touch=True, locale=locale)  # a phone
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        try:
            page.goto(f"{live.url}/console?{query}token={TOKEN}")
            shot = output_dir / f"console-language-{'en' if query else 'auto'}-{locale}"
            seen = screens(page, shot)
        finally:
            ctx.close()
        assert not errors, errors
        assert other in seen["sheet-foul"], (query, locale)  # the sheet was read, in its language
        wrong = [f"{where}: {w}" for where, text in seen.items()
                 for w in words_of(text, vocabulary, teams)]
        assert not wrong, f"{query or 'pt'} {locale}:\n" + "\n".join(wrong)
