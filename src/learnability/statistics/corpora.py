"""Comparing corpora: is a list more learnable in one corpus' text than in another's?

Each corpus is drawn down to the same token budget several times (``draws``: a random
sample of its documents and a training seed each), the embedding is trained on each draw
and every list scored on the words all draws know. For one list, method and pair of
corpora (A, B), :func:`list_differences` tests the difference of the draws' mean AUCs.

The variance is the part that is easy to get wrong. A draw's AUC varies with the
documents drawn and the training seed; the corpus itself is one sample of documents from
the kind of text it stands for, and a second corpus of that kind would differ. Under a
linear (delta-method) model, a draw of m tokens from a corpus of n has AUC
``mu + mean(e_i over its documents) + noise``; the draws' variance q then estimates
``sigma^2/m * (1 - f) + tau^2`` (f = m / n), and the variance of the corpus' mean over S
draws, around what the kind of text would give at m tokens, is
``sigma^2/n + q / S <= q * (f / (1 - f) + 1 / S)``: the bound used here. It is
conservative when the training seed moves the AUC (tau > 0), and infinite at f = 1,
where a corpus drawn whole says nothing about its own sampling variance (the default
budget, half the smallest corpus, keeps f <= 1/2). Without the f / (1 - f) term the test
would take two halves of one corpus for different kinds of text (tests/test_corpora.py
shows it rejecting far above its level). The statistic is Welch's t with
Welch-Satterthwaite degrees of freedom; Holm adjusts over the lists of one embedding, pair
and negatives scheme.

Across lists, the Wilcoxon signed-rank test over the lists' mean AUCs is that of the
embedding comparison (:func:`learnability.statistics.comparison.compare_embeddings`,
lists nested or not); it takes the lists as its units, so it asks whether lists in
general are more learnable in one corpus, given these corpora."""

from __future__ import annotations

import numpy as np
import pandas as pd

from learnability.errors import InputError
from learnability.statistics.adjust import adjust_pvalues
from learnability.statistics.comparison import compare_within, comparison_pairs

ALTERNATIVES = ("two-sided", "greater", "less")


def draw_variance(sd: np.ndarray, draws: np.ndarray, fraction: np.ndarray) -> np.ndarray:
    """The variance of a corpus' mean AUC over ``draws`` draws of ``fraction`` of its
    tokens, from the draws' SD: ``sd^2 * (f / (1 - f) + 1 / draws)`` (module docstring);
    infinite where the corpus was drawn whole (f >= 1)."""
    sd, draws, f = (np.asarray(x, dtype=float) for x in (sd, draws, fraction))
    with np.errstate(divide="ignore", invalid="ignore"):
        within = np.where(f < 1, f / (1 - f), np.inf)
    return sd**2 * (within + 1 / draws)


def welch_test(
    mean_a: np.ndarray,
    var_a: np.ndarray,
    df_a: np.ndarray,
    mean_b: np.ndarray,
    var_b: np.ndarray,
    df_b: np.ndarray,
    alternative: str,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Welch's t of ``mean_a - mean_b`` with variances of the means ``var_a``, ``var_b``
    estimated on ``df_a``, ``df_b`` degrees of freedom: (t, df, p). ``greater``: H1
    a > b. A zero variance with a nonzero difference gives an infinite t and p 0 on the
    side of the difference (1 on the other); no variance at all, or an infinite one, p 1
    (nothing can be told); df is NaN where Welch's is not defined (no variance)."""
    from scipy.stats import t as student

    if alternative not in ALTERNATIVES:
        raise ValueError(f"unknown alternative {alternative!r}; use one of {ALTERNATIVES}")
    va, vb = np.asarray(var_a, dtype=float), np.asarray(var_b, dtype=float)
    diff = np.asarray(mean_a, dtype=float) - np.asarray(mean_b, dtype=float)
    se = np.sqrt(va + vb)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(se > 0, diff / se, np.sign(diff) * np.inf)
        df = (va + vb) ** 2 / (va**2 / np.asarray(df_a) + vb**2 / np.asarray(df_b))
    defined = np.isfinite(df) & (df > 0)
    # where df is not (a zero variance: t is infinite; an infinite one: p is 1 below) any
    # df gives the same p
    any_df = np.where(defined, df, 1.0)
    if alternative == "greater":
        p = student.sf(t, any_df)
    elif alternative == "less":
        p = student.cdf(t, any_df)
    else:
        p = 2 * student.sf(np.abs(t), any_df)  # at most 1: sf(|t|) <= 1/2
    p = np.where(np.isfinite(se) & ~((se == 0) & (diff == 0)), p, 1.0)
    return t, np.where(defined, df, np.nan), p


def corpus_means(scores: pd.DataFrame, draws: pd.DataFrame) -> pd.DataFrame:
    """Per negatives scheme, embedding, corpus and list: the draws' mean AUC, their SD, the
    number of draws and the share of the corpus a draw holds (``draws``: corpus, seed,
    tokens, corpus_tokens). ``scores``: one row per draw, list and scheme, columns
    negatives, embedding (the one trained on every corpus), corpus, seed, list and mean
    (the draw's mean AUC over splits)."""
    share = draws.assign(fraction=draws["tokens"] / draws["corpus_tokens"])
    share = share.groupby("corpus")["fraction"].max()
    g = scores.groupby(["negatives", "embedding", "corpus", "list"], sort=False)["mean"]
    # the draws' SD (ddof 1): NaN for a single draw
    out = g.agg(auc="mean", draw_sd="std", draws="size").reset_index()
    out["fraction"] = out["corpus"].map(share).astype(float)
    return out


def list_differences(
    scores: pd.DataFrame, draws: pd.DataFrame, corpora: list[str], alternative: str
) -> pd.DataFrame:
    """Each list's AUC difference between each pair of ``corpora`` (in the order given:
    (a, b), a earlier; H1 a > b for ``greater``), per negatives scheme and embedding: the
    draws' means and SDs, the difference, Welch's t on the bounded variance
    (:func:`draw_variance`), its p-value and Holm over the lists of the family."""
    means = corpus_means(scores, draws)
    keys = ["negatives", "embedding", "list"]
    rows = []
    for a, b in comparison_pairs(corpora):
        left = means[means["corpus"] == a].drop(columns="corpus")
        right = means[means["corpus"] == b].drop(columns="corpus")
        both = left.merge(right, on=keys, suffixes=("_a", "_b"))
        both.insert(2, "corpus_a", a)
        both.insert(3, "corpus_b", b)
        rows.append(both)
    out = pd.concat(rows, ignore_index=True)
    var_a = draw_variance(out["draw_sd_a"], out["draws_a"], out["fraction_a"])
    var_b = draw_variance(out["draw_sd_b"], out["draws_b"], out["fraction_b"])
    out["difference"] = out["auc_a"] - out["auc_b"]
    out["se"] = np.sqrt(var_a + var_b)
    out["t"], out["df"], out["p_value"] = welch_test(
        out["auc_a"], var_a, out["draws_a"] - 1, out["auc_b"], var_b, out["draws_b"] - 1,
        alternative,
    )  # fmt: skip
    out["alternative"] = alternative
    out["p_holm"] = np.nan
    for _, idx in out.groupby(["negatives", "embedding", "corpus_a", "corpus_b"]).groups.items():
        out.loc[idx, "p_holm"] = adjust_pvalues(out.loc[idx, "p_value"].to_numpy(), "holm")
    return out


def corpus_wilcoxon(
    scores: pd.DataFrame,
    corpora: list[str],
    alternative: str,
    overlap: pd.DataFrame | None = None,
    units: list[str] | None = None,
) -> pd.DataFrame:
    """Per embedding, the corpora compared over the lists by the Wilcoxon signed-rank test
    on each list's mean AUC over the draws, as the embedding comparison compares
    embeddings (each pair once in the order given, Holm over the pairs, nested lists
    tested again over disjoint ``units``). ``overlap``: the lists' overlap on the shared
    vocabulary. Columns as the ``wilcoxon`` schema, with ``corpus_a``/``corpus_b`` for
    the embeddings and ``embedding`` (the embedding trained on each corpus) first."""
    # each list's mean over a corpus' draws, compared across corpora per embedding
    keys = ["embedding", "corpus", "list", "negatives"]
    mean = scores.groupby(keys, sort=False)["mean"].mean().reset_index()
    out = compare_within(mean, "embedding", "corpus", corpora, alternative, overlap,
                         units or ("lists",))  # fmt: skip
    return out.rename(columns={"embedding_a": "corpus_a", "embedding_b": "corpus_b"})


def unscored_lists(scores: pd.DataFrame) -> dict[str, int]:
    """The lists no draw could score (fewer than ``learnability.min_words`` of their
    words in the vocabulary every draw knows), with how many of their words it holds."""
    auc = scores[scores["metric"] == "auc"]
    scored = set(auc.loc[auc["iterations"] > 0, "list"])
    sizes = auc.groupby("list", sort=False)["size"].max()
    return {name: int(n) for name, n in sizes.items() if name not in scored}


def compare_corpora(
    scores: pd.DataFrame,
    draws: pd.DataFrame,
    corpora: list[str],
    alternative: str,
    overlap: pd.DataFrame | None = None,
    units: list[str] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every list's difference between each pair of ``corpora`` (schema
    ``corpus_differences``) and the Wilcoxon tests over lists (``corpus_wilcoxon``), from
    the draws' AUCs (negatives, embedding, corpus, seed, list, mean) and the draws' sizes
    (corpus, seed, tokens, corpus_tokens). The draws must hold the same number of tokens:
    a ValueError otherwise, since a difference between corpora of different sizes is mostly size."""
    sizes = draws.loc[draws["corpus"].isin(corpora), "tokens"].unique()
    if len(sizes) != 1:
        held = ", ".join(f"{int(n):,}" for n in sorted(sizes))
        raise ValueError(f"the draws hold different numbers of tokens ({held})")
    part = scores[scores["corpus"].isin(corpora)]
    if part.empty:
        raise InputError(
            f"compare_corpora: no list has enough words that every draw knows to be scored "
            f"(draws of {int(sizes[0]):,} tokens); compare larger corpora, or lower "
            "min_count for the draws (compare_corpora.params) or learnability.min_words"
        )
    return (
        list_differences(part, draws, corpora, alternative),
        corpus_wilcoxon(part, corpora, alternative, overlap, units),
    )
