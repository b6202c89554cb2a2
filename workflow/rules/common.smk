import os
import re
import sys
from pathlib import Path

# Run this checkout's package, installed or not (and inside per-rule conda envs, which
# inherit the search path). PYTHONPATH is optional, so it is extended, not required
# (hence no envvars: directive). current_basedir is this file's folder (workflow/rules),
# also when the workflow is used as a module from another one; workflow.basedir would be
# the outer workflow's.
ROOT = Path(workflow.current_basedir).parents[1]
_SRC = ROOT / "src"
if (_SRC / "learnability").is_dir():
    sys.path.insert(0, str(_SRC))
    _paths = [str(_SRC), *filter(None, [dict(os.environ).get("PYTHONPATH")])]
    os.environ.update(PYTHONPATH=os.pathsep.join(_paths))

from snakemake.common.configfile import load_configfile
from snakemake.exceptions import IncompleteCheckpointException
from snakemake.io import checkpoint_target
from snakemake.logging import logger
from snakemake.utils import min_version, validate

from learnability.analyses.registry import ANALYSES
from learnability.defaults import SCHEMA as SCHEMA_FILE
from learnability.embeddings import registry
from learnability.evaluations.registry import KINDS as EVALUATION_KINDS
from learnability.pipeline import resources as cost
from learnability.pipeline.config import (
    config_errors_in_one_line,
    ignored_list_files,
    older_results,
    matched_null_key,
    prepare_config,
    report_name,
    unscored_concept,
)
from learnability.pipeline.corpus_draws import CORPORA_SWEEP
from learnability.pipeline.sweeps import trained_points

min_version("9.0")


# a module's prefix: goes before every relative input path: its config's are made absolute
IN_MODULE = not workflow.modifier.is_main_snakefile()
# --configfile(s) (none in a module given config:, a whole config) and --config, which
# Snakemake merged into config/config.yaml key by key: their corpus.source replaces its own
_USER = [] if workflow.modifier.skip_configfile else workflow.overwrite_configfiles
_USER_FILES = {str(f): load_configfile(f) for f in _USER}
with config_errors_in_one_line():
    # LISTS: the lists; SWEEPS: name -> its points (embeddings named by their settings);
    # the package's schema, the one a module's jobs import (its Snakefile may be remote)
    _, LISTS, SWEEPS = prepare_config(
        config,
        str(SCHEMA_FILE),
        ROOT,
        absolute=IN_MODULE,
        validate=validate,
        user_files=list(_USER_FILES.values()),
        overrides=workflow.config_settings.config,
    )
SWEEP_TRAINED = trained_points(SWEEPS)
POINTS = {(p.sweep, p.name): p for points in SWEEPS.values() for p in points}
for _warning in [*ignored_list_files(config), *older_results()]:
    logger.warning(f"Warning: {_warning}")
EMBEDDINGS = list(config["embeddings"])
_METHOD = {e: config["embeddings"][e]["method"] for e in EMBEDDINGS}
TRAINED = [e for e in EMBEDDINGS if _METHOD[e] in registry.TRAINED]
TRAINED += list(SWEEP_TRAINED)
# the spec of every embedding a job may build: the config's, and the sweep points'
SPEC = {**config["embeddings"], **{e: p.spec for e, p in SWEEP_TRAINED.items()}}
RANDOM = [e for e in EMBEDDINGS if _METHOD[e] == "random"]
PRETRAINED = [e for e in EMBEDDINGS if _METHOD[e] == "pretrained"]
COMPARED = list(config["compare"]["embeddings"])
VOCABULARY = config["compare"]["vocabulary"]
# compared embeddings are scored in the space of the words they all know (see
# learnability.embeddings.shared); the others, and all with vocabulary: own, in their own
IN_SHARED = set(COMPARED) if VOCABULARY == "shared" else set()
NEGATIVES = list(config["learnability"]["negatives"])
N_BINS = config["learnability"]["frequency_bins"]
# how list entries and evaluation words find a cased vocabulary (learnability.concepts.matching)
CASE = config["matching"]["case"]
LEARNING_CURVE = list(config["learnability"]["learning_curve"])
CORPUS = config["corpus"]["name"]
SOURCE = config["corpus"]["source"]
# A multi-part dump (base_url) fans out one download and one extraction job per part,
# listed by the manifest checkpoint; a single file (path) is a dump of one part.
MULTIPART = SOURCE.get("base_url") is not None
DUMP_FILE = None if MULTIPART else Path(SOURCE["path"].rstrip("/")).name


wildcard_constraints:
    # the corpus and the corpora of your own (corpora:)
    corpus="|".join(map(re.escape, [CORPUS, *config["corpora"]])),
    embedding="|".join(map(re.escape, EMBEDDINGS + list(SWEEP_TRAINED))),
    sweep="|".join(map(re.escape, SWEEPS)) if SWEEPS else "(?!)",
    point=(
        "|".join(map(re.escape, sorted({p.name for p in POINTS.values()})))
        if POINTS
        else "(?!)"
    ),
    list="|".join(map(re.escape, LISTS)) if LISTS else "(?!)",
    negatives="|".join(NEGATIVES),
    key=r"size-\d+|profile-\d+(?:-\d+)*",
    part=r"[^/]+",


def frequency_bins_param(wildcards):
    # only jobs that draw frequency bins read their count (frequency-matched negatives,
    # and random lists matched to a list's frequency profile): changing it reruns
    # nothing else
    profile = getattr(wildcards, "key", "").startswith("profile-")
    return N_BINS if wildcards.negatives == "frequency_matched" or profile else None


def protocol_params(seed_section, n_bins=frequency_bins_param):
    """The params of every job that fits classifiers (learnability, learning_curve,
    codelength, null_distribution, sweep_scores), which learnability.pipeline.jobs.job_protocol
    turns into the one Protocol and its Fit; the seed is that of ``seed_section`` (the
    lists' or the nulls'); ``n_bins``: the frequency bins' count, or a function of the
    job's wildcards."""
    fitting = config["learnability"]
    return dict(
        C=fitting["C"],
        seed=config[seed_section]["seed"],
        n_bins=n_bins,
        solver=fitting["solver"],
        chunk_mb=fitting["chunk_mb"],
        device=fitting["device"],
    )


def space(embedding):
    """The folder of the vectors and vocabulary an embedding is scored with."""
    if embedding in IN_SHARED:
        return f"results/shared/{embedding}"
    return f"results/embeddings/{embedding}"


def space_vectors(wildcards):
    return f"{space(wildcards.embedding)}/vectors.npy"


def space_vocab(wildcards):
    return f"{space(wildcards.embedding)}/vocab.parquet"


# the scored space: the input of every job that fits classifiers
SPACE = dict(vectors=space_vectors, vocab=space_vocab)


def beside_output(output, pattern, other):
    """``other`` (a workflow path) where it lies when this workflow's output ``pattern``
    lies at ``output``: the same, or under the prefix that a module's ``prefix:`` put
    before both. Input functions that read files in plain Python need the real path."""
    output = str(output)
    if output.endswith(pattern):
        return output[: len(output) - len(pattern)] + other
    return other


def null_keys(embedding, negatives):
    """Fixed sizes, plus each scored list's key once the concepts are resolved: its
    size, or its frequency profile under frequency-matched negatives."""
    keys = {f"size-{n}" for n in config["random_lists"]["sizes"]}
    if config["random_lists"]["match_sizes"]:
        for name, (path, vocab) in resolved_concepts(embedding).items():
            # a list the space cannot score draws no random lists of its size
            if unscored_concept(path, vocab, MIN_WORDS) is None:
                keys.add(matched_null_key(path, vocab, negatives, N_BINS))
    return sorted(keys)


def null_vocabs(wildcards):
    """The vocabularies the null keys are read from (null_keys): inputs of the jobs that
    read the keys, so that a vocabulary a killed run left missing is rebuilt, and the
    concepts resolved against it with it, before the keys are read (else the job gets the
    checkpoint's placeholder as its nulls)."""
    if not config["random_lists"]["match_sizes"]:
        return []
    embeddings = (
        [wildcards.embedding] if "embedding" in wildcards.keys() else EMBEDDINGS
    )
    return [f"{space(embedding)}/vocab.parquet" for embedding in embeddings]


# one learnability job's folder: every path to its outputs is built from it
LEARNED = "results/learnability/{embedding}/{list}/{negatives}"


def learnability_files(file, embeddings=EMBEDDINGS, negatives=NEGATIVES):
    """One output ``file`` of the learnability jobs of ``embeddings`` x every list x
    ``negatives``, embedding by embedding, in LISTS order (a list the embedding cannot
    score has a job too, whose tables are empty: the DAG is known before the concepts
    are resolved, and a dry run shows every job)."""
    return expand(
        f"{LEARNED}/{file}",
        embedding=embeddings,
        list=list(LISTS),
        negatives=negatives,
    )


def summaries(embeddings, negatives=NEGATIVES):
    return learnability_files("summary.parquet", embeddings, negatives)


def scheme_summaries(wildcards):
    return summaries(EMBEDDINGS, [wildcards.negatives])


# figure titles' name of the config: the user's report.name, else their files' names
REPORT_NAME = report_name(config, _USER_FILES, workflow.config_settings.config)


def plot_title(text):
    """Params function: a figure title naming the corpus (or pretrained vectors), the
    configuration and the negatives scheme; ``text`` may hold wildcards."""
    source = f"corpus {CORPUS}" if TRAINED else "pretrained embeddings"

    def title(wildcards):
        what = text.format(**dict(wildcards.items()))
        return (
            f"{what}\n{source}, config {REPORT_NAME}, {wildcards.negatives} non-members"
        )

    return title


def table_files(
    name,
    caption,
    category,
    folder="results/tables/{negatives}",
    formats=("md", "csv", "tex"),
    shown="csv",
):
    """A table's outputs NAME_md, NAME_csv, NAME_tex (those in ``formats``); the one in
    ``shown`` goes into the report with its caption: one place for how every table is
    written."""
    sub = {"subcategory": "{negatives} non-members"} if "{negatives}" in folder else {}
    out = {}
    for ext in formats:
        path = f"{folder}/{name}.{ext}"
        if ext == shown:
            path = report(
                path, caption=f"../report/{caption}.rst", category=category, **sub
            )
        out[f"{name}_{ext}"] = path
    return out


# the analyses a run has (learnability.analyses.registry); the explorer page shows each
# list's suggestions: none without them
ANALYSES_ON = [name for name, a in ANALYSES.items() if a.on_in(config)]
EXPLORER = config["explorer"]["enabled"] and "suggestions" in ANALYSES_ON
FIGURE = ["png", "svg", "pdf"]


def get_final_outputs():
    """Every table, figure and page of the run (rule all)."""
    # the corpus, when an embedding is trained on it: its stats, the lists' coverage
    corpus = [f"results/corpus/{CORPUS}/{f}" for f in ("stats.json", "coverage.md")]
    outputs = corpus if TRAINED else []
    tables = ["table6.md", "table6.csv", "table6.tex", "learnability.md"]
    tables += ["learnability.tex", "wilcoxon.md", "wilcoxon.tex", "members.md"]
    figures = ["roc", "auc_distribution", "heatmap", *[f"null_{e}" for e in EMBEDDINGS]]
    outputs += ["results/tables/coverage.md", *learnability_files("roc.parquet")]
    outputs += expand("results/tables/{n}/{t}", n=NEGATIVES, t=tables)
    outputs += expand("results/report/{n}/headline.rst", n=NEGATIVES)
    outputs += expand("results/plots/{n}/{f}.{e}", n=NEGATIVES, f=figures, e=FIGURE)
    for a in (ANALYSES[name] for name in ANALYSES_ON):  # each table, in a report or not
        paths = [a.output, *(report_paths(a).values() if a.report else [])]
        outputs += expand(paths, embedding=EMBEDDINGS, negatives=NEGATIVES)
    if len(COMPARED) > 1:
        outputs += [f"results/tables/ranking.{e}" for e in ("md", "csv", "tex")]
        outputs += [f"results/plots/ranking.{e}" for e in FIGURE]
    if EXPLORER:
        outputs.append("results/explorer.html")
    outputs += ["results/evaluations/scores.parquet", "results/tables/evaluations.md"]
    if PSEUDO:
        outputs += [f"results/plots/pseudo.{e}" for e in FIGURE]
    for sweep in (s for s in SWEEPS if s != CORPORA_SWEEP):
        outputs.append(f"results/tables/sweeps/{sweep}.md")
        outputs += [f"results/plots/sweeps/{sweep}.{e}" for e in FIGURE]
    if CORPORA_SWEEP in SWEEPS:  # compare_corpora, and the lists in each corpus
        outputs += [
            "results/tables/corpora.md",
            *expand("results/plots/corpora.{e}", e=FIGURE),
            *expand("results/corpus/{c}/coverage.md", c=COMPARED_CORPORA),
        ]
    if LEARNING_CURVE:
        outputs += learnability_files("learning_curve.parquet")
    return list(dict.fromkeys(outputs))  # (a report path expands once per embedding)
