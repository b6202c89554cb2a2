checkpoint resolve_concept:
    input:
        source=list_source,
        vocab="results/embeddings/{embedding}/vocab.parquet",
    output:
        "results/concepts/{embedding}/{list}.parquet",
    log:
        "logs/resolve_concept/{embedding}/{list}.log",
    conda:
        "../envs/learnability.yaml"
    params:
        category=list_category,
    script:
        "../scripts/resolve_concept.py"


rule coverage:
    input:
        concept_files(),
    output:
        parquet="results/concepts/coverage.parquet",
    log:
        "logs/coverage.log",
    conda:
        "../envs/learnability.yaml"
    script:
        "../scripts/concept_coverage.py"
