"""The Python API (learnability.score): what notebook users pass, checked against the
workflow's own functions, hand-computed p-values and a planted concept."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from conftest import REPO

import learnability
from learnability import schemas
from learnability.errors import InputError
from learnability.stats import comparison_null


def planted(n_words=1500, dim=12, members=40, seed=0):
    rng = np.random.default_rng(seed)
    words = [f"member{i}" for i in range(members)] + [f"w{i}" for i in range(n_words - members)]
    vectors = rng.normal(size=(n_words, dim))
    vectors[:members, 0] += 3.0  # the members stand apart along one direction
    return words, vectors


def keyed_vectors(words, vectors, counts=None):
    from gensim.models import KeyedVectors

    kv = KeyedVectors(vector_size=vectors.shape[1])
    kv.add_vectors(words, vectors.astype(np.float32))
    if counts is not None:
        for word, count in zip(words, counts, strict=True):
            kv.set_vecattr(word, "count", int(count))
    return kv


LISTS = {
    "planted": [f"member{i}" for i in range(40)],
    "chance": [f"w{i}" for i in range(100, 140)] + ["unknownword"],
    "tiny": ["member1", "member2", "nope"],
}


def test_keyed_vectors_score_a_planted_concept_and_chance():
    words, vectors = planted()
    result = learnability.score(keyed_vectors(words, vectors), LISTS, iterations=20, null_lists=50)
    lists = result.lists.set_index("list")
    assert lists.loc["planted", "auc"] > 0.9 and lists.loc["planted", "p_value"] == 1 / 51
    assert abs(lists.loc["chance", "auc"] - 0.5) < 0.15 and lists.loc["chance", "p_value"] > 0.05
    # the planted concept's labels compress; chance's cost the uniform code, as its null's
    assert lists.loc["planted", "compression"] > 1.5 > lists.loc["planted", "null_compression"]
    assert (
        lists.loc["chance", "compression"] < 1.0 and lists.loc["chance", "null_compression"] < 1.0
    )
    assert lists.loc["chance", "in_vocab"] == 40 and lists.loc["chance", "entries"] == 41
    # the list too small to score is reported, not dropped
    assert result.skipped["list"].tolist() == ["tiny"]
    assert "2 of its 3 entries" in result.skipped["reason"].iloc[0]
    # every table is in the workflow's documented schema
    for table in ("pvalues", "summary", "iterations", "members", "null", "concept_words",
                  "coverage", "codelength"):  # fmt: skip
        frame = getattr(result, table)
        assert list(schemas.conform(frame, table).columns) == schemas.columns(table), table
    assert set(result.coverage["list"]) == {"planted", "chance", "tiny"}
    oov = result.concept_words.query("list == 'chance' and status == 'oov'")["entry"]
    assert oov.tolist() == ["unknownword"]


def test_the_default_pvalues_rank_against_a_null_of_the_recorded_variance_and_skewness():
    words, vectors = planted()
    result = learnability.score((words, vectors), LISTS, iterations=20, null_lists=50)
    row = result.pvalues.set_index("list").loc["chance"]
    assert row["method"] == "rescaled_skew"
    null = result.null[result.null["null_key"] == row["null_key"]]
    values = comparison_null(null, "rescaled_skew", 20).values
    # the values compared against have the variance between + within / 20 and the
    # skewness the row records, and keep the random lists' order
    assert values.var(ddof=1) == pytest.approx(row["between_var"] + row["within_var"] / 20)
    dev = values - values.mean()
    assert np.mean(dev**3) / values.var(ddof=1) ** 1.5 == pytest.approx(row["null_skewness"])
    assert (np.argsort(values, kind="stable") == np.argsort(null["auc"], kind="stable")).all()
    observed = result.lists.set_index("list").loc["chance", "auc"]
    assert row["p_value"] == pytest.approx((1 + (values >= observed).sum()) / 51)


def test_pvalues_are_the_hand_computed_rank_against_the_rescaled_null():
    words, vectors = planted()
    result = learnability.score(
        (words, vectors), LISTS, iterations=20, null_lists=50, pvalue_method="rescaled"
    )
    row = result.pvalues.set_index("list").loc["chance"]
    null = result.null[result.null["null_key"] == row["null_key"]]
    means, within = null["auc"].to_numpy(), null["auc_var"].to_numpy()
    # the rescaled null by hand: deviations shrunk to the list's 20 splits (10 each)
    w = within.mean()
    b = max(means.var(ddof=1) - w / 10, 0.0)
    rescaled = means.mean() + (means - means.mean()) * np.sqrt((b + w / 20) / (b + w / 10))
    observed = result.lists.set_index("list").loc["chance", "auc"]
    expected = (1 + (rescaled >= observed).sum()) / (len(rescaled) + 1)
    assert row["p_value"] == pytest.approx(expected)
    assert row["method"] == "rescaled" and row["list_iterations"] == 20
    assert row["null_iterations"] == 10 and row["null_lists"] == 50
    # Holm over the two scored lists
    p = result.pvalues.set_index("list")["p_value"]
    assert result.pvalues.set_index("list").loc["chance", "p_adjusted"] == pytest.approx(
        min(1.0, max(2 * p.min(), p.max()))
    )


def test_every_embedding_form_gives_the_same_numbers(tmp_path):
    words, vectors = planted()
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
        k: learnability.score(v, lists, iterations=8, null_lists=20, name="e").lists
        for k, v in forms.items()
    }
    for k, table in got.items():
        pd.testing.assert_frame_equal(table, got["pair"], check_exact=False, rtol=1e-12, obj=k)


def test_lists_from_files_dictionaries_and_one_sequence(tmp_path):
    words, vectors = planted()
    (tmp_path / "planted.txt").write_text("\n".join(LISTS["planted"]) + "\n")
    dic = "%\n1\tstand\n2\tother\n%\n" + "".join(f"member{i}\t1\n" for i in range(40))
    dic += "".join(f"w{i}\t2\n" for i in range(40))
    (tmp_path / "mini.dic").write_text(dic)
    by_folder = learnability.score((words, vectors), tmp_path, iterations=8, null_lists=20)
    assert set(by_folder.lists["list"]) == {"planted", "mini_stand", "mini_other"}
    assert set(by_folder.concept_words["source"]) == {str(tmp_path)}
    one = learnability.score((words, vectors), LISTS["planted"], iterations=8, null_lists=20)
    assert one.lists["list"].tolist() == ["concept"]
    by_file = learnability.score(
        (words, vectors), {"concept": tmp_path / "planted.txt"}, iterations=8, null_lists=20
    )
    assert by_file.lists["auc"].iloc[0] == one.lists["auc"].iloc[0]


def test_frequency_matched_negatives_use_keyed_vectors_counts():
    words, vectors = planted()
    counts = np.arange(len(words), 0, -1)
    kv = keyed_vectors(words, vectors, counts)
    one = {"planted": LISTS["planted"]}
    result = learnability.score(kv, one, iterations=8, null_lists=20, negatives="frequency_matched")
    assert result.pvalues["null_key"].iloc[0].startswith("profile-")
    assert set(result.iterations["negatives"]) == {"frequency_matched"}
    with pytest.raises(InputError, match="no word counts"):
        learnability.score((words, vectors), LISTS, negatives="frequency_matched")


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
        learnability.score(embedding, lists)
    assert "\n" not in str(err.value)


def _readme_python_api_example() -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Python API", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readme_api_example_runs(monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    exec(compile(_readme_python_api_example(), "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "numbers" in printed and "p_value" in printed


def test_the_notebook_example_runs(tmp_path, monkeypatch):
    """docs/example_notebook.py, a notebook in percent format (Jupytext, VS Code), runs."""
    import runpy

    monkeypatch.chdir(REPO)
    namespace = runpy.run_path(str(REPO / "docs" / "example_notebook.py"))
    result = namespace["result"]
    assert result.lists.set_index("list").loc["numbers", "auc"] > 0.6


def test_api_documentation_builds_from_the_docstrings(tmp_path):
    """pdoc renders the package's docstrings; the front door is on the first page."""
    out = tmp_path / "api"
    subprocess.run(
        [sys.executable, "-m", "pdoc", "learnability", "-o", str(out)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    page = (out / "learnability" / "api.html").read_text(encoding="utf-8")
    # each documented function and class gets its anchor, with its docstring beside it
    assert 'id="score"' in page and 'id="Scores"' in page and 'id="as_embedding"' in page
    assert "Score each list on one embedding as the workflow does" in page
    assert 'href="learnability/api.html"' in (out / "learnability.html").read_text()


def test_import_is_light_and_score_is_the_front_door():
    code = "import sys, learnability; assert 'learnability.api' not in sys.modules; " \
           "from learnability import score; print(score.__module__)"  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "learnability.api"
