"""Seeds and random splits. Every random draw derives from (base seed, a stable key,
iteration), so results do not depend on job order, process count or --cores."""

from __future__ import annotations

import hashlib

import numpy as np


def stable_key(*parts: object) -> int:
    """A 64-bit integer from strings/ints that is the same in every process and Python run
    (unlike ``hash``, which is salted per process)."""
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode("utf-8"), digest_size=8)
    return int.from_bytes(digest.digest(), "little")


def derive_seed(base_seed: int, *key: object) -> int:
    """A 32-bit seed for one task (iteration, random list), recorded in the outputs so any
    single iteration can be rerun on its own."""
    state = np.random.SeedSequence([int(base_seed), stable_key(*key)]).generate_state(1)
    return int(state[0])


def sample_nonmembers(rng: np.random.Generator, member_mask: np.ndarray, n: int) -> np.ndarray:
    """``n`` distinct vocabulary indices, uniform over the words outside ``member_mask``.

    Rejection sampling costs O(n) per call instead of the O(|V|) of a permutation, which
    matters for million-word vocabularies; it is exact (uniform without replacement).
    """
    vocab_size = member_mask.size
    available = vocab_size - int(member_mask.sum())
    if n > available:
        raise ValueError(f"need {n} non-members but only {available} words are not in the list")
    if 2 * n > available:
        # Dense regime: rejection would loop a long time; permute the complement.
        return rng.permutation(np.flatnonzero(~member_mask))[:n]
    chosen = np.empty(0, dtype=np.int64)
    while chosen.size < n:
        draw = rng.integers(0, vocab_size, size=2 * (n - chosen.size) + 16)
        draw = draw[~member_mask[draw]]
        # keep first occurrences in draw order, so the sample is the same given the rng
        merged = np.concatenate([chosen, draw])
        _, first = np.unique(merged, return_index=True)
        chosen = merged[np.sort(first)][:n]
    return chosen


def half_split(
    rng: np.random.Generator, members: np.ndarray, member_mask: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The paper's split: a random half of the members plus as many non-members for
    training; the other half plus as many *fresh* non-members for testing.

    Returns (train_idx, train_y, test_idx, test_y). With an odd number of members the
    test half gets the extra word.
    """
    perm = rng.permutation(members)
    n_train = members.size // 2
    pos_train, pos_test = perm[:n_train], perm[n_train:]
    neg = sample_nonmembers(rng, member_mask, pos_train.size + pos_test.size)
    neg_train, neg_test = neg[: pos_train.size], neg[pos_train.size :]
    train_idx = np.concatenate([pos_train, neg_train])
    test_idx = np.concatenate([pos_test, neg_test])
    train_y = np.concatenate([np.ones(pos_train.size, bool), np.zeros(neg_train.size, bool)])
    test_y = np.concatenate([np.ones(pos_test.size, bool), np.zeros(neg_test.size, bool)])
    return train_idx, train_y, test_idx, test_y
