"""Refresh the gettext catalogs: extract every marked string, update the .pot and the .po files.

    .venv/bin/python tools/catalogs.py            # extract + update pt_BR and en
    .venv/bin/python tools/catalogs.py --check    # exit 1 when the .pot is stale

Sources: host/futmesa (Python with ``_``, ``ngettext``, ``N_``, ``NP_``, ``pgettext``; the
Jinja2 templates) and click's own words ("Usage:", "Error:"), which the CLI shows in the
process language. New msgids land in each .po untranslated; the English catalog gets
msgstr = msgid (the source text is English). Translate the Portuguese in
host/futmesa/locale/pt_BR/LC_MESSAGES/futmesa.po; tests/i18n/test_catalogs.py fails on any
message left untranslated.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import click
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "host" / "futmesa"
LOCALE = PACKAGE / "locale"
POT = LOCALE / "futmesa.pot"
CFG = LOCALE / "babel.cfg"
KEYWORDS = ["_", "gettext", "ngettext:1,2", "pgettext:1c,2", "N_", "NP_:1c,2",
            "sh_words"]  # sh_words: futmesa.deploy.scriptwords (installers' sentences)
LANGS = ("pt_BR", "en")


def pybabel() -> str:
    return str(Path(sys.executable).with_name("pybabel"))


def extract(out: Path) -> None:
    """Write a fresh template of every msgid to ``out``."""
    args = [pybabel(), "-q", "extract", "--no-location", "--sort-output", "--no-wrap",
            "-F", str(CFG), "--omit-header", "-o", str(out)]
    for k in KEYWORDS:
        args += ["-k", k]
    args += [str(PACKAGE), str(Path(click.__file__).parent)]
    subprocess.run(args, check=True, cwd=ROOT)
    add_help_texts(out)


def add_help_texts(pot: Path) -> None:
    """Add every help text of the `futmesa` command tree (docstrings and ``help=``, written in
    English in the code; futmesa.cli_words shows them translated)."""
    from futmesa.cli import cli
    from futmesa.cli_words import help_texts

    with pot.open("rb") as f:
        template = read_po(f)
    for text in help_texts(cli):
        if text not in template:
            template.add(text, flags=("cli-help",))
    with pot.open("wb") as f:
        write_po(f, template, width=0, omit_header=True, no_location=True, sort_output=True)


def msgids(path: Path) -> set[tuple[str, str | None]]:
    with path.open("rb") as f:
        cat = read_po(f)
    return {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in cat if m.id}


def update() -> None:
    extract(POT)
    with POT.open("rb") as f:
        template = read_po(f)
    for lang in LANGS:
        po = LOCALE / lang / "LC_MESSAGES" / "futmesa.po"
        po.parent.mkdir(parents=True, exist_ok=True)
        if po.exists():
            with po.open("rb") as f:
                cat = read_po(f, locale=lang)
        else:
            from babel.messages.catalog import Catalog
            cat = Catalog(locale=lang, domain="futmesa", project="futmesa")
        # the dates stay as they were: a run that changes no message changes no line (the
        # header's date would otherwise differ in every branch that ran this: merge noise)
        dates = cat.creation_date, cat.revision_date
        cat.update(template, no_fuzzy_matching=True)
        cat.creation_date, cat.revision_date = dates
        cat.obsolete.clear()
        cat.fuzzy = False
        cat.project, cat.version = "futmesa", "0.1"
        cat.last_translator = cat.language_team = "futmesa"
        if lang == "pt_BR":  # Brazilian usage: singular for 0 and 1 (CLDR says 3 forms)
            cat._num_plurals, cat._plural_expr = 2, "(n > 1)"
        if lang == "en":
            for m in cat:
                empty = not m.string or (isinstance(m.string, tuple) and not all(m.string))
                if m.id and empty:
                    m.string = m.id
        with po.open("wb") as f:
            write_po(f, cat, width=0, omit_header=False, no_location=True, sort_output=True)


def check() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "fresh.pot"
        extract(fresh)
        if msgids(fresh) != msgids(POT):
            print("futmesa.pot is stale: run .venv/bin/python tools/catalogs.py")
            return 1
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    return check() if ap.parse_args().check else (update() or 0)


if __name__ == "__main__":
    raise SystemExit(main())
