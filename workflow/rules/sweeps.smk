# Sweeps (config sweeps:, learnability.pipeline.sweeps): each grid point is an embedding named by
# its settings, trained by train_embedding (on a corpus prefix for corpus_fraction < 1),
# then scored for every list in one job on the sweep's shared vocabulary. No nulls: a
# sweep compares settings, paired over lists.


include: "helpers/sweeps.smk"


# the sweep jobs draw frequency bins only under frequency-matched negatives
SWEEP_BINS = N_BINS if "frequency_matched" in NEGATIVES else None
# a sweep's tables for people (sweep_summary also writes its Parquet tables, and for a
# sweep over training.seed alone the verdicts seed by seed and the seed SDs)
SWEEP_TABLES = dict(
    md="results/tables/sweeps/{sweep}.md",
    points_csv="results/tables/sweeps/{sweep}_points.csv",
    wilcoxon_csv="results/tables/sweeps/{sweep}_wilcoxon.csv",
    wilcoxon_tex="results/tables/sweeps/{sweep}_wilcoxon.tex",
)
# the summary's tables, by the name its script writes each under
SWEEP_SUMMARY = {
    name: f"results/sweeps/{{sweep}}/{file}.parquet"
    for name, file in (
        ("scores", "learnability"),
        ("points", "points"),
        ("effects", "effects"),
        ("wilcoxon", "wilcoxon"),
        ("seed_tests", "seed_tests"),
        ("seed_spread", "seed_spread"),
    )
}


rule corpus_prefix:
    input:
        "results/corpus/{corpus}/text.txt.gz",
    output:
        text="results/corpus/{corpus}/prefix-{percent}/text.txt.gz",
        stats="results/corpus/{corpus}/prefix-{percent}/stats.json",
    log:
        "logs/corpus_prefix/{corpus}/{percent}.log",
    benchmark:
        "benchmarks/out/corpus_prefix/{corpus}/{percent}.tsv"
    wildcard_constraints:
        percent=r"[0-9]+(\.[0-9]+)?",
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("corpus_prefix", join_sizes),
    params:
        fraction=lambda wildcards: float(wildcards.percent) / 100,
    script:
        "../scripts/corpus_prefix.py"


rule sweep_vocabulary:
    input:
        sweep_vocabularies,
    output:
        "results/sweeps/{sweep}/vocabulary.parquet",
    log:
        "logs/sweep_vocabulary/{sweep}.log",
    benchmark:
        "benchmarks/out/sweep_vocabulary/{sweep}.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("sweep_vocabulary", vocabulary_sizes),
    params:
        embeddings=sweep_vocabulary_names,
    script:
        "../scripts/shared_vocabulary.py"


rule sweep_concepts:
    input:
        sources=sorted({spec["path"] for spec in LISTS.values()}),
        vocab="results/sweeps/{sweep}/vocabulary.parquet",
    output:
        "results/sweeps/{sweep}/concepts.parquet",
    log:
        "logs/sweep_concepts/{sweep}.log",
    benchmark:
        "benchmarks/out/sweep_concepts/{sweep}.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("sweep_concepts", list_sizes),
    params:
        lists=LISTS,
        case=CASE,
    script:
        "../scripts/sweep_concepts.py"


rule sweep_scores:
    input:
        vectors=sweep_point_files("vectors.npy"),
        vocab=sweep_point_files("vocab.parquet"),
        shared="results/sweeps/{sweep}/vocabulary.parquet",
        concepts="results/sweeps/{sweep}/concepts.parquet",
    output:
        scores="results/sweeps/{sweep}/points/{point}.parquet",
        iterations="results/sweeps/{sweep}/points/{point}.iterations.parquet",
    log:
        "logs/sweep_scores/{sweep}/{point}.log",
    benchmark:
        "benchmarks/out/sweep_scores/{sweep}/{point}.tsv"
    conda:
        "../envs/learnability.yaml"
    threads: config["learnability"]["threads"]
    resources:
        **job_resources("sweep_scores", fitting_sizes("sweep_scores")),
    params:
        **protocol_params("learnability", SWEEP_BINS),
        iterations=config["learnability"]["iterations"],
        min_words=config["learnability"]["min_words"],
        bootstrap=config["learnability"]["bootstrap"],
        confidence=config["learnability"]["confidence"],
        negatives=NEGATIVES,
        lists=list(LISTS),
        point=sweep_point_param,
    script:
        "../scripts/sweep_scores.py"


rule sweep_summary:
    input:
        scores=sweep_outputs(".parquet"),
        iterations=sweep_outputs(".iterations.parquet"),
        concepts="results/sweeps/{sweep}/concepts.parquet",  # which lists nest
    output:
        **SWEEP_TABLES,
        **SWEEP_SUMMARY,
    log:
        "logs/sweep_summary/{sweep}.log",
    benchmark:
        "benchmarks/out/sweep_summary/{sweep}.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("sweep_summary"),
    params:
        methods=lambda wildcards: config["sweeps"][wildcards.sweep]["embeddings"],
        seeds=lambda wildcards: is_seed_sweep(config["sweeps"][wildcards.sweep]),
        alternative=config["compare"]["alternative"],
        units=config["compare"]["units"],
        bootstrap=config["learnability"]["bootstrap"],
        confidence=config["learnability"]["confidence"],
        seed=config["learnability"]["seed"],
        corpus=CORPUS,
    script:
        "../scripts/sweep_summary.py"


rule plot_sweep:
    input:
        "results/sweeps/{sweep}/effects.parquet",
    output:
        png=report(
            "results/plots/sweeps/{sweep}.png",
            caption="../report/sweep.rst",
            category="Sweeps",
            labels={"sweep": "{sweep}"},
        ),
        svg="results/plots/sweeps/{sweep}.svg",
        pdf="results/plots/sweeps/{sweep}.pdf",
    log:
        "logs/plots/sweeps/{sweep}.log",
    benchmark:
        "benchmarks/out/plot_sweep/{sweep}.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("plot_sweep"),
    params:
        title=lambda wildcards: (
            f"Sweep {wildcards.sweep}: mean ROC AUC against each setting "
            f"({config['learnability']['confidence']:.0%} bootstrap band)\n"
            f"corpus {CORPUS}, config {REPORT_NAME}"
        ),
    script:
        "../scripts/plot_sweep.py"
