from learnability.corpus.extract import join_corpus
from learnability.logs import logged

with logged(snakemake) as log:
    i = snakemake.input
    log.info("joining %d part(s) in page order", len(i.txt))
    stats = join_corpus(i.txt, i.counts, i.stats, snakemake.output.text, snakemake.output.stats)
    log.info("corpus stats: %s", stats)
