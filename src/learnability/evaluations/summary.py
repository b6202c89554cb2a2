"""The intrinsic evaluations side by side: one long ``scores`` table for all of them,
paired tests between embeddings, and rank correlations between evaluations.

Paired tests use the items both embeddings could answer (a query, question, word pair,
parent or fold), so that a difference never comes from one embedding skipping hard items:

- accuracies (multi-answer, analogies) and Spearman's rho (word pairs): a paired
  bootstrap over the items (``n_boot`` resamples, seeded): the difference a - b, its
  percentile confidence interval, and the one-sided p-value by inverting the interval
  (the share of resampled differences on the wrong side of 0, with the +1 correction);
- per-parent average precision (hierarchy) and per-fold accuracy (pseudo-disambiguation,
  1 - error): the Wilcoxon signed-rank test of :mod:`learnability.statistics.comparison`.

Holm's correction runs over all tests of one (evaluation, dataset, metric).
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from scipy import stats as sps

from learnability.evaluations.registry import KINDS, SCORE_COLUMNS
from learnability.statistics.adjust import adjust_pvalues
from learnability.statistics.comparison import comparison_pairs, wilcoxon_test


def scores(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The long ``scores`` table: every kind of the registry whose tables are present,
    in the registry's order, scored by its module."""
    rows = []
    for kind in KINDS.values():
        if all(name in tables for name in kind.tables):
            rows += kind.load().scores(tables)
    return pd.DataFrame(rows, columns=SCORE_COLUMNS)


def _paired_specs(tables: dict[str, pd.DataFrame]) -> list[tuple]:
    """(evaluation, metric, items, keys, value function, test) for every paired test of
    the registry whose table is present, in the registry's order."""
    specs = []
    for kind in KINDS.values():
        for test in kind.tests:
            if test.table not in tables:
                continue
            items = tables[test.table]
            if kind.paired_items:
                items = kind.load().paired_items(items)
            cols = list(test.value)

            def value(d, cols=cols):
                return d[cols].to_numpy(float) if len(cols) > 1 else d[cols[0]].to_numpy(float)

            specs.append((kind.name, test.metric, items, list(test.keys), value, test.test))
    return specs


def _bootstrap(
    a: np.ndarray, b: np.ndarray, statistic: str, n_boot: int, seed: int, confidence: float
) -> dict:
    n = len(a)
    rng = np.random.default_rng(seed)
    idx = rng.integers(n, size=(n_boot, n))
    if statistic == "mean":
        value_a, value_b = a.mean(), b.mean()
        diffs = a[idx].mean(axis=1) - b[idx].mean(axis=1)
    else:  # spearman: gold in column 0, the embedding's cosine in column 1
        value_a = sps.spearmanr(a[:, 0], a[:, 1]).statistic
        value_b = sps.spearmanr(b[:, 0], b[:, 1]).statistic
        diffs = _spearman_rows(a[idx]) - _spearman_rows(b[idx])
    lo, hi = np.quantile(diffs, [(1 - confidence) / 2, (1 + confidence) / 2])
    return {"value_a": value_a, "value_b": value_b, "ci_low": lo, "ci_high": hi, "diffs": diffs}


def _spearman_rows(pairs: np.ndarray) -> np.ndarray:
    """Spearman's rho of each resample: pairs is (B, n, 2)."""
    r = sps.rankdata(pairs, axis=1)
    r -= r.mean(axis=1, keepdims=True)
    num = (r[:, :, 0] * r[:, :, 1]).sum(axis=1)
    den = np.sqrt((r[:, :, 0] ** 2).sum(axis=1) * (r[:, :, 1] ** 2).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return num / den


def _boot_p(diffs: np.ndarray, alternative: str) -> float:
    diffs = diffs[np.isfinite(diffs)]
    below = (1 + np.sum(diffs <= 0)) / (diffs.size + 1)
    above = (1 + np.sum(diffs >= 0)) / (diffs.size + 1)
    if alternative == "greater":
        return float(below)
    if alternative == "less":
        return float(above)
    return float(min(1.0, 2 * min(below, above)))


def _items(per: pd.DataFrame, keys: list[str], a: str, b: str, value) -> tuple:
    ok = per[per["status"] == "ok"] if "status" in per else per
    wide = [ok[ok["embedding"] == e].set_index(keys) for e in (a, b)]
    common = wide[0].index.intersection(wide[1].index)
    return value(wide[0].loc[common]), value(wide[1].loc[common]), len(common)


def compare_evaluations(
    tables: dict[str, pd.DataFrame],
    embeddings: list[str],
    alternative: str = "greater",
    n_boot: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Paired tests for each pair of ``embeddings`` (once, earlier against later:
    :func:`learnability.statistics.comparison.comparison_pairs`) on every evaluation of the registry
    whose tables are present in ``tables`` (keys: the kinds' table names)."""
    specs = _paired_specs(tables)
    rows = []
    for t, (evaluation, metric, per, keys, value, test) in enumerate(specs):
        for ds in dict.fromkeys(per["dataset"]):
            part = per[per["dataset"] == ds]
            sections = [None]
            if test == "wilcoxon-by-section":
                sections = list(dict.fromkeys(part["section"]))
            for section in sections:
                sub = part if section is None else part[part["section"] == section]
                for i, (a, b) in enumerate(comparison_pairs(embeddings)):
                    va, vb, n = _items(sub, keys, a, b, value)
                    row = {
                        "evaluation": evaluation,
                        "dataset": ds,
                        "section": section or "total",
                        "metric": metric,
                        "embedding_a": a,
                        "embedding_b": b,
                        "alternative": alternative,
                        "n_items": n,
                    }
                    if test.startswith("wilcoxon"):
                        res = wilcoxon_test(va, vb, alternative) if n else {"p_value": np.nan}
                        row.update(
                            value_a=float(np.mean(va)) if n else np.nan,
                            value_b=float(np.mean(vb)) if n else np.nan,
                            ci_low=np.nan,
                            ci_high=np.nan,
                            p_value=res["p_value"],
                            method="wilcoxon",
                        )
                    elif n >= 3:
                        boot = _bootstrap(va, vb, test, n_boot, seed + 7919 * t + i, confidence)
                        row.update(
                            value_a=float(boot["value_a"]),
                            value_b=float(boot["value_b"]),
                            ci_low=float(boot["ci_low"]),
                            ci_high=float(boot["ci_high"]),
                            p_value=_boot_p(boot["diffs"], alternative),
                            method=f"bootstrap-{n_boot}",
                        )
                    else:
                        nan = {c: np.nan for c in ("value_a", "value_b", "ci_low", "ci_high")}
                        row.update(nan, p_value=np.nan, method="too-few-items")
                    row["difference"] = row["value_a"] - row["value_b"]
                    rows.append(row)
    out = (
        pd.DataFrame(rows, columns=TEST_COLUMNS[:-1])
        if rows
        else pd.DataFrame(columns=TEST_COLUMNS)
    )
    if rows:
        family = ["evaluation", "dataset", "section", "metric"]
        out["p_holm"] = np.nan
        for _, idx in out.groupby(family, sort=False).groups.items():
            p = out.loc[idx, "p_value"].to_numpy(float)
            fin = np.isfinite(p)
            adj = np.full(p.shape, np.nan)
            adj[fin] = adjust_pvalues(p[fin], "holm") if fin.any() else []
            out.loc[idx, "p_holm"] = adj
    return out


TEST_COLUMNS = [
    "evaluation", "dataset", "section", "metric", "embedding_a", "embedding_b",
    "alternative", "n_items", "value_a", "value_b", "ci_low", "ci_high", "p_value",
    "method", "difference", "p_holm",
]  # fmt: skip

# The one number per (evaluation, dataset) that orders embeddings, higher = better.
HEADLINE = {(name, *kind.headline[:2]): kind.headline[2] for name, kind in KINDS.items()}


def headline(scores: pd.DataFrame) -> pd.DataFrame:
    """embeddings x 'evaluation: dataset (metric)' of the headline numbers, oriented so
    that higher is better (pseudo-disambiguation: 1 - error)."""
    cols = {}
    for (ev, section, metric), sign in HEADLINE.items():
        part = scores[
            (scores["evaluation"] == ev)
            & (scores["section"] == section)
            & (scores["metric"] == metric)
        ]
        for ds, g in part.groupby("dataset", sort=False):
            name = f"{ev}: {ds} ({'accuracy' if sign < 0 else metric})"
            v = g.set_index("embedding")["value"]
            cols[name] = v if sign > 0 else 1 - v
    return pd.DataFrame(cols)


def rank_correlations(wide: pd.DataFrame, min_embeddings: int = 3) -> pd.DataFrame:
    """Spearman and Kendall correlation across embeddings between every two columns of
    ``wide`` (embeddings x measures, higher = better), when at least ``min_embeddings``
    have both."""
    rows = []
    for x, y in itertools.combinations(wide.columns, 2):
        pair = wide[[x, y]].dropna()
        n = len(pair)
        if n < min_embeddings:
            continue
        rows.append(
            {
                "evaluation_a": x,
                "evaluation_b": y,
                "n_embeddings": n,
                "spearman": float(sps.spearmanr(pair[x], pair[y]).statistic),
                "kendall": float(sps.kendalltau(pair[x], pair[y]).statistic),
            }
        )
    return pd.DataFrame(
        rows, columns=["evaluation_a", "evaluation_b", "n_embeddings", "spearman", "kendall"]
    )


def learnability_columns(summary: pd.DataFrame) -> pd.DataFrame:
    """embeddings x 'learnability: mean AUC ({negatives})': the mean over lists of each
    list's mean AUC (Table 6's Mean row)."""
    auc = summary[summary["metric"] == "auc"]
    out = auc.groupby(["embedding", "negatives"])["mean"].mean().unstack("negatives")
    out.columns = [f"learnability: mean AUC ({c})" for c in out.columns]
    return out


def comparison_table(scores: pd.DataFrame, summary: pd.DataFrame) -> pd.DataFrame:
    """One row per embedding; one column group per evaluation: learnability, then each
    evaluation's numbers per dataset. Column names are 'group: column'."""
    frames = [learnability_columns(summary)]
    for name, kind in KINDS.items():
        for section, metric, label in kind.columns:
            part = scores[
                (scores["evaluation"] == name)
                & (scores["section"] == section)
                & (scores["metric"] == metric)
            ]
            for ds, g in part.groupby("dataset", sort=False):
                frames.append(g.set_index("embedding")["value"].rename(f"{name}: {ds} {label}"))
    for kind in KINDS.values():
        if kind.extra_columns:
            frames += kind.load().extra_columns(scores)
    table = pd.concat(frames, axis=1)
    table.index.name = "embedding"
    return table.reset_index()
