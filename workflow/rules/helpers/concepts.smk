# Input functions and resources of the rules in concepts.smk, beside them (Snakemake's
# linter keeps functions out of files with rules).
def list_source(wildcards):
    return LISTS[wildcards.list]["path"]


def list_category(wildcards):
    return LISTS[wildcards.list].get("category", "")


def concept_files():
    return expand(
        "results/concepts/{embedding}/{list}.parquet",
        embedding=EMBEDDINGS,
        list=list(LISTS),
    )
