"""No word a person reads is a bare literal in host/futmesa: log sentences, printed lines and
Portuguese text go through the gettext catalogs (issue #23).

Parses every .py under host/futmesa with ``ast`` and lists ``file:line`` for
(a) a ``log.info/warning/error/exception/critical`` call whose message is a bare string or an
    f-string with words in it (it must be a ``_()`` call: ``log.warning(_("link lost (%s)"),
    why)``; ``log.error("%s", why)`` of a translated ``why`` is fine);
(b) a ``click.echo``/``click.secho``/``print`` of a bare string with letters in it (also
    ``"…" + x``, ``"…" % x`` and ``"…".format()``);
(c) a string with Portuguese accented letters outside a gettext call (docstrings and click's
    ``help=`` texts, which ``futmesa.cli_words`` translates, excepted; comments are not
    strings).
``log.debug`` lines are for developers and may stay English. ``ALLOWED`` (b, c) keeps the data
words and proper names, each with its reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "host" / "futmesa"

# Not yet checked: other helpers' files and the rulesets, which keep their (pt, en) pairs for
# now. Shrink this list as each part moves to the catalogs.
NOT_YET_CHECKED: tuple[str, ...] = ()

# Literal words that are data or proper names, not a sentence to translate:
# file -> {a piece of the literal: why it stays}
ALLOWED: dict[str, dict[str, str]] = {
    "cli.py": {
        " × ": "the score separator of `futmesa matches` (2 × 1), not a word",
        "gaúcha": "an example of what --ruleset accepts (input, in the help text that "
                  "cli_words translates)",
    },
    "matchbook/citations.py": {
        "Regra Gaúcha": "the title of a federation's rule document (a proper name)",
        "À-Ú": "a regular expression's range of capital letters",
        "A mesa está posta": "the title of a federation's rule document (a proper name)",
    },
    "matchbook/wording.py": {
        "Regra Gaúcha (LGFM)": "a ruleset's title (a proper name)",
        "São Paulo": "a city's name (the venue's time zone)",
        "Belém": "a city's name (the venue's time zone)",
        "Maceió": "a city's name (the venue's time zone)",
        "Cuiabá": "a city's name (the venue's time zone)",
        "Araguaína": "a city's name (the venue's time zone)",
        "A mesa está posta": "a ruleset's title (a proper name)",
        "árbitro": "an author name the log may hold (input: not shown as a person's name)",
    },
    "hardware/drawings.py": {
        "Palheta divisória": "the part's Portuguese name, kept in the English wiring drawings "
                             "(hardware/ names it so)",
    },
    "web/signing.py": {
        "árbitro": "the author name stored in the log for a signature or a reopening sent "
                   "without one (data, not a sentence)",
    },
    "rules/gaucha.py": {
        "Regra Gaúcha (LGFM)": "a ruleset's title (a proper name)",
    },
    "rules/mesa_posta.py": {
        "A mesa está posta": "a ruleset's title (a proper name)",
    },
    "rules/pastilha_8x2_clube.py": {
        "Pastilha 8x2 — competição interna": "a club ruleset's title (a proper name)",
    },
    "sbc/simheader.py": {
        "BUZ": "the simulated board's control-channel protocol, as firmware/boards/sim.py "
               "speaks it (futmesa.sim.table reads these lines; LOG lines are a developer's "
               "diagnostic of the simulated board)",
        "SYNC": "the control-channel protocol (see BUZ)",
        "PONG": "the control-channel protocol (see BUZ)",
        "LOG ": "the control-channel protocol (see BUZ)",
    },
    "venue/tournament.py": {
        "Estrela do Norte": "the demo tournament's clubs (a teams file: proper names, data)",
        "Juventude Botão": "the demo championship's Sub-18 teams (a teams file: proper names, "
                           "data)",
    },
}

LOG_LEVELS = {"info", "warning", "error", "exception", "critical"}
GETTEXT_CALLS = {"_", "gettext", "ngettext", "pgettext", "N_", "NP_", "sh_words"}
ACCENTED = re.compile(r"[áàâãéêíóôõúçÁÀÂÃÉÊÍÓÔÕÚÇ]")
LETTERS = re.compile(r"[A-Za-zÀ-ÿ]")
# a citation of a rule document ("003 Art. 74 §único e", "004 Disputa de pênaltis"): the
# document's own words, turned into a sentence by futmesa.matchbook.citations
CITATION = re.compile(r"^\d{3} (Art\. [0-9IVXLC]+|[A-ZÀ-Ú][^\n]*$)")
PLACEHOLDERS = re.compile(r"\{[^{}]*\}|%[-+ #0-9.]*[sdrf]")


def checked_files() -> list[str]:
    """Every module under host/futmesa but those NOT_YET_CHECKED (paths under it)."""
    files = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if any(rel == skip or rel.startswith(skip) for skip in NOT_YET_CHECKED):
            continue
        files.append(rel)
    return files


def call_name(node: ast.Call) -> str:
    """``log.warning`` -> "log.warning", ``_`` -> "_", ``t.gettext`` -> "t.gettext"."""
    f = node.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        base = f.value
        prefix = base.id if isinstance(base, ast.Name) else (
            base.attr if isinstance(base, ast.Attribute) else "")
        return f"{prefix}.{f.attr}"
    return ""


def is_gettext(node: ast.Call) -> bool:
    name = call_name(node)
    return name.split(".")[-1] in GETTEXT_CALLS


def is_bare_text(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str))


def literal_text(node: ast.expr) -> str:
    """The literal parts of a string or f-string (placeholders dropped)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values
                       if isinstance(v, ast.Constant) and isinstance(v.value, str))
    return ""


def has_letters(node: ast.expr) -> bool:
    return bool(LETTERS.search(PLACEHOLDERS.sub("", literal_text(node))))


def bare_words(node: ast.expr) -> list[ast.expr]:
    """The bare string literals with letters that make up a message: the literal itself,
    either side of a ``+``, the left of a ``%``, the string of a ``"…".format()``."""
    if is_bare_text(node):
        return [node] if has_letters(node) else []
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return bare_words(node.left) + bare_words(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return bare_words(node.left)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "format":
        return bare_words(node.func.value)
    return []


def docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                found.add(id(body[0].value))
    return found


def problems_in(rel: str, source: str) -> list[str]:
    """Each literal word of one module (``rel``: its path under host/futmesa), as
    ``file:line: what``."""
    tree = ast.parse(source, rel)
    allowed = ALLOWED.get(rel, {})

    def is_allowed(text: str) -> bool:
        return any(piece in text for piece in allowed) or bool(CITATION.match(text))

    skip = docstrings(tree)  # documentation, for developers
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if is_gettext(node):
            skip.update(id(n) for n in ast.walk(node))
            continue
        for kw in node.keywords:  # click's help texts: futmesa.cli_words translates them
            if kw.arg == "help":
                skip.update(id(n) for n in ast.walk(kw.value))
        name = call_name(node)
        head, _dot, level = name.rpartition(".")
        if level in LOG_LEVELS and head.endswith(("log", "logger", "LOG")) and node.args:
            if bare_words(node.args[0]):
                found.append(f"{rel}:{node.lineno}: log.{level} of a bare string (wrap it in _())")
        if name in {"click.echo", "click.secho", "echo", "secho", "print"} and node.args:
            if any(not is_allowed(literal_text(w)) for w in bare_words(node.args[0])):
                found.append(f"{rel}:{node.lineno}: {name} of a bare string (wrap it in _())")
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and ACCENTED.search(node.value) and not is_allowed(node.value):
            found.append(f"{rel}:{node.lineno}: Portuguese outside the catalogs: "
                         f"{node.value[:50]!r}")
    return sorted(found, key=lambda p: int(p.split(":")[1]))


def test_no_literal_words_in_the_product() -> None:
    files = checked_files()
    assert len(files) > 50 and "table/daemon.py" in files and "link/protocol.py" in files
    found = [p for rel in files for p in problems_in(rel, (PACKAGE / rel).read_text())]
    assert not found, f"{len(found)} literal words:\n" + "\n".join(found)


PLANTED = '''
import logging
import click
from futmesa.i18n import _
log = logging.getLogger("x")


def f(port: str, n: int) -> str:
    """Uma docstring pode ter acentos."""
    log.warning("link lost on %s", port)
    log.info(f"opened {port}")
    log.error("%s", port)
    log.info(_("opened %s"), port)
    click.echo("simulated table on " + port)
    click.echo(f"connect to {port}")
    print("---")
    print(f"{n:>4}  {port}")
    click.echo(_("simulated table on {port}").format(port=port))
    raise ValueError("configuração inválida")
    return _("configuração")
    click.echo("{n} tables".format(n=n))
    log.info("%d tables" % n)
'''


def test_it_finds_each_kind_of_literal_word() -> None:
    """A planted module: each bare word is found, at its line; translated ones, docstrings,
    punctuation-only lines and placeholders-only lines are not."""
    found = problems_in("planted.py", PLANTED)
    assert [p.split(": ", 1)[0] for p in found] == [
        "planted.py:10", "planted.py:11", "planted.py:14", "planted.py:15", "planted.py:19",
        "planted.py:21", "planted.py:22"], found
    assert "log.warning" in found[0] and "click.echo" in found[2]
    assert "Portuguese" in found[4]
