rule pvalues:
    input:
        summaries=summaries(EMBEDDINGS),
        null=null_files,
    output:
        pvalues="results/stats/pvalues.parquet",
        random_rows="results/stats/random_rows.parquet",
    params:
        match_sizes=config["random_lists"].get("match_sizes", True),
        sizes=config["random_lists"]["sizes"],
    log:
        "logs/pvalues.log",
    script:
        "../scripts/pvalues.py"


rule wilcoxon:
    input:
        summaries(config["compare"]["embeddings"]),
    output:
        "results/stats/wilcoxon.parquet",
    params:
        embeddings=config["compare"]["embeddings"],
        alternative=config["compare"].get("alternative", "greater"),
    log:
        "logs/wilcoxon.log",
    script:
        "../scripts/wilcoxon.py"
