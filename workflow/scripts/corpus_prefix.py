from learnability.corpus.extract import corpus_prefix
from learnability.logs import logged

with logged(snakemake) as log:
    stats = corpus_prefix(
        snakemake.input[0],
        snakemake.output.text,
        snakemake.output.stats,
        snakemake.params.fraction,
    )
    log.info("%s", stats)
