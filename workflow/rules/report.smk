rule tables:
    input:
        summaries=summaries(EMBEDDINGS),
        pvalues="results/stats/pvalues.parquet",
        random_rows="results/stats/random_rows.parquet",
        wilcoxon="results/stats/wilcoxon.parquet",
        coverage="results/concepts/coverage.parquet",
    output:
        table6_md="results/tables/table6.md",
        table6_csv="results/tables/table6.csv",
        learnability_md="results/tables/learnability.md",
        learnability_csv="results/tables/learnability.csv",
        wilcoxon_md="results/tables/wilcoxon.md",
        wilcoxon_csv="results/tables/wilcoxon.csv",
        coverage_md="results/tables/coverage.md",
        coverage_csv="results/tables/coverage.csv",
    log:
        "logs/tables.log",
    conda:
        "../envs/learnability.yaml"
    params:
        embeddings=EMBEDDINGS,
        lists=list(LISTS),
        table_size=config.get("report", {}).get("table_size", 400),
    script:
        "../scripts/tables.py"
