"""What the workflow's jobs call while they run (the scripts under workflow/scripts):
reading a job's vectors and list, its frequency bins, its Protocol from the rule's
params, the words whose subword vectors an import needs. What Snakemake needs while it
builds the DAG (config checks, input functions' helpers) is
:mod:`learnability.pipeline.config`; this module imports nothing from it."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd


def list_words(lists: dict[str, dict]) -> list[str]:
    """Every plain word of the lists (normalised; no wildcards or phrases), sorted: the
    words a fastText .bin gives n-gram vectors with ``subword_oov``."""

    from learnability.concepts.lists import load_entries
    from learnability.corpus.tokenize import normalize

    words = set()
    for spec in lists.values():
        for entry in load_entries(spec["path"], spec.get("category"), spec.get("format", "auto")):
            text = normalize(entry.text.strip())
            if text and not text.endswith("*") and not re.search(r"\s", text):
                words.add(text)
    return sorted(words)


def vocab_bins(vocab_path: str, n_bins: int):
    """Frequency bins of a vocabulary file, cached on (path, mtime) within one process."""

    import pandas as pd

    from learnability.protocol.sampling import frequency_bins

    key = (vocab_path, os.stat(vocab_path).st_mtime_ns, n_bins)
    if key not in _BINS_CACHE:
        vocab = pd.read_parquet(vocab_path, columns=["word", "count"])
        _BINS_CACHE[key] = (vocab["word"], frequency_bins(vocab["count"].to_numpy(), n_bins))
    return _BINS_CACHE[key]


_BINS_CACHE: dict = {}


def vocab_index(vocab_path: str) -> pd.Index:
    """The words of a vocabulary file as a ``pd.Index`` (row -> word, hashed once), cached
    on (path, mtime) within one process: the workflow's head process looks up every
    resolved list in it, about 100 times per DAG evaluation (a second each at 2.5 M
    words if it were rebuilt every time)."""

    import pandas as pd

    key = (vocab_path, os.stat(vocab_path).st_mtime_ns)
    if key not in _INDEX_CACHE:
        words = pd.read_parquet(vocab_path, columns=["word"])["word"]
        _INDEX_CACHE[key] = pd.Index(words.astype(str).to_numpy(dtype=object))
    return _INDEX_CACHE[key]


_INDEX_CACHE: dict = {}


def bins_for(vocab_path: str, n_bins: int | None):
    """Frequency bins for a job whose params ask for them (``n_bins`` set), else None."""
    if n_bins is None:
        return None
    return vocab_bins(vocab_path, int(n_bins))[1]


def load_concept_job(vectors_path: str, vocab_path: str, concept_path: str):
    """What a per-(list, embedding) job reads: the vectors (memory-mapped) and the rows of
    the concept's words in them."""
    import numpy as np
    import pandas as pd

    from learnability.concepts.lists import member_indices

    vectors = np.load(vectors_path, mmap_mode="r")
    vocab = pd.read_parquet(vocab_path, columns=["word"])["word"]
    return vectors, member_indices(pd.read_parquet(concept_path), vocab)


def load_concepts_job(vectors_path: str, vocab_path: str, concepts: dict[str, str]):
    """What a per-embedding job over several lists reads: the vectors (memory-mapped)
    and, for each list name, the rows of its concept's words (``concepts``: name -> its
    ``concept_words`` file), the vocabulary read once."""
    import numpy as np
    import pandas as pd

    from learnability.concepts.lists import member_indices

    vectors = np.load(vectors_path, mmap_mode="r")
    vocab = pd.read_parquet(vocab_path, columns=["word"])["word"]
    return vectors, {
        name: member_indices(pd.read_parquet(path), vocab) for name, path in concepts.items()
    }


def lists_job(analysis, input, params, wildcards):
    """The :class:`~learnability.analyses.registry.Lists` of an analysis job (the rule
    that ``workflow/rules/analyses.smk`` makes from the registry): the vectors, every
    list's members, the protocol, the scheme's bins and what the analysis asks for."""
    import numpy as np
    import pandas as pd

    from learnability.analyses.base import Lists, NullSpec
    from learnability.protocol.sampling import baseline_bins
    from learnability.protocol.sizes import unscored_reason

    vectors, members = load_concepts_job(
        input.vectors, input.vocab, dict(zip(params.lists, input.concepts, strict=True))
    )
    vocab = pd.read_parquet(input.vocab, columns=["word", "count"])
    counts = vocab["count"].to_numpy()
    # the lists the embedding cannot score (their learnability jobs wrote empty outputs)
    # are left out here, as score() leaves them out of its analyses
    members = {
        name: rows for name, rows in members.items()
        if unscored_reason(rows.size, len(vocab), params.min_words) is None
    }  # fmt: skip
    coefficients = None
    if analysis.coefficients:
        files = dict(zip(params.lists, input.coef, strict=True))
        coefficients = {name: np.load(files[name]) for name in members}
    return Lists(
        vectors=vectors, members=members, embedding=wildcards.embedding,
        negatives=wildcards.negatives, words=vocab["word"], counts=counts,
        protocol=job_protocol(params, wildcards.negatives, iterations=1) if analysis.fits else None,
        bins=bins_for(input.vocab, params.n_bins) if analysis.fits else None,
        baseline_bins=baseline_bins(counts, params.baseline_n_bins)
        if analysis.baseline_bins else None,
        coefficients=coefficients,
        nulls=NullSpec(params.null_lists, params.null_iterations, params.null_seed,
                       params.pvalue_method, params.list_iterations)
        if analysis.nulls else None,
    )  # fmt: skip


def job_protocol(params, negatives: str, *, iterations: int | None = None):
    """The :class:`~learnability.protocol.evaluate.Protocol` of a job from its rule's params
    (common.smk's ``protocol_params``): the learnability, learning-curve and null jobs
    all build theirs here. ``n_bins`` is None for jobs that draw no frequency bins, which
    keep the Protocol's own default; ``min_words`` is a param of the jobs that score a
    list and decide whether it can be (the null lists' jobs have none: their sizes are
    given)."""
    from learnability.protocol.evaluate import Protocol

    given = {} if params.n_bins is None else {"n_bins": params.n_bins}
    if getattr(params, "min_words", None) is not None:
        given["min_words"] = params.min_words
    return Protocol(
        iterations=iterations if iterations is not None else params.iterations,
        C=params.C,
        seed=params.seed,
        negatives=negatives,
        solver=params.solver,
        chunk_bytes=int(params.chunk_mb * 2**20),
        device=params.device,
        **given,
    )


def mark_unscored(
    table: pd.DataFrame, scored_in: dict[str, str], vocab_sizes: dict[str, int], min_words: int
) -> pd.DataFrame:
    """The coverage ``table`` with ``not_scored`` filled: on the row of the space each
    embedding is scored in (``scored_in``: embedding -> ``own`` or ``shared``), the
    reason a list is not scored there, or "" where it is (the same rule as
    :func:`learnability.protocol.sizes.unscored_reason`, on the vocabulary's size
    ``vocab_sizes``); null on the other rows. The learnability job of a list that is not
    scored writes empty tables (:func:`write_unscored`), so this table is where its
    absence from the numbers is explained."""
    import pandas as pd

    from learnability.protocol.sizes import unscored_reason

    table = table.copy()
    reasons = [
        (unscored_reason(int(n), vocab_sizes[emb], min_words) or "")
        if scored_in.get(emb) == basis else None
        for emb, basis, n in zip(table["embedding"], table["vocabulary"], table["n_in_vocab"],
                                 strict=True)
    ]  # fmt: skip
    table["not_scored"] = pd.array(reasons, dtype="string")
    return table


def write_unscored(outputs: dict[str, str]) -> None:
    """The outputs of a list's job (learnability, learning curve) where the embedding
    cannot score the list: each table of its schema (the output's name) with no rows, an
    array with none. Read with the other lists' outputs, they add nothing, as a list
    left out would; its rows in the tables say why (the coverage table's not_scored).
    The job still exists so that the workflow's DAG is known before the concepts are
    resolved (a dry run plans every job)."""
    import numpy as np

    from learnability.io import save_array
    from learnability.schemas import empty, write_table

    for name, path in outputs.items():
        if str(path).endswith(".npy"):
            save_array(np.empty((0, 0)), path)
        else:
            write_table(empty(name), path, name)
