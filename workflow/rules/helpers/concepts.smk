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


def resolved_concepts(embedding):
    """Input functions only: list name -> (its resolution, the vocabulary it was resolved
    against) on ``embedding``, once the resolve_concept checkpoints have run."""
    out = {}
    for name in LISTS:
        path = checkpoints.resolve_concept.get(embedding=embedding, list=name).output[0]
        # read where the checkpoint's output lies: a module's prefix: moves both
        vocab = beside_output(
            path,
            f"results/concepts/{embedding}/{name}.parquet",
            f"{space(embedding)}/vocab.parquet",
        )
        if not os.path.exists(vocab):
            # The resolution exists but the vocabulary it was made from is gone (an
            # embedding deleted to retrain it): rebuild both before reading a key.
            raise IncompleteCheckpointException(
                checkpoints.resolve_concept.rule, checkpoint_target(path)
            )
        out[name] = (path, vocab)
    return out


MIN_WORDS = config["learnability"]["min_words"]
