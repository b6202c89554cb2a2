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
    # count_nonzero: a bool sum is 4x slower, and this runs once per split
    available = vocab_size - int(np.count_nonzero(member_mask))
    if n > available:
        raise ValueError(f"need {n} non-members but only {available} words are not in the list")
    if 2 * n > available:
        # Dense regime: rejection would loop a long time; permute the complement.
        return rng.permutation(np.flatnonzero(~member_mask))[:n]
    chosen: list[int] = []
    while len(chosen) < n:
        draw = rng.integers(0, vocab_size, size=2 * (n - len(chosen)) + 16)
        draw = draw[~member_mask[draw]]
        # keep first occurrences in draw order, so the sample is the same given the rng
        # (a dict keeps insertion order; for the few hundred draws of a split it is
        # several times faster than np.unique with a sort of the first indices)
        chosen = list(dict.fromkeys([*chosen, *draw.tolist()]))[:n]
    return np.array(chosen, dtype=np.int64)


def frequency_bins(counts: np.ndarray, n_bins: int) -> np.ndarray:
    """Bin id (0 = rarest) per vocabulary word: equal-population bins of log frequency.

    Used to draw non-members with the members' frequency profile: uniform draws from a
    min_count-5 vocabulary are mostly rare words, which confounds learnability with
    frequency.
    """
    counts = np.asarray(counts, dtype=float)
    if counts.size == 0 or not (counts > 0).all():
        raise ValueError(
            "frequency-matched negatives need the corpus count of every vocabulary word; "
            "this embedding's vocab.parquet has zero counts. Use negatives: [uniform]."
        )
    edges = np.quantile(np.log(counts), np.linspace(0, 1, n_bins + 1)[1:-1])
    # side="left": words tied with an edge stay in the lower bin, so the rarest words
    # (many share the minimum count) are bin 0
    return np.searchsorted(edges, np.log(counts), side="left").astype(np.int64)


def baseline_bins(counts: np.ndarray | None, n_bins: int) -> np.ndarray | None:
    """Frequency bins for a baseline matched to frequency whatever the negatives scheme
    (the suggestions' check), or None where some word has no count: then the baseline is
    uniform, and the check's table says so."""
    counts = None if counts is None else np.asarray(counts)
    if counts is None or not counts.size or not (counts > 0).all():
        return None
    return frequency_bins(counts, n_bins)


def profile_key(bins: np.ndarray, members: np.ndarray, n_bins: int) -> str:
    """The members' frequency profile (words per bin) as a file-name-safe key."""
    hist = np.bincount(bins[members], minlength=n_bins)
    return "profile-" + "-".join(map(str, hist))


def parse_key(key: str) -> tuple[str, np.ndarray]:
    """``size-400`` -> ("size", [400]); ``profile-1-0-3`` -> ("profile", [1, 0, 3])."""
    kind, _, rest = key.partition("-")
    if kind not in ("size", "profile") or not rest:
        raise ValueError(f"bad null key {key!r}: expected size-N or profile-N-N-...")
    return kind, np.array([int(x) for x in rest.split("-")], dtype=np.int64)


def sample_by_profile(
    rng: np.random.Generator, pools: list[np.ndarray], counts: np.ndarray
) -> list[np.ndarray]:
    """``counts[b]`` distinct draws from ``pools[b]`` for every bin ``b``."""
    out = []
    for b, k in enumerate(counts):
        if k > pools[b].size:
            raise ValueError(
                f"frequency bin {b} needs {k} non-members but holds only {pools[b].size}; "
                "use fewer learnability.frequency_bins"
            )
        out.append(rng.choice(pools[b], size=int(k), replace=False) if k else pools[b][:0])
    return out


def split_concept(
    rng: np.random.Generator,
    members: np.ndarray,
    member_mask: np.ndarray,
    *,
    train_fraction: float = 0.5,
    bins: np.ndarray | None = None,
    pools: list[np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The paper's split: a random ``train_fraction`` of the members (a half by default)
    plus as many non-members for training; the other members plus as many *fresh*
    non-members for testing.

    Non-members are uniform over the vocabulary minus the list, or, with ``bins`` and
    ``pools`` (non-member indices per frequency bin), drawn bin by bin so that the
    training and test negatives each have the frequency profile of their positives.
    Returns (train_idx, train_y, test_idx, test_y).
    """
    perm = rng.permutation(members)
    n_train = min(max(int(train_fraction * members.size), 2), members.size - 2)
    pos_train, pos_test = perm[:n_train], perm[n_train:]
    if bins is None:
        neg = sample_nonmembers(rng, member_mask, pos_train.size + pos_test.size)
        neg_train, neg_test = neg[: pos_train.size], neg[pos_train.size :]
    else:
        assert pools is not None
        n_bins = len(pools)
        k_train = np.bincount(bins[pos_train], minlength=n_bins)
        k_test = np.bincount(bins[pos_test], minlength=n_bins)
        drawn = sample_by_profile(rng, pools, k_train + k_test)
        neg_train = np.concatenate([d[:k] for d, k in zip(drawn, k_train, strict=True)])
        neg_test = np.concatenate([d[k:] for d, k in zip(drawn, k_train, strict=True)])
    train_idx = np.concatenate([pos_train, neg_train])
    test_idx = np.concatenate([pos_test, neg_test])
    train_y = np.concatenate([np.ones(pos_train.size, bool), np.zeros(neg_train.size, bool)])
    test_y = np.concatenate([np.ones(pos_test.size, bool), np.zeros(neg_test.size, bool)])
    return train_idx, train_y, test_idx, test_y


def half_split(
    rng: np.random.Generator, members: np.ndarray, member_mask: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`split_concept` with uniform negatives and a half split."""
    return split_concept(rng, members, member_mask)


def null_key(members: np.ndarray, negatives: str, bins: np.ndarray | None, n_bins: int) -> str:
    """Which null a list is compared with: random lists of its size (``size-N``) or, with
    frequency-matched negatives, of its frequency profile (``profile-...``). The jobs and
    the workflow's DAG both ask here."""
    if negatives == "frequency_matched":
        if bins is None:
            raise ValueError("frequency-matched negatives need the vocabulary's frequency bins")
        return profile_key(bins, members, n_bins)
    return f"size-{np.asarray(members).size}"
