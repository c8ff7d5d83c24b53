"""The gettext catalogs: every marked string is in both catalogs, translated, with the same
placeholders; the template is not stale; a fresh clone (no .mo) reads the .po."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from futmesa import i18n

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "host" / "futmesa" / "locale"
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[sd]")


def catalog(lang: str):
    with (LOCALE / lang / "LC_MESSAGES" / "futmesa.po").open("rb") as f:
        return read_po(f, locale=lang)


def key(message) -> tuple[str, str | None]:
    return (message.id if isinstance(message.id, str) else message.id[0], message.context)


def test_the_template_is_not_stale() -> None:
    """tools/catalogs.py --check extracts host/futmesa (and click's words) afresh and compares."""
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "catalogs.py"), "--check"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("lang", ["pt_BR", "en"])
def test_every_message_is_translated_with_its_placeholders(lang: str) -> None:
    with (LOCALE / "futmesa.pot").open("rb") as f:
        template = read_po(f)
    wanted = {key(m) for m in template if m.id}
    assert len(wanted) > 300
    cat = catalog(lang)
    have = {key(m): m for m in cat if m.id}
    missing = sorted(str(k) for k in wanted - set(have))
    assert not missing, f"{lang}: not in the catalog: {missing[:10]}"
    problems = []
    for k in wanted:
        m = have[k]
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy or not all(strings):
            problems.append(f"untranslated: {k}")
            continue
        for s in strings:
            if set(PLACEHOLDER.findall(s)) - set().union(*(PLACEHOLDER.findall(i) for i in ids)):
                problems.append(f"placeholder not in the msgid: {k} -> {s!r}")
        if set(PLACEHOLDER.findall(ids[0])) - set(PLACEHOLDER.findall(strings[0])):
            problems.append(f"placeholder lost: {k} -> {strings[0]!r}")
    assert not problems, "\n".join(sorted(problems)[:20])


def test_portuguese_catalog_is_portuguese() -> None:
    """A sample the súmula and the CLI show, as the catalog gives it."""
    t = i18n.translator("pt_BR")
    assert t.gettext("Goal for {team}{disc}") == "Gol de {team}{disc}"
    assert t.gettext("Usage:") == "Uso:"
    assert t.pgettext("restart after a foul", "free kick") == "falta"
    assert t.pgettext("restart", "free kick") == "tiro livre"
    assert t.ngettext("Got unexpected extra argument ({args})",
                      "Got unexpected extra arguments ({args})", 2).startswith("Argumentos")
    assert i18n.translator("en").gettext("Usage:") == "Usage:"


def test_a_fresh_clone_reads_the_po(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No .mo (a fresh clone), or a .mo older than its .po (an edit not compiled): the .po."""
    copy = tmp_path / "locale"
    shutil.copytree(LOCALE, copy, ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.setattr(i18n, "LOCALE_DIR", copy)
    i18n._translations.cache_clear()
    try:
        assert i18n.translator("pt_BR").gettext("Goals") == "Gols"
        po = copy / "pt_BR" / "LC_MESSAGES" / "futmesa.po"
        mo = po.with_suffix(".mo")
        subprocess.run([str(Path(sys.executable).with_name("pybabel")), "-q", "compile",
                        "-i", str(po), "-o", str(mo)], check=True)
        po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Gols"', 'msgstr "Golos"'),
                      encoding="utf-8")
        os.utime(mo, (1, 1))  # the .mo is older than the edited .po
        i18n._translations.cache_clear()
        assert i18n.translator("pt_BR").gettext("Goals") == "Golos"
    finally:
        i18n._translations.cache_clear()


@pytest.mark.parametrize(("given", "env", "expected"), [
    ("en", {"FUTMESA_LANG": "pt_BR"}, "en"),
    (None, {"FUTMESA_LANG": "en"}, "en"),
    (None, {"LANG": "en_US.UTF-8"}, "en"),
    (None, {"LANG": "C.UTF-8"}, "pt_BR"),
    (None, {}, "pt_BR"),
    ("pt", {"LC_ALL": "en_GB.UTF-8"}, "pt_BR"),
])
def test_the_language_is_lang_then_env_then_locale(given: str | None, env: dict[str, str],
                                                   expected: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("FUTMESA_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    assert i18n.resolve(given) == expected


CONVERTED = ["matchbook/wording.py", "matchbook/sumula.py", "matchbook/proof.py",
             "report/html.py", "report/pdf.py", "report/tabular.py", "report/proof_block.py"]


@pytest.mark.parametrize("module", CONVERTED)
def test_converted_modules_hold_no_language_switch(module: str) -> None:
    """Their words come from the catalog: no `if lang == "pt"` / `L(pt, en)` left."""
    text = (ROOT / "host" / "futmesa" / module).read_text(encoding="utf-8")
    switch = re.compile(r'\bL\(|if (?:lang == "pt"|pt) else f?"[A-Z]'
                        r'|\("[A-ZÀ-Ú][a-zà-ú]+(?: [^"]*)?", "[A-Z][a-z]+(?: [^"]*)?"\)')
    assert not switch.search(text), (module, switch.findall(text))


def test_no_translation_hides_inside_an_f_string() -> None:
    """pybabel does not read inside f-strings: `f"{_('x')}"` would never reach the catalog."""
    hidden = [f"{path.relative_to(ROOT)}:{n}"
              for path in sorted((ROOT / "host" / "futmesa").rglob("*.py"))
              for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
              if re.search(r"""f["'][^"']*\{_\(""", line)]
    assert not hidden, hidden


def test_no_function_hides_the_translator_behind_a_throwaway_name() -> None:
    """`x, _ = f()` or `for _ in …` makes `_` local to the whole function: a `_("…")` in it
    would then call whatever was unpacked."""
    import ast

    bad = []
    for path in sorted((ROOT / "host" / "futmesa").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            stores = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == "_"
                      and isinstance(n.ctx, ast.Store)]
            calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call)
                     and isinstance(n.func, ast.Name) and n.func.id == "_"]
            translator_set = any(isinstance(a, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "_" for t in a.targets)
                and "translator" in ast.unparse(a.value) for a in ast.walk(fn))
            if stores and calls and not translator_set:
                bad.append(f"{path.relative_to(ROOT)}:{fn.lineno} {fn.name}")
    assert not bad, bad
