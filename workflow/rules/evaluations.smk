# Intrinsic evaluations beside learnability (docs/evaluations.md): one job per embedding
# and evaluation, on the embedding's own vocabulary, then one summary with the paired
# tests and rank correlations, a table and a figure.


rule evaluate_multi_answer:
    input:
        vectors="results/embeddings/{embedding}/vectors.npy",
        vocab="results/embeddings/{embedding}/vocab.parquet",
        files=evaluation_files("multi_answer"),
    output:
        "results/evaluations/{embedding}/multi_answer.parquet",
    log:
        "logs/evaluations/{embedding}/multi_answer.log",
    benchmark:
        "benchmarks/out/evaluations/{embedding}/multi_answer.tsv"
    conda:
        "../envs/learnability.yaml"
    params:
        datasets=evaluation_datasets("multi_answer"),
        k=EVALUATIONS["multi_answer"]["k"],
        case=CASE,
    script:
        "../scripts/evaluate_multi_answer.py"


rule evaluate_analogy:
    input:
        vectors="results/embeddings/{embedding}/vectors.npy",
        vocab="results/embeddings/{embedding}/vocab.parquet",
        files=evaluation_files("analogy"),
    output:
        "results/evaluations/{embedding}/analogy.parquet",
    log:
        "logs/evaluations/{embedding}/analogy.log",
    benchmark:
        "benchmarks/out/evaluations/{embedding}/analogy.tsv"
    conda:
        "../envs/learnability.yaml"
    params:
        datasets=evaluation_datasets("analogy"),
        restrict_vocab=EVALUATIONS["analogy"]["restrict_vocab"],
        eps=EVALUATIONS["analogy"]["cosmul_eps"],
        case=CASE,
    script:
        "../scripts/evaluate_analogy.py"


rule evaluate_word_pairs:
    input:
        vectors="results/embeddings/{embedding}/vectors.npy",
        vocab="results/embeddings/{embedding}/vocab.parquet",
        files=evaluation_files("word_pairs"),
    output:
        "results/evaluations/{embedding}/word_pairs.parquet",
    log:
        "logs/evaluations/{embedding}/word_pairs.log",
    conda:
        "../envs/learnability.yaml"
    params:
        datasets=evaluation_datasets("word_pairs"),
        restrict_vocab=EVALUATIONS["word_pairs"]["restrict_vocab"],
        case=CASE,
    script:
        "../scripts/evaluate_word_pairs.py"


rule evaluate_hierarchy:
    input:
        vectors="results/embeddings/{embedding}/vectors.npy",
        vocab="results/embeddings/{embedding}/vocab.parquet",
        files=evaluation_files("hierarchy"),
    output:
        edges="results/evaluations/{embedding}/hierarchy_edges.parquet",
        parents="results/evaluations/{embedding}/hierarchy_parents.parquet",
    log:
        "logs/evaluations/{embedding}/hierarchy.log",
    benchmark:
        "benchmarks/out/evaluations/{embedding}/hierarchy.tsv"
    conda:
        "../envs/learnability.yaml"
    params:
        datasets=evaluation_datasets("hierarchy"),
        case=CASE,
    script:
        "../scripts/evaluate_hierarchy.py"


rule evaluate_pseudo:
    input:
        corpus=f"results/corpus/{DUMP}/text.txt.gz",
        vectors="results/embeddings/{embedding}/vectors.npy",
        vocab="results/embeddings/{embedding}/vocab.parquet",
    output:
        "results/evaluations/{embedding}/pseudo.parquet",
    log:
        "logs/evaluations/{embedding}/pseudo.log",
    benchmark:
        "benchmarks/out/evaluations/{embedding}/pseudo.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        mem_mb=pseudo_mem_mb,
        runtime=pseudo_runtime,
    params:
        dataset=DUMP,
        settings=pseudo_settings(),
    script:
        "../scripts/evaluate_pseudo.py"


_TABLES = "results/tables"


rule evaluations_summary:
    input:
        unpack(evaluation_outputs),
        summaries=summaries(EMBEDDINGS),
    output:
        **table_files("evaluations", "evaluations", "Comparison", _TABLES, shown="md"),
        **table_files(
            "evaluation_tests",
            "evaluation_tests",
            "Comparison",
            _TABLES,
            ("md", "csv"),
            "md",
        ),
        **table_files("rank_correlation", "", "", _TABLES, ("md", "csv"), shown=None),
        **table_files(
            "multi_answer", "multi_answer", "Comparison", _TABLES, ("md",), "md"
        ),
        **table_files("analogy", "analogy", "Comparison", _TABLES, ("md",), "md"),
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
