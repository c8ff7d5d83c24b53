"""The CLI in pt_BR through the real `futmesa` command: every `--help` and the usual mistakes
read as Portuguese (no English sentence), and `--lang en` gives English (issue 23)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from futmesa.cli import cli
from futmesa.clidoc import _commands
from futmesa.store import EventLog

FUTMESA = str(Path(sys.executable).with_name("futmesa"))

# English words that never occur in a Portuguese sentence (not "a", "no", "use", "do": those
# are Portuguese too)
ENGLISH = {"the", "is", "are", "not", "of", "to", "with", "for", "and", "or", "this", "that",
           "when", "without", "only", "from", "into", "your", "you", "there", "which", "must",
           "should", "cannot", "could", "does", "did", "has", "have", "was", "were", "will",
           "error", "file", "folder", "run", "see", "wrote", "kept", "stopped", "missing",
           "invalid", "unknown", "usage", "option", "options", "found", "such", "show",
           "exit", "message", "match", "table", "team", "teams", "period", "referee", "write",
           "print", "list", "check", "already", "yet", "first", "need", "needs", "port",
           "expecting", "delimiter", "value", "data"}
# what a line may carry that is not a sentence: options, paths, commands, ids, quoted input
NOT_WORDS = re.compile(r"--[\w-]+|\w+(?:[-_]\w+)+|`[^`]*`|'[^']*'|\"[^\"]*\""
                       r"|\S*[/\\.:=@<>]\S*|\[[^\]]*\]"
                       r"|\b[A-Z][A-Z0-9_]{2,}\b|futmesa \w+")


def english_words(text: str) -> list[str]:
    found = []
    for line in text.splitlines():
        words = re.findall(r"[A-Za-zÀ-ú]+", NOT_WORDS.sub(" ", line))
        found += [f"{w!r} in {line.strip()!r}" for w in words if w.lower() in ENGLISH]
    return found


def run(*args: str, lang: str | None = "pt_BR") -> str:
    env = {**os.environ, "FUTMESA_LANG": lang or ""}
    proc = subprocess.run([FUTMESA, *args], capture_output=True, text=True, timeout=120,
                          env=env)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout + proc.stderr


def test_the_detector_finds_english() -> None:
    assert english_words("Error: no such option: --speeed")
    assert english_words("Show this message and exit.")
    assert not english_words("Erro: Opção '--speeed' desconhecida. Você quis dizer '--speed'?")
    assert not english_words("Valor inválido para --db: Arquivo '/tmp/x.sqlite' não existe.")


COMMANDS = [name for name, _cmd in _commands(cli)]


def test_every_help_is_portuguese() -> None:
    outputs = {"": run("--help")} | {name: run(*name.split(), "--help") for name in COMMANDS}
    assert len(outputs) > 25
    english = {name or "futmesa": english_words(out) for name, out in outputs.items()}
    english = {k: v for k, v in english.items() if v}
    assert not english, json.dumps(english, ensure_ascii=False, indent=1)
    assert all(out.startswith("Uso: futmesa") for out in outputs.values())


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    db = tmp_path / "m.sqlite"
    store = EventLog(db)
    store.new_match("sim-1", "cbfm-1toque", {}, "")
    store.close()
    not_json = tmp_path / "config.json"
    not_json.write_text('{"teams": ', encoding="utf-8")
    a_list = tmp_path / "lista.json"
    a_list.write_text("[1, 2]", encoding="utf-8")
    notes = tmp_path / "notas.txt"
    notes.write_text("olá", encoding="utf-8")
    return {"db": str(db), "not_json": str(not_json), "list": str(a_list),
            "notes": str(notes), "missing": str(tmp_path / "nada.sqlite"),
            "no_folder": str(tmp_path / "pendrive" / "m.sqlite"), "tmp": str(tmp_path)}


MISTAKES = [
    ("unknown match", ["report", "999", "--db", "{db}"]),
    ("unknown match to rerun", ["rerun", "999", "--ruleset", "gaucha", "--db", "{db}"]),
    ("unknown ruleset", ["rerun", "1", "--ruleset", "regra-que-nao-existe", "--db", "{db}"]),
    ("missing file", ["report", "1", "--db", "{missing}"]),
    ("folder that does not exist", ["demo", "--db", "{no_folder}"]),
    ("file that is not a log", ["matches", "--db", "{notes}"]),
    ("bad option", ["demo", "--speeed", "3"]),
    ("bad value", ["demo", "--speed", "rápido"]),
    ("value out of range", ["demo", "--speed", "0"]),
    ("bad choice", ["demo", "--board", "arduino"]),
    ("unknown command", ["jogar"]),
    ("missing option", ["serve"]),
    ("missing argument", ["report"]),
    ("settings not JSON", ["serve", "--device", "/dev/null", "--settings", "{not_json}"]),
    ("settings not an object", ["serve", "--device", "/dev/null", "--settings", "{list}"]),
    ("missing settings file", ["serve", "--device", "/dev/null", "--settings", "{missing}"]),
    ("no competition yet", ["competition", "standings", "--db", "{missing}"]),
    ("report into a missing folder", ["report", "1", "--db", "{db}", "--pdf",
                                      "{tmp}/pasta/nada/x.pdf"]),
    ("venue options alone", ["serve", "--device", "{tmp}/ttyACM9", "--venue-broker",
                             "mqtt://x:1"]),
    ("not a serial port", ["serve", "--device", "{notes}"]),
]


@pytest.mark.parametrize(("what", "args"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_a_mistake_is_one_portuguese_line(what: str, args: list[str],
                                          files: dict[str, str]) -> None:
    out = run(*(a.format(**files) for a in args))
    errors = [line for line in out.splitlines() if line.startswith("Erro:")]
    assert len(errors) == 1, out
    assert not english_words(out), (what, english_words(out), out)


def test_lang_en_gives_english(files: dict[str, str]) -> None:
    out = run("--lang", "en", "--help")
    assert out.startswith("Usage: futmesa") and "Show this message and exit." in out
    assert "Language of everything printed" in out
    out = run("--lang", "en", "report", "999", "--db", files["db"])
    assert "Error: no match 999" in out
    assert "Error: No such option" in run("demo", "--speeed", "3", lang="en")
    # and English from the locale when nothing else says
    env = {k: v for k, v in os.environ.items() if k not in ("FUTMESA_LANG", "LC_ALL",
                                                              "LC_MESSAGES")}
    proc = subprocess.run([FUTMESA, "--help"], capture_output=True, text=True, timeout=120,
                          env={**env, "LANG": "en_US.UTF-8"})
    assert proc.stdout.startswith("Usage: futmesa")
    proc = subprocess.run([FUTMESA, "--help"], capture_output=True, text=True, timeout=120,
                          env={**env, "LANG": "C.UTF-8"})
    assert proc.stdout.startswith("Uso: futmesa")
