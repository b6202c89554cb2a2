"""The protocol's two steps, public for every analysis that reuses them: the splits of one
list (each from its own seed, keyed on the list's name) and one fit per split, scored
on its test half. The learnability job, the null, the suggestions, their check and the
entanglement all draw and fit through here, so that an analysis that must see the
learnability job's own splits (entanglement) gets them by calling :func:`concept_seeds`,
not by copying its seed key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from learnability.protocol.lbfgs import decision_values
from learnability.protocol.metrics import batch_metrics, batch_tpr_at
from learnability.protocol.sampling import derive_seed, split_concept

if TYPE_CHECKING:
    from learnability.protocol.evaluate import Protocol

# One split: (train rows, train labels, test rows, test labels)
Split = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]

# What a real list's splits are keyed on, beside the run's seed and the list's name
CONCEPT_SEED_KEY = "concept"


def concept_seeds(seed: int, list_name: str, iterations: int) -> list[int]:
    """The seeds of a list's splits: split i of list L has the same seed whatever the
    embedding, the negatives scheme or ``iterations`` (a shorter run is a prefix of a
    longer one), so embeddings that share a vocabulary see the same splits."""
    return [derive_seed(seed, CONCEPT_SEED_KEY, list_name, i) for i in range(iterations)]


def frequency_pools(bins: np.ndarray, mask: np.ndarray, n_bins: int) -> list[np.ndarray]:
    """The rows outside ``mask`` in each frequency bin: where matched negatives are drawn."""
    return [np.flatnonzero((bins == b) & ~mask) for b in range(n_bins)]


def draw_splits(
    n_vocab: int,
    members: np.ndarray,
    protocol: Protocol,
    seeds: list[int],
    bins: np.ndarray | None,
) -> list[Split]:
    """Every split of one list (``members``: its rows), each from its own seed, with the
    protocol's training fraction and negatives (frequency-matched ones need ``bins``)."""
    mask = np.zeros(n_vocab, dtype=bool)
    mask[members] = True
    matched = protocol.negatives == "frequency_matched"
    if matched and bins is None:
        raise ValueError("frequency_matched negatives need frequency bins")
    pools = frequency_pools(bins, mask, protocol.n_bins) if matched else None
    return [
        split_concept(
            np.random.default_rng(seed),
            members,
            mask,
            train_fraction=protocol.train_fraction,
            bins=bins if matched else None,
            pools=pools,
        )
        for seed in seeds
    ]


@dataclass(frozen=True)
class SplitFits:
    """The splits of one call of :func:`fit_splits`, fitted and scored: each split's test
    rows and labels, its classifier's decision values on them, and its fitted (w, b).
    The metrics, the ROC curve and the members' held-out scores are computed from these
    on request, so an analysis pays only for what it reads."""

    test_idx: np.ndarray  # (splits, n_test) rows
    test_y: np.ndarray  # (splits, n_test) labels (1: member)
    scores: np.ndarray  # (splits, n_test) decision values
    coef: np.ndarray  # (splits, d + 1): each split's (w, b)

    def metrics(self) -> dict[str, np.ndarray]:
        """Each metric of :data:`~learnability.protocol.metrics.METRICS`, one per split."""
        return batch_metrics(self.test_y, self.scores)

    def rows(self) -> list[dict[str, float]]:
        """The metrics as one dict per split, in split order."""
        metrics = self.metrics()
        return [{m: float(v[i]) for m, v in metrics.items()} for i in range(len(self.scores))]

    def tpr(self) -> np.ndarray:
        """(splits, len(ROC_GRID)): each split's TPR at the ROC grid's FPRs."""
        return batch_tpr_at(self.test_y, self.scores)

    def member_scores(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every test member's held-out scores (:func:`member_scores`)."""
        return member_scores(self.test_idx, self.test_y, self.scores)


def fit_splits(
    vectors: np.ndarray,
    splits: list[Split],
    protocol: Protocol,
    *,
    centre: np.ndarray | None = None,
) -> SplitFits:
    """Fit every split (in batches) with the protocol's classifier and score its test
    half. ``centre``: the fits' centre (:func:`~learnability.protocol.classify.fit_many`),
    for a job that calls this on batches of its splits; by default the splits' own."""
    train_idx = np.stack([sp[0] for sp in splits])
    train_y = np.stack([sp[1] for sp in splits]).astype(np.float64)
    coef = protocol.fit.run(vectors, train_idx, train_y, center=True if centre is None else centre)
    test_idx = np.stack([sp[2] for sp in splits])
    test_y = np.stack([sp[3] for sp in splits])
    return SplitFits(test_idx, test_y, decision_values(vectors, test_idx, coef), coef)


def member_scores(
    test_idx: np.ndarray, test_y: np.ndarray, scores: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every member in every test half: (its word index, its held-out probability
    sigmoid(score), the share of that split's test non-members it outscores, ties
    counting one half). The share is the member's own contribution to the split's AUC."""
    words, probs, shares = [], [], []
    for idx, y, z in zip(test_idx, test_y.astype(bool), scores, strict=True):
        neg = np.sort(z[~y])
        pos = z[y]
        below = np.searchsorted(neg, pos, side="left")
        ties = np.searchsorted(neg, pos, side="right") - below
        shares.append((below + 0.5 * ties) / max(1, neg.size))
        probs.append(0.5 * (1.0 + np.tanh(0.5 * pos)))  # sigmoid without overflow
        words.append(idx[y])
    return np.concatenate(words), np.concatenate(probs), np.concatenate(shares)
