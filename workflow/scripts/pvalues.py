from learnability.logs import logged
from learnability.schemas import read_tables, write_table
from learnability.statistics.significance import pvalues, random_rows

with logged(snakemake):
    p = snakemake.params
    summary = read_tables(list(snakemake.input.summaries), "summary")
    null = read_tables(list(snakemake.input.null), "null")
    iterations = (
        read_tables(list(snakemake.input.iterations), "iterations")
        if p.method in ("truncated", "auto")
        else None
    )
    write_table(
        pvalues(summary, null, p.match_sizes, p.adjust, p.method, iterations, p.alpha, p.power),
        snakemake.output.pvalues,
        "pvalues",
    )
    write_table(
        random_rows(null, list(p.sizes), p.method, p.list_iterations),
        snakemake.output.random_rows,
        "random_rows",
    )
