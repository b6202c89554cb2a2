import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from learnability.concepts import member_indices
from learnability.evaluate import Protocol, learning_curve
from learnability.io import write_table
from learnability.logs import logged
from learnability.workflow_config import bins_for

with logged(snakemake.log[0]), threadpool_limits(snakemake.threads):
    p, w = snakemake.params, snakemake.wildcards
    vectors = np.load(snakemake.input.vectors, mmap_mode="r")
    vocab = pd.read_parquet(snakemake.input.vocab, columns=["word"])["word"]
    members = member_indices(pd.read_parquet(snakemake.input.concept), vocab)
    protocol = Protocol(
        iterations=p.iterations,
        C=p.C,
        seed=p.seed,
        negatives=w.negatives,
        n_bins=p.n_bins or 10,
        solver=p.solver,
        chunk_bytes=int(p.chunk_mb * 2**20),
    )
    curve = learning_curve(
        vectors,
        members,
        protocol,
        list(p.fractions),
        bins=bins_for(snakemake.input.vocab, p.n_bins),
        list_name=w.list,
        embedding=w.embedding,
        min_words=p.min_words,
    )
    write_table(curve, snakemake.output[0], "learning_curve")
