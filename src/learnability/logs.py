"""Logging for workflow scripts: everything goes to the rule's log file, and an error is
written there (and to stderr) with its message before the job fails."""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from pathlib import Path

log = logging.getLogger("learnability")


@contextlib.contextmanager
def logged(log_path: str | None) -> Iterator[logging.Logger]:
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
    try:
        yield log
    except Exception as exc:
        log.error("%s: %s", type(exc).__name__, exc)
        raise
