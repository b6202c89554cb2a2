import dataclasses
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

from snakemake.exceptions import IncompleteCheckpointException
from snakemake.io import checkpoint_target
from snakemake.logging import logger
from snakemake.utils import min_version, validate

from learnability.corpus.dumps import read_manifest
from learnability.defaults import SCHEMA as SCHEMA_FILE
from learnability.embeddings import registry
from learnability.evaluations.registry import KINDS as EVALUATION_KINDS
from learnability.schemas import fingerprint
from learnability.pipeline.sweeps import (
    is_seed_sweep,
    prefix_percent,
    trained_points,
    vocabulary_sources,
)
from learnability.pipeline.config import (
    config_errors_in_one_line,
    evaluation_file_name,
    ignored_list_files,
    local_file,
    matched_null_key,
    null_iterations,
    prepare_config,
)
from learnability.pipeline.params import embedding_params

min_version("9.0")


# As a module of another workflow (README, "Use as a Snakemake module"), its prefix: is
# prepended to every relative input path, so the config's own files are made absolute.
IN_MODULE = not workflow.modifier.is_main_snakefile()
with config_errors_in_one_line():
    # validated, defaults filled, paths anchored, cross-checked; LISTS: the list registry;
    # SWEEPS: name -> its points (learnability.pipeline.sweeps), each an embedding named by its
    # settings; only those that train themselves get a train_embedding job
    # the schema inside the installed package (workflow/schemas/ links to it): a module
    # read from a remote Snakefile validates against the same file its jobs import
    _, LISTS, SWEEPS = prepare_config(
        config,
        str(SCHEMA_FILE),
        ROOT,
        absolute=IN_MODULE,
        validate=validate,
    )
SWEEP_TRAINED = trained_points(SWEEPS)
POINTS = {(p.sweep, p.name): p for points in SWEEPS.values() for p in points}
for _warning in ignored_list_files(config):
    logger.warning(f"Warning: {_warning}")
EMBEDDINGS = list(config["embeddings"])
_METHOD = {e: config["embeddings"][e]["method"] for e in EMBEDDINGS}
TRAINED = [e for e in EMBEDDINGS if _METHOD[e] in registry.TRAINED]
TRAINED += list(SWEEP_TRAINED)
# the spec of every embedding a job may build: the config's, and the sweep points'
SPEC = {**config["embeddings"], **{e: p.spec for e, p in SWEEP_TRAINED.items()}}
RANDOM = [e for e in EMBEDDINGS if _METHOD[e] == "random"]
PRETRAINED = [e for e in EMBEDDINGS if _METHOD[e] == "pretrained"]
# pretrained embeddings given by URL are downloaded to resources/embeddings/{embedding}/
DOWNLOADED = {
    e: Path(config["embeddings"][e]["url"]).name
    for e in PRETRAINED
    if "url" in config["embeddings"][e]
}
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
CODELENGTH = config["codelength"]["enabled"]
DUMP = config["dump"]["name"]
# A multi-part dump (base_url) fans out one download and one extraction job per part,
# listed by the manifest checkpoint; a single file (source) is a dump of one part.
MULTIPART = config["dump"].get("base_url") is not None
DUMP_FILE = None if MULTIPART else Path(config["dump"]["source"].rstrip("/")).name


wildcard_constraints:
    dump=re.escape(DUMP),
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


def dump_parts(wildcards):
    """The dump's part files, in page order (from the manifest checkpoint if multi-part)."""
    if not MULTIPART:
        return [DUMP_FILE]
    manifest = checkpoints.dump_manifest.get(dump=wildcards.dump).output[0]
    return [f.name for f in read_manifest(manifest)]


def dump_part_file(wildcards):
    if MULTIPART:
        return f"resources/dumps/{wildcards.dump}/parts/{wildcards.part}"
    return f"resources/dumps/{wildcards.dump}/{DUMP_FILE}"


def extracted_parts(wildcards):
    pattern = "results/corpus/{dump}/parts/{part}.{kind}"
    parts = dump_parts(wildcards)
    return {
        kind.split(".")[0]: expand(pattern, dump=wildcards.dump, part=parts, kind=kind)
        for kind in ("txt.gz", "counts.parquet", "stats.json")
    }


def extraction_mem_mb(wildcards, input):
    # one page at a time plus the part's token counts (bounded by its vocabulary)
    return 1000 + int(input.size_mb * 2)


def extraction_runtime(wildcards, input):
    # minutes; measured about 2 MB/s of bz2 input per core (7 MB/s of XML, README);
    # 0.5 MB/s is assumed, with a 4x margin, for slower or shared cluster cores
    return 10 + int(input.size_mb / 0.5 / 60 * 4)


# tokens per MB of the gzipped corpus, measured on the sample; each method's training
# rate and memory per MB are in its registry entry (learnability.embeddings.registry)
TOKENS_PER_GZ_MB = 400_000


def _method(wildcards):
    return registry.method(SPEC[wildcards.embedding]["method"])


def training_corpus(wildcards):
    """The corpus an embedding trains on: the whole one, or a sweep point's first share
    of its tokens (rule corpus_prefix)."""
    fraction = SPEC[wildcards.embedding].get("corpus_fraction", 1.0)
    if fraction < 1.0:
        return f"results/corpus/{DUMP}/{prefix_percent(fraction)}/text.txt.gz"
    return f"results/corpus/{DUMP}/text.txt.gz"


def training_runtime(wildcards, input):
    """Minutes: tokens x epochs at the measured rate, 3x margin, 75% thread scaling."""
    # a method without epochs (transformer) reads the corpus once
    epochs = point_params(wildcards.embedding).get("epochs", 1)
    work = input.size_mb * TOKENS_PER_GZ_MB * epochs
    # the configured threads, not the job's `threads`: a dry run caps those at its
    # --cores (1), which printed a runtime for one thread (12x too long at 16)
    threads = training_threads(wildcards)
    seconds = work / (_method(wildcards).rate * max(1.0, 0.75 * threads))
    return 10 + int(3 * seconds / 60)


def training_mem_mb(wildcards, input):
    # GloVe counts by dump part in one process per thread, sharing count_memory_mb; each
    # also holds the vocabulary's index (about 100 bytes a word: 4 GB for 16 processes
    # at 2.5 M words), under the iterations' parameters that set its peak
    method = _method(wildcards)
    counting = (
        config["training"]["count_memory_mb"] if method.counts_cooccurrence else 0
    )
    return 4000 + counting + int(input.size_mb * method.mem_per_mb)


# bytes of GloVe's tmpdir per co-occurrence entry at its peak: 49, the most measured
# (2085 MB for 42.5 M entries; 38 and 42 at 76 and 135 M entries, with the shards deleted
# once merged; benchmarks/scale.py); co-occurrence entries per corpus token (window 5,
# min_count 5) fall as the corpus grows: 2.80 at 4.5 M tokens, 2.36 at 18 M, 2.13 at
# 36 M and 1.89 at 72 M on the synthetic dump (the real sample has 2.9 at 0.45 M); the
# power law of slope -0.12 kept here gives 1.3 at enwiki's 2.6 B tokens, above the
# measured slope's -0.16 (1.06), inside the 1-3.5 B entries estimated for it
GLOVE_TMP_BYTES_PER_ENTRY = 49
ENTRIES_PER_TOKEN, ENTRIES_AT_TOKENS, ENTRIES_SLOPE = 2.36, 18e6, -0.12


def cooccurrence_entries(tokens: float) -> float:
    return tokens * min(
        3.0, ENTRIES_PER_TOKEN * (tokens / ENTRIES_AT_TOKENS) ** ENTRIES_SLOPE
    )


def training_disk_mb(wildcards, input):
    """MB: the job's output (Snakemake's default guess, twice the input) plus, for the
    methods that count co-occurrences, their tmpdir at its peak; a 1.3x margin. GloVe's
    tmpdir must be scratch that holds it (LEARNABILITY_TMPDIR on a cluster): about 250 GB
    at enwiki's 2.6 B tokens."""
    need = 2 * input.size_mb
    if _method(wildcards).counts_cooccurrence:
        entries = cooccurrence_entries(input.size_mb * TOKENS_PER_GZ_MB)
        # 1.4x: 1.3x over the top of the 1-3.5 B entries assumed for enwiki, which the
        # rehearsal's extrapolation takes (the model gives 3.4 B)
        return 1000 + int(1.4 * (need + entries * GLOVE_TMP_BYTES_PER_ENTRY / 1e6))
    return 1000 + int(1.3 * need)


def random_mem_mb(wildcards, input):
    # the reference's vocabulary as Python strings and one 64 MB block of rows: 343 MB
    # measured at 2.5 M words (33 MB of Parquet); the growth measured at 42k-104k words
    # extrapolates to 2.1 GB there, which this covers 1.4x (benchmarks/scale.py)
    return 1000 + int(60 * input.size_mb)


# Parquet bytes per vocabulary word: 13 (33 MB at 2.5 M words, benchmarks/scale.py)
VOCAB_PARQUET_BYTES_PER_WORD = 13


def random_disk_mb(wildcards, input):
    """MB: the float32 V x dim vectors it writes (3 GB at 2.5 M words x 300, against
    Snakemake's default of twice its small input) and its vocabulary, 1.3x; V is the
    reference vocabulary's rows, or in a dry run before it exists, its size in words."""
    try:
        import pyarrow.parquet as pq

        words = pq.read_metadata(input.vocab).num_rows
    except OSError:
        words = input.size_mb * 1e6 / VOCAB_PARQUET_BYTES_PER_WORD
    dim = point_params(wildcards.embedding)["dim"]
    return 1000 + int(1.3 * (words * dim * 4 / 1e6 + 2 * input.size_mb))


def fitting_mem_mb(wildcards, input):
    # the memory-mapped embedding's pages, plus the splits and per-thread work arrays:
    # 3.2 GB measured for a 3 GB embedding of 2.5 M words (benchmarks/scale.py); a null
    # job holds at most evaluate.NULL_BATCH_BYTES (256 MB) of splits at a time, whatever
    # its lists and splits (method: matched), within the 1000 MB base
    return 1000 + int(1.3 * input.size_mb)


def pseudo_mem_mb(wildcards, input):
    """MB: the pair tokens of the corpus' first max_tokens (about 10 a token, with their
    folds and keys) and the vectors' pages the neighbour search reads: 1.4 GB at 2 M
    tokens plus 1.4x the vectors, fitted to 1539-1788 MB measured at 104k-253k words
    (benchmarks/scale.py; 6.3 GB extrapolated at 3 M words), with a 1.3x margin."""
    try:
        vectors_mb = os.path.getsize(input.vectors) / 1e6
    except OSError:  # a dry run before the vectors exist
        vectors_mb = 0.0
    pairs_mb = 1400 * max(1.0, evaluation_settings("pseudo")["max_tokens"] / 2e6)
    return int(1.3 * (pairs_mb + 1.4 * vectors_mb))


def pseudo_runtime(wildcards, input):
    # minutes: 2.3-3.0 h extrapolated at 2.5-3 M words (a neighbour search per query over
    # the vocabulary; benchmarks/scale.py), covered 1.4x at enwiki's 6.5 GB corpus and
    # 3 GB vectors
    return 60 + int(0.03 * input.size_mb)


def list_source(wildcards):
    return LISTS[wildcards.list]["path"]


def list_category(wildcards):
    return LISTS[wildcards.list].get("category", "")


def random_reference_vocab(wildcards):
    ref = config["embeddings"][wildcards.embedding]["reference"]
    return f"results/embeddings/{ref}/vocab.parquet"


def point_params(embedding):
    """embedding_params of a config embedding or a sweep point."""
    return embedding_params(config, embedding, SPEC[embedding])


def training_params(wildcards):
    # threads are left out: they come from the rule's threads: and changing them must
    # not retrain anything
    params = point_params(wildcards.embedding)
    params.pop("threads")
    return params


def training_threads(wildcards):
    return int(point_params(wildcards.embedding)["threads"])


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


def beside_output(output, pattern, other):
    """``other`` (a workflow path) where it lies when this workflow's output ``pattern``
    lies at ``output``: the same, or under the prefix that a module's ``prefix:`` put
    before both. Input functions that read files in plain Python need the real path."""
    output = str(output)
    if output.endswith(pattern):
        return output[: len(output) - len(pattern)] + other
    return other


def null_keys(embedding, negatives):
    """Fixed sizes, plus the key of each list once the concepts are resolved: its size,
    or its frequency profile under frequency-matched negatives."""
    keys = {f"size-{n}" for n in config["random_lists"]["sizes"]}
    if config["random_lists"]["match_sizes"]:
        for name in LISTS:
            path = checkpoints.resolve_concept.get(
                embedding=embedding, list=name
            ).output[0]
            # read where the checkpoint's output lies: a module's prefix: moves both
            vocab = beside_output(
                path,
                f"results/concepts/{embedding}/{name}.parquet",
                f"{space(embedding)}/vocab.parquet",
            )
            if not os.path.exists(vocab):
                # The resolution exists but the vocabulary it was made from is gone (an
                # embedding deleted to retrain it): rebuild both before reading a key.
                raise IncompleteCheckpointException(
                    checkpoints.resolve_concept.rule, checkpoint_target(path)
                )
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


def null_files(wildcards):
    return [
        f"results/null/{embedding}/{negatives}/{key}.parquet"
        for embedding in EMBEDDINGS
        for negatives in NEGATIVES
        for key in null_keys(embedding, negatives)
    ]


# one learnability job's folder: every path to its outputs is built from it
LEARNED = "results/learnability/{embedding}/{list}/{negatives}"


def learnability_files(file, embeddings=EMBEDDINGS, negatives=NEGATIVES):
    """One output ``file`` of the learnability jobs of ``embeddings`` x every list x
    ``negatives``, embedding by embedding, in LISTS order."""
    return expand(
        f"{LEARNED}/{file}",
        embedding=embeddings,
        list=list(LISTS),
        negatives=negatives,
    )


def learnability_outputs(embeddings, name, negatives=NEGATIVES):
    return learnability_files(f"{name}.parquet", embeddings, negatives)


def summaries(embeddings, negatives=NEGATIVES):
    return learnability_outputs(embeddings, "summary", negatives)


def scheme_summaries(wildcards):
    return summaries(EMBEDDINGS, [wildcards.negatives])


def embedding_concepts(wildcards):
    # every list's resolution against one embedding, in LISTS order (the codelength job
    # scores them all: one job per embedding and scheme, each list about a second)
    return expand(
        "results/concepts/{embedding}/{list}.parquet",
        embedding=[wildcards.embedding],
        list=list(LISTS),
    )


def scheme_codelength(wildcards):
    if not CODELENGTH:
        return []
    return expand(
        "results/codelength/{embedding}/{negatives}.parquet",
        embedding=EMBEDDINGS,
        negatives=[wildcards.negatives],
    )


def scheme_members(wildcards):
    return learnability_files("members.parquet", negatives=[wildcards.negatives])


def scheme_outputs(name):
    """Input function: one learnability output (``roc``, ``iterations``...) of every list
    and embedding, for the negatives scheme of the job."""

    def files(wildcards):
        return learnability_files(f"{name}.parquet", negatives=[wildcards.negatives])

    return files


def scheme_null_files(wildcards):
    """The null distributions of the job's negatives scheme (and embedding, if it has one)."""
    embeddings = (
        [wildcards.embedding] if "embedding" in wildcards.keys() else EMBEDDINGS
    )
    return [
        f"results/null/{embedding}/{wildcards.negatives}/{key}.parquet"
        for embedding in embeddings
        for key in null_keys(embedding, wildcards.negatives)
    ]


# The configuration's name in figure titles: report.name, else the --configfile(s) given
# (a name left at its default would call config/paper.yaml's figures "default").
REPORT_NAME = config["report"]["name"]
if REPORT_NAME == "default" and workflow.overwrite_configfiles:
    REPORT_NAME = ", ".join(Path(f).stem for f in workflow.overwrite_configfiles)


def plot_title(text):
    """Params function: a figure title naming the corpus (or pretrained vectors), the
    configuration and the negatives scheme; ``text`` may hold wildcards."""
    source = f"corpus {DUMP}" if TRAINED else "pretrained embeddings"

    def title(wildcards):
        what = text.format(**dict(wildcards.items()))
        return (
            f"{what}\n{source}, config {REPORT_NAME}, {wildcards.negatives} non-members"
        )

    return title


def concept_files():
    return expand(
        "results/concepts/{embedding}/{list}.parquet",
        embedding=EMBEDDINGS,
        list=list(LISTS),
    )


def pretrained_source(wildcards):
    spec = config["embeddings"][wildcards.embedding]
    if "path" in spec:
        return str(local_file(spec["path"], f"embeddings.{wildcards.embedding}.path"))
    return (
        f"resources/embeddings/{wildcards.embedding}/{DOWNLOADED[wildcards.embedding]}"
    )


def pretrained_words(wildcards):
    # format: npy keeps its words in a second file: an input, so editing it reimports
    spec = config["embeddings"][wildcards.embedding]
    if "words" in spec:
        return [
            str(local_file(spec["words"], f"embeddings.{wildcards.embedding}.words"))
        ]
    return []


def subword_list_sources(wildcards):
    # only a fastText .bin asked for n-gram vectors of the lists' words depends on them
    if embedding_params(config, wildcards.embedding).get("subword_oov"):
        return sorted({spec["path"] for spec in LISTS.values()})
    return []


def subword_lists(wildcards):
    if embedding_params(config, wildcards.embedding).get("subword_oov"):
        return LISTS
    return {}


def embedding_checksums(wildcards):
    spec = config["embeddings"][wildcards.embedding]
    return {h: spec[h] for h in ("sha256", "sha1", "md5") if spec.get(h)}


def import_mem_mb(wildcards, input):
    # text and word2vec-binary files stream into a memory map; fastText .bin loads whole
    factor = (
        3
        if embedding_params(config, wildcards.embedding)["format"] == "fasttext_bin"
        else 0
    )
    return 2000 + int(input.size_mb * factor)


def import_runtime(wildcards, input):
    # minutes; text imports at about 10 MB/s on one core (benchmarks/import_vectors.py),
    # compressed input (bz2) expands about 3x, and 3x margin: 0.015 min per input MB
    return 10 + int(input.size_mb * 0.015)


# each kind's settings, and the bootstrap, confidence and seed they share (all defaulted)
EVALUATIONS = config["evaluations"]


def evaluation_enabled(kind):
    """A kind runs when it has files to read, or else when it is enabled; one that reads
    the corpus (pseudo-disambiguation) only when a corpus is built."""
    spec = EVALUATION_KINDS[kind]
    on = (
        bool(EVALUATIONS[kind]["files"]) if spec.files else EVALUATIONS[kind]["enabled"]
    )
    return on and (bool(TRAINED) or not spec.needs_corpus)


PSEUDO = evaluation_enabled("pseudo")


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


def scheme_coefficients(wildcards):
    # every list's split classifiers on one embedding and scheme, in LISTS order
    return learnability_files(
        "coefficients.npy", [wildcards.embedding], [wildcards.negatives]
    )


def diagnostics_files(name, embeddings=EMBEDDINGS):
    """Input function: one diagnostics table (suggestions, suggestion_check,
    entanglement) of every embedding, for the negatives scheme of the job."""

    def files(wildcards):
        return expand(
            "results/diagnostics/{embedding}/{negatives}/{name}.parquet",
            embedding=embeddings,
            negatives=[wildcards.negatives],
            name=[name],
        )

    return files


SUGGESTIONS = config["suggestions"]["top"] > 0
CHECK = config["suggestions"]["check"]["folds"] > 0
ENTANGLEMENT = config["entanglement"]["iterations"] > 0
# the page shows each list's suggestions: none without them
EXPLORER = config["explorer"]["enabled"] and SUGGESTIONS
# the scheme the explorer shows: the configured one if the run has it, else its first
EXPLORER_NEGATIVES = (
    config["explorer"]["negatives"]
    if config["explorer"]["negatives"] in NEGATIVES
    else NEGATIVES[0]
)


def explorer_inputs(wildcards):
    scheme = {"negatives": EXPLORER_NEGATIVES}
    w = type("W", (), scheme)
    files = dict(
        vectors=[f"{space(e)}/vectors.npy" for e in EMBEDDINGS],
        vocab=[f"{space(e)}/vocab.parquet" for e in EMBEDDINGS],
        members=learnability_files("members.parquet", negatives=[EXPLORER_NEGATIVES]),
        summaries=summaries(EMBEDDINGS, [EXPLORER_NEGATIVES]),
        suggestions=diagnostics_files("suggestions")(w),
    )
    if ENTANGLEMENT:
        files["entanglement"] = diagnostics_files("entanglement")(w)
    return files


def get_final_outputs():
    # the corpus is built only when an embedding is trained on it
    outputs = [f"results/corpus/{DUMP}/stats.json"] if TRAINED else []
    outputs += [
        "results/tables/coverage.md",
        *expand(
            "results/tables/{negatives}/{table}",
            negatives=NEGATIVES,
            table=[
                "table6.md",
                "table6.csv",
                "table6.tex",
                "learnability.md",
                "learnability.tex",
                "wilcoxon.md",
                "wilcoxon.tex",
                "members.md",
            ],
        ),
        *expand("results/report/{negatives}/headline.rst", negatives=NEGATIVES),
        *expand(
            "results/plots/{negatives}/{figure}.{ext}",
            negatives=NEGATIVES,
            figure=[
                "roc",
                "auc_distribution",
                "heatmap",
                *[f"null_{e}" for e in EMBEDDINGS],
            ],
            ext=["png", "svg", "pdf"],
        ),
        *learnability_files("roc.parquet"),
    ]
    if SUGGESTIONS:
        outputs += expand(
            "results/tables/{negatives}/suggestions.md", negatives=NEGATIVES
        )
    if CHECK:
        outputs += expand(
            "results/tables/{negatives}/suggestion_check.{ext}",
            negatives=NEGATIVES,
            ext=["md", "csv", "tex"],
        )
    if ENTANGLEMENT:
        outputs += expand(
            "results/plots/{negatives}/entanglement.{ext}",
            negatives=NEGATIVES,
            ext=["png", "svg", "pdf"],
        )
        outputs += expand(
            "results/tables/{negatives}/entanglement.md", negatives=NEGATIVES
        )
    if len(COMPARED) > 1:
        outputs += expand(
            "results/{folder}/ranking.{ext}",
            zip,
            folder=["tables", "tables", "tables", "plots", "plots", "plots"],
            ext=["md", "csv", "tex", "png", "svg", "pdf"],
        )
    if EXPLORER:
        outputs.append("results/explorer.html")
    outputs += [
        "results/evaluations/scores.parquet",
        "results/tables/evaluations.md",
    ]
    if PSEUDO:
        outputs += [f"results/plots/pseudo.{ext}" for ext in ("png", "svg", "pdf")]
    outputs += [
        path
        for sweep in SWEEPS
        for path in [
            f"results/tables/sweeps/{sweep}.md",
            *expand(
                "results/plots/sweeps/{sweep}.{ext}",
                sweep=sweep,
                ext=["png", "svg", "pdf"],
            ),
        ]
    ]
    if LEARNING_CURVE:
        outputs += learnability_files("learning_curve.parquet")
    return outputs


def sweep_vocabularies(wildcards):
    """The vocabularies a sweep's shared vocabulary is made of: one per vocabulary group
    (learnability.pipeline.sweeps.vocabulary_sources), so a grid point that leaves the vocabulary
    alone (dim, window) is not one of them and rescores nothing else."""
    sources = vocabulary_sources(SWEEPS[wildcards.sweep])
    return [f"results/embeddings/{e}/vocab.parquet" for e in sources]


def sweep_vocabulary_names(wildcards):
    return vocabulary_sources(SWEEPS[wildcards.sweep])


def sweep_point(wildcards):
    return POINTS[(wildcards.sweep, wildcards.point)]


def sweep_point_param(wildcards):
    # a plain dict: params are compared between runs, and pickled for remote jobs
    return dataclasses.asdict(sweep_point(wildcards))


def sweep_point_files(name):
    """Input function: a sweep point's trained files (those of its source: itself, or an
    embedding trained identically)."""

    def files(wildcards):
        return f"results/embeddings/{sweep_point(wildcards).source}/{name}"

    return files


def sweep_outputs(suffix):
    """Input function: one output of every point of the job's sweep."""

    def files(wildcards):
        return [
            f"results/sweeps/{wildcards.sweep}/points/{p.name}{suffix}"
            for p in SWEEPS[wildcards.sweep]
        ]

    return files


def evaluation_files(kind):
    """The files of one evaluation, package:// sources resolved to the installed file (an
    input, so that editing a file reruns its jobs)."""
    from learnability.corpus.download import resolve_package_path

    return [
        str(resolve_package_path(f)) if f.startswith("package://") else f
        for f in EVALUATIONS[kind]["files"]
    ]


def evaluation_datasets(kind):
    """The names of a kind's datasets: its files', or the corpus' for one that reads it."""
    spec = EVALUATION_KINDS[kind]
    if spec.needs_corpus:
        return [DUMP]
    return (
        [evaluation_file_name(f) for f in EVALUATIONS[kind]["files"]]
        if spec.files
        else []
    )


def evaluation_inputs(kind):
    """A kind's job reads the embedding and its files (the corpus, for a kind that reads
    it); the files are inputs, so that editing one reruns its jobs."""
    spec = EVALUATION_KINDS[kind]
    if spec.needs_corpus:
        files = [f"results/corpus/{DUMP}/text.txt.gz"]
    else:
        files = evaluation_files(kind) if spec.files else []
    return {
        "vectors": "results/embeddings/{embedding}/vectors.npy",
        "vocab": "results/embeddings/{embedding}/vocab.parquet",
        "files": files,
    }


def evaluation_tables(kind):
    return {
        name: f"results/evaluations/{{embedding}}/{name}.parquet"
        for name in EVALUATION_KINDS[kind].tables
    }


def evaluation_settings(kind):
    """What a kind's job reads from the config: its block (without which files it reads
    and whether it runs), and the case policy where it matches words; in ``params``, so
    that a change reruns exactly that kind's jobs."""
    settings = {
        k: v for k, v in EVALUATIONS[kind].items() if k not in ("files", "enabled")
    }
    if EVALUATION_KINDS[kind].uses_case:
        settings["case"] = CASE
    return settings


def evaluation_summary_tables():
    """The evaluations beside learnability: the comparison table, the paired tests and the
    rank correlations between measures."""
    folder = "results/tables"
    return {
        **table_files("evaluations", "evaluations", "Comparison", folder, shown="md"),
        **table_files(
            "evaluation_tests",
            "evaluation_tests",
            "Comparison",
            folder,
            ("md", "csv"),
            "md",
        ),
        **table_files("rank_correlation", "", "", folder, ("md", "csv"), shown=None),
    }


def evaluation_reports():
    """The kinds' own Markdown reports (those with ``report`` in the registry), in the
    HTML report with their captions."""
    out = {}
    for kind, spec in EVALUATION_KINDS.items():
        if spec.report:
            out.update(
                table_files(kind, kind, "Comparison", "results/tables", ("md",), "md")
            )
    return out


def evaluation_resources(kind):
    # pseudo-disambiguation holds the corpus' pairs in memory and searches neighbours
    # for each query; the other kinds fit the defaults
    return (
        {"mem_mb": pseudo_mem_mb, "runtime": pseudo_runtime} if kind == "pseudo" else {}
    )


def evaluation_outputs(wildcards=None):
    """Named inputs of the summary: each enabled evaluation's per-embedding tables, named
    after the table (the evaluation registry, learnability.evaluations.registry)."""
    out = {}
    for kind, spec in EVALUATION_KINDS.items():
        if evaluation_enabled(kind):
            for table in spec.tables:
                out[table] = expand(
                    "results/evaluations/{embedding}/{table}.parquet",
                    embedding=EMBEDDINGS,
                    table=table,
                )
    return out
