# Input functions and resources of the rules in evaluations.smk, beside them (Snakemake's
# linter keeps functions out of files with rules).
from learnability.pipeline.config import evaluation_file_name
from learnability.pipeline.rerun import target_params


def evaluation_code(kind):
    """The digest of the code of one evaluation's module (learnability.codedigest: the
    script's own code digest leaves the evaluations out, a job runs one of them), and
    with provenance.libraries: rerun, of its libraries' versions."""
    return target_params(
        EVALUATION_KINDS[kind].target, config["provenance"]["libraries"]
    )


def evaluations_code():
    """The code of every evaluation the summary reads (their scores and paired items)."""
    return {kind: evaluation_code(kind) for kind in EVALUATION_KINDS}


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
        return [CORPUS]
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
        files = [f"results/corpus/{CORPUS}/text.txt.gz"]
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
