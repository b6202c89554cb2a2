from learnability.concepts.corpus_coverage import corpus_coverage
from learnability.concepts.lists import load_entries
from learnability.logs import logged
from learnability.reports.formats import write_table_files
from learnability.schemas import write_table

with logged(snakemake) as log:
    p, corpus = snakemake.params, snakemake.wildcards.corpus
    lists = {
        name: load_entries(spec["path"], spec.get("category"), spec.get("format", "auto"))
        for name, spec in p.lists.items()
    }
    table = corpus_coverage(
        list(snakemake.input.counts), lists,
        {name: spec["path"] for name, spec in p.lists.items()},
        corpus=corpus, min_count=p.min_count, min_words=p.min_words, case=p.case,
    )  # fmt: skip
    # one line a list, before any embedding is trained on the corpus
    for rec in table.itertuples():
        n = f"{rec.n_in_vocab} word{'' if rec.n_in_vocab == 1 else 's'}"
        what = f"list {rec.list}: {n} of its {rec.n_entries} entries in {corpus}"
        if rec.not_scored:
            log.warning("%s; it will not be scored: %s", what, rec.not_scored)
        else:
            log.info("%s (at least %d times each)", what, p.min_count)
    write_table(table, snakemake.output.parquet, "coverage")
    write_table_files(
        table.drop(columns=["embedding", "vocabulary"]),
        snakemake.output.md,
        title=f"Coverage of each list in the corpus {corpus} (words kept by the trainers: "
        f"at least {p.min_count} occurrences), before training",
    )
