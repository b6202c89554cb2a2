import numpy as np

from learnability.logs import logged
from learnability.pipeline.jobs import bins_for, job_protocol, write_unscored
from learnability.protocol.evaluate import null_distribution, unscored_reason
from learnability.protocol.sampling import parse_key
from learnability.schemas import write_table
from learnability.thread_limits import limit_threads

with logged(snakemake) as log, limit_threads(snakemake.threads):
    p, w = snakemake.params, snakemake.wildcards
    vectors = np.load(snakemake.input.vectors, mmap_mode="r")
    # a fixed size (random_lists.sizes) more than half a small corpus' vocabulary: no
    # random lists to draw, so the tables' random rows of that size stay empty
    unscored = unscored_reason(int(parse_key(w.key)[1].sum()), vectors.shape[0], min_words=1)
    if unscored is not None:
        log.warning("random lists %s are not drawn on %s: %s", w.key, w.embedding, unscored)
        write_unscored({"null": snakemake.output[0]})
    else:
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
