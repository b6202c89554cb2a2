"""A trainer's checkpoints in scratch, so that a training killed by a time limit or a
node's failure resumes where it stopped instead of starting again.

A training writes its state after every epoch (GloVe: iteration) into a folder of its
own under ``TMPDIR/learnability-checkpoints/``, named by what the training depends on
(the method, every parameter, the corpus' path, size and modification time): a rerun of
the same training finds it, a training with another parameter or corpus never does.
Each state is written beside the last one and takes its place only when complete, so a
kill while writing leaves the previous state; the folder is removed when the training
ends. What lasts a whole training (GloVe's counted co-occurrences) is kept there too,
as a *stage*, and read again on resume instead of counted again.

Every trainer trains epoch by epoch whether it checkpoints or not, so a resumed training
gives the vectors an uninterrupted one gives (with one thread, bit for bit:
tests/test_checkpoint.py kills trainers and resumes them).

On a cluster, a job rerun after a time-out may start on another node: scratch there must
be shared (``LEARNABILITY_TMPDIR``) for it to find its checkpoint; on a node's own disk
it starts again from the beginning (docs/how-to/cluster.md)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from learnability.io import atomic_path

ROOT = "learnability-checkpoints"
STATE = "state.json"


def corpus_identity(corpus: str | os.PathLike[str]) -> dict:
    """What stands for the corpus' content without reading it: its absolute path, size
    and modification time (a corpus written again is another corpus)."""
    path = Path(corpus).resolve()
    stat = path.stat()
    return {"path": str(path), "bytes": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def folder_bytes(folder: str | os.PathLike[str]) -> int:
    """The bytes of the files under ``folder`` (0 where it does not exist)."""
    root = Path(folder)
    if not root.exists():
        return 0
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def kept_mb(tmpdir: str | os.PathLike[str], method: str) -> float:
    """MB of scratch that ``method``'s checkpoints in ``tmpdir`` take already: a resumed
    training needs that much less free (another training of the same method keeping
    checkpoints in the same scratch is counted too)."""
    root = Path(tmpdir) / ROOT
    return sum(folder_bytes(f) for f in root.glob(f"{method}-*")) / 1e6 if root.is_dir() else 0.0


class Checkpoints:
    """The checkpoints of one training: ``key`` (JSON-serialisable) names it under
    ``tmpdir``'s :data:`ROOT`."""

    def __init__(self, tmpdir: str | os.PathLike[str], method: str, key: dict) -> None:
        text = json.dumps({"method": method, **key}, sort_keys=True, default=str)
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        self.folder = Path(tmpdir) / ROOT / f"{method}-{digest}"

    def last(self) -> tuple[int, Path] | None:
        """(epochs done, the state's folder) of the last complete state, or None."""
        state = self.folder / STATE
        if not state.exists():
            return None
        done = int(json.loads(state.read_text(encoding="utf-8"))["done"])
        path = self.folder / f"epoch-{done}"
        return (done, path) if path.is_dir() else None

    def save(self, done: int, write: Callable[[Path], None]) -> None:
        """The state after ``done`` epochs: ``write`` fills an empty folder; it becomes the
        last state only once written, and the one before is removed after."""
        previous = self.last()
        partial = self.folder / f".epoch-{done}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        write(partial)
        target = self.folder / f"epoch-{done}"
        shutil.rmtree(target, ignore_errors=True)
        os.replace(partial, target)
        with atomic_path(self.folder / STATE) as tmp:
            tmp.write_text(json.dumps({"done": done}), encoding="utf-8")
        if previous is not None and previous[1] != target:
            shutil.rmtree(previous[1], ignore_errors=True)

    def stage(self, name: str) -> Path | None:
        """The folder of a finished stage ``name`` (what lasts the whole training), or None."""
        path = self.folder / f"stage-{name}"
        return path if path.is_dir() else None

    def save_stage(self, name: str, write: Callable[[Path], None]) -> Path:
        """Stage ``name``: ``write`` fills an empty folder, which is kept once written."""
        partial = self.folder / f".stage-{name}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        write(partial)
        target = self.folder / f"stage-{name}"
        os.replace(partial, target)
        return target

    def clear(self) -> None:
        """Remove the training's checkpoints (it ended)."""
        shutil.rmtree(self.folder, ignore_errors=True)
