import pandas as pd

from learnability.concepts.lists import load_entries, resolve
from learnability.logs import logged
from learnability.schemas import write_table

with logged(snakemake) as log:
    vocab = pd.read_parquet(snakemake.input.vocab, columns=["word", "count"])
    words, counts = vocab["word"].tolist(), vocab["count"].to_numpy()
    frames = []
    for name, spec in snakemake.params.lists.items():
        entries = load_entries(spec["path"], spec.get("category"), spec.get("format", "auto"))
        resolved = resolve(
            entries,
            words,
            case=snakemake.params.case,
            counts=counts,
            list_name=name,
            embedding=f"sweep {snakemake.wildcards.sweep}",
            source=spec["path"],
        )
        log.info("%s: %s", name, resolved["status"].value_counts().to_dict())
        frames.append(resolved)
    write_table(pd.concat(frames, ignore_index=True), snakemake.output[0], "concept_words")
