import copy
import json
import os
import re
import sys

import jsonschema
import pytest
import yaml
from paths import REPO

from learnability.errors import ConfigError
from learnability.pipeline.config import check_config, list_registry, resolve_ref
from learnability.pipeline.params import embedding_params

SCHEMA_PATH = REPO / "workflow/schemas/config.schema.yaml"
SCHEMA = yaml.safe_load(SCHEMA_PATH.read_text())


def load(name="config.yaml"):
    return yaml.safe_load((REPO / "config" / name).read_text())


def validate(cfg):
    jsonschema.Draft202012Validator(SCHEMA).validate(cfg)


@pytest.mark.parametrize("name", ["config.yaml", "paper.yaml"])
def test_shipped_configs_are_valid(name):
    cfg = load(name)
    validate(cfg)
    check_config(cfg)


@pytest.mark.parametrize(
    "mutate,match",
    [
        (lambda c: c["learnability"].update(iteratons=5), "iteratons"),
        (lambda c: c["learnability"].update(iterations="many"), "'many' is not of type 'integer'"),
        (lambda c: c["learnability"].update(iterations=-1), "-1 is less than the minimum"),
        (lambda c: c["training"].update(dim=3.5), "3.5 is not of type 'integer'"),
        (lambda c: c["embeddings"].update({"../x": {"method": "word2vec"}}), "does not match"),
        (lambda c: c["embeddings"]["word2vec"].update(method="bert"), "'bert' is not one of"),
    ],
)
def test_schema_rejects_bad_config(mutate, match):
    cfg = copy.deepcopy(load())
    mutate(cfg)
    with pytest.raises(jsonschema.ValidationError, match=match):
        validate(cfg)


@pytest.mark.parametrize(
    "mutate,match",
    [
        (lambda c: c["compare"].update(embeddings=["word2vec", "bert"]), "'bert' is not defined"),
        (lambda c: c["embeddings"]["random"].update(reference="random"), "not a trained"),
        (lambda c: c["embeddings"]["random"].pop("reference"), "needs the name"),
        (lambda c: c["report"].update(table_size=123), "must be one of random_lists.sizes"),
        (
            lambda c: c["corpus"]["source"].update(base_url="https://m/d/"),
            r"^corpus\.source: give exactly one of 'path'.*null$",
        ),
        (lambda c: c["corpus"]["source"].update(path=None), "exactly one of 'path'"),
        (
            lambda c: c["evaluations"]["hierarchy"].update(files=["nowhere/graph.tsv"]),
            r"evaluations\.hierarchy\.files: nowhere/graph\.tsv does not exist.*\[\] turns",
        ),
        (
            lambda c: c["evaluations"]["multi_answer"].update(
                files=["resources/similarity/multi-answer.txt", "package://x/multi-answer.txt"]
            ),
            r"two files are named \['multi-answer'\].*rename one",
        ),
        (
            lambda c: c["embeddings"].update(pre={"method": "pretrained"}),
            "embeddings.pre: .*exactly one of 'path'",
        ),
        (
            lambda c: c["embeddings"].update(pre={"method": "pretrained", "path": "/no/file.vec"}),
            r"embeddings.pre.path: /no/file.vec does not exist",
        ),
        (
            lambda c: c["embeddings"]["glove"].update(max_vocab=10),
            r"embeddings.glove: \['max_vocab'\] are for pretrained",
        ),
        (
            lambda c: c["embeddings"].update(
                pre={"method": "pretrained", "url": "https://x/v.vec", "params": {"dim": 5}}
            ),
            "embeddings.pre.params: a pretrained embedding is not trained here",
        ),
        (
            lambda c: c.update(suggestions={"check": {"folds": 6, "holdout": 0.2}}),
            r"suggestions\.check\.folds: 6 folds of 0\.2 .* at most 5",
        ),
    ],
)
def test_cross_key_checks(mutate, match):
    cfg = copy.deepcopy(load())
    mutate(cfg)
    with pytest.raises(ConfigError, match=match):
        check_config(cfg)


def test_pretrained_params_and_random_over_a_pretrained_vocabulary():
    cfg = load()
    cfg["embeddings"]["pre"] = {"method": "pretrained", "url": "https://x/v.vec.gz"}
    cfg["embeddings"]["random"]["reference"] = "pre"
    check_config(cfg)
    assert embedding_params(cfg, "pre") == {
        "method": "pretrained",
        "format": "auto",
        "member": None,
        "max_vocab": None,
        "exclude_prefixes": [],
        "frequency_ordered": True,
        "subword_oov": False,
        "allow_pickle": False,
        "unicode_errors": "strict",
        "words_column": None,
        "threads": 1,
    }
    # the lists' plain words, for a fastText .bin's n-gram vectors
    from learnability.pipeline.config import list_registry
    from learnability.pipeline.jobs import list_words

    words = list_words(list_registry(cfg))
    assert "mother" in words and not any(w.endswith("*") or " " in w for w in words)
    # the training block does not reach a pretrained embedding's params
    cfg["training"]["dim"] = 50
    assert "dim" not in embedding_params(cfg, "pre")


def test_params_hold_only_what_each_trainer_reads():
    cfg = load()
    w2v, ft, glove = (embedding_params(cfg, e) for e in ("word2vec", "fasttext", "glove"))
    assert "minn" not in w2v and "x_max" not in w2v
    assert ft["minn"] == 3 and ft["maxn"] == 6
    assert glove["x_max"] == 100 and glove["epochs"] == 15 and "negative" not in glove
    assert glove["vectors"] == "sum"
    cfg["embeddings"]["gp"] = {"method": "glove_python"}
    gp = embedding_params(cfg, "gp")
    assert gp == {k: v for k, v in glove.items() if k != "vectors"} | {"method": "glove_python"}
    # the choice of output vectors is ours only: it must not rerun glove-python
    cfg["training"]["glove"]["vectors"] = "word"
    assert embedding_params(cfg, "gp") == gp and embedding_params(cfg, "glove")["vectors"] == "word"
    assert w2v["dim"] == ft["dim"] == glove["dim"] == 300
    assert w2v["window"] == ft["window"] == glove["window"] == 5
    # a per-embedding override changes that embedding's params only
    cfg["embeddings"]["word2vec"]["params"] = {"epochs": 9}
    assert embedding_params(cfg, "word2vec")["epochs"] == 9
    assert embedding_params(cfg, "fasttext")["epochs"] == 5


def test_list_registry(tmp_path):
    (tmp_path / "b.txt").write_text("x\n")
    (tmp_path / "a.txt").write_text("y\n")
    dic = tmp_path / "mini.dic"
    dic.write_text("%\n1\tposemo\n2\tanger\n%\nhappy\t1\n")
    cfg = {
        "wordlists": {
            "dir": str(tmp_path),
            "dictionaries": [{"name": "liwc", "path": str(dic), "categories": ["posemo"]}],
        }
    }
    reg = list_registry(cfg)
    assert list(reg) == ["a", "b", "liwc_posemo"]
    assert reg["liwc_posemo"] == {
        "path": str(dic),
        "kind": "dic",
        "category": "posemo",
        "format": "auto",
    }
    cfg["wordlists"]["dictionaries"][0]["categories"] = ["nope"]
    with pytest.raises(ConfigError, match=r"\['nope'\] are not in"):
        list_registry(cfg)
    (tmp_path / "bad name.txt").write_text("z\n")
    cfg["wordlists"]["dictionaries"] = []
    with pytest.raises(ConfigError, match="rename the file"):
        list_registry(cfg)


# (a .dic header's category is its first word after the id: LIWC files add descriptions)
HOSTILE = ["../../etc/x", "$(touch pwned)", "x;rm -rf ~", "`id`", "c" * 300, "a/b"]


@pytest.mark.parametrize("category", HOSTILE)
def test_hostile_dictionary_categories_are_refused(tmp_path, category):
    """Category names become list names, hence path components and wildcards: anything
    but a plain name is refused before a job runs, with the file and the fix."""
    (tmp_path / "lists").mkdir()
    (tmp_path / "d.dic").write_text(f"%\n1\t{category}\n%\nword\t1\n", encoding="utf-8")
    dic = {"name": "d", "path": str(tmp_path / "d.dic")}
    cfg = {"wordlists": {"dir": str(tmp_path / "lists"), "dictionaries": [dic]}}
    with pytest.raises(ConfigError, match=r"d\.dic: category .* cannot be part of a file name"):
        list_registry(cfg)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.dic", "lists"]


@pytest.mark.parametrize("stem", ["a b", "$(id)", "x;y", "-flag", "c" * 101])
def test_hostile_list_file_names_are_refused(tmp_path, stem):
    (tmp_path / f"{stem}.txt").write_text("word\n")
    cfg = {"wordlists": {"dir": str(tmp_path), "dictionaries": []}}
    with pytest.raises(ConfigError, match="rename the file"):
        list_registry(cfg)


def test_no_rule_runs_a_shell_command():
    """Names and paths reach jobs only as Python values in scripts, never a shell line."""
    rules = (REPO / "workflow" / "rules").glob("*.smk")
    for path in [REPO / "workflow" / "Snakefile", *rules]:
        text = path.read_text()
        assert not re.search(r"^\s*(shell|run):", text, flags=re.MULTILINE), path.name


def test_missing_list_paths_name_the_key(tmp_path):
    cfg = {"wordlists": {"dir": str(tmp_path / "nope"), "dictionaries": []}}
    with pytest.raises(ConfigError, match=r"wordlists\.dir: .*nope is not a directory"):
        list_registry(cfg)
    missing = {"name": "liwc", "path": str(tmp_path / "LIWC2015.dic")}
    cfg = {"wordlists": {"dir": str(tmp_path), "dictionaries": [missing]}}
    with pytest.raises(ConfigError, match=r"dictionaries\[liwc\]\.path: .*LIWC2015\.dic does not"):
        list_registry(cfg)


def test_anchor_paths_finds_shipped_defaults_beside_the_workflow(tmp_path, monkeypatch):
    """From another folder, a default under resources/ resolves to the checkout's file;
    the user's own files stay as written, or absolute for module use (a module's prefix
    would move a relative path); URLs and package:// paths are left alone."""
    from learnability.pipeline.config import anchor_paths

    monkeypatch.chdir(tmp_path)
    (tmp_path / "lists").mkdir()
    (tmp_path / "mine.txt").write_text("a b\n")

    def cfg():
        return {
            "corpus": {"source": {"path": "package://gensim/test/test_data/x.bz2"}},
            "corpora": {"own": {"path": "mine.txt"}, "elsewhere": {"path": "nowhere.txt"}},
            "embeddings": {"e": {"path": "mine.txt"}, "u": {"url": "https://x/y.vec"}},
            "wordlists": {"dir": ["lists", "resources/wordlists"], "dictionaries": []},
            "evaluations": {
                "multi_answer": {"files": ["resources/similarity/multi-answer.txt"]},
                "hierarchy": {"files": ["nowhere.tsv"]},
            },
        }

    plain = anchor_paths(cfg(), REPO)
    assert plain["wordlists"]["dir"] == ["lists", str(REPO / "resources/wordlists")]
    assert plain["embeddings"]["e"]["path"] == "mine.txt"
    assert plain["evaluations"]["multi_answer"]["files"] == [
        str(REPO / "resources/similarity/multi-answer.txt")
    ]
    assert plain["evaluations"]["hierarchy"]["files"] == ["nowhere.tsv"]  # its check names it
    assert plain["corpus"]["source"]["path"].startswith("package://")
    assert plain["corpora"]["own"]["path"] == "mine.txt"
    assert plain["corpora"]["elsewhere"]["path"] == "nowhere.txt"
    module = anchor_paths(cfg(), REPO, absolute=True)
    assert module["wordlists"]["dir"][0] == str(tmp_path / "lists")
    assert module["embeddings"]["e"]["path"] == str(tmp_path / "mine.txt")
    assert module["embeddings"]["u"] == {"url": "https://x/y.vec"}
    assert module["corpora"]["own"]["path"] == str(tmp_path / "mine.txt")


UNKNOWN = "unknown key; did you mean"


@pytest.mark.parametrize(
    "patch, message",
    [
        ({"learnability": {"iteratons": 3}}, f"learnability.iteratons: {UNKNOWN} 'iterations'?"),
        ({"embeddings": {"w": {"parms": {}}}}, f"embeddings.w.parms: {UNKNOWN} 'params'?"),
        ({"training": {"glove": {"xmax": 3}}}, f"training.glove.xmax: {UNKNOWN} 'x_max'?"),
        ({"wordlist": {}}, f"wordlist: {UNKNOWN} 'wordlists'?"),
        ({"learnability": {"zzz": 1}}, "learnability.zzz: unknown key; known keys here: C, boot"),
        ({"embeddings": {"w": {"method": "fasttex"}}},
         "embeddings.w.method: 'fasttex' is not one of word2vec, fasttext, fasttext_facebook, "
         "glove, glove_python, transformer, random, pretrained; did you mean 'fasttext'?"),
        ({"random_lists": {"method": "rescaled_skw"}},
         "random_lists.method: 'rescaled_skw' is not one of auto, rescaled_skew, rescaled, "
         "matched, truncated, unmatched; did you mean 'rescaled_skew'?"),
        ({"compare": {"alternative": "bigger"}},
         "compare.alternative: 'bigger' is not one of greater, less, two-sided"),
    ],
)  # fmt: skip
def test_misspelt_keys_and_values_get_did_you_mean_in_one_line(patch, message):
    from snakemake.utils import update_config

    from learnability.pipeline.config import check_keys

    cfg = yaml.safe_load((REPO / "config/config.yaml").read_text())
    check_keys(cfg, SCHEMA)  # the shipped config passes
    update_config(cfg, patch)
    with pytest.raises(ConfigError) as err:
        check_keys(cfg, SCHEMA)
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_files_in_the_list_folder_that_are_not_read_get_a_warning(tmp_path):
    from learnability.pipeline.config import ignored_list_files

    for name in ("family.txt", "short.TXT", "kin.dic", "words.lst", "README.md", "LICENSE-x"):
        (tmp_path / name).write_text("mother\n")
    (tmp_path / ".gitkeep").write_text("")
    (tmp_path / "sub").mkdir()
    cfg = {"wordlists": {"dir": [str(tmp_path)], "dictionaries": []}}
    assert list(list_registry(cfg)) == ["family"]
    warnings = ignored_list_files(cfg)
    assert warnings == [
        f"{tmp_path / 'kin.dic'}: not read as a word list (a dictionary or table goes under "
        "wordlists.dictionaries)",
        f"{tmp_path / 'short.TXT'}: not read as a word list (rename it to short.txt)",
        f"{tmp_path / 'words.lst'}: not read as a word list (only *.txt files are lists; "
        "rename it to .txt to use it)",
    ]
    assert ignored_list_files({"wordlists": {"dir": str(REPO / "resources/wordlists")}}) == []


def test_config_readme_is_generated_from_the_schema():
    """config/README.md is the schema rendered (python -m learnability.reports.config_docs)."""
    from learnability.reports.config_docs import render

    assert (REPO / "config/README.md").read_text(encoding="utf-8") == render(SCHEMA), (
        "regenerate: python -m learnability.reports.config_docs > config/README.md"
    )


KEYWORDS = {
    "$schema", "$defs", "$ref", "description", "type", "properties", "additionalProperties",
    "required", "default", "enum", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "pattern", "minLength", "maxLength", "items", "minItems",
    "uniqueItems", "oneOf", "minProperties", "propertyNames",
}  # fmt: skip


def test_schema_nodes_hold_only_json_schema_keywords():
    """An unquoted comma in a flow mapping ({description: a (b, c)}) silently cuts the
    description and adds a key 'c)': every node's keys must be schema keywords."""

    def walk(node, path):
        if isinstance(node, list):
            for item in node:
                walk(item, path)
        if not isinstance(node, dict):
            return
        unknown = set(node) - KEYWORDS
        assert not unknown, (path, unknown)
        for key, value in node.items():
            if key in ("properties", "$defs"):
                for name, sub in value.items():
                    walk(sub, f"{path}.{name}")
            elif key not in ("default", "enum", "required"):
                walk(value, path)

    walk(SCHEMA, "schema")


def _version_info(major: int, minor: int) -> tuple:
    """A stand-in for sys.version_info: a tuple with major and minor."""
    cls = type("VersionInfo", (tuple,), {"major": major, "minor": minor})
    return cls((major, minor, 0, "final", 0))


def test_a_method_from_a_missing_extra_names_the_extra(monkeypatch):
    import importlib.util

    from learnability.pipeline.config import check_trainers

    cfg = {"embeddings": {"gp": {"method": "glove_python"}, "w": {"method": "word2vec"}}}
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "glove" else real(name, *a)
    )
    # on a Python the extra installs on, the error names it (whatever Python runs this)
    monkeypatch.setattr(sys, "version_info", _version_info(3, 12))
    with pytest.raises(
        ConfigError,
        match=r"embeddings.gp.method: glove_python needs the "
        r"bicleaner-ai-glove package.*pip install -e '.\[glove_python\]'",
    ):
        check_trainers(cfg)
    # on a Python its package has no build for, the error says so instead
    monkeypatch.setattr(sys, "version_info", _version_info(3, 13))
    with pytest.raises(
        ConfigError,
        match=r"glove_python needs the bicleaner-ai-glove package, which has no build for "
        r"Python 3.13: run it with Python 3.12 or earlier",
    ):
        check_trainers(cfg)
    monkeypatch.undo()
    training = {"dim": 8, "min_count": 1, "window": 2, "seed": 0, "threads": 1, "epochs": 1}
    training |= {"negative": 1, "sample": 0, "alpha": 0.1, "min_alpha": 0.01}
    check_trainers({"training": training, "embeddings": {"w": {"method": "word2vec"}}})


def test_fill_defaults_gives_what_snakemakes_validation_gives():
    """The schema's defaults filled by our walker (which runs in every process, remote
    jobs included) equal those filled by Snakemake's validate(set_default=True), on a
    config that leaves out every optional section and key."""
    import copy

    from snakemake.utils import validate

    from learnability.pipeline.config import fill_defaults

    cfg = yaml.safe_load((REPO / ".test/config/config.yaml").read_text())
    for section in ("matching", "evaluations", "report"):
        cfg.pop(section)
    for key in (
        "negatives",
        "frequency_bins",
        "learning_curve",
        "solver",
        "threads",
        "chunk_mb",
        "device",
        "bootstrap",
        "confidence",
        "min_words",
    ):
        cfg["learnability"].pop(key)
    for key in ("method", "match_sizes", "adjust"):
        cfg["random_lists"].pop(key)
    cfg["compare"].pop("alternative")
    cfg["training"]["glove"].pop("vectors")  # fmt: skip
    ours = fill_defaults(copy.deepcopy(cfg), SCHEMA)
    theirs = copy.deepcopy(cfg)
    validate(theirs, str(REPO / "workflow/schemas/config.schema.yaml"), set_default=True)
    assert ours == theirs
    assert ours["random_lists"]["method"] == "auto"
    assert ours["evaluations"]["pseudo"]["folds"] == 10 and ours["report"]["table_size"] == 400
    assert ours["learnability"]["negatives"] == ["uniform"] and ours["matching"]["case"] == "auto"
    # given values are kept
    assert (
        fill_defaults({"random_lists": {"method": "matched"}}, SCHEMA)["random_lists"]["method"]
        == "matched"
    )


def test_rules_repeat_no_schema_default():
    """The rules index the filled config: no `.get(key, default)` of a key the schema
    gives a default (the defaults live in the schema alone)."""
    import re

    defaulted = set()

    def walk(node):
        node = resolve_ref(SCHEMA, node)
        for key, sub in (node.get("properties") or {}).items():
            if "default" in resolve_ref(SCHEMA, sub):
                defaulted.add(key)
            walk(sub)
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"])

    walk(SCHEMA)
    found = []
    for path in sorted((REPO / "workflow").rglob("*.smk")) + [REPO / "workflow/Snakefile"]:
        for key in re.findall(r"""\.get\(\s*["'](\w+)["']\s*,""", path.read_text()):
            if key in defaulted:
                found.append(f"{path.name}: .get({key!r}, ...)")
    # an embedding's allow_unverified has no default of its own (a pretrained-only key,
    # which other methods must not carry); dump.allow_unverified, of the same name, has.
    # Likewise a word list's format (the list registry's entries, "auto" unless a
    # dictionary names one) and dump.format.
    assert found == ["concepts.smk: .get('format', ...)",
                     "embeddings.smk: .get('allow_unverified', ...)"], found  # fmt: skip


def test_a_method_whose_training_keys_are_missing_is_a_config_error():
    """A standalone config (the smoke test's, a module user's) that leaves out a block a
    method reads gets one line naming it, before any job, not a KeyError."""
    from learnability.errors import ConfigError
    from learnability.pipeline.config import check_trainers

    config = {
        "training": {"dim": 8, "min_count": 1, "window": 2, "seed": 0, "threads": 1},
        "embeddings": {"t": {"method": "transformer"}},
    }
    with pytest.raises(ConfigError) as err:
        check_trainers(config)
    assert str(err.value) == (
        "embeddings.t: method transformer reads training.transformer, which the config "
        "does not set; copy them from config/config.yaml's training block"
    )


OVERLAYS = sorted(p.name for p in (REPO / "config").glob("*.yaml") if p.name != "config.yaml")


@pytest.mark.parametrize("name", OVERLAYS)
def test_every_shipped_overlay_passes_the_workflows_config_checks(name):
    """Each shipped config merged into config/config.yaml as `--configfile` merges it,
    then everything the workflow does to a config before any rule (prepare_config:
    keys, schema, defaults, paths, cross-checks, lists, sweeps), in-process: a broken
    overlay fails here in a second, without a dry run."""
    from snakemake.utils import update_config

    from learnability.pipeline.config import prepare_config

    cfg = load()
    update_config(cfg, load(name))
    schema_path = REPO / "workflow/schemas/config.schema.yaml"
    # the file's own blocks replacing the default's, as common.smk passes them
    _, lists, sweeps = prepare_config(cfg, schema_path, REPO, user_files=[load(name)])
    overlay = load(name)
    for key, value in overlay.get("embeddings", {}).items():
        if value is not None:
            assert cfg["embeddings"][key]["method"] == value.get("method", "word2vec"), key
    assert set(cfg["compare"]["embeddings"]) <= set(cfg["embeddings"])
    assert lists, name  # every overlay scores some lists
    # the corpus comparison's draws are scored as the points of a sweep of their own
    compared = {"corpora"} if overlay.get("compare_corpora", {}).get("corpora") else set()
    assert set(sweeps) == set(overlay.get("sweeps", {})) | compared


def test_a_broken_overlay_is_one_line_naming_the_key():
    from snakemake.utils import update_config

    from learnability.pipeline.config import prepare_config

    cfg = load()
    update_config(cfg, {"learnability": {"iterations": "many"}})
    with pytest.raises(ConfigError, match=r"^learnability.iterations: 'many' is not of type"):
        prepare_config(cfg, REPO / "workflow/schemas/config.schema.yaml", REPO)


def test_pretrained_defaults_are_those_the_schema_states():
    """The pretrained options' defaults live in learnability.defaults.PRETRAINED (a
    `default:` in the schema would be written into every embedding's spec); each key's
    schema description states the same default, and the workflow's params use them."""
    from learnability.defaults import PRETRAINED
    from learnability.pipeline.params import embedding_params

    props = SCHEMA["properties"]["embeddings"]["additionalProperties"]["properties"]
    for key, value in PRETRAINED.items():
        shown = {True: "true", False: "false", (): "none"}.get(value, value)
        assert f"(default {shown})" in props[key]["description"], key
        assert "default" not in props[key], key
    params = embedding_params({"embeddings": {"e": {"method": "pretrained", "path": "x"}}}, "e")
    assert {k: params[k] for k in PRETRAINED} == {
        **PRETRAINED,
        "exclude_prefixes": list(PRETRAINED["exclude_prefixes"]),
    }


def test_a_methods_python_limit_is_its_extras_marker():
    """registry.Method.python_below and pyproject.toml's marker on the package of that
    method's extra (and on the same package in the dev extra) say the same thing."""
    import tomllib

    from learnability.embeddings.registry import METHODS

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    for method in METHODS.values():
        if method.package is None:
            continue
        _, extra, dist = method.package
        for group in (extra, "dev"):
            (line,) = [r for r in extras[group] if r.startswith(dist)]
            if method.python_below is None:
                assert ";" not in line, line
            else:
                major, minor = method.python_below
                assert line.split(";")[1].strip() == f"python_version < '{major}.{minor}'", line


def _merged(*user_files, overrides=None):
    """config/config.yaml with the user's files and --config merged in, by Snakemake's
    own merge (as its configfile: directive merges them)."""
    from snakemake.utils import update_config

    cfg = load()
    for user in [*user_files, overrides or {}]:
        update_config(cfg, copy.deepcopy(user))
    return cfg


def test_a_corpus_source_of_ones_own_replaces_the_defaults_whole():
    from learnability.pipeline.config import fill_defaults, replace_user_blocks

    default = load()["corpus"]
    source = {"path": "data/corpus.csv.gz", "format": "csv"}
    mine = {"corpus": {"name": "mine", "source": source}}
    cfg = replace_user_blocks(_merged(mine), [mine])
    # Snakemake's merge alone kept the sample's checksum under the CSV
    assert _merged(mine)["corpus"]["source"]["sha256"] == default["source"]["sha256"]
    assert cfg["corpus"]["source"] == source and cfg["corpus"]["name"] == "mine"
    # the corpus' other keys merge as every block does
    assert cfg["corpus"]["min_article_tokens"] == default["min_article_tokens"]
    # the keys left out take the schema's defaults, none of config/config.yaml's
    fill_defaults(cfg, SCHEMA)
    assert not set(default["source"]) - {"format", "path"} & set(cfg["corpus"]["source"])
    assert cfg["corpus"]["source"]["part_mb"] == 256
    assert cfg["corpus"]["source"]["document"] == "file"
    # two files of one's own: merged with each other; --config edits a key on top
    more = {"corpus": {"source": {"part_mb": 64, "document": "line"}}}
    cfg = replace_user_blocks(_merged(mine, more), [mine, more])
    assert cfg["corpus"]["source"] == {**source, "part_mb": 64, "document": "line"}
    edit = {"corpus": {"source": {"part_mb": 32}}}
    cfg = replace_user_blocks(_merged(mine, more, overrides=edit), [mine, more], edit)
    assert cfg["corpus"]["source"] == {**source, "part_mb": 32, "document": "line"}
    # no source of one's own (or --config alone): the default's, edited key by key
    tweak = {"corpus": {"source": {"part_mb": 8}}}
    cfg = replace_user_blocks(_merged(overrides=tweak), [], tweak)
    assert cfg["corpus"] == {**default, "source": {**default["source"], "part_mb": 8}}
    other = {"report": {"name": "x"}, "corpus": {"min_article_tokens": 10}}
    assert replace_user_blocks(_merged(other), [other])["corpus"]["source"] == default["source"]
    # the name in another file of one's own, or --config: named
    named = {"corpus": {"name": "mine"}}
    bare = {"corpus": {"source": source}}
    for files, overrides in (([bare, named], None), ([bare], named)):
        cfg = replace_user_blocks(_merged(*files, overrides=overrides), files, overrides)
        assert cfg["corpus"]["name"] == "mine" and cfg["corpus"]["source"] == source
    # a source without a name of its own would have kept the sample's: one line
    with pytest.raises(
        ConfigError, match=r"^corpus\.name: your config's corpus\.source replaces"
    ) as err:
        replace_user_blocks(_merged(bare), [bare])
    assert "\n" not in str(err.value)


def test_an_older_configs_dump_block_is_one_line_that_says_where_its_keys_went(tmp_path):
    """``dump:`` (before corpus.source) and a corpora entry's ``source:`` (before
    ``path:``), in a file of one's own, stop before any job, in one line naming the new
    keys, whether the file gives nothing else or the new keys too."""
    old = {"dump": {"name": "mine", "source": "data/corpus.csv", "format": "csv"}}
    with pytest.raises(ConfigError) as err:
        _prepared(_merged(old), [old])
    assert str(err.value) == (
        "dump: the corpus is configured under corpus: now; move dump.name to corpus.name "
        "and the other dump.* keys to corpus.source.* (dump.source becomes "
        "corpus.source.path; format, sha256, base_url, status, columns keep their names)"
    )
    entry = {"corpora": {"lee": {"source": "x.cor", "format": "text"}}}
    with pytest.raises(ConfigError) as err:
        _prepared(_merged(entry), [entry])
    assert str(err.value) == (
        "corpora.lee.source: a corpus' file or folder is corpora.lee.path now; rename the key"
    )
    # by --config alone, as by a file
    with pytest.raises(ConfigError, match=r"^dump: the corpus is configured under corpus:"):
        _prepared(_merged(overrides={"dump": {"part_mb": 8}}), [], {"dump": {"part_mb": 8}})


def _prepared(config, user_files, overrides=None):
    from learnability.pipeline.config import prepare_config, schema_validate

    return prepare_config(config, SCHEMA_PATH, REPO, validate=schema_validate,
                          user_files=user_files, overrides=overrides)  # fmt: skip


def test_a_corpus_of_ones_own_left_at_the_mediawiki_format_is_one_line(tmp_path, monkeypatch):
    from learnability.pipeline.config import check_source_format

    formats = "set corpus.source.format to one of: text, jsonl, csv, tsv, parquet, mediawiki"
    for path, kind in [("data/corpus.csv.gz", "a CSV"), ("posts.ndjson", "a JSON Lines"),
                       ("t.tab", "a TSV"), ("x.parquet", "a Parquet"),
                       ("books/a.txt.zst", "a plain text"),
                       ("https://x.org/y.jsonl", "a JSON Lines")]:  # fmt: skip
        with pytest.raises(ConfigError) as err:
            check_source_format({"format": "mediawiki", "path": path})
        assert str(err.value) == (
            f"corpus.source.format: {path} looks like {kind} file but corpus.source.format "
            f"is mediawiki (the default); {formats}"
        )
    monkeypatch.chdir(tmp_path)
    (tmp_path / "speeches").mkdir()
    with pytest.raises(
        ConfigError, match=rf"^corpus\.source\.format: speeches is a folder .*; {formats}$"
    ):
        check_source_format({"format": "mediawiki", "path": "speeches"})
    # a MediaWiki dump, its parts, and any source whose format is given: nothing to say
    for source in (load()["corpus"]["source"], load("paper.yaml")["corpus"]["source"],
                   {"format": "mediawiki", "path": "enwiki-pages-articles.xml.bz2"},
                   {"format": "csv", "path": "data/corpus.csv.gz"}):  # fmt: skip
        check_source_format(source)


def test_figures_are_named_after_the_users_config_unless_it_names_itself():
    from learnability.pipeline.config import fill_defaults, report_name

    default = load()
    # the default names itself, whatever its name says
    assert report_name(_merged(), {}) == default["report"]["name"]
    # a file of one's own without report.name: its name, not the default's
    mine = {"corpus": {"name": "mine", "source": {"path": "data/corpus.csv", "format": "csv"}}}
    assert report_name(_merged(mine), {"/home/u/my-corpus.yaml": mine}) == "my-corpus"
    two = {"/p/my-corpus.yaml": mine, "/p/longer.yaml": {"learnability": {"iterations": 9}}}
    assert report_name(_merged(*two.values()), two) == "my-corpus, longer"
    # one with a report.name of its own, or --config's: that name
    named = {"report": {"name": "speeches 1990s"}}
    assert report_name(_merged(named), {"/p/my.yaml": named}) == "speeches 1990s"
    by_config = report_name(_merged(overrides=named), {"/p/my.yaml": mine}, named)
    assert by_config == "speeches 1990s"
    # a module given config: reads no file: its config's own name, or the schema's
    bare = fill_defaults({"report": {}}, SCHEMA)
    assert report_name(bare, {}) == "default"


def test_the_coverage_table_says_which_lists_have_no_job_and_why(tmp_path):
    """The workflow's rule (common.smk, from the resolve_concept checkpoint) and the
    coverage table's not_scored read one resolution the same way: a list with 3 words of
    a 10-word space is not scored (and has no job), one of 4 is; only the row of the
    space an embedding is scored in says so (a compared embedding's own-vocabulary row
    is null)."""
    import pandas as pd

    from learnability.concepts.lists import Entry, coverage, resolve
    from learnability.pipeline.config import unscored_concept
    from learnability.pipeline.jobs import mark_unscored
    from learnability.schemas import write_table

    words = [f"w{i}" for i in range(10)]
    vocab = tmp_path / "vocab.parquet"
    pd.DataFrame({"word": words, "count": range(10, 0, -1)}).to_parquet(vocab)
    rows, paths = [], {}
    for name, entries in {
        "three": ["w1", "w2", "w3", "zz"],
        "four": ["w1", "w2", "w3", "w4"],
    }.items():
        resolved = resolve([Entry(e, i) for i, e in enumerate(entries)], words, list_name=name,
                           embedding="e", source="s")  # fmt: skip
        paths[name] = tmp_path / f"{name}.parquet"
        write_table(resolved, paths[name], "concept_words")
        rows += [coverage(resolved, "shared"), coverage(resolved, "own")]
    table = mark_unscored(pd.concat(rows, ignore_index=True), {"e": "shared"}, {"e": 10}, 4)
    marked = table.set_index(["list", "vocabulary"])["not_scored"]
    reason = (
        "only 3 words in the embedding's vocabulary; at least 4 are needed so that both "
        "halves hold two members"
    )
    assert marked[("three", "shared")] == reason and marked[("four", "shared")] == ""
    assert marked[[("three", "own"), ("four", "own")]].isna().all()
    assert unscored_concept(str(paths["three"]), str(vocab), 4) == reason
    assert unscored_concept(str(paths["four"]), str(vocab), 4) is None
    # half the vocabulary at most: 4 of 7 words is more than half
    assert (
        mark_unscored(table, {"e": "shared"}, {"e": 7}, 4)
        .set_index(["list", "vocabulary"])
        .loc[("four", "shared"), "not_scored"]
        .startswith("4 words but the vocabulary has only 7")
    )


def test_an_older_versions_results_folder_is_named_with_where_its_tables_are_now(tmp_path):
    from learnability.pipeline.config import older_results

    assert older_results(tmp_path) == []
    (tmp_path / "results" / "analyses").mkdir(parents=True)
    assert older_results(tmp_path) == []
    (tmp_path / "results" / "diagnostics").mkdir()
    (line,) = older_results(tmp_path)
    assert line.startswith("results/diagnostics/ is an older version's folder")
    assert "now written to results/analyses/" in line


# one use of a value through each of Python's protocols: whatever a job does with a
# default, it passes through one of these (a dunder the value answers, or an attribute)
USES = """
value == 4; value != 4; value < 3; value <= 3; value > 3; value >= 3; hash(value)
bool(value); int(value); float(value); operator.index(value); complex(value)
round(value); math.trunc(value); math.floor(value); math.ceil(value); str(value)
repr(value); format(value, ""); f"{value:>3}"; bytes(value); value + 1; 1 + value
value - 1; 1 - value; value * 2; 2 * value; value / 2; 2 / value; value // 2; 2 // value
value % 2; 2 % value; divmod(value, 2); divmod(2, value); value ** 2; 2 ** value
value @ 2; 2 @ value; value & 1; 1 & value; value | 1; 1 | value; value ^ 1; 1 ^ value
value << 1; 1 << value; value >> 1; 1 >> value; -value; +value; abs(value); ~value
len(value); list(value); 3 in value; value[0]; value.__setitem__(0, 1); value()
value.lower(); setattr(value, "x", 1); numpy.asarray(value); os.fspath(value)
pickle.dumps(value); copy.copy(value); copy.deepcopy(value); value.__reduce__()
"""


def test_a_workflow_job_under_strict_defaults_fails_on_using_one_its_rule_did_not_pass(
    tmp_path,
):
    """The jobs' code digests hold no default: a default reaches a job as a param. Under
    LEARNABILITY_STRICT_DEFAULTS (the suite sets it), default() in a process Snakemake
    runs a rule's script in (a copy under .snakemake/scripts/) gives a value that raises
    on every use (USES: one through each protocol), naming the key and the fix; anywhere
    else (the command line, score(), a test) the value itself."""
    import subprocess

    script = tmp_path / ".snakemake" / "scripts" / "tmpab12.learnability.py"
    script.parent.mkdir(parents=True)
    uses = [u.strip() for u in USES.replace("\n", ";").split(";") if u.strip()]
    script.write_text(
        "import copy, json, math, numpy, operator, os, pickle, sys\n"
        "from learnability.defaults import default\n"
        "value = default(sys.argv[1])\n"
        "quiet, messages = [], set()\n"
        f"for use in {uses!r}:\n"
        "    try:\n"
        "        eval(use)\n"
        "        quiet.append(use)\n"
        "    except Exception as exc:\n"
        "        messages.add(str(exc))\n"
        "print(json.dumps([type(value).__name__, quiet, sorted(messages)]))\n"
    )
    plain = tmp_path / "plain.py"
    plain.write_text(script.read_text())
    env = {**os.environ, "LEARNABILITY_STRICT_DEFAULTS": "1"}

    def run(path, **extra):
        command = [sys.executable, str(path), "learnability.min_words"]
        out = subprocess.run(command, env={**env, **extra}, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    kind, quiet, messages = run(script)
    assert kind == "Unpassed" and quiet == [] and len(uses) == 67
    assert messages == [
        "learnability.min_words: this workflow job used the config schema's default, which "
        "its rule does not pass; add the config's learnability.min_words to the rule's "
        "params and give it to the code that reads it (a job's code digest holds no "
        "default, so a changed default reruns only the jobs it reaches as a param)"
    ]
    assert run(plain)[0] == "int"  # not a job's script
    assert run(script, LEARNABILITY_STRICT_DEFAULTS="0")[0] == "int"  # not strict


def test_a_default_is_a_copy_and_a_key_without_one_is_named():
    from learnability.defaults import default
    from learnability.schema_defaults import DEFAULTS

    sizes = default("suggestions.check.k")
    assert sizes == DEFAULTS["suggestions.check.k"] and isinstance(sizes, list)
    sizes.append(-1)
    assert default("suggestions.check.k") == DEFAULTS["suggestions.check.k"] != sizes
    with pytest.raises(KeyError) as err:
        default("learnability.nothing")
    assert (
        err.value.args[0] == "config key learnability.nothing has no default in config.schema.yaml"
    )
