"""How fast a concept is learned: the online codelength of its labels (Voita & Titov 2020,
"Information-Theoretic Probing with Minimum Description Length"), in bits.

One *order* of a list: its n members, each paired with a non-member (uniform over the
vocabulary outside the list, or from the member's frequency bin, as the negatives
scheme draws them), the pairs in a random order. The labels are sent block by block: the
first ``f_1 n`` pairs with the uniform code (1 bit a label); then for each fraction
``f_s``, the protocol's classifier (the same L2 logistic regression and ``C``) is fitted
to the first ``f_s n`` pairs and the next pairs, up to ``f_{s+1} n``, cost
``-log2 p(label | vector)`` under it: Voita & Titov's online code, here the *raw*
codelength. The uniform code costs 2n bits.

A classifier fitted to a few pairs in hundreds of dimensions separates them, and its
confident guesses on fresh words of a random list can cost more than the uniform code:
on Gaussian vectors (d = 50, 40-word lists, C = 1) the raw code of a random list is 1.75
bits a label. So the message starts with one bit that says which code follows, the
online code or the uniform one, whichever is shorter (a code the receiver can decode).
That codelength, 1 + min(raw, 2n), is what ``bits_mean`` and ``compression`` (2n /
codelength) report, with the raw code beside it: a random list stays near compression
1, and a list whose raw code is shorter than the uniform one pays one bit for the
choice. (A flag per block, tried first, cost small lists too much: 4 bits on the 22 of
an 11-word list.)

Pairs, not a shuffled pool, keep every prefix balanced, so the first blocks' classifiers
always see both labels and the code measures the vectors, not the label ratio. Unlike
accuracy, the codelength needs no choice of training size: it sums over all of them.

For the null, the same is computed for random lists of the same size (or frequency
profile), one order each: their mean and spread are what a list's compression is read
against.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from learnability.analyses.base import Analysis, Lists, Setting
from learnability.protocol.sampling import derive_seed, sample_by_profile, sample_nonmembers
from learnability.protocol.sizes import check_size

if TYPE_CHECKING:
    from learnability.protocol.evaluate import Protocol

LN2 = float(np.log(2.0))


def block_ends(n_pairs: int, fractions: list[float]) -> np.ndarray:
    """The pairs sent after each block: ``round(f n)`` for each fraction (at least 1,
    distinct, increasing), then n."""
    ends = sorted({min(max(1, round(f * n_pairs)), n_pairs) for f in fractions} | {n_pairs})
    return np.asarray(ends, dtype=np.int64)


def draw_order(
    rng: np.random.Generator,
    members: np.ndarray,
    member_mask: np.ndarray,
    bins: np.ndarray | None = None,
    pools: list[np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """One order: (members, their paired non-members), both in sending order. With
    ``bins`` and ``pools``, each member's non-member comes from the member's bin."""
    perm = rng.permutation(members)
    if bins is None:
        return perm, sample_nonmembers(rng, member_mask, perm.size)
    assert pools is not None
    member_bins = bins[perm]
    drawn = sample_by_profile(rng, pools, np.bincount(member_bins, minlength=len(pools)))
    partner = np.empty_like(perm)
    for b, words in enumerate(drawn):
        partner[member_bins == b] = words
    return perm, partner


def online_codelengths(
    vectors: np.ndarray,
    orders: list[tuple[np.ndarray, np.ndarray]],
    fractions: list[float],
    protocol: Protocol,
) -> tuple[np.ndarray, np.ndarray]:
    """The codelength in bits of each order (all of one size), fitted block by block
    for all orders at once with ``protocol``'s classifier: (with the uniform escape per
    block, raw online code)."""
    # deferred: the compiled solver imports numba, which the workflow's head process
    # (it reads the registry to make the rules) does not need
    from learnability.protocol.lbfgs import decision_values

    pos = np.stack([o[0] for o in orders])
    neg = np.stack([o[1] for o in orders])
    n = pos.shape[1]
    ends = block_ends(n, fractions)
    raw = np.full(len(orders), 2.0 * ends[0])  # the first block: 1 bit a label
    for k, nxt in zip(ends[:-1], ends[1:], strict=True):
        train_idx = np.concatenate([pos[:, :k], neg[:, :k]], axis=1)
        train_y = np.concatenate([np.ones((len(orders), k)), np.zeros((len(orders), k))], 1)
        coef = protocol.fit.run(vectors, train_idx, train_y)
        z_pos = decision_values(vectors, np.ascontiguousarray(pos[:, k:nxt]), coef)
        z_neg = decision_values(vectors, np.ascontiguousarray(neg[:, k:nxt]), coef)
        # -log p(1 | z) = log(1 + e^-z); -log p(0 | z) = log(1 + e^z)
        model = (np.logaddexp(0.0, -z_pos).sum(1) + np.logaddexp(0.0, z_neg).sum(1)) / LN2
        raw += model
    return 1.0 + np.minimum(raw, 2.0 * n), raw


def codelength_rows(
    vectors: np.ndarray,
    members: np.ndarray,
    protocol: Protocol,
    *,
    fractions: list[float],
    orders: int,
    null_lists: int,
    list_name: str,
    embedding: str,
    bins: np.ndarray | None = None,
) -> pd.DataFrame:
    """Schema ``codelength``: the list's codelength over ``orders`` orders, and its
    null's over ``null_lists`` random lists of the same size (uniform negatives) or
    frequency profile (frequency-matched), one order each, under ``protocol`` (its C,
    solver, seed, negatives and bins; not its iterations). Seeds depend on the list's
    name, not the embedding: embeddings that share a vocabulary see the same orders."""
    members = np.unique(np.asarray(members, dtype=np.int64))
    what = f"list {list_name!r} on {embedding!r}"
    check_size(members.size, vectors.shape[0], what, protocol.min_words)
    seed, negatives, n_bins = protocol.seed, protocol.negatives, protocol.n_bins
    n_vocab = vectors.shape[0]
    matched = negatives == "frequency_matched"
    if matched and bins is None:
        raise ValueError("frequency_matched negatives need frequency bins")

    def pools_without(mask: np.ndarray):
        return [np.flatnonzero((bins == b) & ~mask) for b in range(n_bins)] if matched else None

    mask = np.zeros(n_vocab, dtype=bool)
    mask[members] = True
    pools = pools_without(mask)
    list_orders = [
        draw_order(np.random.default_rng(derive_seed(seed, "codelength", list_name, i)),
                   members, mask, bins if matched else None, pools)
        for i in range(orders)
    ]  # fmt: skip
    null_orders = []
    all_words = [np.flatnonzero(bins == b) for b in range(n_bins)] if matched else None
    for r in range(null_lists):
        rng = np.random.default_rng(derive_seed(seed, "codelength-null", list_name, r))
        if matched:
            profile = np.bincount(bins[members], minlength=n_bins)
            random_list = np.concatenate(sample_by_profile(rng, all_words, profile))
        else:
            random_list = rng.choice(n_vocab, size=members.size, replace=False)
        random_mask = np.zeros(n_vocab, dtype=bool)
        random_mask[random_list] = True
        null_orders.append(
            draw_order(rng, random_list, random_mask, bins if matched else None,
                       pools_without(random_mask))
        )  # fmt: skip
    rows = []
    uniform = 2.0 * members.size
    for source, batch in (("list", list_orders), ("null", null_orders)):
        if not batch:
            continue
        bits, raw = online_codelengths(vectors, batch, fractions, protocol)
        mean = float(bits.mean())
        rows.append(
            {
                "list": list_name,
                "embedding": embedding,
                "negatives": negatives,
                "size": int(members.size),
                "source": source,
                "lists": 1 if source == "list" else len(batch),
                "orders": len(batch) if source == "list" else 1,
                "fractions": ",".join(f"{f:g}" for f in fractions),
                "uniform_bits": uniform,
                "bits_mean": mean,
                "bits_sd": float(bits.std(ddof=1)) if len(bits) > 1 else 0.0,
                "compression": uniform / mean,
                "raw_bits_mean": float(raw.mean()),
                "raw_compression": uniform / float(raw.mean()),
            }
        )
    return pd.DataFrame(rows)


def run(lists: Lists, settings: Mapping[str, Any]) -> pd.DataFrame:
    """The analysis: every list's codelength rows (schema ``codelength``)."""
    # one random order per fit: the protocol's iterations are not used
    protocol = replace(lists.protocol, iterations=1)
    return pd.concat(
        [
            codelength_rows(
                lists.vectors, members, protocol, fractions=list(settings["codelength_fractions"]),
                orders=settings["codelength_orders"],
                null_lists=settings["codelength_null_lists"], list_name=name,
                embedding=lists.embedding, bins=lists.bins,
            )
            for name, members in lists.each("codelength")
        ],
        ignore_index=True,
    )  # fmt: skip


def _describe(table: pd.DataFrame) -> str:
    return "\n" + table[["list", "source", "bits_mean", "compression"]].to_string(index=False)


ANALYSIS = Analysis(
    name="codelength",
    summary="each list's online codelength (bits) and its compression, beside random "
    "lists of its size",
    output="results/codelength/{embedding}/{negatives}.parquet",
    table="codelength",
    run=run,
    enabled=lambda s: s["codelength_orders"] > 0,
    switch="codelength.enabled",
    settings=(
        Setting("codelength_orders", "codelength.orders", "random orders averaged (0: none)"),
        Setting(
            "codelength_null_lists",
            "codelength.null_lists",
            "random lists of each list's size, one order each",
        ),  # fmt: skip
        Setting(
            "codelength_fractions",
            "codelength.fractions",
            "block ends as fractions of the member / non-member pairs",
        ),  # fmt: skip
    ),
    describe=_describe,
)
