import pandas as pd

from learnability.concepts.lists import load_entries, resolve
from learnability.logs import logged
from learnability.schemas import write_table

with logged(snakemake) as log:
    source = snakemake.input.source
    category = snakemake.params.category
    entries = load_entries(source, category, snakemake.params.format)
    vocab = pd.read_parquet(snakemake.input.vocab, columns=["word", "count"])
    resolved = resolve(
        entries,
        vocab["word"].tolist(),
        case=snakemake.params.case,
        counts=vocab["count"].to_numpy(),
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
    collisions = resolved[resolved["variants"].fillna("") != ""]
    if len(collisions):
        log.info(
            "case (%s): %d words found through their lower-case form, %d as another case "
            "variant; %d with case variants in the vocabulary, e.g. %s",
            snakemake.params.case,
            int((resolved["match"] == "lower").sum()),
            int((resolved["match"] == "variant").sum()),
            len(collisions),
            ", ".join(f"{r.entry} ({r.variants})" for r in collisions.head(5).itertuples()),
        )
