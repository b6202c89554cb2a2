from learnability.logs import logged
from learnability.schemas import read_tables, write_table
from learnability.statistics.comparison import compare_embeddings

with logged(snakemake) as log:
    summary = read_tables(list(snakemake.input.summaries), "summary")
    overlap = read_tables([snakemake.input.overlap], "overlap")
    result = compare_embeddings(
        summary,
        list(snakemake.params.embeddings),
        snakemake.params.alternative,
        vocabulary=snakemake.params.vocabulary,
        overlap=overlap,
        units=list(snakemake.params.units),
    )
    for rec in result[result["n_nested_pairs"] > 0].itertuples():
        log.warning(
            "%s vs %s (%s): %d pairs of the lists tested share more than half of the "
            "smaller list (largest overlap %.0f%%); the test treats them as independent: "
            "read the rows over disjoint units (leaves, clusters) beside it",
            rec.embedding_a, rec.embedding_b, rec.negatives, rec.n_nested_pairs,
            100 * rec.max_overlap,
        )  # fmt: skip
    write_table(result, snakemake.output[0], "wilcoxon")
