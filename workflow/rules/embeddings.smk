rule train_embedding:
    input:
        f"results/corpus/{DUMP}/text.txt.gz",
    output:
        vectors="results/embeddings/{embedding}/vectors.npy",
        vocab="results/embeddings/{embedding}/vocab.parquet",
        meta="results/embeddings/{embedding}/meta.json",
    wildcard_constraints:
        embedding="|".join(map(re.escape, TRAINED)) if TRAINED else "(?!)",
    params:
        hp=training_params,
    threads: lambda wildcards: training_threads(wildcards)
    resources:
        mem_mb=8000,
    log:
        "logs/train_embedding/{embedding}.log",
    benchmark:
        "benchmarks/out/train_embedding/{embedding}.tsv"
    script:
        "../scripts/train_embedding.py"


rule random_embedding:
    input:
        vocab=random_reference_vocab,
    output:
        vectors="results/embeddings/{embedding}/vectors.npy",
        vocab="results/embeddings/{embedding}/vocab.parquet",
        meta="results/embeddings/{embedding}/meta.json",
    wildcard_constraints:
        embedding="|".join(map(re.escape, RANDOM)) if RANDOM else "(?!)",
    params:
        hp=training_params,
    log:
        "logs/random_embedding/{embedding}.log",
    script:
        "../scripts/random_embedding.py"
