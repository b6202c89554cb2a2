from pathlib import Path

import pandas as pd

from learnability.embeddings.store import load_embedding
from learnability.evaluations.word_pairs import evaluate_word_pairs, read_word_pairs, spearman
from learnability.io import write_table
from learnability.logs import logged

with logged(snakemake) as log:
    i, p, w = snakemake.input, snakemake.params, snakemake.wildcards
    emb = load_embedding(Path(i.vectors).parent)
    frames = []
    for path, name in zip(i.files, p.datasets, strict=True):
        pairs, skipped = read_word_pairs(path)
        if skipped:
            log.warning("%s: %d malformed lines skipped", name, skipped)
        per = evaluate_word_pairs(
            emb.vectors,
            emb.words,
            pairs,
            restrict_vocab=p.restrict_vocab,
            case=p.case,
            dataset=name,
            embedding=w.embedding,
        )
        log.info("%s: %s", name, spearman(per))
        frames.append(per)
    write_table(pd.concat(frames, ignore_index=True), snakemake.output[0], "word_pairs")
