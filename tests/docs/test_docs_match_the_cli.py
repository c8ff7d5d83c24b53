"""The docs name only commands and options that exist, and the command reference is the
CLI's own (issue 14: the docs had drifted from the product)."""

from __future__ import annotations

import re
from pathlib import Path

from futmesa.cli import cli
from futmesa.clidoc import options_of, render

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"),
               *(ROOT / "hardware").glob("*.md")])
# an invocation: at the start of a line or span (after "$ " or "sudo "), or after a path
CALL = re.compile(r"(?:^\s*(?:\$\s+|sudo\s+)?|/|&&\s+|;\s+)futmesa ([a-z][a-z-]*)([^`|;#&\n]*)")
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


def _code(text: str) -> list[str]:
    """The code in a markdown file: fenced blocks' lines and inline `spans`."""
    pieces: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            pieces.append(line)
        else:
            pieces += re.findall(r"`([^`]+)`", line)
    return pieces


def test_the_command_reference_is_generated_from_the_cli() -> None:
    written = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    assert written == render(cli), (
        "docs/commands.md is out of date: run "
        "`.venv/bin/python -m futmesa.clidoc > docs/commands.md`")


def test_docs_name_only_commands_and_options_that_exist() -> None:
    known = options_of(cli)
    wrong: list[str] = []
    for doc in DOCS:
        for code in _code(doc.read_text(encoding="utf-8")):
            for command, rest in CALL.findall(code):
                if command not in known:
                    wrong.append(f"{doc.name}: `futmesa {command}` is not a command")
                    continue
                for option in OPTION.findall(rest):
                    if option not in known[command]:
                        wrong.append(f"{doc.name}: `futmesa {command}` has no {option}")
    assert not wrong, "\n".join(wrong)


def test_the_console_and_the_cli_list_every_ruleset() -> None:
    import httpx

    from futmesa.rules import ruleset_names
    from futmesa_testkit.liveserver import serving

    # the console page as a referee's phone gets it: its rules choice is the registry's
    with serving() as live:
        console = httpx.get(live.url + "/console", timeout=30).text
    offered = re.findall(r'<option value="([a-z0-9-]+)">', console.split('name="ruleset"')[1]
                         .split("</select>")[0])
    assert sorted(offered) == sorted(ruleset_names())
    help_text = cli.commands["serve"].params[1].help or ""
    for name in ruleset_names():
        assert name in help_text


def test_the_guides_sumula_example_carries_the_verify_url() -> None:
    """An organiser copies §9's line: without --verify-url the PDF has no QR code (walk 48b)."""
    guide = (ROOT / "docs" / "operating.md").read_text(encoding="utf-8")
    calls = [code for code in _code(guide) for command, _rest in CALL.findall(code)
             if command == "report" and "--pdf" in code]
    assert calls and all("--verify-url" in code for code in calls), calls
