from pathlib import Path

from learnability.embeddings import save_embedding, train
from learnability.embeddings.checkpoint import kept_mb
from learnability.io import check_scratch
from learnability.logs import logged

with logged(snakemake) as log:
    tmpdir = getattr(snakemake.resources, "tmpdir", None)
    hp = dict(snakemake.params.hp)
    method = hp.pop("method")
    if tmpdir:
        # before any work: a scratch disk too small fails in one line, not hours in; a
        # killed run's checkpoints, which a rerun resumes from, hold part of it already
        check_scratch(tmpdir, snakemake.resources.tmp_mb - kept_mb(tmpdir, method))
    log.info(
        "training %s (%s) with %d threads: %s",
        snakemake.wildcards.embedding,
        method,
        snakemake.threads,
        hp,
    )
    emb = train(
        method,
        snakemake.input[0],
        hp,
        snakemake.threads,
        count_memory_mb=snakemake.resources.count_mb,
        tmpdir=tmpdir,
    )
    emb.name = snakemake.wildcards.embedding
    emb.meta["threads"] = snakemake.threads
    save_embedding(emb, Path(snakemake.output.vectors).parent)
    log.info("%d words, %.1f s", len(emb), emb.meta.get("seconds", 0))
