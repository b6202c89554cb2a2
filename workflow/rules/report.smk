from learnability.pipeline.rerun import environment_digest


include: "helpers/report.smk"


rule tables:
    input:
        **TABLE_STATS,
        summaries=scheme_summaries,
        members=scheme_members,
        codelength=analysis_files("codelength"),
        bounds=analysis_files("bounds"),
    output:
        **table_files("table6", "table6", "Comparison"),
        **table_files("learnability", "learnability_table", "Learnability"),
        **table_files("wilcoxon", "wilcoxon", "Comparison"),
        **table_files("members", "members", "Learnability", formats=("md", "csv")),
        headline="results/report/{negatives}/headline.rst",
    log:
        "logs/tables/{negatives}.log",
    benchmark:
        "benchmarks/out/tables/{negatives}.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("tables"),
    params:
        embeddings=EMBEDDINGS,
        lists=list(LISTS),
        table_size=config["report"]["table_size"],
        environment=environment_digest(ROOT / "workflow" / "scripts"),
    script:
        "../scripts/write_tables.py"


rule coverage_table:
    input:
        coverage="results/concepts/coverage.parquet",
        overlap="results/concepts/overlap.parquet",
    output:
        md="results/tables/coverage.md",
        overlap_csv="results/tables/overlap.csv",
        csv=report(
            "results/tables/coverage.csv",
            caption="../report/coverage.rst",
            category="Embeddings",
        ),
    log:
        "logs/coverage_table.log",
    benchmark:
        "benchmarks/out/coverage_table.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("coverage_table"),
    script:
        "../scripts/coverage_table.py"
