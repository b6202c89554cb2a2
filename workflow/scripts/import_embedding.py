from learnability.embeddings.pretrained import import_embedding
from learnability.logs import logged
from learnability.pipeline.jobs import list_words

with logged(snakemake) as log:
    hp = dict(snakemake.params.hp)
    source = snakemake.input.source
    meta = import_embedding(
        source,
        snakemake.output.vectors.rsplit("/", 1)[0],
        name=snakemake.wildcards.embedding,
        fmt=hp["format"],
        member=hp["member"],
        max_vocab=hp["max_vocab"],
        exclude_prefixes=tuple(hp["exclude_prefixes"]),
        frequency_ordered=hp["frequency_ordered"],
        subword_oov=tuple(list_words(snakemake.params.lists)) if hp["subword_oov"] else (),
        allow_pickle=hp.get("allow_pickle", False),
        unicode_errors=hp.get("unicode_errors", "strict"),
        words=next(iter(snakemake.input.get("words", [])), None),
        words_column=hp.get("words_column"),
    )
    log.info(
        "%d words x %d (%s); %d excluded by prefix, %d all-zero vectors, %d added from "
        "n-grams, %d words not UTF-8 (unicode_errors: %s), counts: %s",
        meta["words"], meta["dim"], meta["format"], meta["n_excluded"],
        meta["n_zero_vectors"], meta["n_subword_oov"], meta["n_undecodable"],
        meta["unicode_errors"], meta["count_kind"],
    )  # fmt: skip
