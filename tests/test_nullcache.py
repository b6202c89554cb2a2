"""The nulls kept on disk (learnability.protocol.nullcache): a later process reads back
exactly the table it would compute, other settings or other code compute their own, a
damaged file is computed again, and an empty LEARNABILITY_CACHE_DIR keeps nothing."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from learnability.protocol import nullcache

SCORE = """
import sys, numpy as np, learnability
from learnability import api
rng = np.random.default_rng(0)
words = [f"w{i}" for i in range(600)]
vectors = rng.standard_normal((600, 6))
vectors[:30, 0] += 3.0
calls = []
real = api.null_distribution
api.null_distribution = lambda *a, **k: calls.append(k["key"]) or real(*a, **k)
result = learnability.score((words, vectors), {"a": words[:30]}, iterations=6,
                            null_lists=int(sys.argv[1]), codelength_orders=0, suggestions=0,
                            check_folds=0, entanglement_iterations=0)
result.null.to_parquet(sys.argv[2])
print(len(calls))
"""


def _score(tmp_path, env, null_lists: int, name: str) -> tuple[int, pd.DataFrame]:
    out = tmp_path / f"{name}.parquet"
    done = subprocess.run(
        [sys.executable, "-c", SCORE, str(null_lists), str(out)],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return int(done.stdout.split()[-1]), pd.read_parquet(out)


def test_a_later_process_reads_the_null_back_and_other_settings_compute_their_own(tmp_path):
    import os

    env = dict(os.environ, LEARNABILITY_CACHE_DIR=str(tmp_path / "cache"))
    computed, first = _score(tmp_path, env, 20, "first")
    assert computed == 1
    (kept,) = (tmp_path / "cache" / "nulls").glob("*.parquet")
    computed, again = _score(tmp_path, env, 20, "again")
    assert computed == 0  # read back, not drawn again
    pd.testing.assert_frame_equal(first, again, check_exact=True)
    computed, _ = _score(tmp_path, env, 21, "other")  # another setting: its own null
    assert computed == 1 and len(list((tmp_path / "cache" / "nulls").glob("*"))) == 2
    # a damaged file is computed again (and replaced), with the same table
    kept.write_bytes(kept.read_bytes()[:100])
    computed, repaired = _score(tmp_path, env, 20, "repaired")
    assert computed == 1
    pd.testing.assert_frame_equal(first, repaired, check_exact=True)
    np.testing.assert_array_equal(pd.read_parquet(kept)["auc"], first["auc"])
    # an empty LEARNABILITY_CACHE_DIR: nothing kept, every process computes
    off = dict(os.environ, LEARNABILITY_CACHE_DIR="")
    assert _score(tmp_path, off, 20, "off1")[0] == 1 and _score(tmp_path, off, 20, "off2")[0] == 1


def test_other_code_does_not_read_a_kept_null(tmp_path, monkeypatch):
    """The file's name holds the package code's digest: another version's nulls are never
    read back. And the digest changes with any module's bytes."""
    monkeypatch.setenv("LEARNABILITY_CACHE_DIR", str(tmp_path))
    cache = nullcache.NullCache()
    settings = ("vectors", "size-4", 20)
    table = pd.DataFrame({"auc": np.arange(3.0)})
    assert cache.get(settings, lambda: table) is table
    assert cache.path(settings).exists()
    assert nullcache.NullCache().get(settings, lambda: pytest.fail("not read back")).equals(table)
    monkeypatch.setattr(nullcache, "code_digest", lambda: "other code")
    other = pd.DataFrame({"auc": [9.0]})
    assert nullcache.NullCache().get(settings, lambda: other) is other


def test_the_code_digest_follows_every_module(tmp_path, monkeypatch):
    import shutil

    package = tmp_path / "learnability"
    shutil.copytree(nullcache.Path(nullcache.__file__).resolve().parents[1], package,
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "from learnability.protocol import nullcache; print(nullcache.code_digest())"
    )

    def digest() -> str:
        done = subprocess.run([sys.executable, "-c", script, str(tmp_path)],
                              capture_output=True, text=True, check=True)  # fmt: skip
        return done.stdout.strip()

    before = digest()
    assert before == digest()
    stats = package / "statistics" / "significance.py"
    stats.write_text(stats.read_text() + "\n# a change\n")
    assert digest() != before
