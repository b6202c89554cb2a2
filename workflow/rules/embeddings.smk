rule train_embedding:
    input:
        f"results/corpus/{DUMP}/text.txt.gz",
    output:
        vectors="results/embeddings/{embedding}/vectors.npy",
        vocab="results/embeddings/{embedding}/vocab.parquet",
        meta="results/embeddings/{embedding}/meta.json",
    log:
        "logs/train_embedding/{embedding}.log",
    benchmark:
        "benchmarks/out/train_embedding/{embedding}.tsv"
    wildcard_constraints:
        embedding="|".join(map(re.escape, TRAINED)) if TRAINED else "(?!)",
    conda:
        "../envs/learnability.yaml"
    threads: lambda wildcards: training_threads(wildcards)
    resources:
        mem_mb=training_mem_mb,
        runtime=training_runtime,
        # a resource, not a param: the counts, and so the vectors, do not depend on it
        count_mb=config["training"].get("count_memory_mb", 1024),
    params:
        hp=training_params,
    script:
        "../scripts/train_embedding.py"


rule random_embedding:
    input:
        vocab=random_reference_vocab,
    output:
        vectors="results/embeddings/{embedding}/vectors.npy",
        vocab="results/embeddings/{embedding}/vocab.parquet",
        meta="results/embeddings/{embedding}/meta.json",
    log:
        "logs/random_embedding/{embedding}.log",
    wildcard_constraints:
        embedding="|".join(map(re.escape, RANDOM)) if RANDOM else "(?!)",
    conda:
        "../envs/learnability.yaml"
    params:
        hp=training_params,
    script:
        "../scripts/random_embedding.py"
