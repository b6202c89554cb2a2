"""The library's front door: score word lists on one embedding from Python.

>>> from learnability import score
>>> result = score(keyed_vectors, {"family": ["mother", "father", "sister", "son"]})
>>> result.lists          # one row per list: metrics, p-value, Holm-adjusted p-value

``score`` takes what a notebook holds: a gensim ``KeyedVectors``, a mapping of word to
vector, a ``(words, vectors)`` pair, a workflow embedding folder or any file the workflow
imports; and word lists as a mapping of name to words, one list of words, or a ``.txt`` /
``.dic`` file or a folder of them. It runs the workflow's own code (list resolution, the
protocol, the random-list null, the calibrated p-value) and returns tidy tables in the
workflow's documented schemas (``docs/reference/outputs.md``). The ``learnability evaluate``
command is this function with a printout; the defaults below are shared by both.
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from learnability import schemas
from learnability.analyses.registry import (
    ANALYSES,
    Analysis,
    Lists,
    analysis_settings,
    settings_doc,
)
from learnability.concepts.lists import Entry, coverage, member_indices, resolve
from learnability.concepts.matching import DEFAULT_CASE, Matcher
from learnability.defaults import default
from learnability.embeddings.store import Embedding
from learnability.errors import InputError
from learnability.logs import Progress
from learnability.protocol.classify import PROGRESS_SECONDS, quiet_fits
from learnability.protocol.evaluate import (
    MIN_WORDS,
    Protocol,
    evaluate_concept_full,
    null_distribution,
    summarize,
)
from learnability.protocol.nullcache import NullCache
from learnability.protocol.sampling import baseline_bins, frequency_bins
from learnability.statistics.significance import (
    DEFAULT_PVALUE_METHOD,
    check_calibrated,
    pvalues,
    random_list_splits,
)

log = logging.getLogger(__name__)

# The defaults of `score` and of `learnability evaluate`: the config schema's, read from
# it (learnability.defaults). A null is kept (NULL_CACHE: for the session, and on disk),
# so a second call on the same embedding costs only its lists.
ITERATIONS: int = default("learnability.iterations")
NULL_LISTS: int = default("random_lists.lists")
NULL_ITERATIONS: int = default("random_lists.iterations")
C: float = default("learnability.C")
SEED: int = default("learnability.seed")
N_BINS: int = default("learnability.frequency_bins")
ADJUST: str = default("random_lists.adjust")
NEGATIVES = ("uniform", "frequency_matched")

# nulls kept across calls (in memory) and processes (on disk): (vectors, key, settings)
# -> null table (learnability.protocol.nullcache)
NULL_CACHE = NullCache()


def _digest(array: np.ndarray) -> str:
    import hashlib

    a = np.ascontiguousarray(array)
    h = hashlib.blake2b(digest_size=16)
    h.update(str((a.shape, a.dtype.str)).encode())
    h.update(memoryview(a).cast("B"))
    return h.hexdigest()


LIST_SUFFIXES = (".txt",)
DICTIONARY_SUFFIXES = (".dic", ".csv", ".tsv")


@dataclass
class Scores:
    """What :func:`score` returns; each table is in the workflow's schema of that name
    (``docs/reference/outputs.md``) unless said otherwise.

    - ``lists``: one row per scored list (not a workflow table): its entries and
      in-vocabulary size, the five metrics' means, and its p-value columns;
    - ``pvalues``: schema ``pvalues`` (the p-value, its Monte Carlo error, floor, z,
      tail estimate, the adjusted p-value, the method and iterations on both sides);
    - ``summary``, ``iterations``, ``members``, ``null``, ``concept_words``, ``coverage``;
    - ``skipped``: lists with fewer than ``min_words`` words in the vocabulary, and why;
    - one table per analysis of the registry (:mod:`learnability.analyses.registry`),
      in ``analyses`` and as an attribute of its name: ``codelength`` (each list's online
      codelength and its null's), ``suggestions`` (what each list may be missing),
      ``suggestion_check`` (the held-out check of that), ``entanglement`` (how much of
      each list is each other one); empty when turned off.
    """

    lists: pd.DataFrame
    pvalues: pd.DataFrame
    summary: pd.DataFrame
    iterations: pd.DataFrame
    members: pd.DataFrame
    null: pd.DataFrame
    concept_words: pd.DataFrame
    coverage: pd.DataFrame
    skipped: pd.DataFrame
    settings: dict = field(default_factory=dict)
    # each analysis' table by its name (learnability.analyses.registry), also read as an
    # attribute (scores.entanglement); an analysis that was off gives its empty table
    analyses: dict[str, pd.DataFrame] = field(default_factory=dict)

    def __getattr__(self, name: str) -> pd.DataFrame:
        if name in ANALYSES:
            table = self.__dict__.get("analyses", {}).get(name)
            return table if table is not None else schemas.empty(ANALYSES[name].table)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


def load_lists(path: Path) -> dict[str, list[Entry]]:
    """Concept lists from a ``.txt`` list, a dictionary (``.dic``, a ``word,category``
    ``.csv``/``.tsv`` or Empath's ``categories.tsv``; every category) or a folder of them
    (suffixes in any case); other files in a folder are named on stderr, not read."""
    from learnability.concepts.lists import read_dictionary, read_wordlist

    path = Path(path)
    if path.is_dir():
        found = sorted(p for p in path.iterdir() if p.is_file())
        usable = LIST_SUFFIXES + DICTIONARY_SUFFIXES
        files = [p for p in found if p.suffix.lower() in usable]
        ignored = [p.name for p in found if p not in files and not p.name.startswith(".")]
        if ignored:
            print(
                f"{path}: not lists, ignored: {', '.join(ignored[:10])}"
                + (f" and {len(ignored) - 10} more" if len(ignored) > 10 else ""),
                file=sys.stderr,
            )
        if not files:
            raise InputError(
                f"{path}: no word lists (.txt) or dictionaries (.dic, .csv, .tsv) in this folder"
            )
    elif path.is_file():
        files = [path]
    else:
        raise InputError(f"{path}: no such file or folder of word lists")
    lists: dict[str, list[Entry]] = {}
    for f in files:
        if f.suffix.lower() in DICTIONARY_SUFFIXES:
            dic = read_dictionary(f)
            for category, entries in dic.entries.items():
                if entries:
                    lists[f"{f.stem}_{category}"] = entries
        else:
            lists[f.stem] = read_wordlist(f)
    return lists


def _entries(name: str, words) -> list[Entry]:
    if isinstance(words, (str, os.PathLike)) and Path(words).is_file():
        from learnability.concepts.lists import read_wordlist

        return read_wordlist(words)
    if isinstance(words, str) or not isinstance(words, Sequence | np.ndarray | pd.Series):
        raise InputError(
            f"list {name!r}: give its words as a list of strings (or a .txt file), "
            f"not {type(words).__name__}"
        )
    entries = []
    for i, word in enumerate(words, start=1):
        if not isinstance(word, str):
            raise InputError(f"list {name!r}, item {i}: {word!r} is not a string")
        if word.strip():
            entries.append(Entry(word.strip(), i))
    if not entries:
        raise InputError(f"list {name!r} has no words")
    return entries


def as_lists(source) -> dict[str, list[Entry]]:
    """Word lists from a mapping of name to words (or to a .txt file), one sequence of
    words (named ``concept``), or a path to a list, a dictionary or a folder of them."""
    if isinstance(source, (str, os.PathLike)):
        return load_lists(Path(source))
    if isinstance(source, Mapping):
        if not source:
            raise InputError("no word lists given")
        return {str(name): _entries(str(name), words) for name, words in source.items()}
    return {"concept": _entries("concept", source)}


def _workflow_folder(source) -> Path | None:
    """The folder ``source`` names, when it is one (not a spec, a short name or a file)."""
    from learnability.embeddings.shipped import SHIPPED

    if not isinstance(source, (str, os.PathLike)):
        return None
    text = os.fspath(source)
    if text in SHIPPED or text.startswith("package://") or not Path(text).is_dir():
        return None
    return Path(text)


def open_embedding(source, tmp: Path, name: str | None = None, **options) -> Embedding:
    """An embedding folder as the workflow writes it (memory-mapped in place), or a
    pretrained spec (:func:`learnability.embeddings.shipped.pretrained_spec`: a short
    name, a path, ``package://DIST/path`` or a config mapping, with ``options`` over it)
    imported into ``tmp`` and memory-mapped there."""
    from learnability.embeddings import load_embedding
    from learnability.embeddings.pretrained import import_embedding
    from learnability.embeddings.shipped import SHIPPED, default_name, pretrained_spec, resolve

    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    folder = _workflow_folder(source)
    if folder is not None:
        if not (folder / "vectors.npy").is_file() or not (folder / "vocab.parquet").is_file():
            raise InputError(
                f"{folder}: a folder must hold vectors.npy and vocab.parquet (the "
                "workflow's results/embeddings/NAME); or give the embedding file itself"
            )
        return load_embedding(folder, mmap=True)
    spec = pretrained_spec(source, **options)
    path = resolve(spec["path"])
    if not path.exists():
        raise InputError(
            f"{spec['path']}: no such embedding file or folder; give a file, a workflow "
            f"embedding folder, package://DIST/path, or a shipped name ({', '.join(SHIPPED)})"
        )
    if spec["subword_oov"]:
        raise InputError(
            f"{spec['path']}: subword_oov needs the lists' words, which only the workflow "
            "passes to the import; drop it here, or score the embedding with the workflow"
        )
    words = resolve(spec["words"], "the words of") if "words" in spec else None
    meta = import_embedding(
        path,
        tmp,
        name=name or default_name(source),
        fmt=spec["format"],
        member=spec.get("member"),
        max_vocab=spec.get("max_vocab"),
        exclude_prefixes=tuple(spec["exclude_prefixes"]),
        frequency_ordered=spec["frequency_ordered"],
        allow_pickle=spec["allow_pickle"],
        unicode_errors=spec["unicode_errors"],
        words=words,
        words_column=spec.get("words_column"),
    )
    if meta["n_undecodable"]:
        shown = ", ".join(f"{w['where']} {w['bytes']!r}" for w in meta["undecodable_words"][:5])
        print(
            f"{path}: {meta['n_undecodable']} words not UTF-8 ({spec['unicode_errors']}): {shown}",
            file=sys.stderr,
        )
    return load_embedding(tmp, mmap=True)


def _checked(words: list, vectors, name: str, counts=None) -> Embedding:
    vectors = np.asarray(vectors)
    if vectors.ndim != 2 or vectors.shape[0] != len(words):
        raise InputError(
            f"embedding {name!r}: {len(words)} words but vectors of shape {vectors.shape}; "
            "give one vector (a row) per word"
        )
    if not np.issubdtype(vectors.dtype, np.floating):
        vectors = vectors.astype(np.float64)
    bad = [w for w in words if not isinstance(w, str) or not w]
    if bad:
        raise InputError(f"embedding {name!r}: {bad[0]!r} is not a word (a non-empty string)")
    seen: set[str] = set()
    for word in words:
        if word in seen:
            raise InputError(f"embedding {name!r}: the word {word!r} has two vectors")
        seen.add(word)
    finite = np.isfinite(vectors).all(axis=1)
    if not finite.all():
        raise InputError(
            f"embedding {name!r}: the vector of {words[int(np.argmin(finite))]!r} is not "
            f"finite ({int((~finite).sum())} such words); drop or fix them"
        )
    counts = np.zeros(len(words), dtype=np.int64) if counts is None else np.asarray(counts)
    return Embedding(words=list(words), vectors=vectors, counts=counts, name=name)


def _is_spec(source) -> bool:
    """A config mapping (``path: ...``), not a mapping of word to vector."""
    return isinstance(source, Mapping) and any(
        isinstance(source.get(k), str) for k in ("path", "url")
    )


def as_embedding(
    source,
    *,
    name: str | None = None,
    fmt: str | None = None,
    max_vocab: int | None = None,
    words: str | os.PathLike | None = None,
    words_column: str | None = None,
    member: str | None = None,
    exclude_prefixes: Sequence[str] | None = None,
    frequency_ordered: bool | None = None,
    allow_pickle: bool | None = None,
    unicode_errors: str | None = None,
) -> Embedding:
    """An :class:`~learnability.embeddings.store.Embedding` from a gensim
    ``KeyedVectors`` (its ``count`` attribute, when set, gives word frequencies), a
    mapping of word to vector, a ``(words, vectors)`` pair, a workflow embedding folder,
    or any embedding the workflow's config accepts (read into memory): a file, a
    ``package://DIST/path``, a shipped name (``"glove6b"``, ``"glove6b_400k"``) or a
    config mapping (``{"path": ..., "words": ..., "format": "npy"}``). The keyword
    options are the config's pretrained options (``fmt`` is ``format``); given, they
    override the spec's."""
    if isinstance(source, Embedding):
        return source
    if isinstance(source, (str, os.PathLike)) or _is_spec(source):
        from learnability.embeddings.shipped import default_name

        options = dict(
            format=fmt, max_vocab=max_vocab, words=None if words is None else os.fspath(words),
            words_column=words_column, member=member,
            exclude_prefixes=None if exclude_prefixes is None else tuple(exclude_prefixes),
            frequency_ordered=frequency_ordered, allow_pickle=allow_pickle,
            unicode_errors=unicode_errors,
        )  # fmt: skip
        given = source if _is_spec(source) else os.fspath(source)
        if _workflow_folder(given) is not None:  # memory-mapped in place, nothing copied
            return open_embedding(given, Path(given))
        with tempfile.TemporaryDirectory() as tmp:
            emb = open_embedding(given, Path(tmp), name, **options)
            # read into memory: the temporary folder goes away
            return Embedding(
                words=emb.words,
                vectors=np.array(emb.vectors),
                counts=np.array(emb.counts),
                name=name or default_name(given),
                meta=emb.meta,
            )
    if hasattr(source, "index_to_key") and hasattr(source, "vectors"):
        counts = getattr(source, "expandos", {}).get("count")
        words = list(source.index_to_key)
        return _checked(words, source.vectors, name or "embedding", counts)
    if isinstance(source, tuple) and len(source) == 2:
        return _checked(list(source[0]), source[1], name or "embedding")
    if isinstance(source, Mapping):
        words = list(source)
        vectors = np.stack([np.asarray(source[w], dtype=np.float64) for w in words])
        return _checked(words, vectors, name or "embedding")
    raise InputError(
        f"cannot read an embedding from {type(source).__name__}: give a gensim KeyedVectors, "
        "a mapping of word to vector, a (words, vectors) pair, a path, package://DIST/path, "
        "a shipped name or a config mapping with 'path'"
    )


def score(
    embedding,
    lists,
    *,
    iterations: int = ITERATIONS,
    null_lists: int = NULL_LISTS,
    null_iterations: int = NULL_ITERATIONS,
    pvalue_method: str = DEFAULT_PVALUE_METHOD,
    negatives: str = "uniform",
    C: float = C,
    seed: int = SEED,
    null_seed: int | None = None,
    case: str = DEFAULT_CASE,
    min_words: int = MIN_WORDS,
    n_bins: int = N_BINS,
    adjust: str = ADJUST,
    bootstrap: int = 0,
    name: str | None = None,
    **analyses,
) -> Scores:
    """Score each list on one embedding as the workflow does: ``iterations`` random half
        splits (a fit and a test each) with ``negatives`` non-members (``uniform``, the paper,
        or ``frequency_matched``, which needs word counts), an empirical p-value against
        ``null_lists`` random lists of the list's in-vocabulary size (or frequency profile)
        scored with ``null_iterations`` splits and compared by ``pvalue_method``
        (``random_lists.method``), adjusted across the lists by ``adjust`` (holm, bh, none).

        ``null_seed`` (default ``seed + 1``) draws the random lists; ``bootstrap`` resamples
        give each mean an interval in ``summary`` (0: none). Lists with fewer than
        ``min_words`` words in the vocabulary are reported in ``skipped``, not scored.

        Then every analysis of the registry (:mod:`learnability.analyses.registry`) runs on
        the scored lists, with the workflow's functions; ``analyses`` are their settings
        (the workflow's config keys, defaults from its schema)::

    {settings}
    """
    if negatives not in NEGATIVES:
        raise InputError(f"negatives {negatives!r}: use one of {', '.join(NEGATIVES)}")
    try:
        settings_of = analysis_settings(analyses)
    except KeyError as exc:
        raise InputError(f"score(): {exc.args[0]}") from None
    emb = as_embedding(embedding, name=name)
    entries = as_lists(lists)
    source = str(lists) if isinstance(lists, (str, os.PathLike)) else "python"
    label = name or emb.name or "embedding"
    bins = None
    if negatives == "frequency_matched":
        if not np.asarray(emb.counts).any():
            raise InputError(
                f"embedding {label!r} has no word counts, so frequency-matched non-members "
                "cannot be drawn; use negatives='uniform' or give counts (KeyedVectors' "
                "'count' attribute, or a frequency-ordered file)"
            )
        bins = frequency_bins(np.asarray(emb.counts), n_bins)
    vocab = pd.Series(emb.words)
    vocab_index = pd.Index(vocab)  # its hash table built once for every list's lookup
    matcher = Matcher(emb.words, case, emb.counts)
    protocol = Protocol(iterations=iterations, C=C, seed=seed, negatives=negatives, n_bins=n_bins)
    k_null = random_list_splits(pvalue_method, iterations, null_iterations)
    try:
        check_calibrated(pvalue_method, k_null, null_lists, iterations, where="pvalue_method")
    except ValueError as exc:
        raise InputError(str(exc)) from None
    # the nulls of earlier calls on the same vectors (and bins) with the same settings
    vectors_digest = _digest(emb.vectors)
    bins_digest = _digest(bins) if bins is not None else ""
    null_seed = seed + 1 if null_seed is None else null_seed
    resolutions, covers, results, skipped = [], [], [], []
    nulls, members_of, coefficients = {}, {}, {}
    # one progress for the lists, not a line per call of the solver (quiet_fits)
    progress = Progress("lists scored", len(entries), unit="lists", every=PROGRESS_SECONDS,
                        logger=log)  # fmt: skip
    with quiet_fits():
        for list_name, list_entries in entries.items():
            resolved = resolve(
                list_entries,
                emb.words,
                list_name=list_name,
                embedding=label,
                source=source,
                matcher=matcher,
            )
            resolutions.append(resolved)
            cov = coverage(resolved).iloc[0]
            covers.append(cov)
            idx = member_indices(resolved, vocab_index)
            if idx.size < min_words:
                why = ", ".join(f"{n} {s}" for s, n in resolved["status"].value_counts().items())
                skipped.append(
                    {
                        "list": list_name,
                        "n_entries": int(cov["n_entries"]),
                        "n_in_vocab": int(idx.size),
                        "reason": f"{idx.size} of its {cov['n_entries']} entries are in the "
                        f"vocabulary ({why}); at least {min_words} are needed",
                    }
                )
                log.warning("skipped %s: %s", list_name, skipped[-1]["reason"])
                progress.update(1)
                continue
            result = evaluate_concept_full(
                emb.vectors,
                idx,
                protocol,
                bins=bins,
                list_name=list_name,
                embedding=label,
                min_words=min_words,
                vocabulary=vocab,
            )
            results.append(result)
            members_of[list_name], coefficients[list_name] = idx, result.coef
            key = str(result.iterations["null_key"].iloc[0])
            if key not in nulls:
                settings = (vectors_digest, key, null_lists, k_null, C, null_seed, negatives,
                            n_bins, bins_digest)  # fmt: skip
                null = NULL_CACHE.get(settings, lambda key=key: null_distribution(
                    emb.vectors, key=key, lists=null_lists, iterations=k_null, C=C,
                    seed=null_seed, embedding="", negatives=negatives, bins=bins, n_bins=n_bins,
                ))  # fmt: skip
                nulls[key] = null.assign(embedding=label)
            progress.update(1)
        progress.finish()
        covered = pd.DataFrame(covers).reset_index(drop=True)
        if not results:
            raise InputError(
                f"no list has {min_words} or more words in {label!r} "
                f"({int(covered['n_in_vocab'].sum())} of {int(covered['n_entries'].sum())} "
                f"entries found, {int(covered['n_phrases'].sum())} phrases, "
                f"{int(covered['n_oov'].sum())} not in the vocabulary; case {case})"
            )
        counts = np.asarray(emb.counts)
        scored = Lists(
            vectors=emb.vectors, members=members_of, protocol=protocol, embedding=label,
            negatives=negatives, words=emb.words, counts=counts, min_words=min_words, bins=bins,
            baseline_bins=baseline_bins(counts, n_bins),
            coefficients=coefficients,
        )  # fmt: skip
        tables = {
            key: run_analysis(analysis, scored, settings_of[key])
            for key, analysis in ANALYSES.items()
        }
    skipped_table = pd.DataFrame(skipped, columns=["list", "n_entries", "n_in_vocab", "reason"])
    per_iteration = pd.concat([r.iterations for r in results], ignore_index=True)
    summary = summarize(per_iteration, bootstrap=bootstrap, seed=seed)
    null = pd.concat(list(nulls.values()), ignore_index=True)
    tests = pvalues(summary, null, True, adjust, pvalue_method, per_iteration)
    means = summary.pivot_table(index="list", columns="metric", values="mean", sort=False)
    table = pd.DataFrame(
        {
            "list": tests["list"],
            "entries": tests["list"].map(covered.set_index("list")["n_entries"]).astype(int),
            "in_vocab": tests["size"].astype(int),
        }
    )
    for metric in ("accuracy", "recall", "fpr", "precision", "auc"):
        table[metric] = tests["list"].map(means[metric]).to_numpy()
    for column in ("p_value", "p_adjusted", "p_tail", "null_z", "p_floor", "p_mc_se"):
        table[column] = tests[column].to_numpy()
    codes_table = tables["codelength"]
    for source, column in (("list", "compression"), ("null", "null_compression")):
        part = codes_table[codes_table["source"] == source].set_index("list")["compression"]
        table[column] = tests["list"].map(part).to_numpy(dtype=float)
    settings = dict(
        embedding=label, iterations=iterations, null_lists=null_lists,
        null_iterations=k_null, pvalue_method=pvalue_method, negatives=negatives, C=C,
        seed=seed, null_seed=null_seed, case=case, adjust=adjust,
    )  # fmt: skip
    for values in settings_of.values():
        settings.update({k: list(v) if isinstance(v, tuple) else v for k, v in values.items()})
    return Scores(
        lists=table,
        pvalues=tests,
        summary=summary,
        iterations=per_iteration,
        members=pd.concat([r.members for r in results], ignore_index=True),
        null=null,
        concept_words=pd.concat(resolutions, ignore_index=True),
        coverage=covered,
        skipped=skipped_table,
        settings=settings,
        analyses=tables,
    )


score.__doc__ = score.__doc__.format(settings=settings_doc(indent=8))


def run_analysis(analysis: Analysis, lists: Lists, settings: Mapping) -> pd.DataFrame:
    """One analysis' table on the scored lists, in its schema; empty where it is off."""
    if not analysis.enabled(settings):
        return schemas.empty(analysis.table)
    return schemas.conform(analysis.run(lists, settings), analysis.table)
