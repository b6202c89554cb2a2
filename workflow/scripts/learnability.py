import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from learnability.concepts import member_indices
from learnability.evaluate import evaluate_concept, summarize
from learnability.io import write_table
from learnability.logs import logged

with logged(snakemake.log[0]) as log, threadpool_limits(snakemake.threads):
    vectors = np.load(snakemake.input.vectors, mmap_mode="r")
    vocab = pd.read_parquet(snakemake.input.vocab, columns=["word"])["word"]
    members = member_indices(pd.read_parquet(snakemake.input.concept), vocab)
    its = evaluate_concept(
        vectors,
        members,
        iterations=snakemake.params.iterations,
        C=snakemake.params.C,
        seed=snakemake.params.seed,
        list_name=snakemake.wildcards.list,
        embedding=snakemake.wildcards.embedding,
        min_words=snakemake.params.min_words,
    )
    write_table(its, snakemake.output.iterations, "iterations")
    summary = summarize(
        its,
        bootstrap=snakemake.params.bootstrap,
        level=snakemake.params.confidence,
        seed=snakemake.params.seed,
    )
    write_table(summary, snakemake.output.summary, "summary")
    log.info("\n%s", summary[["metric", "mean", "std", "ci_low", "ci_high"]].to_string(index=False))
