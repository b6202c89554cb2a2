import pandas as pd

from learnability.concepts import load_entries, resolve
from learnability.io import write_table
from learnability.logs import logged

with logged(snakemake) as log:
    source = snakemake.input.source
    category = snakemake.params.category
    entries = load_entries(source, category, snakemake.params.format)
    vocab = pd.read_parquet(snakemake.input.vocab, columns=["word"])["word"].tolist()
    resolved = resolve(
        entries,
        vocab,
        list_name=snakemake.wildcards.list,
        embedding=snakemake.wildcards.embedding,
        source=source,
    )
    write_table(resolved, snakemake.output[0], "concept_words")
    log.info(
        "%s on %s: %s",
        snakemake.wildcards.list,
        snakemake.wildcards.embedding,
        resolved["status"].value_counts().to_dict(),
    )
