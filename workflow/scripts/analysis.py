from learnability.analyses.registry import ANALYSES
from learnability.logs import logged
from learnability.pipeline.jobs import lists_job
from learnability.schemas import write_table
from learnability.thread_limits import limit_threads

# a job runs one analysis of the registry and imports that one alone: the registry
# names them as dispatch targets, which its code digest (learnability.codedigest) does
# not follow, and its rule's analysis_code param is its own analysis'
# (workflow/rules/helpers/analyses.smk)
# every analysis of the registry (learnability.analyses.registry): its rule names it
with logged(snakemake) as log, limit_threads(snakemake.threads):
    analysis = ANALYSES[snakemake.params.analysis]
    lists = lists_job(analysis, snakemake.input, snakemake.params, snakemake.wildcards)
    table = analysis.run(lists, snakemake.params.settings)
    write_table(table, snakemake.output[0], analysis.table)
    log.info("%s", analysis.describe(table))
