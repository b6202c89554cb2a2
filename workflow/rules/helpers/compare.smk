# Input functions and resources of the rules in compare.smk, beside them (Snakemake's
# linter keeps functions out of files with rules).
def null_files(wildcards):
    return [
        f"results/null/{embedding}/{negatives}/{key}.parquet"
        for embedding in EMBEDDINGS
        for negatives in NEGATIVES
        for key in null_keys(embedding, negatives)
    ]


RANKING_TITLE = (
    "Compared embeddings ranked (rank intervals over lists and splits)\n"
    f"config {REPORT_NAME}"
)


def ranking_outputs():
    """The ranking's Parquet, its tables and its figure; the CSV and the PNG go into the
    report."""
    shown = dict(caption="../report/ranking.rst", category="Comparison")
    return dict(
        parquet="results/stats/ranking.parquet",
        md="results/tables/ranking.md",
        csv=report("results/tables/ranking.csv", **shown),
        tex="results/tables/ranking.tex",
        png=report("results/plots/ranking.png", **shown),
        svg="results/plots/ranking.svg",
        pdf="results/plots/ranking.pdf",
    )
