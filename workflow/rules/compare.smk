include: "helpers/compare.smk"


rule pvalues:
    input:
        summaries=summaries(EMBEDDINGS),
        # method: truncated tests each list's first random_lists.iterations splits
        iterations=learnability_files("iterations.parquet", EMBEDDINGS),
        null=null_files,
        vocabs=null_vocabs,
    output:
        pvalues="results/stats/pvalues.parquet",
        random_rows="results/stats/random_rows.parquet",
    log:
        "logs/pvalues.log",
    benchmark:
        "benchmarks/out/pvalues.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("pvalues"),
    params:
        match_sizes=config["random_lists"]["match_sizes"],
        sizes=config["random_lists"]["sizes"],
        adjust=config["random_lists"]["adjust"],
        method=config["random_lists"]["method"],
        list_iterations=config["learnability"]["iterations"],
        alpha=config["power"]["alpha"],
        power=config["power"]["power"],
    script:
        "../scripts/pvalues.py"


rule wilcoxon:
    input:
        summaries=summaries(config["compare"]["embeddings"]),
        overlap="results/concepts/overlap.parquet",
    output:
        "results/stats/wilcoxon.parquet",
    log:
        "logs/wilcoxon.log",
    benchmark:
        "benchmarks/out/wilcoxon.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("wilcoxon"),
    params:
        embeddings=config["compare"]["embeddings"],
        alternative=config["compare"]["alternative"],
        vocabulary=VOCABULARY,
        units=config["compare"]["units"],
    script:
        "../scripts/wilcoxon.py"


rule ranking:
    input:
        iterations=learnability_files("iterations.parquet", COMPARED),
    output:
        **ranking_outputs(),
    log:
        "logs/ranking.log",
    benchmark:
        "benchmarks/out/ranking.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("ranking"),
    params:
        embeddings=COMPARED,
        resamples=config["ranking"]["resamples"],
        confidence=config["ranking"]["confidence"],
        seed=config["learnability"]["seed"],
        title=RANKING_TITLE,
    script:
        "../scripts/ranking.py"
