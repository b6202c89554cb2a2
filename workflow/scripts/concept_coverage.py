from learnability.concepts import coverage
from learnability.io import read_tables, write_table
from learnability.logs import logged

with logged(snakemake.log[0]):
    resolved = read_tables(list(snakemake.input), "concept_words")
    write_table(coverage(resolved), snakemake.output.parquet, "coverage")
