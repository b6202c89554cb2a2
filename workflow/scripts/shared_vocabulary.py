import pandas as pd

from learnability.embeddings.shared import shared_vocabulary
from learnability.logs import logged
from learnability.schemas import write_table

with logged(snakemake) as log:
    vocabs = {
        name: pd.read_parquet(path, columns=["word", "count"])
        for name, path in zip(snakemake.params.embeddings, snakemake.input, strict=True)
    }
    shared = shared_vocabulary(vocabs)
    write_table(shared, snakemake.output[0], "vocab")
    log.info(
        "%d shared words; own vocabularies: %s",
        len(shared),
        {name: len(v) for name, v in vocabs.items()},
    )
