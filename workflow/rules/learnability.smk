rule learnability:
    input:
        vectors=space_vectors,
        vocab=space_vocab,
        concept="results/concepts/{embedding}/{list}.parquet",
    output:
        iterations="results/learnability/{embedding}/{list}/{negatives}/iterations.parquet",
        summary="results/learnability/{embedding}/{list}/{negatives}/summary.parquet",
        roc="results/learnability/{embedding}/{list}/{negatives}/roc.parquet",
        members="results/learnability/{embedding}/{list}/{negatives}/members.parquet",
    log:
        "logs/learnability/{embedding}/{list}/{negatives}.log",
    benchmark:
        "benchmarks/out/learnability/{embedding}/{list}/{negatives}.tsv"
    conda:
        "../envs/learnability.yaml"
    threads: config["learnability"].get("threads", 1)
    resources:
        mem_mb=fitting_mem_mb,
        runtime=60,
    params:
        iterations=config["learnability"]["iterations"],
        C=config["learnability"]["C"],
        seed=config["learnability"]["seed"],
        min_words=config["learnability"].get("min_words", 4),
        bootstrap=config["learnability"].get("bootstrap", 1000),
        confidence=config["learnability"].get("confidence", 0.95),
        n_bins=frequency_bins_param,
        solver=config["learnability"].get("solver", "batched"),
        chunk_mb=config["learnability"].get("chunk_mb", 16),
        device=config["learnability"].get("device", "cpu"),
    script:
        "../scripts/learnability.py"


rule learning_curve:
    input:
        vectors=space_vectors,
        vocab=space_vocab,
        concept="results/concepts/{embedding}/{list}.parquet",
    output:
        "results/learnability/{embedding}/{list}/{negatives}/learning_curve.parquet",
    log:
        "logs/learning_curve/{embedding}/{list}/{negatives}.log",
    benchmark:
        "benchmarks/out/learning_curve/{embedding}/{list}/{negatives}.tsv"
    conda:
        "../envs/learnability.yaml"
    threads: config["learnability"].get("threads", 1)
    resources:
        mem_mb=fitting_mem_mb,
        runtime=60,
    params:
        fractions=LEARNING_CURVE,
        iterations=config["learnability"]["iterations"],
        C=config["learnability"]["C"],
        seed=config["learnability"]["seed"],
        min_words=config["learnability"].get("min_words", 4),
        n_bins=frequency_bins_param,
        solver=config["learnability"].get("solver", "batched"),
        chunk_mb=config["learnability"].get("chunk_mb", 16),
        device=config["learnability"].get("device", "cpu"),
    script:
        "../scripts/learning_curve.py"
