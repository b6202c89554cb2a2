def _method(wildcards):
    return registry.method(SPEC[wildcards.embedding]["method"])


def training_corpus(wildcards):
    """The corpus an embedding trains on: the whole one, or a sweep point's first share
    of its tokens (rule corpus_prefix)."""
    fraction = SPEC[wildcards.embedding].get("corpus_fraction", 1.0)
    if fraction < 1.0:
        return f"results/corpus/{DUMP}/{prefix_percent(fraction)}/text.txt.gz"
    return f"results/corpus/{DUMP}/text.txt.gz"


# Resources from the cost models (learnability.pipeline.resources), given each job's sizes.
def training_runtime(wildcards, input):
    # the configured threads, not the job's `threads`: a dry run caps those at its
    # --cores (1), which printed a runtime for one thread (12x too long at 16); a method
    # without epochs (transformer) reads the corpus once
    epochs = point_params(wildcards.embedding).get("epochs", 1)
    threads = training_threads(wildcards)
    return cost.training_runtime(
        input.size_mb, epochs, threads, _method(wildcards).rate
    )


def training_mem_mb(wildcards, input):
    method = _method(wildcards)
    counting = method.counts_cooccurrence and config["training"]["count_memory_mb"]
    return cost.training_mem_mb(input.size_mb, method.mem_per_mb, counting or 0)


def training_disk_mb(wildcards, input):
    return cost.training_disk_mb(input.size_mb, _method(wildcards).counts_cooccurrence)


def random_disk_mb(wildcards, input):
    # the reference vocabulary's rows, or in a dry run before it exists, its size's
    try:
        import pyarrow.parquet as pq

        words = pq.read_metadata(input.vocab).num_rows
    except OSError:
        words = cost.vocabulary_words(input.size_mb)
    dim = point_params(wildcards.embedding)["dim"]
    return cost.random_disk_mb(words, dim, input.size_mb)


def random_reference_vocab(wildcards):
    ref = config["embeddings"][wildcards.embedding]["reference"]
    return f"results/embeddings/{ref}/vocab.parquet"


def point_params(embedding):
    """embedding_params of a config embedding or a sweep point."""
    return embedding_params(config, embedding, SPEC[embedding])


def training_params(wildcards):
    # threads are left out: they come from the rule's threads: and changing them must
    # not retrain anything
    params = point_params(wildcards.embedding)
    params.pop("threads")
    return params


def training_threads(wildcards):
    return int(point_params(wildcards.embedding)["threads"])


def pretrained_source(wildcards):
    spec = config["embeddings"][wildcards.embedding]
    if "path" in spec:
        return str(local_file(spec["path"], f"embeddings.{wildcards.embedding}.path"))
    return (
        f"resources/embeddings/{wildcards.embedding}/{DOWNLOADED[wildcards.embedding]}"
    )


def pretrained_words(wildcards):
    # format: npy keeps its words in a second file: an input, so editing it reimports
    spec = config["embeddings"][wildcards.embedding]
    if "words" in spec:
        return [
            str(local_file(spec["words"], f"embeddings.{wildcards.embedding}.words"))
        ]
    return []


def subword_list_sources(wildcards):
    # only a fastText .bin asked for n-gram vectors of the lists' words depends on them
    if embedding_params(config, wildcards.embedding).get("subword_oov"):
        return sorted({spec["path"] for spec in LISTS.values()})
    return []


def subword_lists(wildcards):
    if embedding_params(config, wildcards.embedding).get("subword_oov"):
        return LISTS
    return {}


def embedding_checksums(wildcards):
    spec = config["embeddings"][wildcards.embedding]
    return {h: spec[h] for h in ("sha256", "sha1", "md5") if spec.get(h)}


def import_mem_mb(wildcards, input):
    spec = embedding_params(config, wildcards.embedding)
    return cost.import_mem_mb(input.size_mb, spec["format"] == "fasttext_bin")


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
    conda:
        "../envs/learnability.yaml"
    threads: training_threads
    resources:
        mem_mb=training_mem_mb,
        runtime=training_runtime,
        # a resource, not a param: the counts, and so the vectors, do not depend on it
        count_mb=config["training"]["count_memory_mb"],
        disk_mb=training_disk_mb,
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
    benchmark:
        "benchmarks/out/random_embedding/{embedding}.tsv"
    wildcard_constraints:
        embedding="|".join(map(re.escape, RANDOM)) if RANDOM else "(?!)",
    conda:
        "../envs/learnability.yaml"
    resources:
        mem_mb=lambda w, input: cost.random_mem_mb(input.size_mb),
        disk_mb=random_disk_mb,
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
        runtime=240,
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
        mem_mb=import_mem_mb,
        runtime=lambda w, input: cost.import_runtime(input.size_mb),
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
    script:
        "../scripts/restrict_embedding.py"
