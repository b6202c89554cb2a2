rule null_distribution:
    input:
        vectors=space_vectors,
        vocab=space_vocab,
    output:
        "results/null/{embedding}/{negatives}/{key}.parquet",
    log:
        "logs/null_distribution/{embedding}/{negatives}/{key}.log",
    benchmark:
        "benchmarks/out/null_distribution/{embedding}/{negatives}/{key}.tsv"
    conda:
        "../envs/learnability.yaml"
    threads: config["learnability"].get("threads", 1)
    resources:
        mem_mb=fitting_mem_mb,
        runtime=120,
    params:
        lists=config["random_lists"]["lists"],
        iterations=null_iterations(config),
        C=config["learnability"]["C"],
        seed=config["random_lists"]["seed"],
        solver=config["learnability"].get("solver", "batched"),
        chunk_mb=config["learnability"].get("chunk_mb", 16),
        device=config["learnability"].get("device", "cpu"),
        n_bins=lambda wildcards: (
            N_BINS
            if wildcards.negatives == "frequency_matched"
            or wildcards.key.startswith("profile-")
            else None
        ),
        # columns added to the null tables (auc_m3 for rescaled_skew) rerun these jobs
        table=fingerprint("null"),
    script:
        "../scripts/null_distribution.py"
