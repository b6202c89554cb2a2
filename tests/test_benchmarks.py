"""Every benchmark that benchmarks/README.md documents runs, as its line says: in the
environment `make run` gives users, or in the one of the optional extra that the line
names. Each runs with --smoke (its code paths at a toy size: its figures are not
checked, only that it runs and prints what it is for)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import userenv
from marks import needs_glove_python
from paths import REPO

pytestmark = pytest.mark.timeout(600)

BENCHMARKS = REPO / "benchmarks"
SCRIPTS = sorted(p.name for p in BENCHMARKS.glob("*.py") if p.name not in ("toysize.py", "peak.py"))
# the scripts that need an optional extra, beyond what `make run` installs
EXTRA = {
    "glove_vs_reference.py": "glove_python",
    "plan.py": "slurm",
    "counts.py": "slurm",
    "entanglement_pairs.py": "empath,glove6b",
    "entanglement_margin.py": "glove6b",
}
# what each prints when it ran through: its ratio against the baseline, or its table
PRINTS = {
    "c_sensitivity.py": "L-BFGS iterations per fit",
    "corpus_coverage.py": "peak memory / declared",
    "counts.py": "held/limit",
    "corpus_halves.py": "below 0.05",
    "draw_corpus.py": "x the baseline",
    "calibration.py": "rescaled_skew",
    "engine.py": "ratios: (a)/(c)",
    "entanglement_memory.py": "ratio peak/matrix",
    "entanglement_margin.py": "every entangled pair's lower bound above the margin",
    "entanglement_null.py": "ratio unit/raw",
    "entanglement_null_pairs.py": "Sidak (baseline)",
    "entanglement_null_tail.py": "pair_pvalues' p_direction against the reference",
    "entanglement_pairs.py": "ratio",
    "evaluation_memory.py": "ratio peak/vectors",
    "engine_levers.py": "2. L-BFGS settings",
    "extract.py": "ours/gensim",
    "glove_counting.py": "speed-up 1/",
    "glove_vs_reference.py": "ours/baseline",
    "import_vectors.py": "ratio ours/baseline",
    "job_startup.py": "ratio to floor",
    "lazy_imports.py": "ratio deferred/module",
    "neighbours.py": "ratio naive/ours",
    "plan.py": "ratio",
    "power_simulation.py": "power at the reported detectable AUC",
    "scale.py": "log-log slopes, and enwiki",
    "suggestions.py": "ratio score/fits",
    "training_memory.py": "ratio model/peak",
    "trainer_rates.py": "wf/probe: the workflow's trainer over the probe",
    "trainers.py": "vs gensim word2vec",
}


def readme_lines() -> dict[str, str]:
    """benchmarks/README.md's bullet for each script."""
    text = (BENCHMARKS / "README.md").read_text(encoding="utf-8")
    items = re.split(r"\n- ", text)[1:]
    found = {m.group(1): item for item in items if (m := re.match(r"`(\w+\.py)`", item))}
    assert "toysize.py" in found  # the shared --smoke flag, said not to be a benchmark
    return {name: item for name, item in found.items() if name != "toysize.py"}


def test_the_readme_documents_every_benchmark_and_the_extra_it_needs():
    lines = readme_lines()
    assert set(lines) == set(SCRIPTS) == set(PRINTS)
    for script, line in lines.items():
        assert f".venv/bin/python benchmarks/{script}" in " ".join(line.split()), script
        extra = EXTRA.get(script)
        if extra:
            assert f"pip install -e '.[{extra}]'" in line, script
        else:
            assert "pip install -e" not in line, script  # no extra of the project


@pytest.fixture(scope="module")
def embedding_folder(tmp_path_factory) -> Path:
    """A workflow embedding folder, as `make run` leaves them: gensim's 10-d Lee vectors
    imported by the pretrained method."""
    from gensim.test.utils import datapath

    from learnability.embeddings.pretrained import import_embedding

    folder = tmp_path_factory.mktemp("emb") / "lee"
    import_embedding(Path(datapath("lee_fasttext.vec")), folder, name="lee")
    return folder


def run_benchmark(script: str, *args: str, extras: tuple[str, ...] = ()):
    return subprocess.run(
        [userenv.python(extras), str(BENCHMARKS / script), *args],
        cwd=REPO, env=userenv.env_vars(userenv.user_env(extras)),
        capture_output=True, text=True, timeout=500,
    )  # fmt: skip


@pytest.mark.parametrize(
    "script",
    [pytest.param(s, marks=needs_glove_python) if EXTRA.get(s) == "glove_python" else s
     for s in SCRIPTS],
)  # fmt: skip
def test_every_benchmark_runs_in_the_environment_its_line_names(script, embedding_folder):
    args = ["--smoke"]
    if script in ("calibration.py", "c_sensitivity.py", "entanglement_null.py",
                  "entanglement_null_pairs.py", "entanglement_null_tail.py",
                  "entanglement_margin.py"):  # fmt: skip
        # they read make run's results
        args += ["--embedding", str(embedding_folder)]
    if script == "c_sensitivity.py":
        args += ["--lists", str(REPO / "resources" / "wordlists")]
    extras = tuple(EXTRA[script].split(",")) if script in EXTRA else ()
    done = run_benchmark(script, *args, extras=extras)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    assert PRINTS[script] in done.stdout, done.stdout[-3000:]
    if script == "calibration.py":  # its other mode: the expected size, no fits
        done = run_benchmark(script, "--expected-size", "--smoke")
        assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
        assert "| word2vec-like | 1000 | 10 | 200 | auto |" in done.stdout, done.stdout[-3000:]
    if script == "corpus_halves.py":  # its other mode: Python's hard-wrapped reference
        done = run_benchmark(script, "--wrapped", "--smoke")
        assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
        assert "ratio lines/documents" in done.stdout, done.stdout[-3000:]
        assert "| exceptions |" in done.stdout, done.stdout[-3000:]  # wrapped vs joined


def test_a_benchmark_outside_its_environment_says_what_it_needs_in_one_line(tmp_path):
    """Without its extra, or without `make run`'s results, a benchmark stops at once with
    one line naming the fix, not a traceback."""
    done = run_benchmark("glove_vs_reference.py", "--smoke")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "glove_vs_reference.py: its baseline, glove-python, is the optional glove_python "
        "extra: pip install -e '.[glove_python]', or run with --no-baseline"
    ]
    for script in ("calibration.py", "c_sensitivity.py"):
        done = run_benchmark(script, "--smoke", "--embedding", str(tmp_path / "none"))
        assert done.returncode == 1 and "Traceback" not in done.stderr
        (line,) = done.stderr.strip().splitlines()
        assert "run `make run` first" in line, line
