from learnability.pipeline.config import null_iterations


rule null_distribution:
    input:
        **SPACE,
    output:
        "results/null/{embedding}/{negatives}/{key}.parquet",
    log:
        "logs/null_distribution/{embedding}/{negatives}/{key}.log",
    benchmark:
        "benchmarks/out/null_distribution/{embedding}/{negatives}/{key}.tsv"
    conda:
        "../envs/learnability.yaml"
    threads: config["learnability"]["threads"]
    resources:
        **job_resources("null_distribution", fitting_sizes("null_distribution")),
    params:
        **protocol_params("random_lists"),
        lists=config["random_lists"]["lists"],
        iterations=null_iterations(config),
    script:
        "../scripts/null_distribution.py"
