# Beyond the paper (learnability.diagnostics, learnability.statistics.ranking): what each
# list may be missing and its held-out check, how much of one list is another (LEACE),
# the compared embeddings ranked with resolution, and one page to click through.


rule suggestions:
    input:
        vectors=space_vectors,
        vocab=space_vocab,
        concepts=embedding_concepts,
        coef=scheme_coefficients,
    output:
        "results/diagnostics/{embedding}/{negatives}/suggestions.parquet",
    log:
        "logs/diagnostics/{embedding}/{negatives}/suggestions.log",
    conda:
        "../envs/learnability.yaml"
    params:
        lists=list(LISTS),
        top=config["suggestions"]["top"],
    script:
        "../scripts/suggestions.py"


rule suggestion_check:
    input:
        vectors=space_vectors,
        vocab=space_vocab,
        concepts=embedding_concepts,
    output:
        "results/diagnostics/{embedding}/{negatives}/suggestion_check.parquet",
    log:
        "logs/diagnostics/{embedding}/{negatives}/suggestion_check.log",
    benchmark:
        "benchmarks/out/suggestion_check/{embedding}/{negatives}.tsv"
    conda:
        "../envs/learnability.yaml"
    threads: config["learnability"]["threads"]
    resources:
        mem_mb=fitting_mem_mb,
        runtime=60,
    params:
        # the baseline is matched to frequency under either scheme
        **protocol_params("learnability", n_bins=N_BINS),
        lists=list(LISTS),
        check=config["suggestions"]["check"],
        min_words=config["learnability"]["min_words"],
    script:
        "../scripts/suggestion_check.py"


rule entanglement:
    input:
        vectors=space_vectors,
        vocab=space_vocab,
        concepts=embedding_concepts,
    output:
        "results/diagnostics/{embedding}/{negatives}/entanglement.parquet",
    log:
        "logs/diagnostics/{embedding}/{negatives}/entanglement.log",
    benchmark:
        "benchmarks/out/entanglement/{embedding}/{negatives}.tsv"
    conda:
        "../envs/learnability.yaml"
    threads: config["learnability"]["threads"]
    resources:
        mem_mb=fitting_mem_mb,
        runtime=60,
    params:
        **protocol_params("learnability"),
        lists=list(LISTS),
        iterations=config["entanglement"]["iterations"],
    script:
        "../scripts/entanglement.py"


rule ranking:
    input:
        iterations=learnability_outputs(COMPARED, "iterations"),
    output:
        parquet="results/stats/ranking.parquet",
        md="results/tables/ranking.md",
        csv=report(
            "results/tables/ranking.csv",
            caption="../report/ranking.rst",
            category="Comparison",
        ),
        tex="results/tables/ranking.tex",
        png=report(
            "results/plots/ranking.png",
            caption="../report/ranking.rst",
            category="Comparison",
        ),
        svg="results/plots/ranking.svg",
        pdf="results/plots/ranking.pdf",
    log:
        "logs/ranking.log",
    conda:
        "../envs/learnability.yaml"
    params:
        embeddings=COMPARED,
        resamples=config["ranking"]["resamples"],
        confidence=config["ranking"]["confidence"],
        seed=config["learnability"]["seed"],
        title=f"Compared embeddings ranked (rank intervals over lists and splits)\n"
        f"config {REPORT_NAME}",
    script:
        "../scripts/ranking.py"


rule suggestions_table:
    input:
        diagnostics_files("suggestions"),
    output:
        md="results/tables/{negatives}/suggestions.md",
    log:
        "logs/tables/{negatives}/suggestions.log",
    conda:
        "../envs/learnability.yaml"
    params:
        table="suggestions",
        lists=list(LISTS),
        embeddings=EMBEDDINGS,
    script:
        "../scripts/diagnostics_tables.py"


rule suggestion_check_table:
    input:
        diagnostics_files("suggestion_check"),
    output:
        md="results/tables/{negatives}/suggestion_check.md",
        csv=report(
            "results/tables/{negatives}/suggestion_check.csv",
            caption="../report/suggestion_check.rst",
            category="Suggestions",
            subcategory="{negatives} non-members",
        ),
        tex="results/tables/{negatives}/suggestion_check.tex",
    log:
        "logs/tables/{negatives}/suggestion_check.log",
    conda:
        "../envs/learnability.yaml"
    params:
        table="suggestion_check",
        lists=list(LISTS),
        embeddings=EMBEDDINGS,
    script:
        "../scripts/diagnostics_tables.py"


rule entanglement_table:
    input:
        diagnostics_files("entanglement"),
    output:
        md="results/tables/{negatives}/entanglement.md",
        csv="results/tables/{negatives}/entanglement.csv",
        png=report(
            "results/plots/{negatives}/entanglement.png",
            caption="../report/entanglement.rst",
            category="Entanglement",
            subcategory="{negatives} non-members",
        ),
        svg="results/plots/{negatives}/entanglement.svg",
        pdf="results/plots/{negatives}/entanglement.pdf",
    log:
        "logs/tables/{negatives}/entanglement.log",
    conda:
        "../envs/learnability.yaml"
    params:
        table="entanglement",
        lists=list(LISTS),
        embeddings=EMBEDDINGS,
        title=plot_title(
            "Entanglement: erasing list A (LEACE), list B's AUC above chance lost"
        ),
    script:
        "../scripts/diagnostics_tables.py"


rule explorer:
    input:
        unpack(explorer_inputs),
    output:
        # a page of its own (5 MB of it plotly.js), opened from the file, not the report
        "results/explorer.html",
    log:
        "logs/explorer.log",
    conda:
        "../envs/learnability.yaml"
    params:
        embeddings=EMBEDDINGS,
        lists=list(LISTS),
        negatives=EXPLORER_NEGATIVES,
        non_members=config["explorer"]["non_members"],
        seed=config["learnability"]["seed"],
        title=f"learnability explorer: config {REPORT_NAME}",
    script:
        "../scripts/explorer.py"
