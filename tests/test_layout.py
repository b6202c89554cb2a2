"""The package's rooms, read from its source: every module has one import path, and no
module reaches into another stage's private names (a private name may change with no
notice to the modules outside its own folder; what they share is public)."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "src" / "learnability"


def _room(module: str) -> str:
    """``learnability.protocol.splits`` -> ``protocol``; a top-level module is its own."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _modules() -> list[tuple[str, Path]]:
    """(dotted name, path) of every package module, and of the workflow's scripts and the
    benchmarks (rooms of their own: everything they import from the package is another
    room's)."""
    found = [
        (".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts), p)
        for p in sorted(PACKAGE.rglob("*.py"))
    ]
    for folder in ("workflow/scripts", "benchmarks"):
        found += [(f"{folder}/{p.name}", p) for p in sorted((REPO / folder).glob("*.py"))]
    return found


def cross_room_private_imports(module: str, source: str) -> list[str]:
    """``module``'s imports of a private module or name of another room of the package."""
    own = _room(module) if module.startswith("learnability.") else None
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            targets = [(node.module, a.name) for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [(a.name, "") for a in node.names]
        else:
            continue
        for target, name in targets:
            if not target.startswith("learnability.") or _room(target) == own:
                continue
            parts = target.split(".")[1:] + ([name] if name else [])
            if any(_private(p) for p in parts):
                found.append(f"{module}:{node.lineno}: {target} {name}".rstrip())
    return found


# Benchmarks that time a solver's internals against each other: what they import is the
# lever under test, not a surface another module builds on; trainer_rates.py builds
# gensim's model with the trainers' own settings and rate schedule (embeddings._gensim),
# so that its probe cannot drift from what the jobs train
INTERNALS_BENCHMARKS = {"benchmarks/engine_levers.py", "benchmarks/trainer_rates.py"}


def test_no_module_imports_another_rooms_private_names():
    found = [
        hit
        for module, path in _modules()
        if module not in INTERNALS_BENCHMARKS
        for hit in cross_room_private_imports(module, path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "source, found",
    [
        ("from learnability.protocol.evaluate import _draw_splits", 1),
        ("import learnability.corpus._token_kernel", 1),
        ("from learnability.protocol._x import y", 1),
        ("from learnability.protocol.splits import draw_splits, fit_splits", 0),
        ("from learnability.analyses.leace import _private_here", 0),
        ("from numpy import _private", 0),
    ],
)
def test_the_import_reader_sees_what_it_is_meant_to(source, found):
    # read as if by learnability.analyses.entanglement: its own room's names are its own
    assert len(cross_room_private_imports("learnability.analyses.entanglement", source)) == found


def test_every_module_has_one_import_path():
    """The modules once kept their flat paths as aliases (``learnability.stats`` for the
    module now split into ``statistics.significance`` and ``statistics.comparison``):
    readers, IDEs and type checkers could not follow them. Each module is now found at
    its folder's path only."""
    import learnability
    import learnability.corpus

    assert importlib.util.find_spec("learnability.statistics.significance") is not None
    for former in ("stats", "evaluate", "tables", "matching", "jobs"):
        assert importlib.util.find_spec(f"learnability.{former}") is None, former
    assert not hasattr(learnability, "MOVED")
    with pytest.raises(AttributeError):
        learnability.corpus.iter_pages  # noqa: B018 (what the former module held: now mediawiki's only)


RULES = REPO / "workflow" / "rules"


def _rule_lengths() -> dict[str, int]:
    """Non-blank lines of every rule and checkpoint (a generated one by its file and
    line), read from the .smk files: the rule's line to the next at its indentation."""
    found = {}
    for path in [REPO / "workflow" / "Snakefile", *RULES.rglob("*.smk")]:
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            m = re.match(r"^(\s*)(?:rule|checkpoint)\b\s*(\w*)\s*:", line)
            if not m:
                continue
            indent, j = len(m.group(1)), i + 1
            while j < len(lines) and (
                not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent
            ):
                j += 1
            name = m.group(2) or f"{path.name}:{i + 1}"
            found[name] = sum(1 for x in lines[i:j] if x.strip())
    return found


def test_every_rule_is_short_and_common_holds_only_what_is_shared():
    """Rules stay thin (their logic is in the package, their input functions beside them
    in rules/helpers/), and common.smk holds the config, the wildcards, the path helpers
    shared by several stages and the final outputs; helpers/resources.smk, every rule's
    resources from its model, is the one helper that every stage shares."""
    lengths = _rule_lengths()
    assert len(lengths) > 30 and "learnability" in lengths, sorted(lengths)
    assert {name: n for name, n in lengths.items() if n > 30} == {}
    assert len((RULES / "common.smk").read_text().splitlines()) <= 300
    # a functions-only file beside each stage's rules, none holding a rule
    for path in (RULES / "helpers").glob("*.smk"):
        assert (RULES / path.name).exists() or path.name == "resources.smk", path
        assert not re.search(r"^\s*(rule|checkpoint)\b", path.read_text(), re.M), path


def schema_node(dotted: str) -> dict:
    import yaml

    node = yaml.safe_load((REPO / "src/learnability/config.schema.yaml").read_text())
    for part in dotted.split("."):
        node = node["properties"][part]
    return node


def test_every_registered_analysis_is_a_rule_a_score_step_and_a_documented_table():
    """One registry: each analysis has its rule (generated), its table's schema, its
    settings' config keys with defaults, a report writer and caption where it is in the
    report, and a line in the generated reference page."""
    from learnability import schemas
    from learnability.analyses.registry import ANALYSES
    from learnability.api import Scores
    from learnability.defaults import default
    from learnability.reports.analysis_reports import WRITERS

    assert {"codelength", "suggestions", "suggestion_check", "entanglement"} <= set(ANALYSES)
    # each report's writer, kept apart from the analyses (learnability.codedigest)
    assert set(WRITERS) == {name for name, a in ANALYSES.items() if a.report}
    text = (RULES / "analyses.smk").read_text()
    assert "for analysis in ANALYSES.values():" in text
    page = (REPO / "docs" / "reference" / "analyses.md").read_text()
    for name, analysis in ANALYSES.items():
        assert analysis.table in schemas.TABLES, name
        for setting in analysis.settings:
            default(setting.config)  # a KeyError if the config has no such key
            node = schema_node(setting.config)
            # a setting's choices are its config key's enum (the CLI's flag offers them)
            assert setting.choices == (tuple(node["enum"]) if "enum" in node else None), setting
        if analysis.report and (analysis.report.shown or analysis.report.plot):
            assert (REPO / "workflow" / "report" / f"{name}.rst").exists(), name
        assert f"`{name}`" in page, name
        # score()'s result reads every analysis' table, empty when it is off
        empty = Scores(*[None] * 9).__getattr__(name)
        assert list(empty.columns) == list(schemas.empty(analysis.table).columns)


def test_scores_own_settings_are_its_keywords_with_the_schemas_defaults_and_the_clis_flags():
    """api.SETTINGS, from which `learnability evaluate` makes its core flags as it makes
    the analyses': each is a keyword of score() whose default is its config key's schema
    default, its choices that key's enum, and its flag parses to the keyword."""
    import inspect

    from learnability.api import SETTINGS, score
    from learnability.cli import build_parser

    keywords = inspect.signature(score).parameters
    evaluate = build_parser()._subparsers._group_actions[0].choices["evaluate"]
    flags = {a.option_strings[0]: a for a in evaluate._actions if a.option_strings}
    assert len({s.key for s in SETTINGS}) == len(SETTINGS)
    for setting in SETTINGS:
        node = schema_node(setting.config)
        assert keywords[setting.key].default == node["default"], setting
        assert setting.choices == (tuple(node["enum"]) if "enum" in node else None), setting
        action = flags[setting.flag]
        assert (action.dest, action.default) == (setting.key, node["default"]), setting
        assert action.choices == setting.choices, setting
