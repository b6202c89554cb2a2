# learnability: how well do word embeddings capture human-defined concepts?
# Sutton & Cristianini (2020), as a reproducible workflow. See README.md.


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/corpus.smk"
include: "workflow/rules/embeddings.smk"
include: "workflow/rules/concepts.smk"
include: "workflow/rules/learnability.smk"
include: "workflow/rules/null.smk"
include: "workflow/rules/compare.smk"
include: "workflow/rules/evaluations.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/plots.smk"


# Seconds of work each: on a cluster they run on the submitting node instead of
# waiting in the queue.
localrules:
    all,
    shared_vocabulary,
    coverage,
    coverage_table,
    pvalues,
    wilcoxon,
    tables,
    evaluations_summary,


rule all:
    default_target: True
    input:
        get_final_outputs(),
