import numpy as np
from threadpoolctl import threadpool_limits

from learnability.evaluate import null_distribution
from learnability.io import write_table
from learnability.logs import logged

with logged(snakemake.log[0]) as log, threadpool_limits(snakemake.threads):
    vectors = np.load(snakemake.input.vectors, mmap_mode="r")
    null = null_distribution(
        vectors,
        size=int(snakemake.wildcards.size),
        lists=snakemake.params.lists,
        iterations=snakemake.params.iterations,
        C=snakemake.params.C,
        seed=snakemake.params.seed,
        embedding=snakemake.wildcards.embedding,
    )
    write_table(null, snakemake.output[0], "null")
    log.info("mean AUC %.4f, max %.4f", null["auc"].mean(), null["auc"].max())
