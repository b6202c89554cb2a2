import numpy as np

from learnability.logs import logged
from learnability.pipeline.jobs import bins_for, job_protocol
from learnability.protocol.evaluate import null_distribution
from learnability.protocol.threads import limit_threads
from learnability.schemas import write_table

with logged(snakemake) as log, limit_threads(snakemake.threads):
    p, w = snakemake.params, snakemake.wildcards
    vectors = np.load(snakemake.input.vectors, mmap_mode="r")
    null = null_distribution(
        vectors,
        key=w.key,
        lists=p.lists,
        embedding=w.embedding,
        protocol=job_protocol(p, w.negatives),
        bins=bins_for(snakemake.input.vocab, p.n_bins),
    )
    write_table(null, snakemake.output[0], "null")
    log.info("mean AUC %.4f, max %.4f", null["auc"].mean(), null["auc"].max())
