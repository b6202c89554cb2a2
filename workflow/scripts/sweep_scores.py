import pandas as pd

from learnability.logs import logged
from learnability.pipeline.jobs import bins_for, job_protocol
from learnability.pipeline.sweep_scoring import restricted_vectors, score_point
from learnability.pipeline.sweeps import Point
from learnability.schemas import write_table
from learnability.thread_limits import limit_threads

with logged(snakemake) as log, limit_threads(snakemake.threads):
    i, p = snakemake.input, snakemake.params
    point = Point(**p.point)
    words = pd.read_parquet(i.shared, columns=["word"])["word"]
    scores, iterations = score_point(
        restricted_vectors(i.vectors, i.vocab, words, point.name),
        words,
        pd.read_parquet(i.concepts),
        {scheme: job_protocol(p, scheme) for scheme in p.negatives},
        point=point,
        lists=list(p.lists),
        bins=bins_for(i.shared, p.n_bins),
        bootstrap=p.bootstrap,
        level=p.confidence,
        seed=p.seed,
    )
    write_table(scores, snakemake.output.scores, "sweep_scores")
    write_table(iterations, snakemake.output.iterations, "sweep_iterations")
    auc = scores[scores["metric"] == "auc"]
    log.info("%s (%s):\n%s", point.name, point.setting,
             auc[["list", "negatives", "size", "mean"]].to_string(index=False))  # fmt: skip
