"""The Makefile's targets that the README names, run as a user runs them: `make TARGET`
in a copy of the checkout (its tracked and unignored files), in the environment
`make run` leaves (tests/userenv.py), and `make lint` and `make format` in the one
`make test` adds the dev extra to. `make run` itself is the workflow on the full
sample (14 minutes): tests/test_workflow.py runs the same Snakefile on the smoke config,
in the same environment."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import userenv
from paths import REPO

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    """The checkout's files as a clone has them, plus what is not yet committed."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    root = tmp_path_factory.mktemp("checkout")
    for rel in filter(None, listed):
        src = REPO / rel
        if src.is_file():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, root / rel, follow_symlinks=False)
    return root


def make(checkout: Path, target: str, venv: Path) -> subprocess.CompletedProcess:
    """`make TARGET` with VENV pointing at ``venv``, after checking that make has nothing
    to install there (the user environment links the test environment's packages: an
    install would write into them)."""
    args = ["make", "--no-print-directory", f"VENV={venv}", target]
    env = userenv.env_vars(venv)
    plan = subprocess.run([*args, "-n"], cwd=checkout, env=env, capture_output=True, text=True)
    assert plan.returncode == 0 and "pip install" not in plan.stdout, plan.stdout + plan.stderr
    return subprocess.run(args, cwd=checkout, env=env, capture_output=True, text=True, timeout=500)


def digest(root: Path, folders: tuple[str, ...]) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for folder in folders
        for p in sorted((root / folder).rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_make_dryrun_plans_the_default_workflow_and_make_clean_removes_its_traces(checkout):
    done = make(checkout, "dryrun", userenv.user_env())
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    out = done.stdout + done.stderr
    assert "This was a dry-run" in out and "train_embedding" in out
    assert (checkout / ".snakemake").is_dir()
    done = make(checkout, "clean", userenv.user_env())
    assert done.returncode == 0 and not (checkout / ".snakemake").exists()


def test_make_rulegraph_draws_every_rule_with_graphviz(checkout):
    """The SVG `make rulegraph` writes draws every rule of Snakemake's rule graph, each
    under its name, and every edge between them; and that graph holds every rule a dry
    run of the default workflow schedules from scratch."""
    import html
    import re

    from wfutil import scheduled

    svg = checkout / "docs" / "rulegraph.svg"
    svg.unlink()
    done = make(checkout, "rulegraph", userenv.user_env())
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    drawn = svg.read_text()
    assert drawn.lstrip().startswith("<?xml") and "<svg" in drawn
    env = userenv.env_vars(userenv.user_env())
    snakemake = [userenv.python(), "-m", "snakemake"]
    dot = subprocess.run([*snakemake, "--rulegraph"], cwd=checkout, env=env, capture_output=True,
                         text=True, check=True).stdout  # fmt: skip
    rules = dict(re.findall(r'^\s*(\d+)\[label = "(\w+)"', dot, re.M))
    edges = set(re.findall(r"^\s*(\d+) -> (\d+)", dot, re.M))
    nodes = dict(re.findall(r'class="node">\s*<title>(\d+)</title>.*?<text[^>]*>(\w+)</text>',
                            drawn, re.S))  # fmt: skip
    lines = set(re.findall(r'class="edge">\s*<title>(\d+)->(\d+)</title>', html.unescape(drawn)))
    assert len(rules) > 30 and nodes == rules, (sorted(rules.values()), sorted(nodes.values()))
    assert len(edges) > 60 and lines == edges
    dry = subprocess.run([*snakemake, "-n", "--forceall", "--quiet", "rules"], cwd=checkout,
                         env=env, capture_output=True, text=True, check=True)  # fmt: skip
    planned = set(scheduled(dry.stdout + dry.stderr))
    assert len(planned) > 30 and planned <= set(rules.values()), planned - set(rules.values())


def test_make_docs_regenerates_the_committed_pages(checkout):
    pages = ("config/README.md", "docs/reference/outputs.md", "docs/how-to/cluster.md")
    before = {p: (checkout / p).read_bytes() for p in pages}
    done = make(checkout, "docs", userenv.user_env())
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    assert {p: (checkout / p).read_bytes() for p in pages} == before


def test_make_lint_passes_and_make_format_changes_nothing(checkout):
    dev = Path(sys.prefix)
    done = make(checkout, "lint", dev)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    folders = ("src", "tests", "workflow", "benchmarks")
    before = digest(checkout, folders)
    done = make(checkout, "format", dev)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    assert digest(checkout, folders) == before
