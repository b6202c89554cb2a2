import pandas as pd

from learnability.logs import logged
from learnability.reports import plots
from learnability.reports.analysis_tables import write_ranking
from learnability.schemas import read_tables, write_table
from learnability.statistics.ranking import rank_embeddings

with logged(snakemake) as log:
    i, p, out = snakemake.input, snakemake.params, snakemake.output
    iterations = read_tables(list(i.iterations), "iterations")
    table = pd.concat(
        [
            rank_embeddings(
                g, list(p.embeddings), resamples=p.resamples, level=p.confidence, seed=p.seed
            )  # fmt: skip
            for _, g in iterations.groupby("negatives", sort=False)
        ],
        ignore_index=True,
    )
    write_table(table, out.parquet, "ranking")
    write_ranking(table, out.md, out.csv, out.tex, "Compared embeddings ranked, with resolution")
    plots.save(plots.ranking_figure(table, p.title), out.png, out.svg, out.pdf)
    log.info("\n%s", table[["negatives", "rank", "embedding", "rank_low", "rank_high", "mean",
                            "p_adjusted", "separated"]].to_string(index=False))  # fmt: skip
