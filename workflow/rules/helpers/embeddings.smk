# Input functions and resources of the rules in embeddings.smk, beside them (Snakemake's
# linter keeps functions out of files with rules).
from learnability.pipeline.rerun import target_params
from learnability.pipeline.config import local_file
from learnability.pipeline.params import embedding_params
from learnability.pipeline.corpus_draws import draw_folder
from learnability.pipeline.sweeps import prefix_percent

# pretrained embeddings given by URL are downloaded to resources/embeddings/{embedding}/
DOWNLOADED = {
    e: Path(config["embeddings"][e]["url"]).name
    for e in PRETRAINED
    if "url" in config["embeddings"][e]
}


def _method(wildcards):
    return registry.method(SPEC[wildcards.embedding]["method"])


def training_corpus(wildcards):
    """The corpus an embedding trains on: the whole one, a sweep point's first share of
    its tokens (rule corpus_prefix), or a draw of a compared corpus."""
    draw = SPEC[wildcards.embedding].get("draw")
    if draw:  # a corpus comparison's draw (rule draw_corpus)
        return f"{draw_folder(draw['corpus'], draw['seed'])}/text.txt.gz"
    fraction = SPEC[wildcards.embedding].get("corpus_fraction", 1.0)
    if fraction < 1.0:
        return f"results/corpus/{CORPUS}/{prefix_percent(fraction)}/text.txt.gz"
    return f"results/corpus/{CORPUS}/text.txt.gz"


# Sizes for the cost models (learnability.pipeline.resources; helpers/resources.smk).
def training_sizes(wildcards, input):
    # the configured threads, not the job's `threads`: a dry run caps those at its
    # --cores (1), which printed a runtime for one thread (12x too long at 16); a method
    # without epochs (transformer) reads the corpus once
    method = _method(wildcards)
    trainer = cost.trainer_cost(method.name)
    counting = method.counts_cooccurrence and config["training"]["count_memory_mb"]
    params = point_params(wildcards.embedding)
    return dict(
        method=method.name,
        # read by the methods with an analytic memory model (not every method has them)
        words=corpus_words(
            input[0], params["min_count"] if "min_count" in params else 1
        ),
        dim=params["dim"] if "dim" in params else 0,
        bucket=params.get("bucket", 0),
        corpus_mb=input_mb(input),
        epochs=point_params(wildcards.embedding).get("epochs", 1),
        threads=training_threads(wildcards),
        **trainer.sizes(),
        counting_mb=counting or 0,
        counts_cooccurrence=method.counts_cooccurrence,
        plain_copy=method.plain_copy,
    )


def corpus_words(corpus, min_count):
    """The corpus's words at ``min_count`` from its stats.json (written with it), at the
    largest threshold counted there that is not above it (an upper bound); Heaps' law
    from its size where there is no count (learnability.pipeline.resources)."""
    import json

    stats = Path(corpus).with_name("stats.json")
    counts = (
        json.loads(stats.read_text()).get("types_with_count_at_least", {})
        if stats.exists()
        else {}
    )
    below = [int(k) for k in counts if int(k) <= min_count]
    if below:
        return counts[str(max(below))]
    return cost.vocabulary_at(input_mb(corpus) * cost.TOKENS_PER_GZ_MB)


def random_sizes(wildcards, input):
    # the reference vocabulary's rows
    words = _vocabulary_words(input.vocab)
    return dict(words=words, dim=point_params(wildcards.embedding)["dim"])


def random_reference_vocab(wildcards):
    ref = config["embeddings"][wildcards.embedding]["reference"]
    return f"results/embeddings/{ref}/vocab.parquet"


def point_params(embedding):
    """embedding_params of a config embedding or a sweep point."""
    return embedding_params(config, embedding, SPEC[embedding])


def training_params(wildcards):
    # threads are left out: they come from the rule's threads: and changing them must
    # not retrain anything
    params = point_params(wildcards.embedding)
    params.pop("threads")
    return params


def trainer_code(wildcards):
    """The digest of the code of the embedding's trainer (learnability.codedigest: the
    script's own code digest leaves the trainers out, one job runs one of them), and with
    provenance.libraries: rerun, of its libraries' versions."""
    return target_params(_method(wildcards).trainer, config["provenance"]["libraries"])


def training_retries():
    # behind a partition's time limit (learnability.pipeline.partition), a training that
    # outlasts it resumes from its checkpoints in the next attempt, each attempt at least
    # an epoch (or GloVe's counting) further: the most epochs, and one retry besides, as
    # the profile's; with no limit known, the profile's retries
    with config_errors_in_one_line("Error in the plan"):
        if time_limit() is None:
            return None
    return max((point_params(e).get("epochs", 1) for e in TRAINED), default=1) + 1


def training_threads(wildcards):
    return int(point_params(wildcards.embedding)["threads"])


def pretrained_source(wildcards):
    spec = config["embeddings"][wildcards.embedding]
    if "path" in spec:
        return str(local_file(spec["path"], f"embeddings.{wildcards.embedding}.path"))
    return (
        f"resources/embeddings/{wildcards.embedding}/{DOWNLOADED[wildcards.embedding]}"
    )


def pretrained_words(wildcards):
    # format: npy keeps its words in a second file: an input, so editing it reimports
    spec = config["embeddings"][wildcards.embedding]
    if "words" in spec:
        return [
            str(local_file(spec["words"], f"embeddings.{wildcards.embedding}.words"))
        ]
    return []


def subword_list_sources(wildcards):
    # only a fastText .bin asked for n-gram vectors of the lists' words depends on them
    if embedding_params(config, wildcards.embedding).get("subword_oov"):
        return sorted({spec["path"] for spec in LISTS.values()})
    return []


def subword_lists(wildcards):
    if embedding_params(config, wildcards.embedding).get("subword_oov"):
        return LISTS
    return {}


def embedding_checksums(wildcards):
    spec = config["embeddings"][wildcards.embedding]
    return {h: spec[h] for h in ("sha256", "sha1", "md5") if spec.get(h)}


def import_sizes(wildcards, input):
    spec = embedding_params(config, wildcards.embedding)
    return dict(
        input_mb=input_mb(input.source), loads_whole=spec["format"] == "fasttext_bin"
    )
