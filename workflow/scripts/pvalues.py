from learnability.io import read_tables, write_table
from learnability.logs import logged
from learnability.stats import pvalues, random_rows

with logged(snakemake):
    summary = read_tables(list(snakemake.input.summaries), "summary")
    null = read_tables(list(snakemake.input.null), "null")
    write_table(
        pvalues(summary, null, snakemake.params.match_sizes, snakemake.params.adjust),
        snakemake.output.pvalues,
        "pvalues",
    )
    write_table(
        random_rows(null, list(snakemake.params.sizes)), snakemake.output.random_rows, "random_rows"
    )
