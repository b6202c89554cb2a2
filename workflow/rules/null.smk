rule null_distribution:
    input:
        vectors="results/embeddings/{embedding}/vectors.npy",
    output:
        "results/null/{embedding}/size-{size}.parquet",
    log:
        "logs/null_distribution/{embedding}/size-{size}.log",
    benchmark:
        "benchmarks/out/null_distribution/{embedding}/size-{size}.tsv"
    conda:
        "../envs/learnability.yaml"
    params:
        lists=config["random_lists"]["lists"],
        iterations=config["random_lists"]["iterations"],
        C=config["learnability"]["C"],
        seed=config["random_lists"]["seed"],
    script:
        "../scripts/null_distribution.py"
