rule tables:
    input:
        summaries=scheme_summaries,
        members=scheme_members,
        pvalues="results/stats/pvalues.parquet",
        random_rows="results/stats/random_rows.parquet",
        wilcoxon="results/stats/wilcoxon.parquet",
    output:
        table6_md="results/tables/{negatives}/table6.md",
        table6_csv=report(
            "results/tables/{negatives}/table6.csv",
            caption="../report/table6.rst",
            category="Comparison",
            subcategory="{negatives} non-members",
        ),
        table6_tex="results/tables/{negatives}/table6.tex",
        learnability_md="results/tables/{negatives}/learnability.md",
        learnability_csv=report(
            "results/tables/{negatives}/learnability.csv",
            caption="../report/learnability_table.rst",
            category="Learnability",
            subcategory="{negatives} non-members",
        ),
        learnability_tex="results/tables/{negatives}/learnability.tex",
        wilcoxon_md="results/tables/{negatives}/wilcoxon.md",
        wilcoxon_csv=report(
            "results/tables/{negatives}/wilcoxon.csv",
            caption="../report/wilcoxon.rst",
            category="Comparison",
            subcategory="{negatives} non-members",
        ),
        wilcoxon_tex="results/tables/{negatives}/wilcoxon.tex",
        members_md="results/tables/{negatives}/members.md",
        members_csv=report(
            "results/tables/{negatives}/members.csv",
            caption="../report/members.rst",
            category="Learnability",
            subcategory="{negatives} non-members",
        ),
    log:
        "logs/tables/{negatives}.log",
    conda:
        "../envs/learnability.yaml"
    params:
        embeddings=EMBEDDINGS,
        lists=list(LISTS),
        table_size=config["report"]["table_size"],
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
    conda:
        "../envs/learnability.yaml"
    script:
        "../scripts/coverage_table.py"
