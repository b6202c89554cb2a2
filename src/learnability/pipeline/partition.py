"""The time limit of the SLURM partition a cluster run's jobs go to, which every job's
declared runtime is held to while the run is planned (``job_resources`` in
workflow/rules/helpers/resources.smk, :func:`learnability.pipeline.resources.limited_runtime`):
under SLURM's default ``EnforcePartLimits=NO`` a job asking for more than its partition's
limit is not refused but pends for ever, and the run waits on it.

The limit comes from ``LEARNABILITY_TIME_LIMIT`` where it is set (SLURM's time format:
``MINUTES``, ``HH:MM:SS``, ``D-HH``, ``D-HH:MM:SS``...; ``none`` for no limit), else from
``sinfo`` for the partition ``SBATCH_PARTITION`` names (the variable the cluster profile
submits to), where both are there. A local run with neither has no limit."""

from __future__ import annotations

import functools
import os
import re
import subprocess
from typing import NamedTuple

from learnability.errors import InputError

VARIABLE = "LEARNABILITY_TIME_LIMIT"
UNLIMITED = ("infinite", "unlimited", "none", "")


class Limit(NamedTuple):
    """A time limit in minutes, and where it was read (for the message that cites it)."""

    minutes: float
    source: str


def parse_slurm_time(text: str, source: str = VARIABLE) -> float | None:
    """Minutes of a SLURM time (``sbatch --time``'s formats: ``M``, ``M:S``, ``H:M:S``,
    ``D-H``, ``D-H:M``, ``D-H:M:S``); None for no limit (``infinite``, ``UNLIMITED``,
    ``none``). A text of another shape is refused in one line naming ``source``."""
    value = text.strip()
    if value.lower() in UNLIMITED:
        return None
    m = re.fullmatch(r"(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?", value)
    if m is None:
        raise InputError(
            f"{source}: {text!r} is not a SLURM time limit (minutes, HH:MM:SS or "
            "D-HH:MM:SS, or none)"
        )
    days, first, second, third = m.groups()
    numbers = [int(first)] + [int(x) for x in (second, third) if x is not None]
    if days is not None:  # D-H, D-H:M, D-H:M:S
        hours, minutes, seconds = (numbers + [0, 0])[:3]
        return int(days) * 1440 + hours * 60 + minutes + seconds / 60
    if len(numbers) == 3:  # H:M:S
        return numbers[0] * 60 + numbers[1] + numbers[2] / 60
    if len(numbers) == 2:  # M:S
        return numbers[0] + numbers[1] / 60
    return float(numbers[0])


@functools.lru_cache(maxsize=8)
def _sinfo_limit(partition: str) -> str | None:
    """``sinfo``'s time limit of ``partition``, or None where sinfo is not there or does
    not answer (a machine that is no cluster's)."""
    try:
        got = subprocess.run(["sinfo", "-h", "-p", partition, "-o", "%l"], capture_output=True,
                             text=True, timeout=30, check=False)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = got.stdout.split()
    return lines[0] if got.returncode == 0 and lines else None


def time_limit(env: dict[str, str] | None = None) -> Limit | None:
    """The run's partition time limit (see the module's text), or None."""
    env = dict(os.environ) if env is None else env
    if env.get(VARIABLE) is not None:
        minutes = parse_slurm_time(env[VARIABLE])
        return None if minutes is None else Limit(minutes, VARIABLE)
    partition = env.get("SBATCH_PARTITION", "")
    if not partition:
        return None
    text = _sinfo_limit(partition)
    minutes = None if text is None else parse_slurm_time(text, f"sinfo -p {partition}")
    return None if minutes is None else Limit(minutes, f"sinfo, partition {partition}")
