from learnability import plots
from learnability.io import read_tables
from learnability.logs import logged

with logged(snakemake) as log:
    out = snakemake.output
    fig = plots.pseudo_figure(read_tables(list(snakemake.input), "pseudo"), snakemake.params.title)
    plots.save(fig, out.png, out.svg)
    log.info("wrote %s and %s", out.png, out.svg)
