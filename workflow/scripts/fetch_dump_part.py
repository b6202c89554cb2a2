from learnability.corpus.download import fetch
from learnability.corpus.dumps import manifest_entry
from learnability.logs import logged

with logged(snakemake) as log:
    entry = manifest_entry(snakemake.input.manifest, snakemake.wildcards.part)
    log.info("fetching %s (%s bytes) verified by %s", entry.url, entry.size, entry.checksums)
    path = fetch(
        entry.url,
        snakemake.output[0],
        entry.checksums,
        allow_unverified=snakemake.params.allow_unverified,
    )
    log.info("fetched %s -> %s", entry.url, path)
