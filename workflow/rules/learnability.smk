rule learnability:
    input:
        vectors="results/embeddings/{embedding}/vectors.npy",
        vocab="results/embeddings/{embedding}/vocab.parquet",
        concept="results/concepts/{embedding}/{list}.parquet",
    output:
        iterations="results/learnability/{embedding}/{list}/iterations.parquet",
        summary="results/learnability/{embedding}/{list}/summary.parquet",
    log:
        "logs/learnability/{embedding}/{list}.log",
    benchmark:
        "benchmarks/out/learnability/{embedding}/{list}.tsv"
    conda:
        "../envs/learnability.yaml"
    params:
        iterations=config["learnability"]["iterations"],
        C=config["learnability"]["C"],
        seed=config["learnability"]["seed"],
        min_words=config["learnability"].get("min_words", 4),
        bootstrap=config["learnability"].get("bootstrap", 1000),
        confidence=config["learnability"].get("confidence", 0.95),
    script:
        "../scripts/learnability.py"
