from learnability.download import fetch
from learnability.logs import logged

with logged(snakemake.log[0]) as log:
    path = fetch(
        snakemake.params.source,
        snakemake.output[0],
        dict(snakemake.params.checksums),
        allow_unverified=snakemake.params.allow_unverified,
    )
    log.info("fetched %s -> %s", snakemake.params.source, path)
