"""The architecture's import rules (docs/architecture.md, "Who owns each step"), on the source.

Every import in a module counts, including those inside functions. A rule names the modules
a package may reach inside the project; the standard library and third-party packages are
always allowed, except where a rule says otherwise.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOST = ROOT / "host" / "futmesa"
FIRMWARE = ROOT / "firmware"


def module_name(path: Path, root: Path = ROOT) -> str:
    rel = path.relative_to(root / "host").with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = module_name(path, root).split(".") if path.is_relative_to(root / "host") else []
    package = here if path.name == "__init__.py" else here[:-1]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append((node.lineno, name))
            # "from futmesa import report" reaches futmesa.report
            if name == "futmesa":
                out += [(node.lineno, f"futmesa.{alias.name}") for alias in node.names]
    return out


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def project(name: str) -> bool:
    return within(name, ("futmesa", "futmesa_wire"))


def files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


# (package, the project modules it may import, why)
RULES: list[tuple[str, tuple[str, ...], str]] = [
    ("futmesa.competition", ("futmesa.competition", "futmesa.config", "futmesa.rules",
                             "futmesa.textfiles", "futmesa.wordmatch", "futmesa.store.db",
                             "futmesa.i18n"),
     "the competition's rooms (planning, progression, decisions, standings, the file) know "
     "teams, matches and results, never the venue, the tables or the views"),
    ("futmesa.venue.board_state", ("futmesa.venue.checks", "futmesa.matchbook.wording",
                                   "futmesa.i18n"),
     "the boards' live cards stand apart from the competition: a state on its way to the "
     "boards never waits on a result being stored"),
    ("futmesa.web.referee_inbox", ("futmesa.hub", "futmesa.web.access", "futmesa.web.common",
                                   "futmesa.web.ledger", "futmesa.i18n"),
     "the referee inbox takes inputs to the hub; pages and views are the console's"),
    ("futmesa.table.commands", ("futmesa.rules", "futmesa_wire", "futmesa.i18n"),
     "an effect's device command is pure: it knows the rules' effects and the wire, nothing "
     "of the link, the store or the match being played"),
    ("futmesa.table.clock", ("futmesa.link",),
     "the clock between two statuses reads the link's reports, nothing else"),
    ("futmesa.table.queue", (),
     "the table's queue runs work in turn; it knows nothing of what the work is"),
    ("futmesa.table", ("futmesa.table", "futmesa.matchbook", "futmesa.rules", "futmesa.store",
                       "futmesa.link", "futmesa.hub", "futmesa.health", "futmesa.config",
                       "futmesa.portcheck", "futmesa_wire", "futmesa.i18n"),
     "a table's daemon moves the link's reports and the referee's inputs into its match and "
     "the hub; it never reaches the views, the venue or the competition"),
    ("futmesa.store", ("futmesa.store", "futmesa.chain", "futmesa.rules.ordering",
                       "futmesa.i18n"),
     "the event log stores and reads; the one thing of the rules it knows is the order a "
     "log is read in"),
    ("futmesa.rules", ("futmesa.rules", "futmesa_wire", "futmesa.i18n"),
     "the rules are pure: they know entries and effects (and the device's tick arithmetic, "
     "written once in futmesa_wire), nothing of the link, store or views"),
    ("futmesa.link", ("futmesa.link", "futmesa_wire", "futmesa.i18n"),
     "the link delivers raw device events; what they mean is the matchbook's job"),
    ("futmesa.camera", ("futmesa.camera", "futmesa.health", "futmesa.i18n"),
     "the camera stands apart from the match: it reads the event log on its own connection, "
     "writes its own clip entries and raises its faults; never the rules, the table or the "
     "views"),
    ("futmesa.i18n", ("futmesa.i18n",),
     "the catalogs are a leaf every layer may use: they import nothing of the project"),
    ("futmesa.web", ("futmesa.web", "futmesa.hub", "futmesa.matchbook", "futmesa.report",
                     "futmesa.i18n"),
     "views read live state from the hub and stored matches through the matchbook"),
    ("futmesa.report", ("futmesa.report", "futmesa.matchbook", "futmesa.i18n"),
     "renderers print the súmula model, they do not read the store or run the rules"),
    ("futmesa.matchbook", ("futmesa.matchbook", "futmesa.rules", "futmesa.store",
                           "futmesa.link.events", "futmesa.link.messages", "futmesa_wire",
                           "futmesa.i18n"),
     "the read side sits on the log and the rules, never on the live daemon or the views"),
    ("futmesa.sbc", ("futmesa.sbc", "futmesa.sim.table", "futmesa.hardware.boardfile",
                     "futmesa.hardware.fakei2c", "futmesa_wire", "futmesa.i18n"),
     "a Pi table is the firmware on another board: a device process the daemon reads over a "
     "pty, never the daemon, the store or the rules"),
]


def violations(package: str, allowed: tuple[str, ...], root: Path = ROOT) -> list[str]:
    rel = package.split(".")[1:]
    target = root.joinpath("host", "futmesa", *rel)
    paths = files(target) if target.is_dir() else [target.with_suffix(".py")]
    bad = []
    for path in paths:
        for line, name in imports(path, root):
            if project(name) and name != "futmesa" and not within(name, allowed):
                bad.append(f"{path.relative_to(root)}:{line} imports {name}")
    return bad


@pytest.mark.parametrize(("package", "allowed", "why"), RULES, ids=[r[0] for r in RULES])
def test_package_imports_only_what_it_may(package: str, allowed: tuple[str, ...],
                                          why: str) -> None:
    bad = violations(package, allowed)
    assert not bad, f"{package}: {why}:\n" + "\n".join(bad)


def test_cli_reads_stored_matches_without_the_daemon() -> None:
    """`futmesa matches / report / rerun` import the matchbook, never the table daemon."""
    bad = [f"cli.py:{line} imports {name}" for line, name in imports(HOST / "cli.py")
           if within(name, ("futmesa.table",))]
    assert not bad, "\n".join(bad)


def test_firmware_imports_nothing_from_the_host() -> None:
    bad = [f"{path.relative_to(ROOT)}:{line} imports {name}"
           for path in files(FIRMWARE) for line, name in imports(path)
           if within(name, ("futmesa",))]
    assert not bad, "the firmware runs on the table, without the host:\n" + "\n".join(bad)


def test_the_match_settings_stand_below_the_competition() -> None:
    """config.py (a table's match settings) is read by the competition, never the reverse
    arrow: the text-file reader they share is futmesa.textfiles (issue 32 §5)."""
    bad = [f"config.py:{line} imports {name}" for line, name in imports(HOST / "config.py")
           if within(name, ("futmesa.competition", "futmesa.venue", "futmesa.table"))]
    assert not bad, "\n".join(bad)


def test_only_the_pi_tables_own_process_takes_the_micropython_names() -> None:
    """futmesa.sbc.mpcompat changes the process it runs in (a `micropython` module, ticks in
    `time`): only the device process (futmesa.sbc.device) may install it, never the daemon."""
    bad = [f"{path.relative_to(ROOT)}:{line} imports {name}"
           for path in files(HOST) for line, name in imports(path)
           if within(name, ("futmesa.sbc.mpcompat",)) and path.name != "device.py"]
    assert not bad, "\n".join(bad)


def test_the_product_imports_nothing_from_the_test_kit() -> None:
    """futmesa runs at a club without what only the tests and benchmarks use
    (testkit/futmesa_testkit: live servers, whole venues, the fault relay, light tables)."""
    bad = [f"{path.relative_to(ROOT)}:{line} imports {name}"
           for path in files(HOST) for line, name in imports(path)
           if within(name, ("futmesa_testkit",))]
    assert not bad, "\n".join(bad)


def test_benchmarks_and_host_import_nothing_from_the_tests() -> None:
    """bench/ and the host package stand on their own: what both a benchmark and a test need
    (the fault relay, the ground truth) lives in futmesa_testkit, never in tests/."""
    paths = files(ROOT / "bench") + files(HOST) + files(ROOT / "testkit")
    bad = [f"{path.relative_to(ROOT)}:{line} imports {name}"
           for path in paths for line, name in imports(path)
           if within(name, ("tests", "link", "conftest"))]
    assert not bad, "\n".join(bad)


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    """The rules can fail: imports reaching out of rules/ (relative, or inside a function)."""
    rules = tmp_path / "host" / "futmesa" / "rules"
    rules.mkdir(parents=True)
    (rules / "__init__.py").write_text("from .engine import Engine\n")
    (rules / "probe.py").write_text("from ..store import EventLog\n\n"
                                    "def f():\n    import futmesa.daemon\n")
    bad = violations("futmesa.rules", ("futmesa.rules",), tmp_path)
    assert bad == ["host/futmesa/rules/probe.py:1 imports futmesa.store",
                   "host/futmesa/rules/probe.py:4 imports futmesa.daemon"]
