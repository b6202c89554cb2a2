# Input functions and resources of the rules in corpora.smk, beside them (Snakemake's
# linter keeps functions out of files with rules).
from learnability.pipeline.corpus_draws import (
    CORPORA_SWEEP,
    compared_corpora,
    draw_folder,
)

COMPARED_CORPORA = compared_corpora(config)
# (corpus, seed) of every draw, in the comparison's order
DRAWS = [(c, s) for c in COMPARED_CORPORA for s in config["compare_corpora"]["seeds"]]
CORPUS_TABLES = dict(
    scores="results/corpora/learnability.parquet",
    differences="results/corpora/differences.parquet",
    wilcoxon="results/corpora/wilcoxon.parquet",
    md="results/tables/corpora.md",
    csv="results/tables/corpora.csv",
    tex="results/tables/corpora.tex",
    wilcoxon_csv="results/tables/corpora_wilcoxon.csv",
)

CORPORA_TITLE = (
    "Each list's mean ROC AUC in corpus A - in corpus B, over the draws of each "
    f"({', '.join(COMPARED_CORPORA)}); config {REPORT_NAME}"
)


def compared_stats(wildcards):
    return [f"results/corpus/{c}/stats.json" for c in COMPARED_CORPORA]


def draw_point_scores(wildcards):
    return [
        f"results/sweeps/{CORPORA_SWEEP}/points/{p.name}.parquet"
        for p in SWEEPS[CORPORA_SWEEP]
    ]


def draw_sizes(wildcards, input):
    """The corpus' tokens and lines (its stats.json) and its size on disk."""
    import json

    stats = Path(input.text).with_name("stats.json")
    if not stats.exists():  # not yet extracted: to be determined
        raise FileOrDirectoryNotFoundError(str(stats))
    counts = json.loads(stats.read_text())
    return dict(
        tokens=counts["tokens"], lines=counts["lines"], text_mb=input_mb(input.text)
    )
