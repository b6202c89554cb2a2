"""The Python API (learnability.score): what notebook users pass, checked against the
workflow's own functions, hand-computed p-values and a planted concept."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from paths import REPO
from planted import planted_concept

import learnability
from learnability import schemas
from learnability.errors import InputError


def planted(n_words=1500, dim=12, members=40, seed=0):
    """tests/planted.py's concept (the first rows, 3 apart along the first axis), its
    words named ``member0``... and ``w0``...: (words, vectors)."""
    concept = planted_concept(seed, n=n_words, dim=dim, size=members, shift=3.0, axis=0)
    words = [f"member{i}" for i in range(members)] + [f"w{i}" for i in range(n_words - members)]
    return words, concept.vectors


def keyed_vectors(words, vectors, counts=None):
    from gensim.models import KeyedVectors

    kv = KeyedVectors(vector_size=vectors.shape[1])
    kv.add_vectors(words, vectors.astype(np.float32))
    if counts is not None:
        for word, count in zip(words, counts, strict=True):
            kv.set_vecattr(word, "count", int(count))
    return kv


# what the tests below are not about (the analyses: a test file each, the one
# with every option on: test_score_with_every_option_...)
QUIET = dict(suggestions=0, check_folds=0, entanglement_iterations=0)

LISTS = {
    "planted": [f"member{i}" for i in range(40)],
    "chance": [f"w{i}" for i in range(100, 140)] + ["unknownword"],
    "tiny": ["member1", "member2", "nope"],
}


def test_keyed_vectors_score_a_planted_concept_and_chance(seed):
    words, vectors = planted(seed=seed)
    result = learnability.score(
        keyed_vectors(words, vectors), LISTS, iterations=20, null_lists=50, **QUIET
    )
    lists = result.lists.set_index("list")
    assert lists.loc["planted", "auc"] > 0.9 and lists.loc["planted", "p_value"] == 1 / 51
    # a chance list is one more random list: within 4 SD of its null (whatever the seed;
    # its p-value is uniform, so no bound on it holds at every seed)
    assert abs(lists.loc["chance", "null_z"]) < 4
    # the planted concept's labels compress; chance's cost the uniform code, as its null's
    assert lists.loc["planted", "compression"] > 1.5 > lists.loc["planted", "null_compression"]
    assert (
        lists.loc["chance", "compression"] < 1.0 and lists.loc["chance", "null_compression"] < 1.0
    )
    assert lists.loc["chance", "in_vocab"] == 40 and lists.loc["chance", "entries"] == 41
    # the list too small to score is reported, not dropped: a row of its own, in the
    # lists' order, without metrics, that says why, and its coverage row says the same
    assert result.skipped["list"].tolist() == ["tiny"]
    assert "2 of its 3 entries" in result.skipped["reason"].iloc[0]
    assert result.lists["list"].tolist() == ["planted", "chance", "tiny"]
    tiny = lists.loc["tiny"]
    assert tiny["in_vocab"] == 2 and tiny["entries"] == 3 and np.isnan(tiny["auc"])
    assert tiny["not_scored"].startswith("only 2 words in the embedding's vocabulary; at least 4")
    assert (lists.drop(index="tiny")["not_scored"] == "").all()
    covered = result.coverage.set_index("list")["not_scored"]
    assert covered["planted"] == covered["chance"] == ""
    assert covered["tiny"] and tiny["not_scored"].startswith(covered["tiny"])
    # every table is in the workflow's documented schema
    for table in ("pvalues", "summary", "iterations", "members", "null", "concept_words",
                  "coverage", "codelength"):  # fmt: skip
        frame = getattr(result, table)
        assert list(schemas.conform(frame, table).columns) == schemas.columns(table), table
    assert set(result.coverage["list"]) == {"planted", "chance", "tiny"}
    oov = result.concept_words.query("list == 'chance' and status == 'oov'")["entry"]
    assert oov.tolist() == ["unknownword"]


def test_the_default_pvalues_rank_against_a_null_of_the_recorded_variance_and_skewness(seed):
    """rescaled_skew by hand, from the null table and the definition in
    docs/explanation/statistics.md: the variance components by their textbook estimates, each
    random list's deviation u mapped to a (u + t (u^2 - mean u^2)), with t the root
    nearest 0 (over the map's monotone range) that gives the recorded skewness and a the
    variance between + within / 20; the p-value is the list's rank among those values."""
    from scipy.optimize import brentq

    words, vectors = planted(seed=seed)
    result = learnability.score(
        (words, vectors), LISTS, iterations=20, null_lists=1000, codelength_orders=0,
        pvalue_method="rescaled_skew", **QUIET)  # fmt: skip
    row = result.pvalues.set_index("list").loc["chance"]
    assert row["method"] == row["method_requested"] == "rescaled_skew"
    null = result.null[result.null["null_key"] == row["null_key"]]
    y = null["auc"].to_numpy()
    within = null["auc_var"].mean()
    between = max(y.var(ddof=1) - within / 10, 0.0)
    assert row["within_var"] == pytest.approx(within, rel=1e-12)
    assert row["between_var"] == pytest.approx(between, rel=1e-9, abs=1e-15)
    u = y - y.mean()
    q = u**2 - np.mean(u**2)

    def skewness(t: float) -> float:
        z = u + t * q
        return np.mean((z - z.mean()) ** 3) / z.var(ddof=1) ** 1.5

    # slope 1 + 2 t u >= 1/2 over the null's range
    grid = np.linspace(-0.25 / u.max(), 0.25 / -u.min(), 4001)
    gap = np.array([skewness(t) for t in grid]) - row["null_skewness"]
    roots = np.flatnonzero(np.sign(gap[:-1]) != np.sign(gap[1:]))
    j = roots[np.argmin(np.abs(grid[roots]))]
    t = brentq(lambda x: skewness(x) - row["null_skewness"], grid[j], grid[j + 1])
    z = u + t * q
    values = y.mean() + z * np.sqrt((between + within / 20) / z.var(ddof=1))
    observed = result.lists.set_index("list").loc["chance", "auc"]
    assert row["p_value"] == pytest.approx((1 + (values >= observed).sum()) / 1001)
    # the map keeps the random lists' order
    assert (np.diff(values[np.argsort(y)]) >= 0).all()


def test_the_default_chooses_exactly_and_says_why(seed):
    """The default (auto) with 50 random lists: too few for any approximation, so the
    exact truncated, the reason in the row; by hand, the list's mean over its first 10
    splits ranked among the random lists' 10-split means. Holm over the two lists.
    Settings whose measured error misses the goal are refused in one line."""
    words, vectors = planted(seed=seed)
    result = learnability.score((words, vectors), LISTS, iterations=20, null_lists=50,
                                codelength_orders=0, **QUIET)  # fmt: skip
    row = result.pvalues.set_index("list").loc["chance"]
    assert (row["method"], row["method_requested"]) == ("truncated", "auto")
    assert "50 random lists of 10 splits" in row["method_reason"]
    null = result.null[result.null["null_key"] == row["null_key"]]
    its = result.iterations.query("list == 'chance' and iteration < 10")
    observed = its["auc"].mean()
    assert row["observed"] == pytest.approx(observed)
    assert row["p_value"] == pytest.approx((1 + (null["auc"] >= observed).sum()) / 51)
    assert row["list_iterations"] == 20 and row["null_iterations"] == 10
    p = result.pvalues.set_index("list")["p_value"]
    assert result.pvalues.set_index("list").loc["chance", "p_adjusted"] == pytest.approx(
        min(1.0, max(2 * p.min(), p.max()))
    )
    for method, match in (("rescaled", "rescaled's type-I error"),
                          ("rescaled_skew", "at least 1000 random lists of 10")):  # fmt: skip
        with pytest.raises(InputError, match=match) as err:
            learnability.score((words, vectors), LISTS, iterations=20, null_lists=50,
                               codelength_orders=0, pvalue_method=method, **QUIET)  # fmt: skip
        assert "\n" not in str(err.value) and "use auto" in str(err.value)


def test_the_defaults_are_the_config_schemas():
    """One source for the defaults: score's and the CLI's are the workflow's, the schema's
    defaults and, for keys the schema requires, config/config.yaml's values."""
    import yaml

    from learnability import api
    from learnability.pipeline.config import fill_defaults, load_schema
    from learnability.statistics.pvalue_methods import DEFAULT_PVALUE_METHOD

    config = fill_defaults(
        yaml.safe_load((REPO / "config/config.yaml").read_text()),
        load_schema(REPO / "workflow/schemas/config.schema.yaml"),
    )
    ln, rl = config["learnability"], config["random_lists"]
    assert api.ITERATIONS == ln["iterations"] and api.C == ln["C"] and api.SEED == ln["seed"]
    assert api.NULL_LISTS == rl["lists"] == 1000
    assert api.NULL_ITERATIONS == rl["iterations"] and api.ADJUST == rl["adjust"]
    assert api.N_BINS == ln["frequency_bins"]
    assert DEFAULT_PVALUE_METHOD == rl["method"] == "auto"


def test_a_second_call_reuses_the_null(seed):
    """The null of (vectors, size, settings) is kept for the session: a second call on
    the same vectors gives the same table without drawing it again; other vectors do not
    hit it."""
    from learnability import api

    words, vectors = planted(seed=seed)
    kw = dict(iterations=20, null_lists=50, codelength_orders=0)
    first = learnability.score((words, vectors), LISTS, **kw, **QUIET)
    cached = len(api.NULL_CACHE)
    second = learnability.score((words, vectors), LISTS, **kw, **QUIET)
    assert len(api.NULL_CACHE) == cached
    pd.testing.assert_frame_equal(first.pvalues, second.pvalues)
    learnability.score((words, vectors + 1.0), LISTS, **kw, **QUIET)
    assert len(api.NULL_CACHE) > cached


def test_every_embedding_form_gives_the_same_numbers(tmp_path, seed):
    words, vectors = planted(seed=seed)
    vectors = vectors.astype(np.float32)
    text = tmp_path / "planted.vec"
    lines = [f"{len(words)} {vectors.shape[1]}"]
    pairs = zip(words, vectors, strict=True)
    lines += [w + " " + " ".join(f"{x:.9g}" for x in v) for w, v in pairs]
    text.write_text("\n".join(lines) + "\n")
    from learnability.embeddings.store import Embedding, save_embedding

    folder = tmp_path / "folder"  # a workflow embedding folder, memory-mapped in place
    save_embedding(Embedding(words, vectors, np.zeros(len(words), dtype=np.int64), "e"), folder)
    forms = {
        "folder": folder,
        "keyed": keyed_vectors(words, vectors),
        "pair": (words, vectors),
        "mapping": dict(zip(words, vectors, strict=True)),
        "file": text,
    }
    lists = {"planted": LISTS["planted"], "chance": LISTS["chance"]}
    got = {
        k: learnability.score(
            v, lists, iterations=8, null_lists=20, name="e", codelength_orders=0, **QUIET
        ).lists
        for k, v in forms.items()
    }
    for k, table in got.items():
        pd.testing.assert_frame_equal(table, got["pair"], check_exact=False, rtol=1e-12, obj=k)


def test_lists_from_files_dictionaries_and_one_sequence(tmp_path, seed):
    words, vectors = planted(seed=seed)
    (tmp_path / "planted.txt").write_text("\n".join(LISTS["planted"]) + "\n")
    dic = "%\n1\tstand\n2\tother\n%\n" + "".join(f"member{i}\t1\n" for i in range(40))
    dic += "".join(f"w{i}\t2\n" for i in range(40))
    (tmp_path / "mini.dic").write_text(dic)
    by_folder = learnability.score(
        (words, vectors), tmp_path, iterations=8, null_lists=20, codelength_orders=0, **QUIET
    )
    assert set(by_folder.lists["list"]) == {"planted", "mini_stand", "mini_other"}
    assert set(by_folder.concept_words["source"]) == {str(tmp_path)}
    one = learnability.score(
        (words, vectors),
        LISTS["planted"],
        iterations=8,
        null_lists=20,
        codelength_orders=0,
        **QUIET,
    )
    assert one.lists["list"].tolist() == ["concept"]
    by_file = learnability.score(
        (words, vectors),
        {"concept": tmp_path / "planted.txt"},
        iterations=8,
        null_lists=20,
        codelength_orders=0,
        **QUIET,
    )
    assert by_file.lists["auc"].iloc[0] == one.lists["auc"].iloc[0]


def test_frequency_matched_negatives_use_keyed_vectors_counts(seed):
    words, vectors = planted(seed=seed)
    counts = np.arange(len(words), 0, -1)
    kv = keyed_vectors(words, vectors, counts)
    one = {"planted": LISTS["planted"]}
    result = learnability.score(
        kv,
        one,
        iterations=8,
        null_lists=20,
        negatives="frequency_matched",
        codelength_orders=0,
        **QUIET,
    )
    assert result.pvalues["null_key"].iloc[0].startswith("profile-")
    assert set(result.iterations["negatives"]) == {"frequency_matched"}
    with pytest.raises(InputError, match="no word counts"):
        learnability.score(
            (words, vectors), LISTS, negatives="frequency_matched", codelength_orders=0, **QUIET
        )


@pytest.mark.parametrize(
    "embedding, lists, match",
    [
        ((["a", "a"], np.ones((2, 3))), ["a"], "the word 'a' has two vectors"),
        ((["a", "b"], np.array([[1.0, np.nan], [0.0, 1.0]])), ["a"], "vector of 'a' is not finite"),
        ((["a", "b"], np.ones((3, 2))), ["a"], "2 words but vectors of shape \\(3, 2\\)"),
        (42, ["a"], "cannot read an embedding from int"),
        ((["a", "b"], np.eye(2)), {"x": "a b c"}, "list 'x': give its words as a list"),
        ((["a", "b"], np.eye(2)), {"x": ["a", 3]}, "list 'x', item 2: 3 is not a string"),
        ((["a", "b"], np.eye(2)), ["zzz", "yyy", "xxx", "www"], "no list has 4 or more words"),
        ("/nonexistent/vectors.vec", ["a"], "no such embedding file"),
    ],
)
def test_bad_input_is_one_clear_line(embedding, lists, match):
    with pytest.raises(InputError, match=match) as err:
        learnability.score(embedding, lists, codelength_orders=0, **QUIET)
    assert "\n" not in str(err.value)


def _readme_python_api_example() -> tuple[str, str]:
    """The Python API example of the one-embedding how-to, and the output it shows."""
    page = (REPO / "docs/how-to/one-embedding.md").read_text(encoding="utf-8")
    section = page.split("## Python API", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    shown = re.search(r"```text\n(.*?)```", section, re.S).group(1)
    return code, shown


def test_the_one_embedding_pages_api_example_shows_gensims_vocabulary_counts():
    """The one-embedding page's Python example (run as a user runs it, and its output
    compared with the page, by test_site.py): the in-vocabulary counts it shows are
    those gensim's own KeyedVectors give for the lists' words."""
    from gensim.models import KeyedVectors
    from gensim.test.utils import datapath

    code, shown = _readme_python_api_example()
    kv = KeyedVectors.load_word2vec_format(datapath("lee_fasttext.vec"))
    lines = (REPO / "resources/wordlists/family.txt").read_text().splitlines()
    family = [w for w in lines if w.strip() and not w.startswith("#")]  # "#": comments
    numbers = re.search(r'"numbers": \[(.*?)\]', code, re.S).group(1)
    numbers = re.findall(r'"(\w+)"', numbers)
    table = pd.read_fwf(io.StringIO(shown), index_col=0).set_index("list")
    assert table.loc["numbers", "in_vocab"] == sum(w in kv.key_to_index for w in numbers)
    assert table.loc["family", "in_vocab"] == len({w for w in family if w in kv.key_to_index})


def test_the_notebook_example_runs(tmp_path, monkeypatch):
    """docs/example_notebook.py, a notebook in percent format (Jupytext, VS Code), runs,
    and the split AUCs it computes for its inline list are scikit-learn's on the same
    splits of gensim's vectors."""
    import runpy

    from references import assert_aucs_match_the_reference, sklearn_aucs

    monkeypatch.chdir(REPO)
    namespace = runpy.run_path(str(REPO / "docs" / "example_notebook.py"))
    result, kv = namespace["result"], namespace["kv"]
    its = result.iterations.query("list == 'numbers'").sort_values("iteration")
    members = np.sort(result.members.query("list == 'numbers'")["index"].to_numpy())
    assert [kv.index_to_key[i] for i in members] == sorted(
        (w for w in namespace["lists"]["numbers"] if w in kv.key_to_index),
        key=kv.key_to_index.get,
    )
    reference = sklearn_aucs(kv.vectors, members, its["seed"].tolist(), C=1.0)
    n_test = members.size - members.size // 2
    assert_aucs_match_the_reference(its["auc"], reference, n_test, n_test)


def test_import_is_light_and_score_is_the_front_door():
    code = "import sys, learnability; assert 'learnability.api' not in sys.modules; " \
           "from learnability import score; print(score.__module__)"  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "learnability.api"


USER_SCORE = """
import sys
import numpy as np
from gensim.models import KeyedVectors
import learnability

rng = np.random.default_rng(int(sys.argv[2]))
words = [f"member{i}" for i in range(40)] + [f"w{i}" for i in range(1460)]
vectors = rng.normal(size=(1500, 12)).astype(np.float32)
vectors[:40, 0] += 3.0
kv = KeyedVectors(vector_size=12)
kv.add_vectors(words, vectors)
for i, word in enumerate(words):
    kv.set_vecattr(word, "count", 1500 - i)
lists = {"planted": words[:40], "chance": words[100:140] + ["unknownword"]}
result = learnability.score(kv, lists, iterations=8, null_lists=20, bootstrap=50,
                            negatives="frequency_matched", codelength_orders=2,
                            codelength_null_lists=5, check_iterations=4,
                            entanglement_iterations=4)
for table in ("lists", "pvalues", "summary", "members", "codelength", "suggestions",
              "suggestion_check", "entanglement"):
    getattr(result, table).to_parquet(f"{sys.argv[1]}/{table}.parquet")
"""


def test_score_with_every_option_gives_the_same_tables_in_the_users_environment(tmp_path, seed):
    """score() as a notebook in the environment `make run` gives calls it (every kind of
    output on: frequency-matched non-members from KeyedVectors' counts, bootstrap
    intervals, the codelength, the analyses), against the same call in the tests'
    environment: the same tables, value for value. An import that only the test tools
    bring, or an environment-dependent number, would show here."""
    import userenv

    venv = userenv.user_env()
    done = subprocess.run(
        [userenv.python(), "-c", USER_SCORE, str(tmp_path), str(seed)],
        env=dict(userenv.env_vars(venv), LEARNABILITY_CACHE_DIR=""),
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    here = tmp_path / "here"
    here.mkdir()
    namespace: dict = {}
    argv = sys.argv
    try:
        sys.argv = ["score", str(here), str(seed)]
        exec(USER_SCORE, namespace)
    finally:
        sys.argv = argv
    for table in ("lists", "pvalues", "summary", "members", "codelength", "suggestions",
                  "suggestion_check", "entanglement"):  # fmt: skip
        theirs = pd.read_parquet(tmp_path / f"{table}.parquet")
        assert len(theirs) > 0, table
        pd.testing.assert_frame_equal(theirs, pd.read_parquet(here / f"{table}.parquet"),
                                      check_exact=True, obj=table)  # fmt: skip


def test_progress_is_one_line_an_analysis_not_one_a_call_of_the_solver(caplog):
    """score() over many lists logs the lists' progress and, for the entanglement, says
    up front how many pairs and fits its square costs, then counts pairs: no line per
    call of the solver (a 300-list dictionary once printed 94,503 of them, 93,000 from
    the entanglement). The solver still logs its own progress when called alone."""
    from learnability.protocol.classify import fit_many

    words, vectors = planted(n_words=800, members=40)
    lists = {f"l{i}": [f"member{j}" for j in range(i, i + 20)] for i in range(6)}
    with caplog.at_level("INFO", logger="learnability"):
        caplog.clear()
        learnability.score(
            (words, vectors), lists, iterations=4, null_lists=10, codelength_orders=1,
            codelength_null_lists=2, suggestions=5, check_folds=1, check_iterations=2,
            entanglement_iterations=2,
        )  # fmt: skip
    messages = caplog.messages
    assert not [m for m in messages if m.startswith("fits: ")]
    # the lists overlap by 19 members each: every pair shares members, so every pair is
    # related
    assert messages.count("entanglement: 6 lists, 36 of 36 ordered pairs measured (those "
                          "sharing members or linked by |z| >= 2) x 2 splits = 84 fits (all "
                          "pairs grow with the square of the list count; "
                          "entanglement.iterations: 0 turns it off)") == 1  # fmt: skip
    pairs = [m for m in messages if m.startswith("entanglement: ") and " pairs (" in m]
    lists_done = [m for m in messages if m.startswith("lists scored: ")]
    assert pairs and pairs[-1].startswith("entanglement: 36 of 36 pairs (100%)")
    assert lists_done and lists_done[-1].startswith("lists scored: 6 of 6 lists (100%)")
    assert len(messages) < 30, messages
    caplog.clear()
    with caplog.at_level("INFO", logger="learnability"):
        fit_many(vectors, np.arange(20)[None], (np.arange(20) < 10)[None].astype(float), 1.0)
    assert [m for m in caplog.messages if m.startswith("fits: 1 of 1 fits")]


def test_min_words_decides_which_lists_score_scores(seed):
    """score(min_words=...) is the Protocol's: a list of 5 words is scored at 5 and
    reported as skipped at 6, with the reason its analyses' rows follow (the bounds of a
    list at min_words have no jackknife groups)."""
    words, vectors = planted(seed=seed)
    lists = {"planted": LISTS["planted"], "five": [f"member{i}" for i in range(5)]}
    settings = dict(iterations=6, null_lists=19, **QUIET)
    at_five = learnability.score((words, vectors), lists, min_words=5, **settings)
    assert at_five.skipped.empty and at_five.lists["not_scored"].tolist() == ["", ""]
    assert at_five.bounds.set_index("list").loc["five", "groups"] == 0
    at_six = learnability.score((words, vectors), lists, min_words=6, **settings)
    assert at_six.skipped["list"].tolist() == ["five"]
    assert (
        at_six.skipped["reason"]
        .iloc[0]
        .startswith("only 5 words in the embedding's vocabulary; at least 6 are needed")
    )
    assert at_six.bounds["list"].tolist() == ["planted"]
