include: "helpers/concepts.smk"


checkpoint resolve_concept:
    input:
        source=list_source,
        vocab=space_vocab,
    output:
        "results/concepts/{embedding}/{list}.parquet",
    log:
        "logs/resolve_concept/{embedding}/{list}.log",
    benchmark:
        "benchmarks/out/resolve_concept/{embedding}/{list}.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("resolve_concept", list_sizes),
    params:
        category=list_category,
        format=lambda wildcards: LISTS[wildcards.list].get("format", "auto"),
        case=CASE,
    script:
        "../scripts/resolve_concept.py"


rule coverage:
    input:
        concepts=concept_files(),
        # compared embeddings are also resolved against their own vocabulary here
        own=expand(
            "results/embeddings/{embedding}/vocab.parquet", embedding=sorted(IN_SHARED)
        ),
        # the space each embedding is scored in: a list with too few words in it is
        # marked not scored (its size against learnability.min_words)
        spaces=[f"{space(e)}/vocab.parquet" for e in EMBEDDINGS],
    output:
        parquet="results/concepts/coverage.parquet",
        overlap="results/concepts/overlap.parquet",
    log:
        "logs/coverage.log",
    benchmark:
        "benchmarks/out/coverage.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("coverage", coverage_sizes),
    params:
        shared=sorted(IN_SHARED),
        lists=LISTS,
        max_share=config["wordlists"]["wildcard_max_share"],
        case=CASE,
        embeddings=EMBEDDINGS,
        min_words=MIN_WORDS,
    script:
        "../scripts/concept_coverage.py"
