# Input functions and resources of the rules in report.smk, beside them (Snakemake's
# linter keeps functions out of files with rules).
def scheme_members(wildcards):
    return learnability_files("members.parquet", negatives=[wildcards.negatives])
