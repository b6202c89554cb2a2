"""Logging for workflow scripts: everything goes to the rule's log file, and an error is
written there (and to stderr) with its message before the job fails: bad input (a
:class:`~learnability.errors.LearnabilityError`) in its one line alone, without a
traceback.

Given the ``snakemake`` object of a script, the log starts with the rule, its wildcards,
inputs and parameters, and ends, on success, with every output written and its size, so
that a log read alone says what the job did."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from learnability.errors import LearnabilityError

log = logging.getLogger("learnability")


MAX_LISTED = 12  # inputs listed one by one; beyond, a count and the first few


def _human(n: int) -> str:
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


def _paths(named: Any) -> list[tuple[str, list[str]]]:
    """(name, paths) of a Snakemake Namedlist: named entries first, then unnamed ones."""
    out: list[tuple[str, list[str]]] = []
    seen: set[str] = set()
    for name, value in named.items():
        files = [value] if isinstance(value, str) else [str(v) for v in value]
        out.append((name, files))
        seen.update(files)
    rest = [str(v) for v in named if str(v) not in seen]
    if rest:
        out.append(("", rest))
    return out


def _describe(label: str, groups: Iterable[tuple[str, list[str]]]) -> list[str]:
    lines = []
    for name, files in groups:
        head = f"{label} {name}".strip()
        if len(files) <= MAX_LISTED:
            lines += [f"{head}: {f}" for f in files]
        else:
            shown = ", ".join(files[:3])
            lines.append(f"{head}: {len(files)} files ({shown}, ...)")
    return lines


def job_header(smk: Any) -> list[str]:
    """What a job was asked to do: rule, wildcards, inputs and params."""
    lines = [f"rule {getattr(smk, 'rule', '?')}"]
    wildcards = dict(smk.wildcards.items()) if hasattr(smk, "wildcards") else {}
    if wildcards:
        lines.append("wildcards: " + ", ".join(f"{k}={v}" for k, v in wildcards.items()))
    lines += _describe("input", _paths(smk.input))
    for name, value in smk.params.items():
        lines.append(f"param {name}: {value!r}")
    if getattr(smk, "threads", None):
        lines.append(f"threads: {smk.threads}")
    return lines


def job_footer(smk: Any) -> list[str]:
    """What a job wrote: each output and its size (a directory: its file count)."""
    lines = []
    for name, files in _paths(smk.output):
        for f in files:
            path = Path(f)
            if path.is_dir():
                n = sum(1 for _ in path.rglob("*"))
                lines.append(f"wrote {name or 'output'}: {f} (directory, {n} entries)")
            elif path.exists():
                lines.append(f"wrote {name or 'output'}: {f} ({_human(os.path.getsize(f))})")
            else:
                lines.append(f"MISSING {name or 'output'}: {f}")
    return lines


def as_written(message: str, cwd: str | os.PathLike[str] | None = None) -> str:
    """``message`` with each path under the working folder (``cwd``, else the current
    one) relative to it, as the user wrote it in the config: the workflow anchors a
    corpus' files to absolute paths (:func:`learnability.corpus.sources.corpus_plan`),
    which would make ``/home/u/proj/data/corpus.csv:41`` of ``data/corpus.csv:41``."""
    here = Path(cwd) if cwd is not None else Path.cwd()
    for folder in dict.fromkeys([str(here), str(here.resolve())]):
        if folder != os.sep:  # the root: every absolute path is "under" it
            message = message.replace(folder.rstrip(os.sep) + os.sep, "")
    return message


def _untold(exc: BaseException) -> None:
    """Python prints no traceback when ``exc``, already logged in one line, ends the
    script (a job's; Snakemake then runs the script in a process of its own): the
    process still exits with status 1, and Snakemake reports the job as failed. Every
    other exception is printed as before; an in-process caller (a test) still gets
    ``exc`` itself."""
    before = sys.excepthook

    def hook(kind: type[BaseException], value: BaseException, tb: Any) -> None:
        if value is not exc:
            before(kind, value, tb)

    sys.excepthook = hook


@contextlib.contextmanager
def logged(job: Any) -> Iterator[logging.Logger]:
    """Log to the job's log file (and stderr) for the duration of a script. ``job`` is the
    script's ``snakemake`` object (preferred: the log then says what the job read and
    wrote) or a log path (or None: stderr only)."""
    smk = None if job is None or isinstance(job, str | os.PathLike) else job
    log_path = str(smk.log[0]) if smk is not None and len(smk.log) else job
    if smk is not None and not len(smk.log):
        log_path = None
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_path:
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_path, mode="w", encoding="utf-8"))
    logging.basicConfig(
        level=logging.INFO,
        handlers=handlers,
        force=True,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.captureWarnings(True)
    with contextlib.ExitStack() as stack:
        if smk is not None:
            # what the job writes carries its record (importing the records installs
            # their maker in learnability.io, which every writer asks)
            from learnability import provenance

            stack.enter_context(provenance.job(smk))
            for line in job_header(smk):
                log.info("%s", line)
        try:
            yield log
        except LearnabilityError as exc:
            # bad input: its one line, which says what to fix, and no traceback
            log.error("%s", as_written(str(exc)))
            _untold(exc)
            raise
        except Exception as exc:
            log.error("%s: %s", type(exc).__name__, exc)
            raise
        if smk is not None:
            for line in job_footer(smk):
                log.info("%s", line)
