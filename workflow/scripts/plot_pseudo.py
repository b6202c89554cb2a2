from learnability.logs import logged
from learnability.reports import plots
from learnability.schemas import read_tables

with logged(snakemake) as log:
    out, p = snakemake.output, snakemake.params
    fig = plots.pseudo_figure(read_tables(list(snakemake.input), "pseudo"), p.title, p.baselines)
    plots.save(fig, out.png, out.svg, out.pdf)
    log.info("wrote %s, %s and %s", out.png, out.svg, out.pdf)
