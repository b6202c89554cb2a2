# Input functions and resources of the rules in plots.smk, beside them (Snakemake's
# linter keeps functions out of files with rules).
def scheme_outputs(name):
    """Input function: one learnability output (``roc``, ``iterations``...) of every list
    and embedding, for the negatives scheme of the job."""

    def files(wildcards):
        return learnability_files(f"{name}.parquet", negatives=[wildcards.negatives])

    return files


def scheme_null_files(wildcards):
    """The null distributions of the job's negatives scheme (and embedding, if it has one)."""
    embeddings = (
        [wildcards.embedding] if "embedding" in wildcards.keys() else EMBEDDINGS
    )
    return [
        f"results/null/{embedding}/{wildcards.negatives}/{key}.parquet"
        for embedding in embeddings
        for key in null_keys(embedding, wildcards.negatives)
    ]
