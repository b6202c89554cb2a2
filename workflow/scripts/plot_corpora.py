from learnability.logs import logged
from learnability.reports import plots
from learnability.schemas import read_tables

with logged(snakemake) as log:
    out = snakemake.output
    differences = read_tables([snakemake.input[0]], "corpus_differences")
    fig = plots.corpus_figure(differences, snakemake.params.title, snakemake.params.level)
    plots.save(fig, out.png, out.svg, out.pdf)
    log.info("wrote %s, %s and %s", out.png, out.svg, out.pdf)
