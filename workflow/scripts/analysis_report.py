from learnability.analyses.registry import ANALYSES
from learnability.logs import logged
from learnability.reports.analysis_reports import WRITERS
from learnability.schemas import read_tables

# the report of an analysis of the registry (learnability.analyses.registry)
with logged(snakemake):
    p = snakemake.params
    analysis = ANALYSES[p.analysis]
    table = read_tables(list(snakemake.input), analysis.table)
    WRITERS[analysis.name](table, list(p.lists), list(p.embeddings), snakemake.output, p.title)
