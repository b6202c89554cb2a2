# Intrinsic evaluations beside learnability (docs/explanation/evaluations.md): one job per embedding
# and evaluation, on the embedding's own vocabulary, then one summary with the paired
# tests and rank correlations, a table and a figure.


include: "helpers/evaluations.smk"


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
            **job_resources(f"evaluate_{kind}", evaluation_sizes(kind)),
        params:
            kind=kind,
            evaluation_code=evaluation_code(kind),
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
    benchmark:
        "benchmarks/out/evaluations_summary.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("evaluations_summary"),
    params:
        embeddings=COMPARED,
        evaluation_code=evaluations_code(),
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
    benchmark:
        "benchmarks/out/plot_pseudo.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("plot_pseudo"),
    params:
        title=f"Pseudo-disambiguation (Lee 1999)\ncorpus {CORPUS}, config {REPORT_NAME}",
        baselines=RANDOM,
    script:
        "../scripts/plot_pseudo.py"
