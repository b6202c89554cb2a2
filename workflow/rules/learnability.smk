rule learnability:
    input:
        **SPACE,
        concept="results/concepts/{embedding}/{list}.parquet",
    output:
        iterations=f"{LEARNED}/iterations.parquet",
        summary=f"{LEARNED}/summary.parquet",
        roc=f"{LEARNED}/roc.parquet",
        members=f"{LEARNED}/members.parquet",
        coef=f"{LEARNED}/coefficients.npy",
    log:
        "logs/learnability/{embedding}/{list}/{negatives}.log",
    benchmark:
        "benchmarks/out/learnability/{embedding}/{list}/{negatives}.tsv"
    conda:
        "../envs/learnability.yaml"
    threads: config["learnability"]["threads"]
    resources:
        **job_resources("learnability", fitting_sizes("learnability")),
    params:
        **protocol_params("learnability"),
        iterations=config["learnability"]["iterations"],
        min_words=config["learnability"]["min_words"],
        bootstrap=config["learnability"]["bootstrap"],
        confidence=config["learnability"]["confidence"],
    script:
        "../scripts/learnability.py"


rule learning_curve:
    input:
        **SPACE,
        concept="results/concepts/{embedding}/{list}.parquet",
    output:
        f"{LEARNED}/learning_curve.parquet",
    log:
        "logs/learning_curve/{embedding}/{list}/{negatives}.log",
    benchmark:
        "benchmarks/out/learning_curve/{embedding}/{list}/{negatives}.tsv"
    conda:
        "../envs/learnability.yaml"
    threads: config["learnability"]["threads"]
    resources:
        **job_resources("learning_curve", fitting_sizes("learning_curve")),
    params:
        **protocol_params("learnability"),
        fractions=LEARNING_CURVE,
        iterations=config["learnability"]["iterations"],
        min_words=config["learnability"]["min_words"],
    script:
        "../scripts/learning_curve.py"
