import re
from pathlib import Path

import pandas as pd
import pytest
from paths import REPO

from learnability import schemas
from learnability.schemas import write_table


def documented_tables() -> dict[str, list[tuple[str, str]]]:
    text = (REPO / "docs" / "reference" / "outputs.md").read_text()
    tables = {}
    for block in re.split(r"^### ", text, flags=re.MULTILINE)[1:]:
        name, _, body = block.partition("\n")
        body = re.split(r"^## ", body, flags=re.MULTILINE)[0]  # a schema ends at a section
        rows = re.findall(r"^\| (\w+) \| (\w+) \|", body, flags=re.MULTILINE)
        tables[name.strip()] = [r for r in rows if r[0] != "column"]
    return tables


def test_docs_and_code_define_the_same_tables():
    docs = documented_tables()
    assert set(docs) == set(schemas.TABLES)
    for name, spec in schemas.TABLES.items():
        assert docs[name] == list(spec.items()), name


def test_the_evaluation_kinds_tables_are_generated_from_their_registry():
    """The schemas define each kind's tables once, the registry names those each kind
    writes; docs/reference/outputs.md shows them (make docs)."""
    from learnability.evaluations import KINDS
    from learnability.reports.config_docs import with_evaluation_tables

    page = (REPO / "docs" / "reference" / "outputs.md").read_text(encoding="utf-8")
    assert page == with_evaluation_tables(page), "regenerate: make docs"
    for kind in KINDS.values():
        for name, table in kind.tables.items():
            assert schemas.columns(name) == [c for c, _, _ in table.columns], name
            assert f"| {kind.name} | `{name}` |" in page
            assert table is schemas.EVALUATION_TABLES[name], name
    written = [name for kind in KINDS.values() for name in kind.tables]
    assert sorted(written) == sorted(schemas.EVALUATION_TABLES)


def test_writer_rejects_drift(tmp_path):
    df = pd.DataFrame({"embedding": ["e"], "index": [0], "word": ["w"]})
    with pytest.raises(ValueError, match=r"missing columns \['count'\]"):
        write_table(df, tmp_path / "v.parquet", "vocab")
    assert not (tmp_path / "v.parquet").exists()
    df["count"] = 3
    df["extra"] = 1
    with pytest.raises(ValueError, match="unexpected columns"):
        write_table(df, tmp_path / "v.parquet", "vocab")


def test_the_analyses_page_is_the_registry_rendered():
    """docs/reference/analyses.md is what ``make docs`` writes from the analysis registry."""
    from learnability.reports.config_docs import analyses_page

    page = (Path(__file__).resolve().parents[1] / "docs/reference/analyses.md").read_text()
    assert page == analyses_page(), "regenerate: make docs"
    assert "| `entanglement` |" in page and "the square of the list count" in page


def test_the_defaults_module_is_the_schema_and_importing_reads_no_yaml():
    """src/learnability/schema_defaults.py is what ``make docs`` writes from the config
    schema, and importing the API, the CLI and every module that holds a default parses
    no YAML (they read that module)."""
    import subprocess
    import sys

    from learnability.defaults import default, schema, schema_defaults
    from learnability.reports.config_docs import defaults_module

    path = Path(__file__).resolve().parents[1] / "src/learnability/schema_defaults.py"
    assert path.read_text() == defaults_module(), "regenerate: make docs"
    walked = schema_defaults(schema())
    # a key with its own default under a shared type ($ref), and a plain one
    assert walked["learnability.min_words"] == schema()["properties"]["learnability"][
        "properties"]["min_words"]["default"]  # fmt: skip
    assert default("learnability.C") == walked["learnability.C"]
    with pytest.raises(KeyError, match="has no default"):
        default("corpus.name")
    code = (
        "import sys; import yaml; calls = []; real = yaml.load\n"
        "yaml.load = lambda *a, **k: calls.append(1) or real(*a, **k)\n"
        "import learnability.api, learnability.cli, learnability.analyses.registry\n"
        "from learnability.api import score; score.__doc__\n"
        "print(len(calls))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"


def test_every_analysis_output_and_report_file_is_where_the_outputs_page_says():
    """docs/reference/outputs.md names each registered analysis' Parquet output with its
    schema, and each report's tables (in its formats) and figure, where the workflow
    writes them (results/tables/NEGATIVES/NAME.FORMAT, results/plots/...)."""
    from learnability.analyses.registry import ANALYSES

    page = (Path(__file__).resolve().parents[1] / "docs/reference/outputs.md").read_text()
    people = page.split("## Tables and figures for people", 1)[1]
    for a in ANALYSES.values():
        assert f"| `{a.output}` | `{a.table}` |" in page, a.name
        if a.report is None:
            continue
        formats = a.report.formats
        shown = formats[0] if len(formats) == 1 else "{" + ",".join(formats) + "}"
        assert f"| `results/tables/{{negatives}}/{a.name}.{shown}` | {a.table} |" in people
        figure = f"`results/plots/{{negatives}}/{a.name}.{{png,svg,pdf}}`"
        assert (figure in people) == bool(a.report.plot), a.name
