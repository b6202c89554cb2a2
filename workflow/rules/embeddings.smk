include: "helpers/embeddings.smk"


rule train_embedding:
    input:
        training_corpus,
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
    retries: training_retries()
    conda:
        "../envs/learnability.yaml"
    threads: training_threads
    resources:
        **job_resources("train_embedding", training_sizes, scratch=True),
        # a resource, not a param: the counts, and so the vectors, do not depend on it
        count_mb=config["training"]["count_memory_mb"],
    params:
        hp=training_params,
        # its method's trainer: an edit to word2vec's retrains word2vec alone
        trainer=trainer_code,
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
    benchmark:
        "benchmarks/out/random_embedding/{embedding}.tsv"
    wildcard_constraints:
        embedding="|".join(map(re.escape, RANDOM)) if RANDOM else "(?!)",
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("random_embedding", random_sizes),
    params:
        hp=training_params,
    script:
        "../scripts/random_embedding.py"


# a download: on the submitting node, which has the internet many compute nodes lack
localrules:
    fetch_embedding,


rule fetch_embedding:
    output:
        "resources/embeddings/{embedding}/{filename}",
    log:
        "logs/fetch_embedding/{embedding}/{filename}.log",
    benchmark:
        "benchmarks/out/fetch_embedding/{embedding}/{filename}.tsv"
    wildcard_constraints:
        embedding="|".join(map(re.escape, DOWNLOADED)) if DOWNLOADED else "(?!)",
        filename=r"[^/]+",
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("fetch_embedding", unknown_download),
        download=1,
    params:
        source=lambda wildcards: config["embeddings"][wildcards.embedding]["url"],
        checksums=embedding_checksums,
        allow_unverified=lambda wildcards: config["embeddings"][
            wildcards.embedding
        ].get("allow_unverified", False),
        config_key=lambda wildcards: f"embeddings.{wildcards.embedding}",
    script:
        "../scripts/fetch_file.py"


rule import_embedding:
    input:
        source=pretrained_source,
        words=pretrained_words,
        lists=subword_list_sources,
    output:
        vectors="results/embeddings/{embedding}/vectors.npy",
        vocab="results/embeddings/{embedding}/vocab.parquet",
        meta="results/embeddings/{embedding}/meta.json",
    log:
        "logs/import_embedding/{embedding}.log",
    benchmark:
        "benchmarks/out/import_embedding/{embedding}.tsv"
    wildcard_constraints:
        embedding="|".join(map(re.escape, PRETRAINED)) if PRETRAINED else "(?!)",
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("import_embedding", import_sizes),
    params:
        hp=training_params,
        lists=subword_lists,
    script:
        "../scripts/import_embedding.py"


rule shared_vocabulary:
    input:
        expand("results/embeddings/{embedding}/vocab.parquet", embedding=COMPARED),
    output:
        "results/shared/vocabulary.parquet",
    log:
        "logs/shared_vocabulary.log",
    benchmark:
        "benchmarks/out/shared_vocabulary.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("shared_vocabulary", vocabulary_sizes),
    params:
        embeddings=COMPARED,
    script:
        "../scripts/shared_vocabulary.py"


rule restrict_embedding:
    input:
        vectors="results/embeddings/{embedding}/vectors.npy",
        vocab="results/embeddings/{embedding}/vocab.parquet",
        shared="results/shared/vocabulary.parquet",
    output:
        vectors="results/shared/{embedding}/vectors.npy",
        vocab="results/shared/{embedding}/vocab.parquet",
        meta="results/shared/{embedding}/meta.json",
    log:
        "logs/restrict_embedding/{embedding}.log",
    benchmark:
        "benchmarks/out/restrict_embedding/{embedding}.tsv"
    wildcard_constraints:
        embedding="|".join(map(re.escape, IN_SHARED)) if IN_SHARED else "(?!)",
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("restrict_embedding", embedding_sizes),
    script:
        "../scripts/restrict_embedding.py"
