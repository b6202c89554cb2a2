import numpy as np
import pandas as pd

from learnability.diagnostics.suggestions import suggestions
from learnability.logs import logged
from learnability.pipeline.jobs import load_concept_job
from learnability.schemas import write_table

with logged(snakemake) as log:
    i, p, w = snakemake.input, snakemake.params, snakemake.wildcards
    vocab = pd.read_parquet(i.vocab, columns=["word", "count"])
    tables = []
    for name, concept, coef in zip(p.lists, i.concepts, i.coef, strict=True):
        vectors, members = load_concept_job(i.vectors, i.vocab, concept)
        tables.append(
            suggestions(
                vectors, np.load(coef), members, top=p.top, words=vocab["word"],
                counts=vocab["count"].to_numpy(), list_name=name, embedding=w.embedding,
                negatives=w.negatives,
            )
        )  # fmt: skip
        log.info("%s: %s", name, ", ".join(tables[-1]["word"].head(10)))
    write_table(pd.concat(tables, ignore_index=True), snakemake.output[0], "suggestions")
