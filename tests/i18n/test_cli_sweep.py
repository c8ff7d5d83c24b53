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
    # the hardware commands (English only before)
    ("unknown board", ["flash", "--board", "nope", "--port", "{tmp}/ttyACM9"]),
    ("no board on the port", ["flash", "--board", "pico", "--port", "{tmp}/ttyACM9"]),
    ("nothing to flash on a Pi", ["flash", "--board", "rpi", "--port", "{tmp}/ttyACM9"]),
    ("not a BOOTSEL drive", ["flash", "--board", "pico", "--port", "{tmp}/ttyACM9", "--uf2",
                             "--drive", "{tmp}"]),
    ("not a UF2 image", ["flash", "--board", "pico", "--port", "{tmp}/ttyACM9", "--uf2",
                         "--image", "{notes}"]),
    ("doctor on a missing port", ["doctor", "--port", "/dev/nonexistent"]),
    ("doctor with an unknown board", ["doctor", "--sbc", "--board", "nope"]),
    ("calibrate without a source", ["calibrate", "--board", "pico"]),
    ("calibrate on a missing port", ["calibrate", "--board", "pico", "--port",
                                     "/dev/nonexistent"]),
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


# words that never occur in an English sentence of futmesa
PORTUGUESE = {"não", "partida", "partidas", "arquivo", "erro", "banco", "confere", "gere",
              "passe", "placa", "nenhuma", "porta", "ligue", "cadeia", "registros", "gravada",
              "resultado", "assinatura", "mesa", "há", "é", "em"}


def portuguese_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[A-Za-zÀ-ú]+", NOT_WORDS.sub(" ", text))
            if w.lower() in PORTUGUESE]


VERIFY = [
    ("a good log", ["verify", "--db", "{db}"], 0),
    ("an unknown match", ["verify", "999", "--db", "{db}"], 1),
    ("a file that is not a súmula", ["verify", "--sumula", "{not_json}"], 1),
    ("a súmula that is a list", ["verify", "--sumula", "{list}"], 1),
]


@pytest.mark.parametrize(("what", "args", "code"), VERIFY, ids=[v[0] for v in VERIFY])
def test_verify_speaks_the_process_language(what: str, args: list[str], code: int,
                                            files: dict[str, str]) -> None:
    """`futmesa verify` (Portuguese only before): pt_BR has no English sentence, --lang en no
    Portuguese word; the same exit code either way."""
    argv = [a.format(**files) for a in args]
    for lang, foreign in (("pt_BR", english_words), ("en", portuguese_words)):
        env = {**os.environ, "FUTMESA_LANG": lang}
        proc = subprocess.run([FUTMESA, *argv], capture_output=True, text=True, timeout=120,
                              env=env)
        out = proc.stdout + proc.stderr
        assert proc.returncode == code, (lang, out)
        assert "Traceback" not in out and out.strip(), (lang, out)
        assert not foreign(out), (what, lang, foreign(out), out)
    pt = run(*argv)
    assert ("confere" in pt) if code == 0 else ("erro:" in pt), pt


def test_hardware_mistakes_in_english_keep_their_words(files: dict[str, str]) -> None:
    """--lang en: the hardware commands' English lines, unchanged."""
    out = run("--lang", "en", "flash", "--board", "nope", "--port", f"{files['tmp']}/ttyACM9")
    assert "Error: board file " in out and "not found (known boards:" in out
    assert not portuguese_words(out), out
    out = run("--lang", "en", "doctor", "--port", "/dev/nonexistent")
    assert "/dev/nonexistent does not exist: is the board plugged in?" in out
    out = run("doctor", "--port", "/dev/nonexistent")
    assert "/dev/nonexistent não existe: a placa está ligada?" in out
