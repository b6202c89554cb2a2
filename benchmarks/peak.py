"""What the memory benchmarks share: a process's anonymous resident memory (what a job's
memory limit must hold beyond the page cache of the files it maps) and a sampler of its
peak."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path


def rss_anon() -> int:
    """The process's anonymous resident memory in bytes (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) * 1024
    raise SystemExit("no RssAnon in /proc/self/status: this benchmark needs Linux")


class Peak:
    """The largest value of ``sample`` (bytes; RssAnon by default) seen by a sampling
    thread, every ``every`` seconds."""

    def __init__(self, every: float = 0.02, sample: Callable[[], int] = rss_anon) -> None:
        self.sample, self.every, self._stop = sample, every, threading.Event()
        self.peak = sample()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.sample())
            time.sleep(self.every)

    def __enter__(self) -> Peak:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self.sample())
