# Every rule's resources from its model (learnability.pipeline.resources): a rule's
# `resources:` is job_resources(RULE, SIZES), where SIZES gives the model's sizes from a
# job's wildcards and input. An input that does not exist yet (a dry run) leaves them to
# be determined, as Snakemake does for input sizes; tests/test_cluster_plan.py plans the
# paper's run at enwiki's sizes and checks every job against its model.
from snakemake_interface_storage_plugins.exceptions import FileOrDirectoryNotFoundError

from learnability.io import npy_shape
from learnability.pipeline.partition import time_limit
from learnability.pipeline.scratch import budgeted_scratch, scratch_budget


def job_resources(rule, sizes=None, scratch=False):
    """``mem_mb``, ``runtime`` and ``disk_mb`` (memory and runtime growing with the
    attempt; the runtime held to the partition's time limit, learnability.pipeline.partition);
    with ``scratch``, ``tmp_mb`` (within the run's scratch budget,
    learnability.pipeline.scratch) and the SLURM request for it (``--tmp``)."""
    cost.model(rule)  # a rule without a model fails while the DAG is built

    def resource(key):
        def get(wildcards, input, attempt):
            need = cost.need(rule, **(sizes(wildcards, input) if sizes else {}))
            return cost.declare(need, attempt)[key]

        return get

    def job_name(wildcards):
        return (
            f"{rule} ({', '.join(f'{k}={v}' for k, v in wildcards.items())})".replace(
                " ()", ""
            )
        )

    def runtime(wildcards, input, attempt):
        given = sizes(wildcards, input) if sizes else {}
        need = cost.need(rule, **given)
        limit = time_limit()
        with config_errors_in_one_line("Error in the plan"):
            return cost.limited_runtime(
                job_name(wildcards), need, attempt,
                limit.minutes if limit else None, limit.source if limit else "",
                piece=cost.piece_minutes(rule, **given),
            )  # fmt: skip

    out = {key: resource(key) for key in ("mem_mb", "disk_mb")}
    out["runtime"] = runtime

    def tmp_mb(wildcards, input, attempt):
        # within the run's scratch budget (learnability.pipeline.scratch), which
        # profiles/default makes the global resource tmp_mb
        need = cost.need(rule, **(sizes(wildcards, input) if sizes else {}))
        with config_errors_in_one_line("Error in the plan"):
            return budgeted_scratch(
                job_name(wildcards), need.tmp_mb, cost.declare(need, attempt)["tmp_mb"],
                scratch_budget(),
            )  # fmt: skip

    if scratch:
        out["tmp_mb"] = tmp_mb
        out["slurm_extra"] = lambda w, input, attempt: cost.scratch_request(
            tmp_mb(w, input, attempt), bool(os.environ.get("LEARNABILITY_TMPDIR"))
        )
    return out


def input_mb(paths):
    """MB (10^6 bytes) of ``paths`` (a FileNotFoundError before they exist: the resources
    are then to be determined, in a dry run)."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    return sum(os.path.getsize(p) for p in paths) / 1e6


def _shape(paths):
    """The largest (words, dim) among ``paths``' .npy headers."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    return max((npy_shape(p) for p in paths), default=(0, 0))


def embedding_sizes(wildcards, input):
    words, dim = _shape(input.vectors)
    return dict(words=words, dim=dim)


def _vocabulary_words(paths):
    """Rows of the largest of ``paths``' vocabulary files (their Parquet footers)."""
    import pyarrow.parquet as pq

    paths = [paths] if isinstance(paths, str) else list(paths)
    for p in paths:
        if not os.path.exists(p):
            raise FileNotFoundError(2, "not yet made", p)
    return max((pq.read_metadata(p).num_rows for p in paths), default=0)


def vocabulary_sizes(wildcards, input):
    paths = list(input)
    return dict(
        words=_vocabulary_words([p for p in paths if p.endswith(".parquet")]),
        vocabularies=len(paths),
    )


def list_sizes(wildcards, input):
    return dict(words=_vocabulary_words(input.vocab))


def coverage_sizes(wildcards, input):
    return dict(words=_vocabulary_words(input.own), vocabularies=len(input.own))


# classifier fits of one job of each fitting rule
FITS = {
    "learnability": lambda: config["learnability"]["iterations"],
    "learning_curve": lambda: (
        config["learnability"]["iterations"]
        * len(config["learnability"]["learning_curve"])
    ),
    "null_distribution": lambda: (
        config["random_lists"]["lists"] * config["random_lists"]["iterations"]
    ),
    "sweep_scores": lambda: len(LISTS) * config["learnability"]["iterations"],
}


def fitting_sizes(rule):
    def sizes(wildcards, input):
        return dict(
            **embedding_sizes(wildcards, input),
            fits=FITS[rule](),
            threads=config["learnability"]["threads"],
        )

    return sizes


def analysis_sizes(analysis):
    def sizes(wildcards, input):
        shape = embedding_sizes(wildcards, input)
        size = cost.JobSize(
            len(LISTS), iterations=config["learnability"]["iterations"], **shape
        )
        threads = config["learnability"]["threads"] if analysis.fits else 1
        return dict(
            **shape,
            seconds=cost.analysis_seconds(
                analysis.name, analysis.from_config(config), size
            ),
            threads=threads,
        )

    return sizes


def evaluation_sizes(kind):
    def sizes(wildcards, input):
        return dict(
            **embedding_sizes(wildcards, input),
            # only pseudo-disambiguation reads the corpus
            max_tokens=EVALUATIONS["pseudo"]["max_tokens"] if kind == "pseudo" else 0,
        )

    return sizes


def part_download_sizes(wildcards, input):
    from learnability.corpus.dumps import manifest_entry

    size = manifest_entry(input.manifest, wildcards.part).size
    return dict(size_mb=(size or 0) / 1e6)


def unknown_download(wildcards, input):
    # a file's size is known only once it is fetched (a local job: its declaration is
    # informative)
    return dict(size_mb=0)


def corpus_coverage_sizes(wildcards, input):
    # the parts' count tables: all are read, one at a time (behind the dump's manifest,
    # not yet fetched, the input is the manifest's: to be determined)
    counts = [f for f in input if str(f).endswith(".counts.parquet")]
    if not counts:
        raise FileOrDirectoryNotFoundError(f"results/corpus/{wildcards.corpus}/parts")
    sizes = [input_mb([f]) for f in counts]
    return dict(counts_mb=sum(sizes), largest_mb=max(sizes))


def join_sizes(wildcards, input):
    # join_corpus's parts (named txt), or corpus_prefix's corpus
    text = input.txt if hasattr(input, "txt") else list(input)
    if not text:  # behind the dump's manifest, not yet fetched: to be determined
        raise FileOrDirectoryNotFoundError(f"results/corpus/{wildcards.corpus}/parts")
    text_mb = input_mb(text)
    return dict(tokens=text_mb * cost.TOKENS_PER_GZ_MB, text_mb=text_mb)
