from learnability.io import read_tables
from learnability.logs import logged
from learnability.tables import write_table_files

with logged(snakemake):
    write_table_files(
        read_tables([snakemake.input[0]], "coverage"),
        snakemake.output.md,
        snakemake.output.csv,
        title="Coverage of each list in each embedding",
    )
