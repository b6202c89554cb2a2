import pandas as pd

from learnability.diagnostics.suggestions import checkable, suggestion_check, unchecked
from learnability.logs import logged
from learnability.pipeline.jobs import baseline_bins, job_protocol, load_concept_job
from learnability.protocol.threads import limit_threads
from learnability.schemas import write_table

with logged(snakemake) as log, limit_threads(snakemake.threads):
    i, p, w = snakemake.input, snakemake.params, snakemake.wildcards
    protocol = job_protocol(p, w.negatives, iterations=p.check["iterations"])
    bins = baseline_bins(i.vocab, p.n_bins)
    tables = []
    for name, concept in zip(p.lists, i.concepts, strict=True):
        vectors, members = load_concept_job(i.vectors, i.vocab, concept)
        if checkable(members.size, p.check["holdout"], p.min_words) < p.min_words:
            log.warning("%s: not checked: too few members to hide a fold", name)
            tables.append(
                unchecked(list_name=name, embedding=w.embedding, negatives=w.negatives,
                          size=members.size, ks=p.check["k"], folds=p.check["folds"],
                          iterations=p.check["iterations"], min_words=p.min_words,
                          holdout=p.check["holdout"])
            )  # fmt: skip
            continue
        tables.append(
            suggestion_check(
                vectors, members, protocol, bins=bins, ks=p.check["k"],
                holdout=p.check["holdout"], folds=p.check["folds"], list_name=name,
                embedding=w.embedding,
            )
        )  # fmt: skip
        row = tables[-1].iloc[-1]
        log.info("%s: recall@%d %.3f (baseline %.3f)", name, row["k"], row["recall"],
                 row["baseline_recall"])  # fmt: skip
    write_table(pd.concat(tables, ignore_index=True), snakemake.output[0], "suggestion_check")
