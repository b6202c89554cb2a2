from learnability.diagnostics.entanglement import entanglement
from learnability.logs import logged
from learnability.pipeline.jobs import bins_for, job_protocol, load_concepts_job
from learnability.protocol.threads import limit_threads
from learnability.schemas import write_table

with logged(snakemake) as log, limit_threads(snakemake.threads):
    i, p, w = snakemake.input, snakemake.params, snakemake.wildcards
    vectors, lists = load_concepts_job(
        i.vectors, i.vocab, dict(zip(p.lists, i.concepts, strict=True))
    )
    table = entanglement(
        vectors, lists, job_protocol(p, w.negatives, iterations=p.iterations),
        bins=bins_for(i.vocab, p.n_bins), embedding=w.embedding,
    )  # fmt: skip
    write_table(table, snakemake.output[0], "entanglement")
    off = table[table["list_a"] != table["list_b"]].nlargest(5, "share")
    log.info("\n%s", off[["list_a", "list_b", "auc_before", "auc_after", "share"]].to_string())
