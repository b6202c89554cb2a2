from learnability.logs import logged
from learnability.reports import plots
from learnability.schemas import read_tables

with logged(snakemake) as log:
    i, p, out = snakemake.input, snakemake.params, snakemake.output
    figure = p.figure
    if figure == "roc":
        fig = plots.roc_figure(
            read_tables(list(i), "roc"), p.lists, p.embeddings, p.title, p.baselines
        )
    elif figure == "auc_distribution":
        fig = plots.auc_distribution_figure(
            read_tables(list(i.iterations), "iterations"),
            read_tables(list(i.null), "null"),
            p.lists,
            p.embeddings,
            p.title,
            p.baselines,
        )
    elif figure == "null":
        fig = plots.null_histogram_figure(
            read_tables(list(i.null), "null"),
            read_tables([i.pvalues], "pvalues").query(
                "negatives == @snakemake.wildcards.negatives"
            ),
            snakemake.wildcards.embedding,
            p.title,
        )
    elif figure == "heatmap":
        fig = plots.heatmap_figure(read_tables(list(i), "summary"), p.lists, p.embeddings, p.title)
    else:
        raise ValueError(f"unknown figure {figure!r}")
    plots.save(fig, out.png, out.svg, out.pdf)
    log.info("wrote %s, %s and %s", out.png, out.svg, out.pdf)
