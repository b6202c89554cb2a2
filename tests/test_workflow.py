"""The real workflow on the smoke config (the embedded sample, tiny settings), run once per
session (wfutil.smoke_run) in the environment `make run` gives users; each test reads
that run or works on its own copy of it. test_workflow_variants.py (embeddings and sweeps
added by a --configfile) and test_workflow_determinism.py use the same run;
test_workflow_runs.py has the runs of other configs."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import userenv
import yaml
from paths import REPO
from wfutil import CORPUS_JOBS, FIXTURE_LISTS, own_copy, ran, run, scheduled

from learnability import schemas

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


EMBEDDINGS = ["word2vec", "fasttext", "glove", "random"]
SCHEMES = ["uniform", "frequency_matched"]


def svg_text(path: Path) -> set[str]:
    """The strings a figure's SVG shows (the figures keep their text as text)."""
    return set(re.findall(r"<text[^>]*>([^<]+)", path.read_text()))


def test_every_output_exists_with_its_documented_columns(workflow_dir):
    wd = workflow_dir
    lists = FIXTURE_LISTS
    per_list = [(e, li, n) for e in EMBEDDINGS for li in lists for n in SCHEMES]
    base = "results/learnability/{}/{}/{}/"
    expected = {
        "vocab": [f"results/embeddings/{e}/vocab.parquet" for e in EMBEDDINGS],
        "concept_words": [f"results/concepts/{e}/{li}.parquet" for e in EMBEDDINGS for li in lists],
        "coverage": ["results/concepts/coverage.parquet"],
        "iterations": [base.format(*k) + "iterations.parquet" for k in per_list],
        "summary": [base.format(*k) + "summary.parquet" for k in per_list],
        "roc": [base.format(*k) + "roc.parquet" for k in per_list],
        "members": [base.format(*k) + "members.parquet" for k in per_list],
        "null": [f"results/null/{e}/{n}/size-60.parquet" for e in EMBEDDINGS for n in SCHEMES],
        "codelength": [f"results/codelength/{e}/{n}.parquet" for e in EMBEDDINGS for n in SCHEMES],
        "pvalues": ["results/stats/pvalues.parquet"],
        "random_rows": ["results/stats/random_rows.parquet"],
        "wilcoxon": ["results/stats/wilcoxon.parquet"],
        **{
            table: [f"results/evaluations/{e}/{table}.parquet" for e in EMBEDDINGS]
            for table in (
                "multi_answer",
                "analogy",
                "word_pairs",
                "hierarchy_edges",
                "hierarchy_parents",
                "pseudo",
            )
        },  # fmt: skip
        "scores": ["results/evaluations/scores.parquet"],
        "evaluation_tests": ["results/evaluations/tests.parquet"],
        "rank_correlation": ["results/evaluations/rank_correlation.parquet"],
        # the analyses: one table per embedding and scheme, every list in it
        **{
            table: [
                f"results/analyses/{e}/{n}/{table}.parquet" for e in EMBEDDINGS for n in SCHEMES
            ]
            for table in ("suggestions", "suggestion_check", "entanglement")
        },  # fmt: skip
        "ranking": ["results/stats/ranking.parquet"],
    }
    for table, paths in expected.items():
        for path in paths:
            df = pd.read_parquet(wd / path)
            assert list(df.columns) == schemas.columns(table), path
            assert len(df) > 0, path
    cfg = yaml.safe_load((wd / "config/config.yaml").read_text())
    top, check = cfg["suggestions"]["top"], cfg["suggestions"]["check"]
    for e in EMBEDDINGS:
        for n in SCHEMES:
            diag = wd / f"results/analyses/{e}/{n}"
            sug = pd.read_parquet(diag / "suggestions.parquet")
            for li in lists:  # the top words of each list, ranked 1 to top, none a member
                rows = sug[sug["list"] == li]
                assert rows["rank"].tolist() == list(range(1, top + 1)), (e, n, li)
                members = pd.read_parquet(wd / base.format(e, li, n) / "members.parquet")
                assert not set(rows["word"]) & set(members["word"]), (e, n, li)
            got = pd.read_parquet(diag / "suggestion_check.parquet")
            assert sorted(zip(got["list"], got["k"], strict=True)) == sorted(
                (li, k) for li in lists for k in check["k"]
            ), (e, n)
            assert (got["folds"] == check["folds"]).all()
            # mini_royal's 4 members leave 3 to fit when a fold is hidden: not checked,
            # and its rows say why; the others are checked
            small = got["list"] == "mini_royal"
            assert got.loc[~small, "recall"].notna().all() and got.loc[small, "recall"].isna().all()
            assert got.loc[small, "baseline"].str.startswith("not checked: 3 members").all()
            tangle = pd.read_parquet(diag / "entanglement.parquet")
            pairs = sorted(zip(tangle["list_a"], tangle["list_b"], strict=True))
            assert pairs == sorted((a, b) for a in lists for b in lists), (e, n)
    ranking = pd.read_parquet(wd / "results/stats/ranking.parquet")
    for n in SCHEMES:  # each compared embedding ranked once per scheme
        ranked = ranking[ranking["negatives"] == n]
        assert sorted(ranked["embedding"]) == sorted(cfg["compare"]["embeddings"]), n
        assert sorted(ranked["rank"]) == [1, 2, 3], n
    # no learning curve was asked for, so none was computed
    assert not list((wd / "results" / "learnability").rglob("learning_curve.parquet"))

    # the tables show the numbers the stages computed, cell for cell
    pv = pd.read_parquet(wd / "results/stats/pvalues.parquet")
    for scheme in SCHEMES:
        auc = {
            (e, li): pd.read_parquet(wd / base.format(e, li, scheme) / "summary.parquet")
            .set_index("metric").loc["auc", "mean"]
            for e in EMBEDDINGS for li in lists
        }  # fmt: skip
        t6 = pd.read_csv(wd / f"results/tables/{scheme}/table6.csv").set_index("list")
        assert list(t6.columns) == EMBEDDINGS
        assert list(t6.index) == [*lists, "Mean", "Median", "random(max)", "random(avg)"]
        for (e, li), value in auc.items():
            assert t6.loc[li, e] == pytest.approx(value, abs=1e-15), (scheme, e, li)
        for e in EMBEDDINGS:
            assert t6.loc["Mean", e] == pytest.approx(sum(auc[e, li] for li in lists) / len(lists))
        md = (wd / f"results/tables/{scheme}/table6.md").read_text()
        tex = (wd / f"results/tables/{scheme}/table6.tex").read_text()
        assert r"\begin{tabular}" in tex and r"\bottomrule" in tex
        for value in auc.values():
            assert f"{value:.3f}" in md and f"{value:.3f}" in tex
        learn = pd.read_csv(wd / f"results/tables/{scheme}/learnability.csv")
        for e in EMBEDDINGS:
            code = pd.read_parquet(wd / f"results/codelength/{e}/{scheme}.parquet")
            code = code.set_index(["list", "source"])["compression"]
            rows = learn[(learn["embedding"] == e) & learn["list"].isin(lists)].set_index("list")
            for li in lists:
                # the compression beside the list's, and its null's, from the codelength
                assert rows.loc[li, "compression"] == pytest.approx(code[li, "list"], rel=1e-12)
                assert rows.loc[li, "null compression"] == pytest.approx(
                    code[li, "null"], rel=1e-12
                )
                p = pv.query("embedding == @e and list == @li and negatives == @scheme")
                assert rows.loc[li, "p"] == pytest.approx(p["p_value"].item())
                assert rows.loc[li, "AUC"] == pytest.approx(auc[e, li], abs=1e-15)
        for name in ("wilcoxon", "members"):
            assert (wd / f"results/tables/{scheme}/{name}.md").read_text().count("|") > 10
        # each figure draws every list, or every embedding's null, and keeps its text
        for name in ("roc", "auc_distribution", "heatmap"):
            png = wd / f"results/plots/{scheme}/{name}.png"
            assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
            shown = svg_text(wd / f"results/plots/{scheme}/{name}.svg")
            assert set(lists) <= shown, (name, shown)
        for e in EMBEDDINGS:
            # a panel per list: its null, of random lists of its size
            shown = " ".join(svg_text(wd / f"results/plots/{scheme}/null_{e}.svg"))
            assert f"Null distributions of {e}" in shown, shown
            for li in lists:
                size = pv.query("embedding == @e and list == @li")["size"].iloc[0]
                assert li in shown and f"n = {size}" in shown, (li, shown)
    # the evaluations beside learnability: one row per embedding, one column group each
    evals = pd.read_csv(wd / "results/tables/evaluations.csv").set_index("embedding")
    assert set(evals.index) == set(EMBEDDINGS)
    groups = {c.split(": ")[0] for c in evals.columns}
    assert groups == {"learnability", "multi_answer", "analogy", "word_pairs", "hierarchy",
                      "pseudo"}, groups  # fmt: skip
    scores = pd.read_parquet(wd / "results/evaluations/scores.parquet")
    spearman = scores.query("evaluation == 'word_pairs' and dataset == 'simlex999'")
    assert (
        evals["word_pairs: simlex999 Spearman"].to_dict()
        == spearman.set_index("embedding")["value"].to_dict()
    )
    assert r"\cmidrule" in (wd / "results/tables/evaluations.tex").read_text()
    assert "failed queries" in (wd / "results/tables/multi_answer.md").read_text()
    assert "capital-common-countries" in (wd / "results/tables/analogy.md").read_text()
    assert (wd / "results/plots/pseudo.png").read_bytes()[:4] == b"\x89PNG"
    # every job's log says what it read and wrote
    log = (wd / "logs/tables/uniform.log").read_text()
    assert "rule tables" in log and "param table_size: 60" in log
    assert "wrote table6_tex: results/tables/uniform/table6.tex" in log
    assert (wd / "results/tables/coverage.md").read_text().count("|") > 10
    cov = pd.read_parquet(wd / "results/concepts/coverage.parquet")
    compared = cov[cov["embedding"] != "random"]
    assert set(compared["vocabulary"]) == {"own", "shared"} and len(compared) == 2 * 3 * 3
    assert set(cov.loc[cov["embedding"] == "random", "vocabulary"]) == {"own"}
    its = pd.read_parquet(wd / base.format("word2vec", "family", "uniform") / "iterations.parquet")
    assert its["iteration"].tolist() == [0, 1, 2, 3]  # learnability.iterations: 4
    # the wildcard expansions of the .dic are recorded
    kin = pd.read_parquet(wd / "results/concepts/word2vec/mini_kin.parquet")
    assert (kin["status"] == "expanded").sum() >= 3
    # every list is compared with its own null: its size, or its frequency profile
    assert len(pv) == len(per_list)
    uniform = pv[pv["negatives"] == "uniform"]
    assert (uniform["null_key"] == "size-" + uniform["size"].astype(str)).all()
    matched = pv[pv["negatives"] == "frequency_matched"]
    assert matched["null_key"].str.startswith("profile-").all()
    assert (matched["null_size"] == matched["size"]).all()
    for rec in pv.itertuples():
        null = pd.read_parquet(
            wd / f"results/null/{rec.embedding}/{rec.negatives}/{rec.null_key}.parquet"
        )
        assert len(null) == 6 and (null["size"] == rec.size).all()  # random_lists.lists


def test_one_lists_analyses_recomputed_from_their_inputs(workflow_dir):
    """word2vec's family list, uniform non-members, recomputed from the files the jobs
    read. Its suggestions: every word's mean probability and mean logit under the
    learnability job's saved classifiers (numpy), the words outside the list by
    probability, then logit, then row. Its held-out check: each hidden fold's splits
    (the check's own seeds) fitted by scikit-learn, the vocabulary ranked the same way,
    the hidden members in the top k counted, the frequency-matched baseline counted per
    bin by hand, and the p-value as the Poisson-binomial tail by convolution. Each
    equals the workflow's table."""
    from references import sklearn_suggestion_check
    from scipy.special import expit

    from learnability.protocol.sampling import frequency_bins

    wd = workflow_dir
    cfg = yaml.safe_load((wd / "config/config.yaml").read_text())
    vectors = np.load(wd / "results/shared/word2vec/vectors.npy").astype(np.float64)
    vocab = pd.read_parquet(wd / "results/shared/word2vec/vocab.parquet")
    learn = wd / "results/learnability/word2vec/family/uniform"
    members = np.sort(pd.read_parquet(learn / "members.parquet")["index"].to_numpy())
    diag = wd / "results/analyses/word2vec/uniform"

    def ranked(prob, logit, outside):
        return outside[np.lexsort((outside, -logit[outside], -prob[outside]))]

    coef = np.load(learn / "coefficients.npy")
    z = vectors @ coef[:, :-1].T + coef[:, -1]
    order = ranked(expit(z).mean(1), z.mean(1), np.setdiff1d(np.arange(len(vocab)), members))
    got = pd.read_parquet(diag / "suggestions.parquet").query("list == 'family'")
    top = cfg["suggestions"]["top"]
    assert got["word"].tolist() == vocab["word"].iloc[order[:top]].tolist()
    np.testing.assert_allclose(got["mean_probability"], expit(z).mean(1)[order[:top]], rtol=1e-5)

    check = cfg["suggestions"]["check"]
    reference = sklearn_suggestion_check(
        vectors, members, C=cfg["learnability"]["C"], seed=cfg["learnability"]["seed"],
        list_name="family", holdout=check["holdout"], folds=check["folds"],
        iterations=check["iterations"], ks=check["k"],
        bins=frequency_bins(vocab["count"].to_numpy(), cfg["learnability"]["frequency_bins"]),
    )  # fmt: skip
    table = pd.read_parquet(diag / "suggestion_check.parquet").query("list == 'family'")
    for row in table.itertuples():
        hits, hidden, baseline, p_value = reference[row.k]
        assert (row.hits, row.hidden) == (hits, hidden), row
        assert row.baseline_recall == pytest.approx(baseline, rel=1e-9), row
        assert row.p_value == pytest.approx(p_value, rel=1e-9), row


def kitchen_tables(wd: Path, negatives: str, embedding: str = "word2vec") -> dict:
    """The workflow's tables of one embedding and negatives scheme, each in the shape
    ``score()`` returns it (one embedding's rows, its lists' keys of the nulls)."""
    lists = FIXTURE_LISTS
    learn = [wd / f"results/learnability/{embedding}/{li}/{negatives}" for li in lists]
    diag = wd / f"results/analyses/{embedding}/{negatives}"
    iterations = schemas.read_tables([d / "iterations.parquet" for d in learn], "iterations")
    keys = sorted(set(iterations["null_key"]))
    null_dir = wd / f"results/null/{embedding}/{negatives}"
    pvalues = pd.read_parquet(wd / "results/stats/pvalues.parquet")
    return {
        "iterations": iterations,
        "summary": schemas.read_tables([d / "summary.parquet" for d in learn], "summary"),
        "members": schemas.read_tables([d / "members.parquet" for d in learn], "members"),
        "null": schemas.read_tables([null_dir / f"{k}.parquet" for k in keys], "null"),
        "pvalues": pvalues.query("embedding == @embedding and negatives == @negatives"),
        "codelength": schemas.read_tables(
            [wd / f"results/codelength/{embedding}/{negatives}.parquet"], "codelength"
        ),
        "suggestions": schemas.read_tables([diag / "suggestions.parquet"], "suggestions"),
        "suggestion_check": schemas.read_tables(
            [diag / "suggestion_check.parquet"], "suggestion_check"
        ),
        "entanglement": schemas.read_tables([diag / "entanglement.parquet"], "entanglement"),
        "bounds": schemas.read_tables(
            [wd / f"results/bounds/{embedding}/{negatives}.parquet"], "bounds"
        ),
        "words_needed": schemas.read_tables(
            [wd / f"results/words_needed/{embedding}/{negatives}.parquet"], "words_needed"
        ),
    }


def score_settings(cfg: dict) -> dict:
    """``score()``'s keywords for a workflow config: its settings, one by one."""
    from learnability.defaults import default

    learn, null, check = cfg["learnability"], cfg["random_lists"], cfg["suggestions"]["check"]
    code = {k: cfg.get("codelength", {}).get(k, default(f"codelength.{k}"))
            for k in ("enabled", "orders", "null_lists", "fractions")}  # fmt: skip
    power = {k: cfg.get("power", {}).get(k, default(f"power.{k}"))
             for k in ("alpha", "power", "confidence", "groups", "iterations", "subsamples",
                       "sizes")}  # fmt: skip
    return dict(
        iterations=learn["iterations"], C=learn["C"], seed=learn["seed"],
        min_words=learn["min_words"], n_bins=learn["frequency_bins"],
        bootstrap=learn["bootstrap"], null_lists=null["lists"],
        null_iterations=null["iterations"], pvalue_method=null["method"],
        null_seed=null["seed"], adjust=null["adjust"], case=cfg["matching"]["case"],
        suggestions=cfg["suggestions"]["top"], check_folds=check["folds"],
        check_iterations=check["iterations"], check_holdout=check["holdout"],
        check_k=check["k"], entanglement_iterations=cfg["entanglement"]["iterations"],
        entanglement_pairs=cfg["entanglement"].get("pairs", default("entanglement.pairs")),
        entanglement_min_z=cfg["entanglement"].get("min_z", default("entanglement.min_z")),
        codelength_orders=code["orders"] if code["enabled"] else 0,
        codelength_null_lists=code["null_lists"], codelength_fractions=code["fractions"],
        alpha=power["alpha"], power=power["power"], bound_groups=power["groups"],
        bound_iterations=power["iterations"], bound_confidence=power["confidence"],
        curve_subsamples=power["subsamples"], curve_sizes=power["sizes"],
    )  # fmt: skip


@pytest.mark.parametrize("negatives", SCHEMES)
def test_score_gives_the_workflows_tables_on_its_embedding(workflow_dir, tmp_path, negatives):
    """One kitchen: ``score()`` on the run's shared word2vec, with the run's lists and its
    config's settings, gives every table the workflow wrote for that embedding (the
    splits, summaries with their bootstrap intervals, members, nulls, p-values,
    codelengths, bounds, words-needed curve, suggestions, their check and the
    entanglement), value for value. The
    two reach the analyses by different paths (the jobs' scripts, score's loop): a gate
    or a seed that one of them changes fails this."""
    import learnability

    wd = workflow_dir
    cfg = yaml.safe_load((wd / "config/config.yaml").read_text())
    lists = tmp_path / "lists"
    lists.mkdir()
    shutil.copy(wd / "lists" / "family.txt", lists)
    shutil.copy(wd / "mini.dic", lists)  # its categories are the run's mini_kin, mini_royal
    got = learnability.score(
        wd / "results/shared/word2vec", lists, negatives=negatives, name="word2vec",
        **score_settings(cfg),
    )  # fmt: skip
    assert sorted(got.lists["list"]) == FIXTURE_LISTS
    keys = {
        "iterations": ["list", "iteration"], "summary": ["list", "metric"],
        "members": ["list", "index"], "null": ["null_key", "null_list"], "pvalues": ["list"],
        "codelength": ["list", "source"], "suggestions": ["list", "rank"],
        "suggestion_check": ["list", "k"], "entanglement": ["list_a", "list_b"],
        "bounds": ["list"], "words_needed": ["list", "words"],
    }  # fmt: skip
    for table, want in kitchen_tables(wd, negatives).items():
        mine = schemas.conform(getattr(got, table), table)
        by = [k for k in keys[table] if k in mine.columns]
        assert len(want) > 0, table
        pd.testing.assert_frame_equal(
            mine.sort_values(by).reset_index(drop=True),
            schemas.conform(want, table).sort_values(by).reset_index(drop=True),
            check_exact=True, obj=f"{negatives} {table}",
        )  # fmt: skip


def test_the_sample_corpus_has_the_token_count_the_readme_gives(workflow_dir):
    """The README's figures for the embedded sample (tokens, types) are those of the
    corpus the workflow extracts with the default config's corpus settings, which the
    smoke config shares."""
    default = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    smoke = yaml.safe_load((REPO / ".test" / "config" / "config.yaml").read_text())
    assert smoke["corpus"] == default["corpus"]
    stats = json.loads((workflow_dir / "results/corpus/enwiki-sample/stats.json").read_text())
    page = (REPO / "docs/explanation/tokenisation.md").read_text(encoding="utf-8")
    said = re.search(r"([\d,]+) tokens, ([\d,]+) types", page)
    assert said, "the tokenisation page no longer gives the sample's token count"
    tokens, types = (int(x.replace(",", "")) for x in said.groups())
    assert (stats["tokens"], stats["types"]) == (tokens, types)


def test_rerun_has_nothing_to_do_and_a_new_list_reruns_only_its_jobs(workflow_dir, tmp_path):
    wd = own_copy(workflow_dir, tmp_path)  # a dry run writes Snakemake's records
    # an older version's results folder beside: named in one line, nothing to do
    (wd / "results" / "diagnostics" / "word2vec").mkdir(parents=True)
    again = run(wd, "-n")
    assert again.returncode == 0
    assert "Nothing to be done" in again.stdout + again.stderr
    shown = again.stdout + again.stderr  # (Snakemake's warnings go to its stdout)
    named = [li for li in shown.splitlines() if "results/diagnostics/" in li]
    assert len(named) == 1 and "results/analyses/" in named[0], shown[-2000:]
    shutil.copy(REPO / "resources" / "wordlists" / "health.txt", wd / "lists")
    try:
        dry = run(wd, "-n")
        assert dry.returncode == 0, dry.stderr[-3000:]
        out = dry.stdout + dry.stderr
        jobs = scheduled(out)
        assert jobs.get("resolve_concept") == 4 and jobs.get("learnability") == 8, jobs
        assert jobs.get("codelength") == 8, jobs  # one per embedding and scheme: all lists
        upstream = CORPUS_JOBS | {"train_embedding", "random_embedding"}
        assert not upstream & set(jobs), jobs
        # the lists' coverage in the corpus gains the new list's row (and trains nothing)
        assert jobs.get("corpus_coverage") == 1, jobs
        assert set(jobs) <= {
            "corpus_coverage",
            "resolve_concept",
            "learnability",
            "learning_curve",
            "codelength",
            "coverage",
            "coverage_table",
            "pvalues",
            "wilcoxon",
            "tables",
            "all",
            "null_distribution",
            "plot_roc",
            "plot_auc_distribution",
            "plot_null",
            "plot_heatmap",
            # its table holds learnability's mean AUC beside the other evaluations
            "evaluations_summary",
            # the analyses read every list of an embedding and scheme: one job each
            "suggestions",
            "suggestion_check",
            "entanglement",
            "suggestions_table",
            "suggestion_check_table",
            "entanglement_table",
            "bounds",
            "words_needed",
            "words_needed_table",
            "ranking",
            "explorer",
        }, jobs
        assert jobs.get("entanglement") == 8 and jobs.get("suggestion_check") == 8, jobs
        lists_in_jobs = set(re.findall(r"list=([\w.-]+)", out))
        assert lists_in_jobs == {"health"}
    finally:
        (wd / "lists" / "health.txt").unlink()


def _dry_run_after(wd: Path, edit) -> tuple[dict[str, int], str]:
    """Jobs a dry run schedules after ``edit(config_text) -> config_text``; the config is
    restored afterwards."""
    path = wd / "config" / "config.yaml"
    original = path.read_text()
    try:
        path.write_text(edit(original))
        dry = run(wd, "-n")
        assert dry.returncode == 0, dry.stderr[-3000:]
        out = dry.stdout + dry.stderr
        return scheduled(out), out
    finally:
        path.write_text(original)


def _set(key_path: list[str], value):
    def edit(text: str) -> str:
        cfg = yaml.safe_load(text)
        node = cfg
        for key in key_path[:-1]:
            node = node.setdefault(key, {})
        node[key_path[-1]] = value
        return yaml.safe_dump(cfg, sort_keys=False)

    return edit


def test_rerun_semantics_follow_the_parameters_that_changed(workflow_dir, tmp_path):
    wd = own_copy(workflow_dir, tmp_path)
    # a comment changes no parameter: nothing reruns
    jobs, out = _dry_run_after(wd, lambda t: "# a note to self\n" + t + "\n# another\n")
    assert "Nothing to be done" in out, jobs
    # word2vec's epochs: word2vec is retrained, nothing else is, and the corpus stays
    jobs, out = _dry_run_after(wd, _set(["embeddings", "word2vec", "params"], {"epochs": 2}))
    assert jobs.get("train_embedding") == 1, jobs
    assert re.findall(r"rule train_embedding:.*?wildcards: embedding=(\w+)", out, re.S) == [
        "word2vec"
    ]
    assert not CORPUS_JOBS & set(jobs) and "random_embedding" in jobs, jobs
    # (the random baseline is drawn over word2vec's vocabulary, so it is redrawn; with
    # compare.vocabulary: shared, the other compared embeddings are re-restricted to the
    # common words and rescored, but never retrained)
    # the learnability iteration count: learnability and everything after it, no training
    # and no null distribution (its iterations are random_lists.iterations)
    jobs, _ = _dry_run_after(wd, _set(["learnability", "iterations"], 5))
    assert not {"train_embedding", "random_embedding", "null_distribution"} & set(jobs), jobs
    assert not CORPUS_JOBS & set(jobs) and "codelength" not in jobs, jobs
    assert jobs.get("learnability") == 4 * len(FIXTURE_LISTS) * 2, (
        jobs
    )  # embeddings x lists x schemes
    assert {"pvalues", "wilcoxon", "tables", "plot_roc"} <= set(jobs), jobs
    # the null's list count: nulls and what reads them, never a learnability fit
    jobs, _ = _dry_run_after(wd, _set(["random_lists", "lists"], 7))
    nulls = list((wd / "results" / "null").glob("*/*/*.parquet"))  # every key, every scheme
    assert jobs.get("null_distribution") == len(nulls) > 4 * 2, jobs
    assert not {"learnability", "train_embedding"} & set(jobs), jobs
    # the codelength's orders: the codelength jobs and the tables that show it, nothing else
    jobs, _ = _dry_run_after(wd, _set(["codelength", "orders"], 3))
    assert jobs == {"codelength": 4 * 2, "tables": 2, "all": 1}, jobs  # embeddings x schemes
    # an evaluation's parameter: that evaluation for every embedding and the summary only
    jobs, _ = _dry_run_after(wd, _set(["evaluations", "multi_answer", "k"], 5))
    assert jobs == {"evaluate_multi_answer": 4, "evaluations_summary": 1, "all": 1}, jobs
    jobs, _ = _dry_run_after(wd, _set(["evaluations", "pseudo", "ks"], [1, 3]))
    assert jobs == {"evaluate_pseudo": 4, "evaluations_summary": 1, "plot_pseudo": 1,
                    "all": 1}, jobs  # fmt: skip


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def test_make_report_after_a_run_holds_every_figure_and_shows_them_in_chromium(
    workflow_dir, tmp_path
):
    """`make report`, as the README says, in the environment `make run` leaves (it once
    failed there: Snakemake's report needs pygments, which only the dev extra brought)."""
    wd = own_copy(workflow_dir, tmp_path)
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy2(REPO / name, wd)  # a clone's, times kept: make sees it installed
    venv = userenv.user_env()
    env = dict(userenv.env_vars(venv), PYTHONHASHSEED="0")
    make = ["make", "--no-print-directory", f"VENV={venv}", "report"]
    plan = subprocess.run([*make, "-n"], cwd=wd, env=env, capture_output=True, text=True)
    # nothing to install: it only creates the report (the linked environment is never
    # written to)
    assert plan.stdout.strip() == f"{venv}/bin/snakemake --report results/report.html", plan
    result = subprocess.run(make, cwd=wd, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    html = (wd / "results/report.html").read_text(encoding="utf-8")
    results = json.loads(re.search(r"var results = (\{.*?\});\n", html).group(1))
    for scheme in ("uniform", "frequency_matched"):
        for name in ("roc", "auc_distribution", "heatmap", "null_word2vec"):
            entry = results[f"results/plots/{scheme}/{name}.png"]
            assert entry["data_uri"].startswith("data:image/png")
            assert len(entry["data_uri"]) > 10_000 and entry["caption"]
    # the evaluations beside learnability: their figure and their tables
    entry = results["results/plots/pseudo.png"]
    assert entry["data_uri"].startswith("data:image/png") and "Lee" in entry["caption"]
    for table in ("evaluations.md", "evaluation_tests.md", "multi_answer.md"):
        assert results[f"results/tables/{table}"]["caption"], table
    categories = json.loads(re.search(r"var categories = (\{.*?\});\n", html).group(1))
    assert set(categories) == {"Corpus", "Embeddings", "Learnability", "Comparison",
                               "Suggestions", "Entanglement", "Power"}  # fmt: skip
    for name in (
        "results/tables/ranking.csv",
        "results/plots/ranking.png",
        "results/plots/uniform/entanglement.png",
        "results/tables/frequency_matched/suggestion_check.csv",
    ):
        assert results[name]["caption"], name  # fmt: skip
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (apt install chromium): no screenshot")
    import html as html_lib

    # The page opens on the headline results: the mean AUCs with their p-values and the
    # comparisons, as the browser lays out the report's own landing view
    dom = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", f"--user-data-dir={tmp_path / 'profile0'}",
         "--virtual-time-budget=8000", "--dump-dom", (wd / "results/report.html").as_uri()],
        check=True, capture_output=True, text=True, timeout=120,
    ).stdout  # fmt: skip
    text = html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", dom)))
    assert "Mean AUC per list and embedding (uniform non-members)" in text
    assert "Wilcoxon signed-rank tests over the per-list mean AUCs" in text
    assert re.search(r"fasttext > glove \d+ [\d.]+ [\d.]+ [\d.]+", text), text[:3000]
    assert "non-members.The" not in text
    # Open the ROC figure the way a click in the report's menu does, and screenshot it.
    path = "results/plots/uniform/roc.png"
    show = (
        "<script>window.addEventListener('load', function () { setTimeout(function () {"
        f"app.setView({{content: 'img', contentPath: results['{path}'].data_uri,"
        f" resultPath: '{path}'}}); }}, 300); }});</script>"
    )
    page = tmp_path / "report.html"
    end = html.rindex("</body>")  # the last one: the report's scripts hold others in strings
    page.write_text(html[:end] + show + html[end:], encoding="utf-8")
    shot = tmp_path / "report.png"
    subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1400,1000",
         "--virtual-time-budget=8000", f"--screenshot={shot}", page.as_uri()],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    import matplotlib.image as mpimg
    import numpy as np

    pixels = (mpimg.imread(shot)[..., :3] * 255).round().astype(int)
    # the curves of the first two embeddings, in Okabe-Ito blue and orange (plots.OKABE_ITO),
    # appear only if the figure itself is on screen
    for rgb in ((0, 114, 178), (230, 159, 0)):
        assert (np.abs(pixels - rgb).sum(axis=2) < 30).sum() > 200, rgb
    keep = os.environ.get("LEARNABILITY_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)


# --- code-aware reruns and provenance (learnability.codedigest, learnability.provenance) --

# what reads the p-values, directly or through the tables: their tables, the report's
# headline, the figures that show p-values, the ranking and the analyses' report tables
# (their figures are drawn by the plotting module, which imports the statistics), and of
# the analyses the one that tests lists against random lists with the p-values (the
# words-needed curve): an analysis job runs its own analysis' code alone
AFTER_STATISTICS = {"pvalues", "tables", "plot_roc", "plot_auc_distribution", "plot_null",
                    "plot_heatmap", "plot_pseudo", "suggestions_table", "suggestion_check_table",
                    "entanglement_table", "ranking", "all", "words_needed",
                    "words_needed_table", "explorer"}  # fmt: skip
FITS = {"learnability", "learning_curve", "null_distribution", "codelength", "suggestions",
        "suggestion_check", "entanglement"}  # fmt: skip
TRAINING = CORPUS_JOBS | {"train_embedding", "random_embedding", "import_embedding",
                          "restrict_embedding", "shared_vocabulary"}  # fmt: skip


def _package_copy(wd: Path) -> Path:
    """The package's sources inside the run's folder: the workflow (common.smk) and its
    jobs then run this copy, which a test may edit without touching the installed one."""
    src = wd / "src" / "learnability"
    shutil.copytree(REPO / "src" / "learnability", src,
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    return src


def _edit(path: Path, old: str, new: str) -> str:
    text = path.read_text()
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new))
    return text


def _planned(wd: Path) -> tuple[dict[str, int], str]:
    dry = run(wd, "-n")
    assert dry.returncode == 0, dry.stderr[-3000:]
    out = dry.stdout + dry.stderr
    return scheduled(out), out


def test_code_edits_rerun_exactly_the_jobs_that_run_that_code(workflow_dir, tmp_path):
    wd = own_copy(workflow_dir, tmp_path)
    src = _package_copy(wd)
    stats, protocol = src / "statistics" / "significance.py", src / "protocol" / "evaluate.py"
    # comments and docstrings anywhere in the package, every module: nothing to do
    before = {p: p.read_text() for p in src.rglob("*.py")}
    for path, text in before.items():
        path.write_text(f"# edited by a test\n{text}\n\n# the end\n")
    _edit(stats, "def empirical_pvalue(", "# a note to self\ndef empirical_pvalue(")
    _edit(protocol, "each; and the null distribution", "each, and the null distribution")
    jobs, out = _planned(wd)
    assert "Nothing to be done" in out, jobs
    for path, text in before.items():
        path.write_text(text)
    # a function of the statistics: the p-values and what shows them, nothing fitted again
    _edit(stats, "return n_ge, (1 + n_ge) / (1 + null_values.size)",
          "return n_ge, (n_ge + 1) / (null_values.size + 1)")  # fmt: skip
    jobs, out = _planned(wd)
    assert set(jobs) == AFTER_STATISTICS, jobs
    assert jobs["pvalues"] == 1 and jobs["tables"] == 2, jobs  # the run's two schemes
    stats.write_text(before[stats])
    # the comparison of embeddings: the Wilcoxon test and what reads it, not the p-values
    comparison = src / "statistics" / "comparison.py"
    _edit(comparison, "return min(1.0, 2 * min(greater, less))",
          "return min(2 * min(greater, less), 1.0)")  # fmt: skip
    jobs, out = _planned(wd)
    assert set(jobs) == {"wilcoxon", "tables", "ranking", "all"}, jobs
    comparison.write_text(before[comparison])
    # one analysis: its jobs and those of the analysis that imports it (the check reads
    # the suggestions' ranking), not the other analyses
    suggestions = src / "analyses" / "suggestions.py"
    _edit(suggestions, "    rows = np.flatnonzero(~np.isnan(mean_prob))",
          "    rows = np.flatnonzero(np.isfinite(mean_prob))")  # fmt: skip
    jobs, out = _planned(wd)
    assert jobs["suggestions"] == jobs["suggestion_check"] == 4 * 2, jobs
    assert not {"codelength", "bounds", "words_needed", "entanglement"} & set(jobs), jobs
    assert not (FITS - {"suggestions", "suggestion_check"}) & set(jobs), jobs
    suggestions.write_text(before[suggestions])
    # the learnability protocol: every fit and what reads them, no embedding trained again
    _edit(
        protocol,
        "    return pd.DataFrame(rows)\n\n\ndef",
        "    return pd.DataFrame(rows[:])\n\n\ndef",
    )
    jobs, out = _planned(wd)
    assert not TRAINING & set(jobs), jobs
    assert {"learnability", "null_distribution", "codelength", "suggestions"} <= set(jobs), jobs
    assert jobs["learnability"] == 4 * len(FIXTURE_LISTS) * 2, jobs
    assert {"pvalues", "wilcoxon", "tables"} <= set(jobs), jobs
    protocol.write_text(before[protocol])
    # one trainer: its embedding alone is retrained (the others run other trainers)
    trainer = src / "embeddings" / "word2vec.py"
    before[trainer] = _edit(
        trainer, "def train_word2vec(", "def _unused():\n    return 0\n\n\ndef train_word2vec("
    )
    jobs, out = _planned(wd)
    assert jobs.get("train_embedding") == 1 and not CORPUS_JOBS & set(jobs), jobs
    assert re.findall(r"rule train_embedding:.*?wildcards: embedding=(\w+)", out, re.S) == [
        "word2vec"
    ]
    trainer.write_text(before[trainer])
    # one evaluation (its rules' evaluation_code): its jobs and the summary, no other
    # evaluation's; and a corpus reader the run does not read (the tables'; the run's is
    # the MediaWiki reader, its extraction's reader_code): nothing of the corpus
    analogy, tables = src / "evaluations" / "analogy.py", src / "corpus" / "tables.py"
    _edit(analogy, "    return pd.DataFrame(out)\n", "    return pd.DataFrame(out[:])\n")
    _edit(tables, "        return self.lines\n", "        return iter(self.lines)\n")
    jobs, out = _planned(wd)
    assert "evaluate_analogy" in jobs and "evaluations_summary" in jobs, jobs
    # (the word pairs' module imports the analogy's vocabulary restriction)
    reran = {j for j in jobs if j.startswith("evaluate_")}
    assert reran <= {"evaluate_analogy", "evaluate_word_pairs"}, jobs
    assert list(wd.glob("results/evaluations/*/multi_answer.parquet"))  # another kind ran
    assert not (TRAINING | FITS) & set(jobs), jobs
    analogy.write_text(before[analogy])
    tables.write_text(before[tables])
    jobs, out = _planned(wd)
    assert "Nothing to be done" in out, jobs


# the toy analysis of docs/contributing/extending.md: its module, and the captions of its
# line in the registry and its table in the schemas, each at the end of what it joins
TOY = "src/learnability/analyses/cohesion.py"
TOY_ADDED = {
    "analyses/registry.py": ("its line, in ENTRIES of src/learnability/analyses/registry.py",
                             "\nENTRIES = (", "\n)\n"),
    "schemas.py": ("its table, in TABLES of src/learnability/schemas.py", "\nTABLES: dict",
                   "\n}\n"),
}  # fmt: skip


def _cohesion(vectors: np.ndarray, words: list[str], vocab: list[str]) -> tuple[int, float]:
    """The toy's figure by hand: the mean cosine of a list's words (those the vocabulary
    has, once each) with their mean direction."""
    rows = {w: i for i, w in enumerate(vocab)}
    members = [rows[w] for w in dict.fromkeys(words) if w in rows]
    unit = vectors[members] / np.linalg.norm(vectors[members], axis=1, keepdims=True)
    centre = unit.sum(axis=0)
    return len(members), float(np.mean(unit @ centre) / np.linalg.norm(centre))


def test_the_extending_pages_toy_analysis_runs_as_its_rule_in_score_and_in_evaluate(
    workflow_dir, tmp_path
):
    """docs/contributing/extending.md's claim that an analysis is three files: its three
    blocks, written into a copy of the package as the page says (nothing else touched),
    give a rule the workflow schedules once per embedding and scheme, whose job writes
    the table in its schema; score() gives it as ``Scores.cohesion``, `learnability
    evaluate --out-dir` writes it, and the analyses' page lists it. The figures are
    checked against a hand computation from the run's vectors and the list's file. And
    what the page says the addition reruns on a finished run is what the dry run plans."""
    from test_site import blocks

    wd = own_copy(workflow_dir, tmp_path)
    src = _package_copy(wd)
    page = (REPO / "docs/contributing/extending.md").read_text(encoding="utf-8")
    found = {b.caption: b.body for b in blocks(page) if b.caption}
    (wd / TOY).write_text(found[TOY])
    for module, (caption, opening, closing) in TOY_ADDED.items():
        text = (src / module).read_text()
        end = text.index(closing, text.index(opening)) + 1  # the block ends before it
        (src / module).write_text(text[:end] + found[caption] + text[end:])
    # the plan on the finished run: the toy's jobs; and every other job of the run
    # again, the corpus and the training included, as the page says (the schemas'
    # module is in every job's code)
    dry = run(wd, "-n")
    assert dry.returncode == 0, dry.stderr[-3000:]
    jobs = scheduled(dry.stdout + dry.stderr, added=frozenset({"cohesion"}))
    assert jobs["cohesion"] == len(EMBEDDINGS) * len(SCHEMES), jobs
    assert {"extract_part", "train_embedding", "learnability", "suggestions"} <= set(jobs), jobs
    said = re.search(r"plans the (\d+) `cohesion` jobs and (\d+) others", " ".join(page.split()))
    others = sum(jobs.values()) - jobs["cohesion"]
    assert said and said.groups() == (str(jobs["cohesion"]), str(others)), (said, others)
    # the toy's jobs on word2vec alone, the rest left as it is (by the outputs' times)
    wanted = [f"results/analyses/word2vec/{n}/cohesion.parquet" for n in SCHEMES]
    done = run(wd, *wanted, "--rerun-triggers", "mtime")
    assert done.returncode == 0, done.stderr[-3000:]
    assert ran(done.stderr) == {"cohesion"}, done.stderr[-3000:]
    vocab = pd.read_parquet(wd / "results/shared/word2vec/vocab.parquet")["word"].tolist()
    vectors = np.load(wd / "results/shared/word2vec/vectors.npy").astype(np.float64)
    family = [w.strip().lower() for w in (wd / "lists/family.txt").read_text().splitlines()
              if w.strip() and not w.startswith("#")]  # fmt: skip
    size, expected = _cohesion(vectors, family, vocab)
    for negatives in SCHEMES:
        table = pd.read_parquet(wd / f"results/analyses/word2vec/{negatives}/cohesion.parquet")
        assert list(table.columns) == ["list", "embedding", "negatives", "size", "cohesion"]
        assert sorted(table["list"]) == FIXTURE_LISTS, table
        row = table.set_index("list").loc["family"]
        assert (row["embedding"], row["negatives"], row["size"]) == ("word2vec", negatives, size)
        assert row["cohesion"] == pytest.approx(expected, abs=1e-6), table
    workflow = pd.read_parquet(wd / "results/analyses/word2vec/uniform/cohesion.parquet")
    # the library and the command line of the copy, on the run's embedding and lists
    lists = tmp_path / "lists"
    lists.mkdir()
    shutil.copy(wd / "lists" / "family.txt", lists)
    shutil.copy(wd / "mini.dic", lists)
    out = tmp_path / "out"
    # the other analyses off (their tables are the kitchen test's): the toy's alone; the
    # command line's score() is the one whose Scores are kept (one scoring, not two)
    flags = ["--iterations", "2", "--null-lists", "3", "--null-iterations", "2",
             "--suggestions", "0", "--check-folds", "0", "--entanglement-iterations", "0",
             "--bound-groups", "0", "--words-needed", "0"]  # fmt: skip
    emb = str(wd / "results/shared/word2vec")
    script = f"""
import sys
import learnability
from learnability import api
from learnability.cli import main
from learnability.reports.config_docs import analyses_page
assert learnability.__file__.startswith({str(src)!r}), learnability.__file__
assert "| `cohesion` |" in analyses_page()
scored, score = [], api.score
api.score = lambda *args, **kwargs: scored.append(score(*args, **kwargs)) or scored[-1]
done = main(["evaluate", "--embedding", {emb!r}, "--lists", {str(lists)!r}, "--name",
             "word2vec", *{flags!r}, "--out-dir", {str(out)!r}])
scored[0].cohesion.to_parquet({str(tmp_path / "scored.parquet")!r})
sys.exit(done)
"""
    # numba keys its kernels' cache by their file, so the copy's would compile again (11
    # s); the toy needs none of them, and the copy's nulls are kept apart from the session's
    env = dict(userenv.env_vars(userenv.user_env()), PYTHONPATH=str(wd / "src"),
               NUMBA_DISABLE_JIT="1", LEARNABILITY_CACHE_DIR=str(tmp_path / "cache"))  # fmt: skip
    done = subprocess.run([userenv.python(), "-c", script], cwd=wd, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    for made in (tmp_path / "scored.parquet", out / "cohesion.parquet"):
        mine = pd.read_parquet(made)
        pd.testing.assert_frame_equal(mine.sort_values("list").reset_index(drop=True),
                                      workflow.sort_values("list").reset_index(drop=True),
                                      obj=made.name)  # fmt: skip


def _provenance(wd: Path, *args: str) -> subprocess.CompletedProcess:
    """`learnability provenance` as a user runs it in the run's folder (the package copy
    first on the path, as the workflow's jobs have it)."""
    env = dict(userenv.env_vars(userenv.user_env()), PYTHONPATH=str(wd / "src"))
    return subprocess.run([str(userenv.user_env() / "bin" / "learnability"), "provenance", *args],
                          cwd=wd, env=env, capture_output=True, text=True, timeout=300)  # fmt: skip


def test_every_output_says_how_it_was_made_and_whether_it_would_be_made_again(
    workflow_dir, tmp_path
):
    import pyarrow.parquet as pq

    from learnability import provenance
    from learnability.reports import records

    results = workflow_dir / "results"
    tables = sorted(results.rglob("*.parquet"))
    metas = sorted(results.rglob("meta.json"))
    assert len(tables) > 50 and len(metas) >= 4
    for path in [*tables, *metas]:
        record = provenance.read(path)
        assert record is not None, path
        assert {"package", "code", "params", "inputs", "libraries", "id"} <= set(record), path
        assert record["rule"] and record["outputs"], path
        assert any(str(path).endswith(o) for o in record["outputs"]), path
    pv = provenance.read(results / "stats" / "pvalues.parquet")
    assert pv["rule"] == "pvalues" and "numpy" in pv["libraries"] and "scipy" in pv["libraries"]
    assert pv["libraries"]["numpy"] == metadata.version("numpy")
    assert "learnability.statistics.significance" in pv["code"]["roots"]
    # each input: its own record's id where it has one (the workflow's tables)
    summary = next(f for f in pv["inputs"] if f.endswith("summary.parquet"))
    assert pv["inputs"][summary] == provenance.read(workflow_dir / summary)["id"]
    # an embedding's vectors are named by the record of the folder's meta.json
    learn = provenance.read(next(results.glob("learnability/word2vec/*/*/summary.parquet")))
    vectors = next(f for f in learn["inputs"] if f.endswith("vectors.npy"))
    meta = provenance.read(workflow_dir / Path(vectors).parent / "meta.json")
    assert learn["inputs"][vectors] == f"{meta['id']}/vectors.npy"
    # the Parquet's data is what pandas reads, the record rides in its metadata
    assert provenance.KEY.encode() in pq.read_schema(results / "stats/pvalues.parquet").metadata

    wd = own_copy(workflow_dir, tmp_path)
    src = _package_copy(wd)
    table = "results/stats/pvalues.parquet"
    same = _provenance(wd, table)
    assert same.returncode == 0, same.stderr
    text = same.stdout
    assert "rule pvalues" in text and f"numpy {metadata.version('numpy')}" in text
    assert pv["code"]["digest"] in text and pv["params"] in text and pv["id"] in text
    assert "would make the same file" in text and "would differ" not in text
    # the inputs: the first few listed, the rest counted; --all lists every one
    listed = sum(f"    {f}  " in text for f in pv["inputs"])
    assert listed == min(len(pv["inputs"]), records.SHOWN_INPUTS) and listed > 1
    assert f"inputs      {len(pv['inputs'])}" in text
    every = _provenance(wd, table, "--all").stdout
    assert all(f"    {f}  {d}" in every for f, d in pv["inputs"].items())
    # the p-values' code changes: it would differ, and --check says so in its status
    _edit(src / "statistics" / "significance.py",
          "return n_ge, (1 + n_ge) / (1 + null_values.size)",
          "return n_ge, (n_ge + 1) / (null_values.size + 1)")  # fmt: skip
    changed = _provenance(wd, table, "--check")
    assert changed.returncode == 3, changed.stdout + changed.stderr
    assert "would differ" in changed.stdout and "package code this job runs" in changed.stdout
    # a table that does not run that code would still be made the same
    learn_file = next(wd.glob("results/learnability/word2vec/*/*/summary.parquet"))
    assert _provenance(wd, str(learn_file.relative_to(wd)), "--check").returncode == 0
    # no record, no file: one line each
    (wd / "plain.parquet").write_bytes((results / "stats/pvalues.parquet").read_bytes()[:0])
    for bad in ("plain.parquet", "nothing.parquet"):
        err = _provenance(wd, bad)
        assert err.returncode == 1 and err.stderr.count("\n") == 1 and bad in err.stderr, err


def _with_library_version(path: Path, dist: str, version: str) -> None:
    """``path``'s record rewritten as if ``dist`` had been at ``version`` (its data, and
    its time, kept: Snakemake sees nothing new)."""
    import json
    import os

    import pyarrow.parquet as pq

    from learnability import provenance

    stat = path.stat()
    table = pq.read_table(path)
    record = json.loads(table.schema.metadata[provenance.KEY.encode()])
    record["libraries"][dist] = version
    for env in record["lineage"].values():
        env["libraries"][dist] = version
    meta = {**table.schema.metadata, provenance.KEY.encode(): json.dumps(record).encode()}
    pq.write_table(table.replace_schema_metadata(meta), path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def test_results_made_under_other_library_versions_are_named_by_provenance_and_report(
    workflow_dir, tmp_path
):
    wd = own_copy(workflow_dir, tmp_path)
    _package_copy(wd)
    headline = wd / "results/report/uniform/headline.rst"
    now = metadata.version("numpy")
    assert "Every result this report shows was made under these library versions" in (
        headline.read_text()
    )
    assert f"numpy {now}" in headline.read_text()
    _with_library_version(wd / "results/stats/pvalues.parquet", "numpy", "1.0.0")
    told = _provenance(wd, "results/stats/pvalues.parquet")
    assert f"numpy 1.0.0 -> {now}" in told.stdout and "would differ" in told.stdout, told
    # the default records and reports, and reruns nothing for it
    jobs, out = _planned(wd)
    assert "Nothing to be done" in out, jobs
    # the report's opening (the tables job writes it) names the results and their rules
    again = run(wd, "--forcerun", "tables", "--allowed-rules", "tables", "all")
    assert again.returncode == 0, again.stderr[-3000:]
    text = headline.read_text()
    assert "Mixed versions" in text and f"numpy 1.0.0 (now {now}): pvalues" in text, text
    # and the HTML report opens on it
    report = run(wd, "--report", "results/report.html")
    assert report.returncode == 0, report.stderr[-3000:]
    html = (wd / "results/report.html").read_text(encoding="utf-8")
    assert "Mixed versions" in html and "numpy 1.0.0 (now" in html
    # with provenance.libraries: rerun, the versions are params: the changed environment
    # would rerun every job (here: the recorded versions are this environment's, so a
    # switch alone reruns each job once, for its new param)
    jobs, _ = _dry_run_after(wd, _set(["provenance", "libraries"], "rerun"))
    assert {"train_embedding", "pvalues", "learnability"} <= set(jobs), jobs
