# Intrinsic evaluations beside learnability (docs/explanation/evaluations.md): one job per embedding
# and evaluation, on the embedding's own vocabulary, then one summary with the paired
# tests and rank correlations, a table and a figure.


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
        {
            "mem_mb": pseudo_mem_mb,
            "runtime": lambda w, input: cost.pseudo_runtime(input.size_mb),
        }
        if kind == "pseudo"
        else {}
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


def pseudo_mem_mb(wildcards, input):
    try:
        vectors_mb = os.path.getsize(input.vectors) / 1e6
    except OSError:  # a dry run before the vectors exist
        vectors_mb = 0.0
    return cost.pseudo_mem_mb(vectors_mb, evaluation_settings("pseudo")["max_tokens"])


# one rule per kind, from the registry (learnability.evaluations.registry), all running
# the one script: the kind's module does the work
for kind in EVALUATION_KINDS:

    rule:
        name:
            f"evaluate_{kind}"
        input:
            **evaluation_inputs(kind),
        output:
            **evaluation_tables(kind),
        log:
            f"logs/evaluations/{{embedding}}/{kind}.log",
        benchmark:
            f"benchmarks/out/evaluations/{{embedding}}/{kind}.tsv"
        conda:
            "../envs/learnability.yaml"
        resources:
            **evaluation_resources(kind),
        params:
            kind=kind,
            datasets=evaluation_datasets(kind),
            settings=evaluation_settings(kind),
        script:
            "../scripts/evaluate.py"


rule evaluations_summary:
    input:
        unpack(evaluation_outputs),
        summaries=summaries(EMBEDDINGS),
    output:
        **evaluation_summary_tables(),
        **evaluation_reports(),
        scores="results/evaluations/scores.parquet",
        tests="results/evaluations/tests.parquet",
        correlation="results/evaluations/rank_correlation.parquet",
    log:
        "logs/evaluations/summary.log",
    conda:
        "../envs/learnability.yaml"
    params:
        embeddings=COMPARED,
        alternative=config["compare"]["alternative"],
        bootstrap=EVALUATIONS["bootstrap"],
        confidence=EVALUATIONS["confidence"],
        seed=EVALUATIONS["seed"],
    script:
        "../scripts/evaluations_summary.py"


rule plot_pseudo:
    input:
        expand("results/evaluations/{embedding}/pseudo.parquet", embedding=EMBEDDINGS),
    output:
        png=report(
            "results/plots/pseudo.png",
            caption="../report/pseudo.rst",
            category="Comparison",
        ),
        svg="results/plots/pseudo.svg",
        pdf="results/plots/pseudo.pdf",
    log:
        "logs/plots/pseudo.log",
    conda:
        "../envs/learnability.yaml"
    params:
        title=f"Pseudo-disambiguation (Lee 1999)\ncorpus {DUMP}, config {REPORT_NAME}",
        baselines=RANDOM,
    script:
        "../scripts/plot_pseudo.py"
