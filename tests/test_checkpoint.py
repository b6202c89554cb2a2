"""Training that survives a kill: each trainer, killed (SIGKILL, in a process of its own)
right after its checkpoint of epoch 2 of 4, resumes from it when run again, trains the 2
epochs left and no more, and ends with the vectors of a training never killed, bit for
bit (one thread); a checkpoint is used only by the training it belongs to."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from learnability.embeddings.checkpoint import ROOT, Checkpoints, folder_bytes, kept_mb
from learnability.pipeline import resources as cost

PARAMS = dict(dim=12, window=2, min_count=3, negative=3, sample=0.0, alpha=0.025,
              min_alpha=0.0001, epochs=4, seed=1, minn=3, maxn=4, bucket=3000)  # fmt: skip
GLOVE = dict(PARAMS, x_max=10, alpha=0.75, learning_rate=0.05, vectors="sum")
METHODS = {"word2vec": PARAMS, "fasttext": PARAMS, "glove": GLOVE}

# a training in a process of its own, killed with SIGKILL (nothing of it runs after)
# right after its checkpoint of epoch KILL_AFTER is written; 0: never
SCRIPT = textwrap.dedent(
    """
    import json, os, signal, sys
    import numpy as np
    from learnability.embeddings import checkpoint, train

    method, corpus, params, tmpdir, out, kill_after = sys.argv[1:]
    save = checkpoint.Checkpoints.save

    def save_then_die(self, done, write):
        save(self, done, write)
        if done == int(kill_after):
            os.kill(os.getpid(), signal.SIGKILL)

    checkpoint.Checkpoints.save = save_then_die
    import logging
    logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(message)s")
    emb = train(method, corpus, json.loads(params), 1, tmpdir=tmpdir)
    np.save(out + ".npy", emb.vectors)
    with open(out + ".json", "w") as fh:
        json.dump({"words": emb.words, "meta": emb.meta}, fh, default=str)
    """
)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> str:
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(60)]
    lines = [" ".join(rng.choice(words, size=14)) for _ in range(400)]
    path = tmp_path_factory.mktemp("c") / "text.txt.gz"
    with gzip.open(path, "wt") as fh:
        fh.write("\n".join(lines) + "\n")
    return str(path)


def _train(method: str, corpus: str, tmpdir: Path, out: Path, kill_after: int = 0,
           params: dict | None = None) -> subprocess.CompletedProcess:  # fmt: skip
    tmpdir.mkdir(parents=True, exist_ok=True)
    args = [method, corpus, json.dumps(params or METHODS[method]), str(tmpdir), str(out),
            str(kill_after)]  # fmt: skip
    # gensim seeds each word's first vector from Python's string hash
    env = dict(os.environ, PYTHONHASHSEED="0")
    return subprocess.run([sys.executable, "-c", SCRIPT, *args], capture_output=True,
                          text=True, env=env, timeout=300)  # fmt: skip


def test_these_are_the_trainers_that_checkpoint():
    from learnability.embeddings import registry

    assert sorted(METHODS) == sorted(n for n, m in registry.METHODS.items() if m.checkpoints)


@pytest.mark.parametrize("method", sorted(METHODS))
def test_a_trainer_killed_after_epoch_2_resumes_there_and_ends_as_if_never_killed(
    method, corpus, tmp_path
):
    unit = "iteration" if method == "glove" else "epoch"
    whole = _train(method, corpus, tmp_path / "scratch-a", tmp_path / "whole")
    assert whole.returncode == 0, whole.stderr[-3000:]
    # in the folder the docs name, and removed when done
    assert ROOT == "learnability-checkpoints"
    assert not list((tmp_path / "scratch-a" / "learnability-checkpoints").iterdir())

    scratch = tmp_path / "scratch-b"
    killed = _train(method, corpus, scratch, tmp_path / "killed", kill_after=2)
    assert killed.returncode == -9, killed.stderr[-3000:]
    assert not (tmp_path / "killed.npy").exists()
    (folder,) = (scratch / ROOT).iterdir()
    assert json.loads((folder / "state.json").read_text()) == {"done": 2}
    # what the job's scratch check takes off its need, and within the scratch model's
    # share for one state (two at the peak): 60 words x 12 dims, 3000 n-gram buckets
    kept = kept_mb(scratch, method)
    assert kept == folder_bytes(folder) / 1e6 > 0 and kept_mb(scratch, "other") == 0
    assert kept <= cost.checkpoint_mb(method, 60, 12, PARAMS["bucket"]) / 2

    again = _train(method, corpus, scratch, tmp_path / "again")
    assert again.returncode == 0, again.stderr[-3000:]
    log = again.stdout
    assert f"resuming from the checkpoint after {unit} 2 of 4" in log, log
    # two epochs trained, not four
    done = [line for line in log.splitlines() if line.startswith("training: ")]
    assert [d.split(" (")[0] for d in done] == [f"training: {k} of 2 {unit}s" for k in (1, 2)]
    meta = json.loads((tmp_path / "again.json").read_text())["meta"]
    assert meta[f"resumed_after_{unit}s"] == 2
    if method == "glove":  # the counts were kept, not counted again
        assert "resuming with the counts kept in" in log
        assert len(meta["cost_history"]) == 4
    np.testing.assert_array_equal(np.load(tmp_path / "again.npy"), np.load(tmp_path / "whole.npy"))
    assert not (scratch / ROOT / folder.name).exists()


def test_a_checkpoint_is_resumed_only_by_its_own_training(corpus, tmp_path):
    """Killed with one seed, a training with another seed, or on another corpus, starts
    from the beginning (and leaves the first one's checkpoint where it is)."""
    scratch = tmp_path / "scratch"
    assert _train("word2vec", corpus, scratch, tmp_path / "k", kill_after=1).returncode == -9
    (kept,) = (scratch / ROOT).iterdir()
    other = _train("word2vec", corpus, scratch, tmp_path / "o", params=dict(PARAMS, seed=2))
    assert other.returncode == 0 and "resuming" not in other.stdout
    copy = tmp_path / "copy.txt.gz"
    copy.write_bytes(Path(corpus).read_bytes())
    moved = _train("word2vec", str(copy), scratch, tmp_path / "m")
    assert moved.returncode == 0 and "resuming" not in moved.stdout
    assert json.loads((tmp_path / "m.json").read_text())["meta"]["resumed_after_epochs"] == 0
    assert [p.name for p in (scratch / ROOT).iterdir()] == [kept.name]


def test_a_state_half_written_leaves_the_one_before(tmp_path):
    """A kill while a state is written (here: its writer fails) leaves the last complete
    state as the one to resume from; a complete one replaces it and removes it."""
    points = Checkpoints(tmp_path, "m", {"k": 1})
    assert points.last() is None
    points.save(1, lambda d: (d / "x").write_text("one"))

    def dies(folder: Path) -> None:
        (folder / "x").write_text("tw")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        points.save(2, dies)
    done, path = points.last()
    assert done == 1 and (path / "x").read_text() == "one"
    points.save(2, lambda d: (d / "x").write_text("two"))
    done, path = points.last()
    assert done == 2 and (path / "x").read_text() == "two"
    assert sorted(p.name for p in points.folder.iterdir() if not p.name.startswith(".")) == [
        "epoch-2", "state.json"
    ]  # fmt: skip
    assert Checkpoints(tmp_path, "m", {"k": 2}).last() is None
    points.clear()
    assert not points.folder.exists()
    # nothing kept: no bytes, whether the folder is there or not
    assert folder_bytes(tmp_path / "none") == 0 and kept_mb(tmp_path / "none", "m") == 0


def test_a_training_of_one_epoch_keeps_no_state_and_leaves_nothing(corpus, tmp_path):
    """A state is kept only between epochs: one epoch writes none, and the training ends
    as it does without scratch, its (never made) folder cleared without an error."""
    from learnability.embeddings import train

    kept = train("word2vec", corpus, dict(PARAMS, epochs=1), 1, tmpdir=str(tmp_path))
    assert kept.meta["resumed_after_epochs"] == 0
    assert not (tmp_path / "learnability-checkpoints").exists()
