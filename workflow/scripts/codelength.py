import pandas as pd

from learnability.logs import logged
from learnability.pipeline.jobs import bins_for, job_protocol, load_concepts_job
from learnability.protocol.codelength import codelength_rows
from learnability.protocol.threads import limit_threads
from learnability.schemas import write_table

with logged(snakemake) as log, limit_threads(snakemake.threads):
    i, p, w = snakemake.input, snakemake.params, snakemake.wildcards
    vectors, lists = load_concepts_job(
        i.vectors, i.vocab, dict(zip(p.lists, i.concepts, strict=True))
    )
    protocol = job_protocol(p, w.negatives, iterations=1)
    bins = bins_for(i.vocab, p.n_bins)
    rows = pd.concat(
        [
            codelength_rows(
                vectors, members, protocol, fractions=list(p.fractions), orders=p.orders,
                null_lists=p.null_lists, list_name=name, embedding=w.embedding, bins=bins,
                min_words=p.min_words,
            )
            for name, members in lists.items()
        ],
        ignore_index=True,
    )  # fmt: skip
    write_table(rows, snakemake.output[0], "codelength")
    log.info("\n%s", rows[["list", "source", "bits_mean", "compression"]].to_string(index=False))
