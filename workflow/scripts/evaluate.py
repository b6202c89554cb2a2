# One script for every evaluation kind: the kind's module does the work
# (learnability.evaluations.registry: each kind's `job`), this writes its tables.
from pathlib import Path

from learnability.embeddings.store import load_embedding
from learnability.evaluations.registry import KINDS
from learnability.logs import logged
from learnability.schemas import write_table

with logged(snakemake) as log:
    i, p, w = snakemake.input, snakemake.params, snakemake.wildcards
    # memory-mapped: each kind reads the rows it needs (benchmarks/evaluation_memory.py)
    emb = load_embedding(Path(i.vectors).parent, mmap=True)
    kind = KINDS[p.kind]
    tables = kind.load().job(
        emb,
        list(zip(i.files, p.datasets, strict=True)),
        dict(p.settings),
        embedding=w.embedding,
        log=log,
    )
    for name in kind.tables:
        write_table(tables[name], snakemake.output[name], name)
