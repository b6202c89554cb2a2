from learnability.corpus.documents import SourceOptions
from learnability.corpus.extract import extract_corpus
from learnability.logs import logged

with logged(snakemake) as log:
    stats = extract_corpus(
        list(snakemake.input),
        snakemake.output.text,
        snakemake.output.stats,
        out_counts=snakemake.output.counts,
        min_article_tokens=snakemake.params.min_article_tokens,
        progress_every=10.0,
        max_line_tokens=snakemake.params.max_line_tokens,
        source=snakemake.params.source,
        options=SourceOptions(**snakemake.params.options),
        ranges=snakemake.params.ranges,
    )
    log.info("part stats: %s", stats)
