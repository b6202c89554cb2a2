import numpy as np
import pandas as pd

from learnability.logs import logged
from learnability.reports.explorer import explorer_figure, panels_for, write_explorer
from learnability.schemas import read_tables

with logged(snakemake) as log:
    i, p = snakemake.input, snakemake.params
    members = read_tables(list(i.members), "members")
    suggestions = read_tables(list(i.suggestions), "suggestions")
    summary = read_tables(list(i.summaries), "summary")
    entanglement = (
        read_tables(list(i.entanglement), "entanglement") if len(i.entanglement) else None
    )
    pvalues = read_tables([i.pvalues], "pvalues")
    pvalues = pvalues[pvalues["negatives"] == p.negatives]
    bounds = read_tables(list(i.bounds), "bounds") if len(i.bounds) else None
    panels = []
    for name, vectors, vocab in zip(p.embeddings, i.vectors, i.vocab, strict=True):
        panels += panels_for(
            np.load(vectors, mmap_mode="r"), pd.read_parquet(vocab, columns=["word"])["word"],
            embedding=name, lists=p.lists, members=members, suggestions=suggestions,
            summary=summary, non_members=p.non_members, seed=p.seed, pvalues=pvalues,
            bounds=bounds,
        )  # fmt: skip
    title = f"{p.title} ({p.negatives} non-members)"
    write_explorer(explorer_figure(panels, entanglement, title), snakemake.output[0])
    log.info("%d panels (lists x embeddings) in %s", len(panels), snakemake.output[0])
