from learnability.corpus.dumps import build_manifest
from learnability.logs import logged

with logged(snakemake) as log:
    p = snakemake.params
    files = build_manifest(
        p.status,
        p.base_url,
        snakemake.output[0],
        job=p.job,
        pattern=p.pattern,
        allow_unverified=p.allow_unverified,
        pinned=snakemake.input.pinned[0] if snakemake.input.pinned else None,
        allow_unpinned=p.allow_unpinned,
    )
    total = sum(f.size or 0 for f in files)
    log.info("%d parts, %.1f MB in all: %s", len(files), total / 1e6, [f.name for f in files])
