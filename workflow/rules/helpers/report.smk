# Input functions and resources of the rules in report.smk, beside them (Snakemake's
# linter keeps functions out of files with rules).
def scheme_members(wildcards):
    return learnability_files("members.parquet", negatives=[wildcards.negatives])


# what the tables job reads beside the lists' summaries: the tests, and the coverage
# table, which says why a list has no numbers (too few of its words in the vocabulary)
TABLE_STATS = dict(
    pvalues="results/stats/pvalues.parquet",
    random_rows="results/stats/random_rows.parquet",
    wilcoxon="results/stats/wilcoxon.parquet",
    coverage="results/concepts/coverage.parquet",
)
