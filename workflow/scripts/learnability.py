import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from learnability.concepts import member_indices
from learnability.evaluate import Protocol, evaluate_concept_full, mean_roc, summarize
from learnability.io import write_table
from learnability.logs import logged
from learnability.workflow_config import bins_for

with logged(snakemake.log[0]) as log, threadpool_limits(snakemake.threads):
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
    result = evaluate_concept_full(
        vectors,
        members,
        protocol,
        bins=bins_for(snakemake.input.vocab, p.n_bins),
        list_name=w.list,
        embedding=w.embedding,
        min_words=p.min_words,
    )
    write_table(result.iterations, snakemake.output.iterations, "iterations")
    summary = summarize(result.iterations, bootstrap=p.bootstrap, level=p.confidence, seed=p.seed)
    write_table(summary, snakemake.output.summary, "summary")
    write_table(mean_roc(result), snakemake.output.roc, "roc")
    log.info("\n%s", summary[["metric", "mean", "std", "ci_low", "ci_high"]].to_string(index=False))
