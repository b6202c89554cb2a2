from learnability.corpus.download import fetch, file_digest
from learnability.logs import logged

with logged(snakemake) as log:
    path = fetch(
        snakemake.params.source,
        snakemake.output[0],
        dict(snakemake.params.checksums),
        allow_unverified=snakemake.params.allow_unverified,
        config_key=getattr(snakemake.params, "config_key", "corpus.source"),
    )
    log.info("fetched %s -> %s", snakemake.params.source, path)
    if not snakemake.params.checksums:
        # unverified by request: print what to pin in the config for the next runs
        log.info("sha256 %s (copy it into the config to verify later runs)",
                 file_digest(path, "sha256"))  # fmt: skip
