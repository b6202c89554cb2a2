"""The scratch a run may fill at once, which the run is scheduled within.

SLURM does not schedule disk: ``--tmp`` asks only that a node *have* that much temporary
disk (its ``TmpDisk``), so two trainings that each fit a node can land on it together
and fill it, each having passed its own free-space check at its start. So the budget is
kept by Snakemake's controller instead: every job that spills declares its scratch as
the resource ``tmp_mb`` (``job_resources(..., scratch=True)`` in
workflow/rules/helpers/resources.smk), and ``LEARNABILITY_SCRATCH_MB``, read by
profiles/default (which every run reads, beside profiles/slurm too) into the global
resource ``tmp_mb``, caps their sum over the jobs running at once.

Set it to one node's ``TmpDisk`` where scratch is each node's own: however SLURM places
the jobs, those running at once need no more than one node holds. Set it to the quota of
the shared scratch where ``LEARNABILITY_TMPDIR`` points at one. Unset, nothing is capped.
A job whose scratch need alone exceeds the budget could never start: the plan refuses it
(:func:`budgeted_scratch`)."""

from __future__ import annotations

import os

from learnability.errors import InputError

VARIABLE = "LEARNABILITY_SCRATCH_MB"


def scratch_budget(env: dict[str, str] | None = None) -> int | None:
    """MB of scratch the run may fill at once, or None (no budget). A value that is not a
    positive whole number of MB is refused in one line."""
    env = dict(os.environ) if env is None else env
    text = env.get(VARIABLE, "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) == 0:
        raise InputError(
            f"{VARIABLE}: {text!r} is not a positive whole number of MB (the scratch the run "
            "may fill at once, e.g. 400000 for a node's 400 GB TmpDisk)"
        )
    return int(text)


def budgeted_scratch(job: str, need_mb: float, declared_mb: int, budget_mb: int | None) -> int:
    """The ``tmp_mb`` ``job`` declares within the run's budget: its declaration, or the
    whole budget where the declaration's margin goes past it (the job then runs with no
    other spilling job beside it, as Snakemake would cap it anyway, and asks SLURM for no
    more than the budget's disk). A job whose ``need_mb`` alone is over the budget is
    refused in one line that names it, its need, the budget and the fix."""
    if budget_mb is None or declared_mb <= budget_mb:
        return declared_mb
    if need_mb > budget_mb:
        raise InputError(
            f"{job} needs {need_mb:,.0f} MB of scratch, over {VARIABLE}'s {budget_mb:,} MB "
            "(the scratch the run may fill at once): it could never start; raise "
            f"{VARIABLE} to what one node's TmpDisk (or the shared scratch) holds, or point "
            "LEARNABILITY_TMPDIR at a disk that holds it"
        )
    return budget_mb
