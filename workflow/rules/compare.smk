rule pvalues:
    input:
        summaries=summaries(EMBEDDINGS),
        null=null_files,
    output:
        pvalues="results/stats/pvalues.parquet",
        random_rows="results/stats/random_rows.parquet",
    log:
        "logs/pvalues.log",
    conda:
        "../envs/learnability.yaml"
    params:
        match_sizes=config["random_lists"].get("match_sizes", True),
        sizes=config["random_lists"]["sizes"],
        adjust=config["random_lists"].get("adjust", "holm"),
    script:
        "../scripts/pvalues.py"


rule wilcoxon:
    input:
        summaries(config["compare"]["embeddings"]),
    output:
        "results/stats/wilcoxon.parquet",
    log:
        "logs/wilcoxon.log",
    conda:
        "../envs/learnability.yaml"
    params:
        embeddings=config["compare"]["embeddings"],
        alternative=config["compare"].get("alternative", "greater"),
        vocabulary=VOCABULARY,
    script:
        "../scripts/wilcoxon.py"
