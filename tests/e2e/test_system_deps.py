"""`make demo` needs no test-only Debian packages (issue 14): the system-deps script has a
demo set (socat) and a test set (Chromium, poppler, the Pico toolchain …)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "install-system-deps.sh"


def _missing_everything(tmp_path: Path, which: str) -> subprocess.CompletedProcess[str]:
    """Run the script on a machine with none of the packages and no root or sudo."""
    bin_dir = tmp_path / f"bin-{which}"
    bin_dir.mkdir()
    for tool in ("grep", "bash"):
        os.symlink(shutil.which(tool), bin_dir / tool)
    (bin_dir / "id").write_text("#!/bin/bash\necho 1000\n")
    (bin_dir / "dpkg-query").write_text("#!/bin/bash\nexit 1\n")
    for stub in ("id", "dpkg-query"):
        (bin_dir / stub).chmod(0o755)
    return subprocess.run([str(bin_dir / "bash"), str(SCRIPT), which], capture_output=True,
                          text=True, env={"PATH": str(bin_dir)}, timeout=60)


def test_the_demo_set_is_only_socat(tmp_path: Path) -> None:
    demo = _missing_everything(tmp_path, "demo")
    assert demo.returncode == 1
    assert "need root (or sudo) to install: socat." in demo.stderr
    test = _missing_everything(tmp_path, "test")
    assert test.returncode == 1
    for pkg in ("socat", "chromium", "poppler-utils", "cmake", "stress-ng"):
        assert pkg in test.stderr


def test_make_demo_installs_only_the_demo_set() -> None:
    plan = subprocess.run(["make", "-n", "-C", str(ROOT), "demo"], capture_output=True,
                          text=True, timeout=60).stdout
    assert "install-system-deps.sh demo" in plan
    assert "install-system-deps.sh test" not in plan
