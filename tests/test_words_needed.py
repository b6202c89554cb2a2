"""The words-needed curve (learnability.analyses.words_needed): its grid as the docs state
it, the interpolation by hand, subsets tested as the lists are, the spread it takes, and
its table for several lists, on planted concepts of known strength."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from planted import clustered_embedding, plant_along

from learnability.api import C
from learnability.protocol.evaluate import Protocol, null_distribution
from learnability.protocol.sampling import derive_seed
from learnability.protocol.splits import draw_splits, fit_splits
from learnability.statistics.significance import (
    comparison_null,
)

ALPHA, POWER = 0.05, 0.8
# the workflow's defaults: random lists and their splits, a list's splits
R, K_N, K_L = 1000, 10, 200


# first in the file: a mutant of the grid (read at import) runs the whole file, and this
# test fails it at once (tests/mutants.py stops at the first failure)
def test_the_subset_sizes_the_docs_state_are_the_curves_grid():
    # the config reference states the default sizes in full, every other page their
    # start followed by "...": each as written must be the grid the curve uses
    import re

    from learnability.analyses.words_needed import GRID

    root = Path(__file__).resolve().parents[1]
    schema = (root / "src/learnability/config.schema.yaml").read_text()
    full = re.search(r"\(empty: ([\d, ]+) below each list's own\)", schema)
    assert full and tuple(int(n) for n in full.group(1).split(", ")) == GRID
    pages = [*root.glob("docs/**/*.md"), root / "README.md", root / "config/README.md",
             *root.glob("workflow/report/*.rst")]  # fmt: skip
    stated = re.compile(r"\b(5, 8, \d+(?:, \d+)*), \.\.\.")
    starts = [m.group(1) for page in pages for m in stated.finditer(page.read_text())]
    assert len(starts) >= 5  # power.md, analyses.md, outputs.md, glove6b.md, list-size.md
    for start in starts:
        numbers = tuple(int(n) for n in start.split(", "))
        assert numbers == GRID[: len(numbers)], start


def test_words_for_power_interpolates_where_the_power_crosses_its_target():
    import pandas as pd

    from learnability.analyses.words_needed import words_for_power

    # "e" first (out of alphabetical order): it reaches the target exactly (16 of 20
    # subsamples) at its largest size tried
    rows = [("e", 5, 0.5), ("e", 8, 0.8), ("a", 5, 0.2), ("a", 8, 0.6), ("a", 12, 0.9),
            ("b", 5, 0.85), ("c", 5, 0.1), ("c", 8, 0.3)]  # fmt: skip
    table = pd.DataFrame(rows, columns=["list", "words", "power"]).assign(
        embedding="e", negatives="uniform", size=20, power_target=0.8
    )
    out = words_for_power(table)
    assert list(out["list"]) == ["e", "a", "b", "c"]  # the order they came in
    assert list(out.columns) == ["list", "embedding", "negatives", "size", "largest_tried",
                                 "words_needed"]  # fmt: skip
    assert (out["size"] == 20).all() and list(out["largest_tried"]) == [8, 12, 5, 8]
    got = out.set_index("list")["words_needed"]
    assert got["a"] == pytest.approx(8 + (0.8 - 0.6) / (0.9 - 0.6) * 4)
    assert got["b"] == 5
    assert got["e"] == 8  # a power at the target reaches it
    assert np.isnan(got["c"])  # never reached below its own size
    alone = words_for_power(table[table["list"] == "c"])["words_needed"]
    assert alone.dtype == np.float64 and np.isnan(alone.iloc[0])


def test_the_words_needed_curve_tests_subsets_as_the_lists_are_tested():
    """score() with the curve on a planted concept of 40 words: at each size, the share of
    subsets detected is the share the p-value function of the lists (pvalues(), from the
    subsets' summaries and the null of their size) gives, exactly; the power grows with
    the words, the smallest detectable AUC falls, and the concept needs more than 5 and
    at most 40 words."""
    import pandas as pd

    import learnability
    from learnability.analyses.words_needed import words_for_power
    from learnability.statistics.significance import pvalues

    x, u, pool = clustered_embedding(3)
    y = plant_along(x, u, pool, 4.0)  # strong enough to reach 80 % below 20 words
    words = [f"w{i}" for i in range(y.shape[0])]
    lists = {"concept": words[:40]}
    settings = dict(iterations=50, null_lists=200, null_iterations=10, seed=5,
                    suggestions=0, check_folds=0, entanglement_iterations=0,
                    codelength_orders=0, bound_groups=0, curve_subsamples=12,
                    curve_sizes=(5, 8, 12, 20))  # fmt: skip
    got = learnability.score((words, y), lists, **settings)
    curve = got.words_needed.sort_values("words")
    assert list(curve["words"]) == [5, 8, 12, 20]
    assert curve["power"].iloc[-1] > curve["power"].iloc[0]
    assert (np.diff(curve["auc_detectable"]) < 0).all()
    needed = words_for_power(curve)["words_needed"].iloc[0]
    assert 5 < needed <= 20  # reached within the sizes tried (NaN fails)
    # the subsets of 8 words, redrawn from their seeds, tested by pvalues()

    members = np.arange(40)
    protocol = Protocol(iterations=50, C=C, seed=5)
    rows, its = [], []
    for s in range(12):
        seed = derive_seed(5, "words-needed", "concept", 8, s)
        subset = np.sort(np.random.default_rng(seed).choice(members, 8, replace=False))
        splits = draw_splits(y.shape[0], subset, protocol,
                             [derive_seed(seed, "split", i) for i in range(50)], None)  # fmt: skip
        aucs = fit_splits(y, splits, protocol).metrics()["auc"]
        rows.append({"list": f"s{s}", "embedding": "e", "negatives": "uniform", "size": 8,
                     "null_key": "size-8", "iterations": 50, "metric": "auc",
                     "mean": aucs.mean(), "std": aucs.std(ddof=1)})  # fmt: skip
        its += [{"list": f"s{s}", "embedding": "e", "negatives": "uniform", "iteration": i,
                 "auc": a} for i, a in enumerate(aucs)]  # fmt: skip
    null = null_distribution(y, size=8, lists=200, iterations=10, C=C, seed=6, embedding="e")
    tests = pvalues(pd.DataFrame(rows), null, True, "none", "auto", pd.DataFrame(its))
    row = curve[curve["words"] == 8].iloc[0]
    assert row["power"] == pytest.approx((tests["p_value"] <= ALPHA).mean())
    # the subsets' mean AUCs: their mean and SD (ddof 1, by the statistics module)
    import statistics

    assert row["auc_mean"] == pytest.approx(statistics.fmean(r["mean"] for r in rows))
    assert row["auc_sd"] == pytest.approx(statistics.stdev(r["mean"] for r in rows))
    # each size's power: a binomial share of 12 subsets, its SE scipy's binomial SD / 12
    from scipy import stats as scipy_stats

    assert ((curve["power"] > 0) & (curve["power"] < 1)).any()  # an SE not 0 is checked
    want_se = scipy_stats.binom(12, curve["power"]).std() / 12
    np.testing.assert_allclose(curve["power_se"], want_se, rtol=1e-12, atol=1e-15)
    # one detectable AUC a size, at the subsets' mean split variance: pvalues()' for a list
    # of that split variance (each subset's own row takes its own)
    pooled = pd.DataFrame([{**rows[0], "list": "pooled", "std": np.sqrt(np.mean(
        [r["std"] ** 2 for r in rows]))}])  # fmt: skip
    pooled_its = pd.DataFrame(its).query("list == 's0'").assign(list="pooled")
    at_pooled = pvalues(pooled, null, True, "none", "auto", pooled_its).iloc[0]
    assert row["auc_detectable"] == pytest.approx(at_pooled["auc_detectable"])
    assert row["power_spread"] == pytest.approx(at_pooled["power_spread"])
    assert tests["auc_detectable"].nunique() > 1  # each subset's own split noise


def test_the_curves_spread_takes_the_subsets_split_noise_or_at_one_split_the_random_lists():
    """The words-needed curve's ``power_spread`` by hand from the subsets' AUCs, redrawn
    from their seeds, and the random lists of their size: sqrt((1.2^2 between +
    split_var / k) / var(values)), ``between`` the random lists' means' variance less
    their split variance over their splits, ``split_var`` the subsets' mean split variance
    (ddof 1) at 2 splits (``matched``: the random lists have 2 too), and at one split,
    where a subset has none of its own, the random lists' (``rescaled_skew``, forced,
    against 1000 random lists of 10 splits); and pvalues()' for a list of one split
    takes the same."""
    import pandas as pd

    import learnability
    from learnability.statistics.significance import pvalues

    x, u, pool = clustered_embedding(4)
    y = plant_along(x, u, pool, 3.0)
    words = [f"w{i}" for i in range(y.shape[0])]
    for k, k_null, lists, method in ((2, 2, 200, "auto"), (1, 10, 1000, "rescaled_skew")):
        got = learnability.score(
            (words, y), {"concept": words[:30]}, iterations=k, null_lists=lists,
            null_iterations=k_null, seed=5, suggestions=0, check_folds=0,
            entanglement_iterations=0, codelength_orders=0, bound_groups=0,
            curve_subsamples=6, curve_sizes=(8,), pvalue_method=method,
        )  # fmt: skip
        row = got.words_needed.iloc[0]
        aucs = []
        for s_ in range(6):
            seed = derive_seed(5, "words-needed", "concept", 8, s_)
            subset = np.sort(np.random.default_rng(seed).choice(np.arange(30), 8, replace=False))
            protocol = Protocol(iterations=k, C=C, seed=5)
            seeds = [derive_seed(seed, "split", i) for i in range(k)]
            splits = draw_splits(y.shape[0], subset, protocol, seeds, None)
            aucs.append(fit_splits(y, splits, protocol).metrics()["auc"])
        aucs = np.array(aucs)
        null = null_distribution(y, size=8, lists=lists, iterations=k_null, C=C, seed=6,
                                 embedding="e")  # fmt: skip
        w = null["auc_var"].mean()
        between = null["auc"].var(ddof=1) - w / k_null
        used = "matched" if k == k_null else method
        assert row["method"] == used
        values = comparison_null(null, used, k).values
        split_var = aucs.var(axis=1, ddof=1).mean() if k > 1 else w
        spread = np.sqrt((1.2**2 * between + split_var / k) / values.var(ddof=1))
        assert np.isfinite(spread) and row["power_spread"] == pytest.approx(spread, rel=1e-9), k
        if k == 1:  # a list of one split: pvalues() takes the random lists' split noise
            summary = pd.DataFrame([{"list": "one", "embedding": "e", "negatives": "uniform",
                                     "size": 8, "null_key": "size-8", "iterations": 1,
                                     "metric": "auc", "mean": 0.6, "std": 0.0}])  # fmt: skip
            one = pvalues(summary, null, True, "none", method).iloc[0]
            assert one["power_spread"] == pytest.approx(spread, rel=1e-9)


def test_a_subsets_p_at_exactly_alpha_counts_under_every_method_and_one_subset_has_no_sd(seed):
    """A planted concept far beyond 19 random lists: each subset's p is 1/20 = 0.05, the
    level itself, which "p <= alpha" detects (power 1); under a method other than the
    truncated one (matched, forced), whose statistic is the mean over all splits;
    one subset a size: its SD is 0 (no spread measured), not NaN. And the sizes tried:
    from min_words up to, not including, the list's own, by hand."""
    import learnability
    from learnability.analyses.words_needed import GRID, sizes_for

    assert sizes_for(20, (5, 8, 12, 20, 30), 5) == [5, 8, 12]
    assert sizes_for(20, (4, 5, 8), 5) == [5, 8]
    assert sizes_for(40, (), 8) == [8, 12, 20, 30] == [m for m in GRID if 8 <= m < 40]
    x, u, pool = clustered_embedding(seed, words=1500, pool=40)
    y = plant_along(x, u, pool, 20.0)
    words = [f"w{i}" for i in range(y.shape[0])]
    settings = dict(iterations=20, null_lists=19, null_iterations=10, seed=seed + 1,
                    pvalue_method="matched", suggestions=0, check_folds=0,
                    entanglement_iterations=0, codelength_orders=0, bound_groups=0,
                    curve_subsamples=1, curve_sizes=(8,))  # fmt: skip
    got = learnability.score((words, y), {"concept": words[:20]}, **settings)
    row = got.words_needed.iloc[0]
    assert row["method"] == "matched" and row["words"] == 8
    assert row["power"] == 1.0 and row["power_se"] == 0.0
    assert row["auc_sd"] == 0.0


def test_the_curve_over_several_lists_its_empty_table_and_its_summary_for_people(seed, caplog):
    """Every list's rows (a list too small for any size has none, and alone gives the
    schema's empty table); one progress line names the step; the summary printed for
    people is the words_for_power table, one line a list, under its header, without an
    index."""
    import logging

    import learnability
    from learnability import schemas
    from learnability.analyses.words_needed import ANALYSIS

    x, u, pool = clustered_embedding(seed, words=1500, pool=40)
    y = plant_along(x, u, pool, 2.0)  # AUCs below 1: two subsets differ
    words = [f"w{i}" for i in range(y.shape[0])]
    settings = dict(iterations=10, null_lists=19, null_iterations=10, seed=seed,
                    suggestions=0, check_folds=0, entanglement_iterations=0,
                    codelength_orders=0, bound_groups=0, curve_subsamples=2,
                    curve_sizes=(8,))  # fmt: skip
    lists = {"b": words[:20], "a": words[20:40], "tiny": words[100:108]}
    with caplog.at_level(logging.INFO):
        got = learnability.score((words, y), lists, **settings).words_needed
    assert list(got["list"]) == ["b", "a"] and (got["words"] == 8).all()
    # two subsets' means have an SD (ddof 1), not 0 (one list's two may tie: a mean AUC
    # over 10 splits of 4 + 4 words is a multiple of 1/160; both lists' rarely do)
    assert (got["auc_sd"] > 0).any()
    assert [r.getMessage().split(":")[0] for r in caplog.records].count("words needed") == 1
    lines = ANALYSIS.describe(got).split("\n")
    assert lines[0] == "" and len(lines) == 4
    assert lines[1].split() == ["list", "embedding", "negatives", "size", "largest_tried",
                                "words_needed"]  # fmt: skip
    assert [line.split()[0] for line in lines[2:]] == ["b", "a"]  # no index column
    alone = learnability.score((words, y), {"tiny": lists["tiny"]}, **settings).words_needed
    assert alone.empty and list(alone.columns) == list(schemas.empty("words_needed").columns)
    assert ANALYSIS.describe(alone) == "no list larger than the smallest size tried"
    # without the run's null settings there is nothing to test subsets against
    from learnability.analyses.base import Lists

    bare = Lists(y, {"b": np.arange(20)}, None, "e", "uniform", words, None)
    with pytest.raises(ValueError, match=r"needs the run's null settings \(Lists.nulls\)$"):
        ANALYSIS.run(bare, {})
