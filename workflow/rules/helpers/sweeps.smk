# Input functions and resources of the rules in sweeps.smk, beside them (Snakemake's
# linter keeps functions out of files with rules).
import dataclasses

from learnability.pipeline.sweeps import is_seed_sweep, vocabulary_sources


def sweep_vocabularies(wildcards):
    """The vocabularies a sweep's shared vocabulary is made of: one per vocabulary group
    (learnability.pipeline.sweeps.vocabulary_sources), so a grid point that leaves the vocabulary
    alone (dim, window) is not one of them and rescores nothing else."""
    sources = vocabulary_sources(SWEEPS[wildcards.sweep])
    return [f"results/embeddings/{e}/vocab.parquet" for e in sources]


def sweep_vocabulary_names(wildcards):
    return vocabulary_sources(SWEEPS[wildcards.sweep])


def sweep_point(wildcards):
    return POINTS[(wildcards.sweep, wildcards.point)]


def sweep_point_param(wildcards):
    # a plain dict: params are compared between runs, and pickled for remote jobs
    return dataclasses.asdict(sweep_point(wildcards))


def sweep_point_files(name):
    """Input function: a sweep point's trained files (those of its source: itself, or an
    embedding trained identically)."""

    def files(wildcards):
        return f"results/embeddings/{sweep_point(wildcards).source}/{name}"

    return files


def sweep_outputs(suffix):
    """Input function: one output of every point of the job's sweep."""

    def files(wildcards):
        return [
            f"results/sweeps/{wildcards.sweep}/points/{p.name}{suffix}"
            for p in SWEEPS[wildcards.sweep]
        ]

    return files
