from learnability.logs import logged
from learnability.reports import plots
from learnability.schemas import read_tables

with logged(snakemake) as log:
    out = snakemake.output
    fig = plots.sweep_figure(
        read_tables([snakemake.input[0]], "sweep_effects"), snakemake.params.title
    )
    plots.save(fig, out.png, out.svg, out.pdf)
    log.info("wrote %s, %s and %s", out.png, out.svg, out.pdf)
