from learnability.pipeline.config import null_iterations
from learnability.schemas import fingerprint


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
        # columns added to the null tables (auc_m3 for rescaled_skew) rerun these jobs
        lists=config["random_lists"]["lists"],
        iterations=null_iterations(config),
        table=fingerprint("null"),
    script:
        "../scripts/null_distribution.py"
