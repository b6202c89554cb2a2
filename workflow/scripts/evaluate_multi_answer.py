from pathlib import Path

import pandas as pd

from learnability.embeddings.store import load_embedding
from learnability.evaluations.multianswer import (
    evaluate_multi_answer,
    read_multi_answer,
    summarise_multi_answer,
)
from learnability.io import write_table
from learnability.logs import logged

with logged(snakemake) as log:
    i, p, w = snakemake.input, snakemake.params, snakemake.wildcards
    emb = load_embedding(Path(i.vectors).parent)
    frames = []
    for path, name in zip(i.files, p.datasets, strict=True):
        per = evaluate_multi_answer(
            emb.vectors,
            emb.words,
            read_multi_answer(path),
            k=p.k,
            case=p.case,
            dataset=name,
            embedding=w.embedding,
        )
        log.info("%s:\n%s", name, summarise_multi_answer(per).to_string(index=False))
        frames.append(per)
    write_table(pd.concat(frames, ignore_index=True), snakemake.output[0], "multi_answer")
