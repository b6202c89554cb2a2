"""The intrinsic evaluations side by side: one long ``scores`` table for all of them,
paired tests between embeddings, and rank correlations between evaluations.

Paired tests use the items both embeddings could answer (a query, question, word pair,
parent or fold), so that a difference never comes from one embedding skipping hard items:

- accuracies (multi-answer, analogies) and Spearman's rho (word pairs): a paired
  bootstrap over the items (``n_boot`` resamples, seeded): the difference a - b, its
  percentile confidence interval, and the one-sided p-value by inverting the interval
  (the share of resampled differences on the wrong side of 0, with the +1 correction);
- per-parent average precision (hierarchy) and per-fold accuracy (pseudo-disambiguation,
  1 - error): the Wilcoxon signed-rank test of :mod:`learnability.stats`.

Holm's correction runs over all tests of one (evaluation, dataset, metric).
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from scipy import stats as sps

from learnability.stats import adjust_pvalues, comparison_pairs, wilcoxon_test

SCORE_COLUMNS = [
    "embedding", "evaluation", "dataset", "section", "metric", "value", "n_items", "n_oov",
]  # fmt: skip


def _row(embedding, evaluation, dataset, section, metric, value, n_items, n_oov) -> dict:
    values = (embedding, evaluation, dataset, section, metric, float(value), int(n_items))
    return dict(zip(SCORE_COLUMNS, (*values, int(n_oov)), strict=True))


def scores_multi_answer(per: pd.DataFrame) -> list[dict]:
    from learnability.multianswer import summarise_multi_answer

    out = []
    for (emb, ds), g in per.groupby(["embedding", "dataset"], sort=False):
        for r in summarise_multi_answer(g).itertuples():
            oov = r.n_queries - r.n_asked
            out.append(
                _row(emb, "multi_answer", ds, r.section, "accuracy", r.accuracy, r.n_asked, oov)
            )
            out.append(
                _row(
                    emb,
                    "multi_answer",
                    ds,
                    r.section,
                    "accuracy_all",
                    r.accuracy_all,
                    r.n_queries,
                    oov,
                )
            )
            out.append(
                _row(emb, "multi_answer", ds, r.section, "oov_rate", r.oov_rate, r.n_queries, oov)
            )
    return out  # fmt: skip


def scores_analogy(per: pd.DataFrame) -> list[dict]:
    from learnability.analogy import summarise_analogies

    out = []
    for (emb, ds), g in per.groupby(["embedding", "dataset"], sort=False):
        for r in summarise_analogies(g).itertuples():
            metric = "accuracy_3cosadd" if r.method == "3CosAdd" else "accuracy_3cosmul"
            out.append(
                _row(emb, "analogy", ds, r.section, metric, r.accuracy, r.n_asked,
                     r.n_questions - r.n_asked)
            )  # fmt: skip
    return out


def scores_word_pairs(per: pd.DataFrame) -> list[dict]:
    from learnability.analogy import spearman

    out = []
    for (emb, ds), g in per.groupby(["embedding", "dataset"], sort=False):
        s = spearman(g)
        out.append(
            _row(emb, "word_pairs", ds, "total", "spearman", s["spearman"], s["n_used"], s["n_oov"])
        )
    return out  # fmt: skip


def scores_hierarchy(edges: pd.DataFrame, parents: pd.DataFrame) -> list[dict]:
    from learnability.hierarchy import summarise_hierarchy

    out = []
    for (emb, ds), e in edges.groupby(["embedding", "dataset"], sort=False):
        p = parents[(parents["embedding"] == emb) & (parents["dataset"] == ds)]
        s = summarise_hierarchy(e, p)
        n_ok = int((e["status"] == "ok").sum())
        n_oov = len(e) - n_ok
        out.append(_row(emb, "hierarchy", ds, "total", "mean_rank", s["mean_rank"], n_ok, n_oov))
        out.append(_row(emb, "hierarchy", ds, "total", "map", s["map"], len(p), n_oov))
        out.append(_row(emb, "hierarchy", ds, "total", "norm_order", s["norm_order"], n_ok, n_oov))
    return out  # fmt: skip


def scores_pseudo(per: pd.DataFrame) -> list[dict]:
    """Mean error over folds per method and k (section ``cosine`` or ``knn-{k}``), with
    the std over folds as its own metric."""
    out = []
    for (emb, ds, method, k), g in per.groupby(["embedding", "dataset", "method", "k"], sort=False):
        section = method if method in ("cosine", "unigram") else f"knn-{k}"
        n, oov = int(g["n_test"].sum()), int(g["n_oov"].sum())
        out.append(_row(emb, "pseudo", ds, section, "error_rate", g["error_rate"].mean(), n, oov))
        out.append(
            _row(emb, "pseudo", ds, section, "error_rate_std", g["error_rate"].std(ddof=1), n, oov)
        )
    return out  # fmt: skip


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
    :func:`learnability.stats.comparison_pairs`) on every evaluation present in
    ``tables`` (keys: multi_answer, analogy, word_pairs, hierarchy_parents, pseudo)."""
    specs = []  # (evaluation, metric, table, item keys, value function, test)
    if "multi_answer" in tables:
        specs.append(("multi_answer", "accuracy", tables["multi_answer"], ["section", "line"],
                      lambda d: d["correct"].to_numpy(float), "mean"))  # fmt: skip
    if "analogy" in tables:
        for col, metric in (
            ("correct_add", "accuracy_3cosadd"),
            ("correct_mul", "accuracy_3cosmul"),
        ):
            specs.append(("analogy", metric, tables["analogy"], ["section", "line"],
                          lambda d, c=col: d[c].to_numpy(float), "mean"))  # fmt: skip
    if "word_pairs" in tables:
        specs.append(("word_pairs", "spearman", tables["word_pairs"], ["line"],
                      lambda d: d[["gold", "cosine"]].to_numpy(float), "spearman"))  # fmt: skip
    if "hierarchy_parents" in tables:
        specs.append(("hierarchy", "map", tables["hierarchy_parents"], ["parent"],
                      lambda d: d["average_precision"].to_numpy(float), "wilcoxon"))  # fmt: skip
    if "pseudo" in tables:
        pseudo = tables["pseudo"]
        pseudo = pseudo[pseudo["method"] != "unigram"].copy()  # the same for every embedding
        pseudo["section"] = np.where(
            pseudo["method"] == "cosine", "cosine", "knn-" + pseudo["k"].astype(str)
        )
        specs.append(
            ("pseudo", "accuracy", pseudo, ["section", "fold"],
             lambda d: 1 - d["error_rate"].to_numpy(float), "wilcoxon-by-section")
        )  # fmt: skip
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
HEADLINE = {
    ("multi_answer", "total", "accuracy"): 1,
    ("analogy", "total", "accuracy_3cosadd"): 1,
    ("word_pairs", "total", "spearman"): 1,
    ("hierarchy", "total", "map"): 1,
    ("pseudo", "cosine", "error_rate"): -1,
}


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
    cols = learnability_columns(summary)
    picks = [
        ("multi_answer", "total", "accuracy", "accuracy"),
        ("multi_answer", "total", "oov_rate", "OOV rate"),
        ("analogy", "total", "accuracy_3cosadd", "3CosAdd"),
        ("analogy", "total", "accuracy_3cosmul", "3CosMul"),
        ("word_pairs", "total", "spearman", "Spearman"),
        ("hierarchy", "total", "mean_rank", "Mean Rank"),
        ("hierarchy", "total", "map", "mAP"),
        ("pseudo", "cosine", "error_rate", "error (cosine)"),
        ("pseudo", "unigram", "error_rate", "error (unigram baseline)"),
    ]
    frames = [cols]
    for ev, section, metric, label in picks:
        part = scores[
            (scores["evaluation"] == ev)
            & (scores["section"] == section)
            & (scores["metric"] == metric)
        ]
        for ds, g in part.groupby("dataset", sort=False):
            frames.append(g.set_index("embedding")["value"].rename(f"{ev}: {ds} {label}"))
    pseudo = scores[(scores["evaluation"] == "pseudo") & (scores["metric"] == "error_rate")
                    & scores["section"].str.startswith("knn-")]  # fmt: skip
    for ds, g in pseudo.groupby("dataset", sort=False):
        best = g.loc[g.groupby("embedding")["value"].idxmin()].set_index("embedding")
        frames.append(best["value"].rename(f"pseudo: {ds} error (best k)"))
        frames.append(
            best["section"].str.removeprefix("knn-").astype(int).rename(f"pseudo: {ds} best k")
        )
    table = pd.concat(frames, axis=1)
    table.index.name = "embedding"
    return table.reset_index()
