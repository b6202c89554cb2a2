# Input functions and resources of the rules in corpus.smk, beside them (Snakemake's
# linter keeps functions out of files with rules).
from learnability.corpus.dumps import read_manifest
from learnability.corpus.sources import (
    SOURCES,
    corpus_plan,
    min_document_tokens,
    piece_files,
    piece_ranges,
    range_mb,
    source_options,
)
from learnability.pipeline.corpus_draws import corpus_blocks
from learnability.pipeline.rerun import target_params

with config_errors_in_one_line():
    # every corpus by name: corpus.source and the corpora of your own (corpora:)
    CORPORA = corpus_blocks(config)
    # a corpus of your own (format): its parts, each its files read in place; {} for a
    # MediaWiki dump
    OWN_PARTS = {
        name: corpus_plan(
            block, "corpus.source" if name == CORPUS else f"corpora.{name}"
        )
        for name, block in CORPORA.items()
    }


def dump_parts(wildcards):
    """The dump's part files, in page order (from the manifest checkpoint if multi-part);
    a corpus of your own: its parts' names."""
    if OWN_PARTS[wildcards.corpus]:
        return list(OWN_PARTS[wildcards.corpus])
    if not MULTIPART:
        return [DUMP_FILE]
    manifest = checkpoints.dump_manifest.get(corpus=wildcards.corpus).output[0]
    return [f.name for f in read_manifest(manifest)]


def dump_part_file(wildcards):
    if OWN_PARTS[wildcards.corpus]:
        return piece_files(OWN_PARTS[wildcards.corpus][wildcards.part])
    if MULTIPART:
        return f"resources/dumps/{wildcards.corpus}/parts/{wildcards.part}"
    return f"resources/dumps/{wildcards.corpus}/{DUMP_FILE}"


def extracted_parts(wildcards):
    pattern = "results/corpus/{corpus}/parts/{part}.{kind}"
    parts = dump_parts(wildcards)
    return {
        kind.split(".")[0]: expand(
            pattern, corpus=wildcards.corpus, part=parts, kind=kind
        )
        for kind in ("txt.gz", "counts.parquet", "stats.json")
    }


# the extraction's settings of the job's corpus (corpus.source, or one under corpora:)
def corpus_min_tokens(wildcards):
    return min_document_tokens(config, CORPORA[wildcards.corpus])


def corpus_format(wildcards):
    return CORPORA[wildcards.corpus]["format"]


def reader_code(wildcards):
    """The digest of the code of the corpus' reader (learnability.codedigest: the
    script's own code digest leaves the readers out, one job reads one format), and with
    provenance.libraries: rerun, of its libraries' versions."""
    reader = SOURCES[corpus_format(wildcards)].reader
    return target_params(reader, config["provenance"]["libraries"])


def corpus_options(wildcards):
    return source_options(CORPORA[wildcards.corpus])


def corpus_ranges(wildcards):
    return piece_ranges(OWN_PARTS[wildcards.corpus].get(wildcards.part, []))


def extract_sizes(wildcards, input):
    # a range of a large file (bytes, or row groups): its share, not the whole file
    ranges = corpus_ranges(wildcards)
    ranged = sum(range_mb(path, a, b) for path, (a, b) in ranges.items())
    return dict(part_mb=input_mb([f for f in input if f not in ranges]) + ranged)


def list_sources(wildcards=None):
    # every file a list is read from, each once
    return sorted({spec["path"] for spec in LISTS.values()})
