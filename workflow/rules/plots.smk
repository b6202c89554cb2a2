# Figures for people, from the Parquet outputs alone (learnability.reports.plots). Each is a PNG
# at 200 dpi (shown in the report), an SVG with editable text and a PDF (for papers).


include: "helpers/plots.smk"


rule plot_roc:
    input:
        scheme_outputs("roc"),
    output:
        png=report(
            "results/plots/{negatives}/roc.png",
            caption="../report/roc.rst",
            category="Learnability",
            subcategory="{negatives} non-members",
        ),
        svg="results/plots/{negatives}/roc.svg",
        pdf="results/plots/{negatives}/roc.pdf",
    log:
        "logs/plots/{negatives}/roc.log",
    benchmark:
        "benchmarks/out/plot_roc/{negatives}.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("plot_roc"),
    params:
        figure="roc",
        lists=list(LISTS),
        embeddings=EMBEDDINGS,
        baselines=RANDOM,
        title=plot_title("Mean ROC curve per list (band: ±1 std over iterations)"),
    script:
        "../scripts/plot_figure.py"


rule plot_auc_distribution:
    input:
        iterations=scheme_outputs("iterations"),
        null=scheme_null_files,
        vocabs=null_vocabs,
    output:
        png=report(
            "results/plots/{negatives}/auc_distribution.png",
            caption="../report/auc_distribution.rst",
            category="Learnability",
            subcategory="{negatives} non-members",
        ),
        svg="results/plots/{negatives}/auc_distribution.svg",
        pdf="results/plots/{negatives}/auc_distribution.pdf",
    log:
        "logs/plots/{negatives}/auc_distribution.log",
    benchmark:
        "benchmarks/out/plot_auc_distribution/{negatives}.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("plot_auc_distribution"),
    params:
        figure="auc_distribution",
        lists=list(LISTS),
        embeddings=EMBEDDINGS,
        baselines=RANDOM,
        title=plot_title("ROC AUC per iteration, beside each list's null distribution"),
    script:
        "../scripts/plot_figure.py"


rule plot_null:
    input:
        null=scheme_null_files,
        vocabs=null_vocabs,
        pvalues="results/stats/pvalues.parquet",
    output:
        png=report(
            "results/plots/{negatives}/null_{embedding}.png",
            caption="../report/null.rst",
            category="Learnability",
            subcategory="{negatives} non-members",
            labels={"figure": "null distribution", "embedding": "{embedding}"},
        ),
        svg="results/plots/{negatives}/null_{embedding}.svg",
        pdf="results/plots/{negatives}/null_{embedding}.pdf",
    log:
        "logs/plots/{negatives}/null_{embedding}.log",
    benchmark:
        "benchmarks/out/plot_null/{negatives}/{embedding}.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("plot_null"),
    params:
        figure="null",
        title=plot_title("Null distributions of {embedding}: mean AUC of random lists"),
    script:
        "../scripts/plot_figure.py"


rule plot_heatmap:
    input:
        scheme_summaries,
    output:
        png=report(
            "results/plots/{negatives}/heatmap.png",
            caption="../report/heatmap.rst",
            category="Comparison",
            subcategory="{negatives} non-members",
        ),
        svg="results/plots/{negatives}/heatmap.svg",
        pdf="results/plots/{negatives}/heatmap.pdf",
    log:
        "logs/plots/{negatives}/heatmap.log",
    benchmark:
        "benchmarks/out/plot_heatmap/{negatives}.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("plot_heatmap"),
    params:
        figure="heatmap",
        lists=list(LISTS),
        embeddings=EMBEDDINGS,
        title=plot_title("Mean ROC AUC per list and embedding"),
    script:
        "../scripts/plot_figure.py"
