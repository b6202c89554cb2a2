from learnability.logs import logged
from learnability.pipeline.jobs import bins_for, job_protocol, load_concept_job, write_unscored
from learnability.protocol.evaluate import learning_curve, unscored_reason
from learnability.schemas import write_table
from learnability.thread_limits import limit_threads

with logged(snakemake) as log, limit_threads(snakemake.threads):
    i, p, w = snakemake.input, snakemake.params, snakemake.wildcards
    vectors, members = load_concept_job(i.vectors, i.vocab, i.concept)
    protocol = job_protocol(p, w.negatives)
    unscored = unscored_reason(members.size, vectors.shape[0], protocol.min_words)
    if unscored is not None:  # its tables say why (coverage's not_scored)
        log.warning("list %s is not scored on %s: %s", w.list, w.embedding, unscored)
        write_unscored({"learning_curve": snakemake.output[0]})
    else:
        curve = learning_curve(
            vectors,
            members,
            protocol,
            list(p.fractions),
            bins=bins_for(i.vocab, p.n_bins),
            list_name=w.list,
            embedding=w.embedding,
        )
        write_table(curve, snakemake.output[0], "learning_curve")
