import pandas as pd
import pyarrow.parquet as pq

from learnability.concepts.lists import coverage, list_overlap, load_entries, resolve
from learnability.concepts.matching import Matcher
from learnability.logs import logged
from learnability.pipeline.jobs import mark_unscored
from learnability.schemas import read_tables, write_table

with logged(snakemake) as log:
    resolved = read_tables(list(snakemake.input.concepts), "concept_words")
    shared = set(snakemake.params.shared)
    basis = {emb: "shared" if emb in shared else "own" for emb in set(resolved["embedding"])}
    parts = [
        coverage(g, basis[emb], snakemake.params.max_share)
        for emb, g in resolved.groupby("embedding", sort=True)
    ]
    overlap = pd.concat(
        [list_overlap(g, basis[emb]) for emb, g in resolved.groupby("embedding", sort=True)],
        ignore_index=True,
    )
    for rec in overlap[overlap["nested"]].drop_duplicates(["list_a", "list_b"]).itertuples():
        log.warning(
            "lists %s and %s share %d members, %.0f%% of the smaller one (on %s): their AUCs "
            "are not independent in the Wilcoxon tests",
            rec.list_a, rec.list_b, rec.n_shared, 100 * rec.overlap, rec.embedding,
        )  # fmt: skip
    write_table(overlap, snakemake.output.overlap, "overlap")
    # what the compared embeddings would have covered on their own vocabularies
    entries = {
        name: load_entries(spec["path"], spec.get("category"), spec.get("format", "auto"))
        for name, spec in snakemake.params.lists.items()
    } if shared else {}  # fmt: skip
    for emb, vocab_path in zip(sorted(shared), snakemake.input.own, strict=True):
        vocab = pd.read_parquet(vocab_path, columns=["word", "count"])
        matcher = Matcher(vocab["word"].tolist(), snakemake.params.case, vocab["count"].to_numpy())
        for name, spec in snakemake.params.lists.items():
            own = resolve(
                entries[name],
                matcher.words,
                list_name=name,
                embedding=emb,
                source=spec["path"],
                matcher=matcher,
            )
            parts.append(coverage(own, "own", snakemake.params.max_share))
    table = pd.concat(parts, ignore_index=True).sort_values(
        ["list", "embedding", "vocabulary"], kind="stable"
    )
    spaces = dict(zip(snakemake.params.embeddings, snakemake.input.spaces, strict=True))
    sizes = {emb: pq.ParquetFile(path).metadata.num_rows for emb, path in spaces.items()}
    table = mark_unscored(table, basis, sizes, snakemake.params.min_words)
    for rec in table[table["not_scored"].fillna("") != ""].itertuples():
        log.warning("list %s is not scored on %s: %s", rec.list, rec.embedding, rec.not_scored)
    write_table(table, snakemake.output.parquet, "coverage")
