from pathlib import Path

import pandas as pd

from learnability.embeddings.store import load_embedding
from learnability.evaluations.analogy import evaluate_analogies, read_analogies, summarise_analogies
from learnability.io import write_table
from learnability.logs import logged

with logged(snakemake) as log:
    i, p, w = snakemake.input, snakemake.params, snakemake.wildcards
    emb = load_embedding(Path(i.vectors).parent)
    frames = []
    for path, name in zip(i.files, p.datasets, strict=True):
        questions, skipped = read_analogies(path)
        if skipped:
            log.warning("%s: %d malformed lines skipped (not 4 words)", name, skipped)
        per = evaluate_analogies(
            emb.vectors,
            emb.words,
            questions,
            restrict_vocab=p.restrict_vocab,
            eps=p.eps,
            case=p.case,
            dataset=name,
            embedding=w.embedding,
        )
        total = summarise_analogies(per).query("section == 'total'")
        log.info("%s:\n%s", name, total.to_string(index=False))
        frames.append(per)
    write_table(pd.concat(frames, ignore_index=True), snakemake.output[0], "analogy")
