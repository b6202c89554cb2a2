from learnability.logs import logged
from learnability.protocol.codelength import codelength_of_lists
from learnability.protocol.threads import limit_threads
from learnability.schemas import write_table
from learnability.workflow.jobs import bins_for, job_protocol

with logged(snakemake) as log, limit_threads(snakemake.threads):
    i, p, w = snakemake.input, snakemake.params, snakemake.wildcards
    rows = codelength_of_lists(
        i.vectors,
        i.vocab,
        dict(zip(p.lists, i.concepts, strict=True)),
        job_protocol(p, w.negatives, iterations=1),
        fractions=list(p.fractions),
        orders=p.orders,
        null_lists=p.null_lists,
        embedding=w.embedding,
        bins=bins_for(i.vocab, p.n_bins),
        min_words=p.min_words,
    )
    write_table(rows, snakemake.output[0], "codelength")
    log.info("\n%s", rows[["list", "source", "bits_mean", "compression"]].to_string(index=False))
