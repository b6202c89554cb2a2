from learnability.io import atomic_path
from learnability.logs import logged
from learnability.reports.formats import write_table_files
from learnability.reports.tables import overlap_report
from learnability.schemas import read_tables

with logged(snakemake):
    overlap = read_tables([snakemake.input.overlap], "overlap")
    write_table_files(
        read_tables([snakemake.input.coverage], "coverage"),
        snakemake.output.md,
        snakemake.output.csv,
        title="Coverage of each list in each embedding",
        footer=overlap_report(overlap),
    )
    with atomic_path(snakemake.output.overlap_csv) as tmp:
        overlap.to_csv(tmp, index=False)
