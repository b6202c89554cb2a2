from pathlib import Path

import pandas as pd

from learnability.embeddings.store import load_embedding
from learnability.evaluations.hierarchy import evaluate_hierarchy, read_edges, summarise_hierarchy
from learnability.io import write_table
from learnability.logs import logged

with logged(snakemake) as log:
    i, p, w = snakemake.input, snakemake.params, snakemake.wildcards
    emb = load_embedding(Path(i.vectors).parent)
    edges, parents = [], []
    for path, name in zip(i.files, p.datasets, strict=True):
        per_edge, per_parent, counts = evaluate_hierarchy(
            emb.vectors,
            emb.words,
            read_edges(path),
            dataset=name,
            embedding=w.embedding,
            case=p.case,
        )
        log.info("%s: %s %s", name, counts, summarise_hierarchy(per_edge, per_parent))
        edges.append(per_edge)
        parents.append(per_parent)
    write_table(pd.concat(edges, ignore_index=True), snakemake.output.edges, "hierarchy_edges")
    write_table(
        pd.concat(parents, ignore_index=True), snakemake.output.parents, "hierarchy_parents"
    )
