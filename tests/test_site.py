"""The documentation site: it builds with warnings as errors (a broken link between pages
or to an anchor fails it), and every example on it runs as written, in the environment
its install line gives, printing what the page shows."""

from __future__ import annotations

import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from paths import REPO

PAGES = sorted((REPO / "docs").rglob("*.md")) + [REPO / "README.md"]

# Shell commands the pages give that this module does not run, each with the test that
# does (or why none can): a command on a page that is neither run here nor listed fails
# test_every_shell_command_on_a_page_is_run_somewhere.
RUN_ELSEWHERE = {
    r"make run\b.*": "test_make.py::test_make_dryrun_plans_the_default_workflow_and_make_"
    "clean_removes_its_traces plans it; test_workflow.py runs the workflow on the smoke "
    "config; the whole sample run (12 min) is the release check",
    r"make test\b.*": "what CI runs (.ci/run)",
    r"make report": "test_workflow.py::test_make_report_after_a_run_holds_every_figure_and_"
    "shows_them_in_chromium",
    r"make lint\b.*": "test_make.py::test_make_lint_passes_and_make_format_changes_nothing",
    r"make docs\b.*": "test_make.py::test_make_docs_regenerates_the_committed_pages",
    r"make site\b.*": "test_site.py::test_the_site_builds_with_warnings_as_errors runs its "
    "sphinx command",
    r"pip install -e '\.\[slurm\]'.*": "test_slurm.py::test_the_readme_cluster_command_"
    "keeps_the_profiles_defaults (the plugin is in the dev extra)",
    r"SBATCH_PARTITION=YOURS snakemake --profile profiles/slurm .*": "test_slurm.py::"
    "test_the_readme_cluster_command_keeps_the_profiles_defaults",
    r"(\.venv/bin/)?snakemake --cores \d+ --configfile config/contextual\.yaml": "test_"
    "workflow_runs.py::test_contextual_and_fasttext_configs_plan_offline plans it with its "
    "extra; test_workflow_variants.py::test_a_contextual_models_static_vectors_run_through_"
    "the_workflow runs both reductions",
    r"snakemake --cores 2 --configfile my-corpus\.yaml": "test_workflow_runs.py::test_your_"
    "own_corpus_from_text_files_json_lines_or_csv runs a folder of text files through the "
    "workflow, and JSON Lines and CSV to the same corpus",
    r"(\.venv/bin/)?snakemake --cores \d+ --configfile config/corpora\.yaml": "test_"
    "workflow_runs.py::test_the_corpus_comparison_plans_a_draw_and_a_training_per_corpus_"
    "and_seed plans it; test_workflow_runs.py::test_two_groups_of_one_table_compared_at_"
    "equal_size_show_a_planted_concept runs every job of a comparison on real text",
    r"sudo apt-get install dict-gcide|\.venv/bin/python docs/results/gcide_corpus\.py "
    r"resources/dumps/gcide\.jsonl\.gz|\.venv/bin/snakemake --cores \d+ results/tables/"
    r"corpora\.md results/plots/corpora\.png --configfile config/corpora-gcide\.yaml": "test_"
    "workflow_runs.py::test_the_dictionary_comparison_prepares_its_corpus_and_plans_its_"
    "draws runs the conversion on the installed dict-gcide (elsewhere on a database of its "
    "format) and plans the comparison on it",
    r"snakemake --cores N( -n)?": "test_workflow.py::test_code_edits_rerun_exactly_the_jobs_"
    "that_run_that_code plans it after each kind of edit, on a finished run",
    r"(\.venv/bin/)?pip install -e '\.\[transformer\]'": "the extra that "
    "test_workflow_runs.py::test_contextual_and_fasttext_configs_plan_offline installs",
}


@dataclass
class Block:
    info: str  # the fence's language
    caption: str | None  # a file's name, for a block that is a file to write
    body: str
    line: int


# a caption that is a file name: the page asks the reader to save the block as that file
FILE_NAME = re.compile(r"[\w./-]+")
FENCE = re.compile(r"^```(\{code-block\} *)?([\w-]*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)


def blocks(text: str) -> list[Block]:
    """The fenced code blocks of a Markdown page, in order; a MyST ``code-block`` with a
    ``:caption:`` is a file the page asks the reader to save under that name."""
    found = []
    for m in FENCE.finditer(text):
        body, caption = m.group(3), None
        if m.group(1):
            options = re.match(r"((?::\w+:[^\n]*\n)*)\n?", body)
            caption_match = re.search(r"^:caption: *(.+)$", options.group(1), re.M)
            caption = caption_match.group(1).strip() if caption_match else None
            body = body[options.end() :]
        line = text.count("\n", 0, m.start()) + 1
        found.append(Block(m.group(2), caption, body, line))
    return found


def shell_commands_of(block: Block) -> list[str]:
    """A shell block's commands, without their comments."""
    return [
        line.split("  #")[0].strip()
        for line in block.body.splitlines()
        if line.strip() and not line.startswith("#")
    ]


def shell_commands(page: Path) -> list[str]:
    found = blocks(page.read_text(encoding="utf-8"))
    return [c for b in found if b.info in ("sh", "bash", "console") for c in shell_commands_of(b)]


def runnable(page: Path) -> bool:
    text = page.read_text(encoding="utf-8")
    return any(
        b.info == "python" and b.caption is None or b.info == "sh" and "learnability " in b.body
        for b in blocks(text)
    )


def _docs_python() -> str:
    """`make site`'s environment: `make run`'s plus the docs extra, nothing of the dev
    extra's (tests/userenv.py)."""
    import userenv

    return userenv.python(("docs",))


def _docs_env() -> dict[str, str]:
    import userenv

    return userenv.env_vars(userenv.user_env(("docs",)))


def test_the_site_builds_with_warnings_as_errors(tmp_path):
    """Sphinx with MyST and the PyData theme, -W, in the environment `make site` has (the
    docs extra alone): every page in a toctree, every link between pages and to a
    heading resolves, every docstring on the API page parses, the CLI page comes from the
    command's own parser."""
    out = tmp_path / "html"
    done = subprocess.run(
        [_docs_python(), "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q",
         str(REPO / "docs"), str(out)],
        capture_output=True, text=True, timeout=600, env=_docs_env(),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-5000:]
    cli = (out / "reference" / "cli.html").read_text(encoding="utf-8")
    assert "--embedding" in cli and "--words-column" in cli and "synthetic-dump" in cli
    api = (out / "reference" / "api.html").read_text(encoding="utf-8")
    assert "Score each list on one embedding as the workflow does" in api
    for name in ("learnability.score", "learnability.Scores", "learnability.as_embedding"):
        assert f'id="{name}"' in api, name
    config = (out / "reference" / "config.html").read_text(encoding="utf-8")
    assert "random_lists.method" in config
    assert (out / "getting-started" / "tutorial.html").is_file()


def test_a_broken_link_fails_the_build(tmp_path):
    """The build above can fail: a page linking to a page that does not exist does."""
    import shutil

    docs = tmp_path / "docs"
    shutil.copytree(REPO / "docs", docs, ignore=shutil.ignore_patterns("_build"))
    page = docs / "how-to" / "sweeps.md"
    page.write_text(page.read_text() + "\nSee [the missing page](nowhere.md).\n")
    done = subprocess.run(
        [_docs_python(), "-m", "sphinx", "-b", "html", "-W", "-q", str(docs),
         str(tmp_path / "html")],
        capture_output=True, text=True, timeout=600, env=_docs_env(),
    )  # fmt: skip
    assert done.returncode != 0 and "nowhere.md" in done.stderr


# (a page's examples take a minute or two of CPU; in CI they run beside the smoke run's
# build, which has the cores first)
@pytest.mark.timeout(900)
@pytest.mark.parametrize(
    "page", [p for p in PAGES if runnable(p)], ids=lambda p: str(p.relative_to(REPO))
)
def test_every_example_on_a_page_runs_and_prints_what_the_page_shows(page, tmp_path):
    """A page's files are written, its `learnability` commands run, and each Python block
    runs, in order, in a folder that has the repository's shipped lists; the
    environment is `make run`'s with the extras the page's install line names. A text
    block after a Python block is its exact output; after a command, every line it shows
    is a line of the command's output."""
    import userenv

    text = page.read_text(encoding="utf-8")
    extras = tuple(re.findall(r"pip install -e '\.\[(\w+)\]'", text))
    venv = userenv.user_env(extras)
    env = userenv.env_vars(venv)
    (tmp_path / "resources").symlink_to(REPO / "resources")
    found = blocks(text)
    for i, block in enumerate(found):
        nxt = found[i + 1] if i + 1 < len(found) else None
        shown = nxt.body if nxt and nxt.info == "text" and nxt.caption is None else None
        where = f"{page.name}, line {block.line}"
        if block.caption and FILE_NAME.fullmatch(block.caption):
            target = tmp_path / block.caption
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.body, encoding="utf-8")
        elif block.info == "python":
            done = subprocess.run(
                [str(venv / "bin" / "python"), "-c", block.body], cwd=tmp_path, env=env,
                capture_output=True, text=True, timeout=600,
            )  # fmt: skip
            assert done.returncode == 0, f"{where}: {done.stderr[-3000:]}"
            if shown is not None:
                assert done.stdout == shown, where
        elif block.info == "sh":
            for command in shell_commands_of(block):
                if "learnability " not in command:
                    continue
                argv = shlex.split(command)
                argv[0] = str(venv / "bin" / "learnability")
                done = subprocess.run(
                    argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
                )
                assert done.returncode == 0, f"{where}: {done.stderr[-3000:]}"
                if shown is not None:
                    missing = [
                        li for li in shown.splitlines() if li and li not in done.stdout.splitlines()
                    ]
                    assert not missing, f"{where}: not in the output: {missing}"


def test_every_shell_command_on_a_page_is_run_somewhere():
    """Each command a page gives in a shell block is run by the test above (a
    `learnability` command or the extra's install line it reads), or by the test listed
    in RUN_ELSEWHERE; a test named there exists."""
    from test_docs import defined_tests

    tests = defined_tests()
    for why in RUN_ELSEWHERE.values():
        for module, name in re.findall(r"(test_\w+\.py)::(test_\w+)", why):
            assert name in tests[module], f"RUN_ELSEWHERE names {module}::{name}"
    for page in PAGES:
        for command in shell_commands(page):
            if "learnability " in command or re.match(r"\.venv/bin/pip install -e '", command):
                continue
            assert any(re.fullmatch(p, command) for p in RUN_ELSEWHERE), (
                f"{page.relative_to(REPO)}: no test runs {command!r}"
            )


def test_no_page_speaks_of_the_development_process():
    """Pages are for users: the provenance of a number is the command that gives it, not
    a commit or a development folder, and no page speaks of sessions or workspaces."""
    words = re.compile(
        r"development (workspace|machine|log)|shared/paper|shared/ARCHITECTURE|"
        r"this session|\bat [0-9a-f]{7}\b|\bcommit [0-9a-f]{7}|in a fresh clone at|"
        r"\bat HEAD\b",
        re.I,
    )
    pages = PAGES + sorted((REPO / "config").glob("*.md")) + [REPO / "benchmarks/README.md"]
    found = [
        f"{p.relative_to(REPO)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
        for p in pages
        for text in [p.read_text(encoding="utf-8")]
        for m in words.finditer(text)
    ]
    assert not found, found


def test_the_readme_is_a_landing_page():
    """At most about 300 lines, and every page it links to exists."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    for link in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if not link.startswith(("http://", "https://")):
            assert (REPO / link).exists(), link


def test_every_config_example_on_a_page_is_a_valid_config_fragment():
    """A YAML block on a page, merged into config/config.yaml as a --configfile is, passes
    the workflow's own key checks and the schema."""
    import yaml
    from jsonschema import validate

    from learnability.pipeline.config import check_keys, load_schema

    schema = load_schema()
    default = yaml.safe_load((REPO / "config/config.yaml").read_text())
    checked = 0
    for page in PAGES:
        for block in blocks(page.read_text(encoding="utf-8")):
            if block.info != "yaml" or block.caption:  # a captioned block is not a config
                continue
            fragment = yaml.safe_load(block.body)
            config = {**default, **{k: v for k, v in fragment.items()}}
            for key, value in fragment.items():  # one level deep, as Snakemake merges
                if isinstance(value, dict) and isinstance(default.get(key), dict):
                    config[key] = {**default[key], **value}
            check_keys(config, schema)
            validate(config, schema)
            checked += 1
    assert checked >= 2


def test_the_toy_evaluation_kind_of_the_extending_page_runs():
    """The contributors' example, as the page gives it: its module's job and scores run on
    an embedding (the Spearman is scipy's), its registry entry builds a Kind with the
    schemas' own helpers, and its schema block is a valid config schema."""
    import logging
    import types

    import numpy as np
    import yaml
    from jsonschema import Draft202012Validator
    from scipy import stats

    from learnability.embeddings.store import Embedding
    from learnability.evaluations import registry

    page = (REPO / "docs/contributing/extending.md").read_text(encoding="utf-8")
    found = {b.caption: b.body for b in blocks(page) if b.caption}
    module = types.ModuleType("norms")
    exec(found["src/learnability/evaluations/norms.py"], module.__dict__)
    from learnability import schemas

    # the table's block runs in a copy of the schemas' namespace, the entry's in the
    # registry's with what the table's defined
    tables = dict(vars(schemas), EVALUATION_TABLES=dict(schemas.EVALUATION_TABLES))
    exec(found["the table, in src/learnability/schemas.py"], tables)
    assert tables["EVALUATION_TABLES"]["norms"] is tables["NORMS"]
    namespace = dict(vars(registry), NORMS=tables["NORMS"])
    entry_block = found["the entry, in src/learnability/evaluations/registry.py"]
    assert entry_block.startswith("from learnability.schemas import NORMS\n\n")
    entry = eval(entry_block.split("\n\n", 1)[1], namespace)
    assert entry.name == "norms" and list(entry.tables) == ["norms"] and not entry.files
    schema = yaml.safe_load(
        found["the block, under evaluations in src/learnability/config.schema.yaml"]
    )
    Draft202012Validator.check_schema(schema["norms"])
    rng = np.random.default_rng(0)
    # random directions, each word's norm its count: the Spearman is 1 whatever the draw
    directions = rng.normal(size=(50, 4))
    counts = rng.permutation(np.arange(1, 51)) * 10
    vectors = directions / np.linalg.norm(directions, axis=1, keepdims=True) * counts[:, None]
    emb = Embedding([f"w{i}" for i in range(50)], vectors, counts, "e")
    tables = module.job(emb, [], {}, embedding="e", log=logging.getLogger("toy"))
    assert list(tables["norms"].columns) == [c[0] for c in entry.tables["norms"].columns]
    (row,) = module.scores(tables)
    expected = stats.spearmanr(np.linalg.norm(vectors, axis=1), np.log(emb.counts)).statistic
    assert row["evaluation"] == "norms" and row["value"] == pytest.approx(expected)
    assert row["value"] == pytest.approx(1.0)  # the vectors' scale is the count


def test_the_toy_corpus_format_of_the_extending_page_reads_a_folder(tmp_path, monkeypatch):
    """The contributors' corpus format, as the page gives it: its entry, evaluated in the
    registry's namespace, names its reader as an import string that the registry loads
    on use; a folder's subtitle files are found by its suffix and extracted through it,
    the cues' numbers and timings left out, every spoken word kept."""
    import gzip
    import sys
    import types

    from learnability.corpus import sources
    from learnability.corpus.documents import SourceOptions
    from learnability.corpus.extract import extract_corpus

    page = (REPO / "docs/contributing/extending.md").read_text(encoding="utf-8")
    found = {b.caption: b.body for b in blocks(page) if b.caption}
    module = types.ModuleType("learnability.corpus.subtitles")
    exec(found["src/learnability/corpus/subtitles.py"], module.__dict__)
    monkeypatch.setitem(sys.modules, "learnability.corpus.subtitles", module)
    entry = eval(found["its entry, in SOURCES of src/learnability/corpus/sources.py"],
                 vars(sources))  # fmt: skip
    assert entry.reader == "learnability.corpus.subtitles:read_subtitles"
    monkeypatch.setitem(sources.SOURCES, "subtitles", entry)
    folder = tmp_path / "films"
    folder.mkdir()
    (folder / "a.srt").write_text(
        "1\n00:00:01,000 --> 00:00:02,500\nWhere are you going\n\n"
        "2\n00:00:03,000 --> 00:00:04,000\nHome, said the cat\n"
    )
    (folder / "notes.txt").write_text("not a subtitle\n")
    files = sources.source_files(folder, "subtitles")
    assert [f.name for f in files] == ["a.srt"]
    (doc,) = entry.read(files[0], SourceOptions())  # the reader, loaded by its string
    assert doc.text.split("\n") == ["Where are you going", "", "Home, said the cat"], doc
    stats = extract_corpus(files, tmp_path / "t.gz", tmp_path / "s.json",
                           min_article_tokens=1, source="subtitles")  # fmt: skip
    text = gzip.open(tmp_path / "t.gz", "rt").read()
    assert text.split() == "where are you going home said the cat".split(), text
    assert (stats["source"], stats["articles"], stats["tokens"]) == ("subtitles", 1, 8), stats
