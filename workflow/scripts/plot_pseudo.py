from learnability import plots
from learnability.io import read_tables
from learnability.logs import logged

with logged(snakemake) as log:
    out, p = snakemake.output, snakemake.params
    fig = plots.pseudo_figure(read_tables(list(snakemake.input), "pseudo"), p.title, p.baselines)
    plots.save(fig, out.png, out.svg, out.pdf)
    log.info("wrote %s, %s and %s", out.png, out.svg, out.pdf)
