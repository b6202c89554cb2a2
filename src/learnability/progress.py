"""Progress of a long step in the log: done of total, rate and ETA, at most every few
seconds, so that a job's log (or a notebook's) says how far a long fit or pass has got."""

from __future__ import annotations

import logging
import time

log = logging.getLogger("learnability")


class Progress:
    """Logs done/total, rate and ETA of a long step at most every ``every`` seconds (and
    once more on :meth:`finish`). ``scale`` turns counts into the logged unit (1e6 for
    bytes shown as MB); ``total`` None logs done and rate only."""

    def __init__(
        self,
        name: str,
        total: float | None,
        *,
        unit: str,
        scale: float = 1.0,
        start: float = 0,
        every: float = 10.0,
        logger: logging.Logger | None = None,
    ) -> None:
        self.name, self.total, self.unit, self.scale = name, total, unit, scale
        self.start = self.done = start
        self.every = every
        self.log = logger or log
        self.t0 = self.last = time.monotonic()

    def _fmt(self, value: float) -> str:
        return f"{value / self.scale:,.0f}" if self.scale == 1 else f"{value / self.scale:.1f}"

    def update(self, n: float, *, final: bool = False) -> None:
        self.done += n
        now = time.monotonic()
        if not final and now - self.last < self.every:
            return
        self.last = now
        rate = (self.done - self.start) / max(now - self.t0, 1e-9)
        r = rate / self.scale
        # slow steps (epochs, iterations) need decimals; fast ones (fits, MB) don't
        per_s = f"{r:,.0f}" if r >= 100 else f"{r:.1f}" if r >= 10 else f"{r:.2f}"
        if self.total:
            eta = (self.total - self.done) / rate if rate > 0 else float("inf")
            self.log.info(
                "%s: %s of %s %s (%.0f%%), %s %s/s, ETA %.0f s",
                self.name,
                self._fmt(self.done),
                self._fmt(self.total),
                self.unit,
                100.0 * self.done / self.total,
                per_s,
                self.unit,
                eta,
            )
        else:
            self.log.info("%s: %s %s, %s %s/s", self.name, self._fmt(self.done), self.unit,
                          per_s, self.unit)  # fmt: skip

    def finish(self) -> None:
        self.update(0, final=True)
