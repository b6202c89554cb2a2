from learnability.corpus import extract_corpus
from learnability.logs import logged

with logged(snakemake.log[0]) as log:
    stats = extract_corpus(
        list(snakemake.input),
        snakemake.output.text,
        snakemake.output.stats,
        min_article_tokens=snakemake.params.min_article_tokens,
        max_line_tokens=snakemake.params.max_line_tokens,
    )
    log.info("corpus stats: %s", stats)
