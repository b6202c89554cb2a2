from learnability.io import read_tables, write_table
from learnability.logs import logged
from learnability.stats import compare_embeddings

with logged(snakemake):
    summary = read_tables(list(snakemake.input), "summary")
    result = compare_embeddings(
        summary,
        list(snakemake.params.embeddings),
        snakemake.params.alternative,
        vocabulary=snakemake.params.vocabulary,
    )
    write_table(result, snakemake.output[0], "wilcoxon")
