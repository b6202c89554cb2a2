import os
import re
import sys
from pathlib import Path

# Run this checkout's package, installed or not (and inside per-rule conda envs, which
# inherit the search path). PYTHONPATH is optional, so it is extended, not required
# (hence no envvars: directive).
_SRC = Path(workflow.basedir) / "src"
if (_SRC / "learnability").is_dir():
    sys.path.insert(0, str(_SRC))
    _paths = [str(_SRC), *filter(None, [dict(os.environ).get("PYTHONPATH")])]
    os.environ.update(PYTHONPATH=os.pathsep.join(_paths))

from snakemake.utils import min_version, validate

from learnability.workflow_config import (
    check_config,
    embedding_params,
    list_registry,
)

min_version("9.0")


validate(config, workflow.source_path("../schemas/config.schema.yaml"))
check_config(config)

LISTS = list_registry(config)
EMBEDDINGS = list(config["embeddings"])
TRAINED = [e for e in EMBEDDINGS if config["embeddings"][e]["method"] != "random"]
RANDOM = [e for e in EMBEDDINGS if config["embeddings"][e]["method"] == "random"]
DUMP = config["dump"]["name"]
DUMP_FILE = Path(config["dump"]["source"].rstrip("/")).name


wildcard_constraints:
    dump=re.escape(DUMP),
    embedding="|".join(map(re.escape, EMBEDDINGS)),
    list="|".join(map(re.escape, LISTS)) if LISTS else "(?!)",
    size=r"\d+",


def list_source(wildcards):
    return LISTS[wildcards.list]["path"]


def list_category(wildcards):
    return LISTS[wildcards.list].get("category", "")


def random_reference_vocab(wildcards):
    ref = config["embeddings"][wildcards.embedding]["reference"]
    return f"results/embeddings/{ref}/vocab.parquet"


def training_params(wildcards):
    # threads are left out: they come from the rule's threads: and changing them must
    # not retrain anything
    params = embedding_params(config, wildcards.embedding)
    params.pop("threads")
    return params


def training_threads(wildcards):
    return int(embedding_params(config, wildcards.embedding)["threads"])


def null_sizes(embedding):
    """Fixed sizes, plus each list's in-vocabulary size once the concepts are resolved."""
    sizes = set(config["random_lists"]["sizes"])
    if config["random_lists"].get("match_sizes", True):
        import pandas as pd

        for name in LISTS:
            path = checkpoints.resolve_concept.get(
                embedding=embedding, list=name
            ).output[0]
            resolved = pd.read_parquet(path, columns=["status"])
            sizes.add(int(resolved["status"].isin(["in_vocab", "expanded"]).sum()))
    return sorted(sizes)


def null_files(wildcards):
    return [
        f"results/null/{embedding}/size-{size}.parquet"
        for embedding in EMBEDDINGS
        for size in null_sizes(embedding)
    ]


def summaries(embeddings):
    return expand(
        "results/learnability/{embedding}/{list}/summary.parquet",
        embedding=embeddings,
        list=list(LISTS),
    )


def concept_files():
    return expand(
        "results/concepts/{embedding}/{list}.parquet",
        embedding=EMBEDDINGS,
        list=list(LISTS),
    )


def get_final_outputs():
    return [
        "results/tables/table6.md",
        "results/tables/table6.csv",
        "results/tables/learnability.md",
        "results/tables/wilcoxon.md",
        "results/tables/coverage.md",
        f"results/corpus/{DUMP}/stats.json",
    ]
