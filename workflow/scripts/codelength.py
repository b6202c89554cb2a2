from learnability.classify import limit_threads
from learnability.codelength import codelength_rows
from learnability.io import write_table
from learnability.jobs import bins_for, job_protocol, load_concept_job
from learnability.logs import logged

with logged(snakemake) as log, limit_threads(snakemake.threads):
    i, p, w = snakemake.input, snakemake.params, snakemake.wildcards
    vectors, members = load_concept_job(i.vectors, i.vocab, i.concept)
    rows = codelength_rows(
        vectors,
        members,
        job_protocol(p, w.negatives, iterations=1),
        fractions=list(p.fractions),
        orders=p.orders,
        null_lists=p.null_lists,
        list_name=w.list,
        embedding=w.embedding,
        bins=bins_for(i.vocab, p.n_bins),
        min_words=p.min_words,
    )
    write_table(rows, snakemake.output[0], "codelength")
    log.info("\n%s", rows[["source", "bits_mean", "compression"]].to_string(index=False))
