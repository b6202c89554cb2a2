checkpoint resolve_concept:
    input:
        source=list_source,
        vocab="results/embeddings/{embedding}/vocab.parquet",
    output:
        "results/concepts/{embedding}/{list}.parquet",
    params:
        category=list_category,
    log:
        "logs/resolve_concept/{embedding}/{list}.log",
    script:
        "../scripts/resolve_concept.py"


rule coverage:
    input:
        concept_files(),
    output:
        parquet="results/concepts/coverage.parquet",
    log:
        "logs/coverage.log",
    script:
        "../scripts/coverage.py"
