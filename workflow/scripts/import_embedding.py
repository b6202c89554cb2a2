from learnability.embeddings.pretrained import import_embedding
from learnability.logs import logged

with logged(snakemake.log[0]) as log:
    hp = dict(snakemake.params.hp)
    log.info("importing %s from %s: %s", snakemake.wildcards.embedding, snakemake.input[0], hp)
    meta = import_embedding(
        snakemake.input[0],
        snakemake.output.vectors.rsplit("/", 1)[0],
        name=snakemake.wildcards.embedding,
        fmt=hp["format"],
        member=hp["member"],
        max_vocab=hp["max_vocab"],
        exclude_prefixes=tuple(hp["exclude_prefixes"]),
        frequency_ordered=hp["frequency_ordered"],
    )
    log.info(
        "%d words x %d (%s); %d excluded by prefix, %d all-zero vectors, counts: %s",
        meta["words"], meta["dim"], meta["format"], meta["n_excluded"],
        meta["n_zero_vectors"], meta["count_kind"],
    )  # fmt: skip
