from learnability.corpus import extract_corpus
from learnability.logs import logged

with logged(snakemake.log[0]) as log:
    log.info("extracting %s with %s", snakemake.input[0], dict(snakemake.params))
    stats = extract_corpus(
        [snakemake.input[0]],
        snakemake.output.text,
        snakemake.output.stats,
        out_counts=snakemake.output.counts,
        min_article_tokens=snakemake.params.min_article_tokens,
        max_line_tokens=snakemake.params.max_line_tokens,
    )
    log.info("part stats: %s", stats)
