"""`make test` on a machine without the system packages the suite needs: it installs them
where it can (root and apt-get, as on CI), and otherwise stops in one line naming them,
before anything is installed or tested (tests/system.sh)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from paths import REPO


def _path_without_them(tmp_path: Path) -> str:
    """A PATH with make, bash and coreutils but no chromium or dot, and an `id` that says
    the user is not root."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("make", "bash", "env", "cat", "rm", "touch", "mkdir"):
        found = shutil.which(tool)
        if found:
            (bin_dir / tool).symlink_to(found)
    (bin_dir / "id").write_text("#!/bin/sh\necho 1000\n")
    (bin_dir / "id").chmod(0o755)
    return str(bin_dir)


def test_without_them_make_test_stops_in_one_line_naming_them(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    env.update(PATH=_path_without_them(tmp_path), WORDNET_DIR=str(tmp_path / "none"),
               PYTEST_ADDOPTS="--collect-only -q")  # (were it to go on: collect only)  # fmt: skip
    done = subprocess.run(
        ["make", "--no-print-directory", f"VENV={sys.prefix}", "test"], cwd=REPO, env=env,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode != 0
    lines = [li for li in done.stderr.splitlines() if not re.match(r"make(\[\d+\])?: ", li)]
    assert len(lines) == 1, done.stderr
    (line,) = lines
    for package in ("chromium", "wordnet-base", "graphviz"):
        assert package in line, line
    assert "sudo apt-get install chromium wordnet-base graphviz" in line, line
    assert "test session starts" not in done.stdout  # stopped before pytest
    assert "pip install" not in done.stdout  # and before installing anything


def test_with_them_the_check_passes_silently():
    """Here (as on CI, where .ci/run's make test installed them) nothing is missing."""
    done = subprocess.run(["bash", str(REPO / "tests/system.sh")], capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0 and done.stderr == "", done.stderr
