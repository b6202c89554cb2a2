import pandas as pd

from learnability.io import save_array
from learnability.logs import logged
from learnability.pipeline.jobs import bins_for, job_protocol, load_concept_job, write_unscored
from learnability.protocol.evaluate import mean_roc, score_list, summarize
from learnability.schemas import write_table
from learnability.thread_limits import limit_threads


def write(result):
    write_table(result.members, snakemake.output.members, "members")
    save_array(result.coef, snakemake.output.coef)
    write_table(result.iterations, snakemake.output.iterations, "iterations")
    summary = summarize(result.iterations, bootstrap=p.bootstrap, level=p.confidence, seed=p.seed)
    write_table(summary, snakemake.output.summary, "summary")
    write_table(mean_roc(result), snakemake.output.roc, "roc")
    log.info("\n%s", summary[["metric", "mean", "std", "ci_low", "ci_high"]].to_string(index=False))


with logged(snakemake) as log, limit_threads(snakemake.threads):
    i, p, w = snakemake.input, snakemake.params, snakemake.wildcards
    vectors, members = load_concept_job(i.vectors, i.vocab, i.concept)
    result = score_list(
        vectors,
        members,
        job_protocol(p, w.negatives),
        bins=bins_for(i.vocab, p.n_bins),
        list_name=w.list,
        embedding=w.embedding,
        vocabulary=pd.read_parquet(i.vocab, columns=["word"])["word"],
    )
    if result.unscored is None:
        write(result)
    else:  # a row that says why in the tables (coverage's not_scored), not a failed run
        log.warning("list %s is not scored on %s: %s", w.list, w.embedding, result.unscored)
        write_unscored(dict(snakemake.output.items()))
