rule tables:
    input:
        summaries=scheme_summaries,
        members=scheme_members,
        pvalues="results/stats/pvalues.parquet",
        random_rows="results/stats/random_rows.parquet",
        wilcoxon="results/stats/wilcoxon.parquet",
    output:
        table6_md="results/tables/{negatives}/table6.md",
        table6_csv="results/tables/{negatives}/table6.csv",
        learnability_md="results/tables/{negatives}/learnability.md",
        learnability_csv="results/tables/{negatives}/learnability.csv",
        wilcoxon_md="results/tables/{negatives}/wilcoxon.md",
        wilcoxon_csv="results/tables/{negatives}/wilcoxon.csv",
        members_md="results/tables/{negatives}/members.md",
        members_csv="results/tables/{negatives}/members.csv",
    log:
        "logs/tables/{negatives}.log",
    conda:
        "../envs/learnability.yaml"
    params:
        embeddings=EMBEDDINGS,
        lists=list(LISTS),
        table_size=config.get("report", {}).get("table_size", 400),
    script:
        "../scripts/write_tables.py"


rule coverage_table:
    input:
        "results/concepts/coverage.parquet",
    output:
        md="results/tables/coverage.md",
        csv="results/tables/coverage.csv",
    log:
        "logs/coverage_table.log",
    conda:
        "../envs/learnability.yaml"
    script:
        "../scripts/coverage_table.py"
