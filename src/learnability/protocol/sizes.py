"""Which lists can be scored: the fewest members a split works with, and the one rule for
a list that cannot be (a row that says why, or an error that says what to do).

Kept apart from :mod:`learnability.protocol.evaluate` because the workflow's planning
asks it when the Snakefile is parsed, which then loads neither the fitting kernels
(numba, about 0.12 s) nor pandas' share of the protocol."""

from __future__ import annotations

from learnability.defaults import default
from learnability.errors import InputError

# Each part of a split must hold at least two members, or recall and AUC are degenerate:
# the fewest words any list, a random one included, is split with (the schema's minimum
# of learnability.min_words, which may ask more of a real list; a test keeps them equal)
FEWEST_WORDS = 4
# score()'s and a Protocol's default (a workflow job gets the config's as a param)
MIN_WORDS: int = default("learnability.min_words")


def words(n: int) -> str:
    return f"{n} word" if n == 1 else f"{n} words"


def unscored_reason(n: int, vocab_size: int, min_words: int = MIN_WORDS) -> str | None:
    """Why a list of ``n`` words in a vocabulary of ``vocab_size`` cannot be scored
    (None when it can): both halves need two members, and as many non-members as members
    must be drawn. The workflow, score(), the sweeps and the corpus comparison report
    such a list as a row that says this, and score the others."""
    if n < min_words:
        return (
            f"only {words(n)} in the embedding's vocabulary; at least {min_words} are "
            "needed so that both halves hold two members"
        )
    if 2 * n > vocab_size:
        return (
            f"{n} words but the vocabulary has only {vocab_size}; the list must be at most "
            "half the vocabulary so that as many non-members can be drawn"
        )
    return None


def check_size(n: int, vocab_size: int, what: str, min_words: int = MIN_WORDS) -> None:
    reason = unscored_reason(n, vocab_size, min_words)
    if reason is None:
        return
    fix = (
        ". Add words to the list, use a larger corpus, or lower learnability.min_words."
        if n < min_words
        else ""
    )
    raise InputError(f"{what}: {reason}{fix}")
