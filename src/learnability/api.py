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

import hashlib
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from learnability import schemas
from learnability.analyses.base import Analysis, Lists, NullSpec, Setting
from learnability.analyses.registry import ANALYSES, analysis_settings, settings_doc
from learnability.concepts.lists import coverage, member_indices, resolve
from learnability.concepts.matching import DEFAULT_CASE, Matcher
from learnability.defaults import default
from learnability.errors import InputError
from learnability.inputs import as_embedding, as_lists
from learnability.progress import Progress
from learnability.protocol.classify import PROGRESS_SECONDS, quiet_fits
from learnability.protocol.evaluate import Protocol, null_distribution, score_list, summarize
from learnability.protocol.nullcache import NullCache
from learnability.protocol.sampling import baseline_bins, frequency_bins
from learnability.protocol.sizes import MIN_WORDS
from learnability.statistics.pvalue_methods import (
    DEFAULT_PVALUE_METHOD,
    check_calibrated,
    random_list_splits,
)
from learnability.statistics.significance import pvalues

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
ALPHA: float = default("power.alpha")
POWER: float = default("power.power")
NEGATIVES = ("uniform", "frequency_matched")

# score()'s protocol and statistics settings that `learnability evaluate` offers as flags,
# as each analysis' settings are (the CLI generates both from these): score()'s keyword,
# its config key (whose schema default is score()'s default, and whose enum the choices;
# tests keep the three equal) and the flag's help
SETTINGS: tuple[Setting, ...] = (
    Setting("iterations", "learnability.iterations", "splits per list", "--iterations"),
    Setting("null_lists", "random_lists.lists", "random lists per size", "--null-lists"),
    Setting("null_iterations", "random_lists.iterations", "splits of each random list",
            "--null-iterations"),
    Setting("pvalue_method", "random_lists.method", "how lists' means are compared with "
            "random lists' (random_lists.method)", "--pvalue-method",
            ("auto", "rescaled_skew", "rescaled", "matched", "truncated", "unmatched")),
    Setting("adjust", "random_lists.adjust", "the p-values' adjustment across the lists",
            "--adjust", ("holm", "bh", "none")),
    Setting("min_words", "learnability.min_words", "the fewest of a list's words in the "
            "vocabulary for it to be scored (at least 4)", "--min-words"),
    Setting("alpha", "power.alpha", "the level of each list's smallest detectable AUC "
            "(power.alpha)", "--alpha"),
    Setting("power", "power.power", "the power it is detected with (power.power)", "--power"),
    Setting("C", "learnability.C", "inverse L2 strength", "--C"),
    Setting("seed", "learnability.seed", "seed of the splits and non-members", "--seed"),
    Setting("case", "matching.case", "how entries find a cased vocabulary (matching.case): "
            "auto (as written, else lower-case, else the most frequent case variant), lower, "
            "exact", "--case", ("auto", "lower", "exact")),
)  # fmt: skip

# nulls kept across calls (in memory) and processes (on disk): (vectors, key, settings)
# -> null table (learnability.protocol.nullcache)
NULL_CACHE = NullCache()


def _digest(array: np.ndarray) -> str:

    a = np.ascontiguousarray(array)
    h = hashlib.blake2b(digest_size=16)
    h.update(str((a.shape, a.dtype.str)).encode())
    h.update(memoryview(a).cast("B"))
    return h.hexdigest()


@dataclass
class Scores:
    """What :func:`score` returns; each table is in the workflow's schema of that name
    (``docs/reference/outputs.md``) unless said otherwise.

    - ``lists``: one row per list (not a workflow table): its entries and
      in-vocabulary size, the five metrics' means, and its p-value columns; a list with
      too few words in the vocabulary has no metrics and says why in ``not_scored``
      ("" for the scored ones);
    - ``pvalues``: schema ``pvalues`` (the p-value, its Monte Carlo error, floor, z,
      tail estimate, the adjusted p-value, the method and iterations on both sides);
    - ``summary``, ``iterations``, ``members``, ``null``, ``concept_words``, ``coverage``;
    - ``skipped``: lists with fewer than ``min_words`` words in the vocabulary (or more
      than half of it), and why; ``coverage``'s ``not_scored`` says the same;
    - one table per analysis of the registry (:mod:`learnability.analyses.registry`),
      in ``analyses`` and as an attribute of its name: ``codelength`` (each list's online
      codelength and its null's), ``bounds`` (each list's bounds on its AUC from a
      jackknife over its members), ``suggestions`` (what each list may be missing),
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
    alpha: float = ALPHA,
    power: float = POWER,
    bootstrap: int = 0,
    name: str | None = None,
    **analyses,
) -> Scores:
    """Score each list on one embedding as the workflow does: ``iterations`` random half
    splits (a fit and a test each) with ``negatives`` non-members (``uniform``, the paper,
    or ``frequency_matched``, which needs word counts), an empirical p-value against
    ``null_lists`` random lists of the list's in-vocabulary size (or frequency profile)
    scored with ``null_iterations`` splits and compared by ``pvalue_method``
    (``random_lists.method``), adjusted across the lists by ``adjust`` (holm, bh, none),
    and the smallest mean AUC that lists of its size would be detected at, p <= ``alpha``,
    with probability ``power`` (``auc_detectable``; ``power.alpha``, ``power.power``).

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
        # the level and power of the smallest detectable AUC are the analyses' too
        settings_of = analysis_settings({**analyses, "alpha": alpha, "power": power})
    except KeyError as exc:
        raise InputError(f"score(): {exc.args[0]}") from None
    emb = as_embedding(embedding, name=name)
    entries = as_lists(lists)
    label = name or emb.name or "embedding"
    bins = _negative_bins(emb, negatives, n_bins, label)
    protocol = Protocol(iterations=iterations, C=C, seed=seed, negatives=negatives, n_bins=n_bins,
                        min_words=min_words)  # fmt: skip
    k_null = random_list_splits(pvalue_method, iterations, null_iterations)
    try:
        check_calibrated(pvalue_method, k_null, null_lists, iterations, where="pvalue_method")
    except ValueError as exc:
        raise InputError(str(exc)) from None
    null_seed = seed + 1 if null_seed is None else null_seed
    null_of = _nulls(emb.vectors, bins, label, protocol, lists=null_lists, iterations=k_null,
                     seed=null_seed)  # fmt: skip
    source = str(lists) if isinstance(lists, (str, os.PathLike)) else "python"
    with quiet_fits():
        each = _score_each(emb, entries, protocol, bins, label, source, case, null_of)
        if not each.results:
            raise InputError(
                f"no list has {min_words} or more words in {label!r} "
                f"({int(each.coverage['n_in_vocab'].sum())} of "
                f"{int(each.coverage['n_entries'].sum())} entries found, "
                f"{int(each.coverage['n_phrases'].sum())} phrases, "
                f"{int(each.coverage['n_oov'].sum())} not in the vocabulary; case {case})"
            )
        counts = np.asarray(emb.counts)
        scored = Lists(
            vectors=emb.vectors, members=each.members, protocol=protocol, embedding=label,
            negatives=negatives, words=emb.words, counts=counts, bins=bins,
            baseline_bins=baseline_bins(counts, n_bins),
            coefficients={n: r.coef for n, r in zip(each.members, each.results, strict=True)},
            nulls=NullSpec(null_lists, null_iterations, null_seed, pvalue_method, iterations),
        )  # fmt: skip
        tables = {
            key: run_analysis(analysis, scored, settings_of[key])
            for key, analysis in ANALYSES.items()
        }
    per_iteration = pd.concat([r.iterations for r in each.results], ignore_index=True)
    summary = summarize(per_iteration, bootstrap=bootstrap, seed=seed)
    null = pd.concat(list(each.nulls.values()), ignore_index=True)
    tests = pvalues(summary, null, True, adjust, pvalue_method, per_iteration, alpha, power)
    settings = dict(
        embedding=label, iterations=iterations, null_lists=null_lists,
        null_iterations=k_null, pvalue_method=pvalue_method, negatives=negatives, C=C,
        seed=seed, null_seed=null_seed, case=case, adjust=adjust,
    )  # fmt: skip
    for values in settings_of.values():
        settings.update({k: list(v) if isinstance(v, tuple) else v for k, v in values.items()})
    return Scores(
        lists=_lists_table(tests, summary, each, tables, list(entries)),
        pvalues=tests,
        summary=summary,
        iterations=per_iteration,
        members=pd.concat([r.members for r in each.results], ignore_index=True),
        null=null,
        concept_words=pd.concat(each.resolutions, ignore_index=True),
        coverage=each.coverage,
        skipped=each.skipped,
        settings=settings,
        analyses=tables,
    )


def _negative_bins(emb, negatives: str, n_bins: int, label: str) -> np.ndarray | None:
    """The frequency bins frequency-matched non-members are drawn by (None: uniform)."""
    if negatives != "frequency_matched":
        return None
    if not np.asarray(emb.counts).any():
        raise InputError(
            f"embedding {label!r} has no word counts, so frequency-matched non-members "
            "cannot be drawn; use negatives='uniform' or give counts (KeyedVectors' "
            "'count' attribute, or a frequency-ordered file)"
        )
    return frequency_bins(np.asarray(emb.counts), n_bins)


def _nulls(vectors: np.ndarray, bins: np.ndarray | None, label: str, protocol: Protocol, *,
           lists: int, iterations: int, seed: int) -> Callable[[str], pd.DataFrame]:  # fmt: skip
    """key -> the null of that size (or frequency profile): ``lists`` random lists of
    ``iterations`` splits each, drawn with ``seed``, from :data:`NULL_CACHE` where an
    earlier call (or process) on the same vectors (and bins) made it with the same
    settings."""
    vectors_digest = _digest(vectors)
    bins_digest = _digest(bins) if bins is not None else ""
    C, negatives, n_bins = protocol.C, protocol.negatives, protocol.n_bins

    def null_of(key: str) -> pd.DataFrame:
        settings = (vectors_digest, key, lists, iterations, C, seed, negatives, n_bins,
                    bins_digest)  # fmt: skip
        null = NULL_CACHE.get(settings, lambda: null_distribution(
            vectors, key=key, lists=lists, iterations=iterations, C=C, seed=seed,
            embedding="", negatives=negatives, bins=bins, n_bins=n_bins,
        ))  # fmt: skip
        return null.assign(embedding=label)

    return null_of


@dataclass
class _Each:
    """Every list of one call: its resolution and coverage row; a scored list's result,
    members and null (by key); a list it cannot score, its row in ``skipped``."""

    resolutions: list[pd.DataFrame]
    coverage: pd.DataFrame
    results: list  # ConceptResult, of the scored lists in order
    members: dict[str, np.ndarray]
    nulls: dict[str, pd.DataFrame]
    skipped: pd.DataFrame


def _score_each(emb, entries: dict, protocol: Protocol, bins: np.ndarray | None, label: str,
                source: str, case: str, null_of: Callable[[str], pd.DataFrame],
                ) -> _Each:  # fmt: skip
    """Resolve and score each list (:func:`~learnability.protocol.evaluate.score_list`),
    with one progress for the lists (not a line per call of the solver), and fetch each
    null key's null once."""
    vocab = pd.Series(emb.words)
    vocab_index = pd.Index(vocab)  # its hash table built once for every list's lookup
    matcher = Matcher(emb.words, case, emb.counts)
    resolutions, covers, results, skipped = [], [], [], []
    members, nulls = {}, {}
    progress = Progress("lists scored", len(entries), unit="lists", every=PROGRESS_SECONDS,
                        logger=log)  # fmt: skip
    for list_name, list_entries in entries.items():
        resolved = resolve(list_entries, emb.words, list_name=list_name, embedding=label,
                           source=source, matcher=matcher)  # fmt: skip
        resolutions.append(resolved)
        cov = coverage(resolved).iloc[0]
        covers.append(cov)
        idx = member_indices(resolved, vocab_index)
        result = score_list(emb.vectors, idx, protocol, bins=bins, list_name=list_name,
                            embedding=label, vocabulary=vocab)  # fmt: skip
        cov["not_scored"] = result.unscored or ""
        if result.unscored is not None:
            why = ", ".join(f"{n} {s}" for s, n in resolved["status"].value_counts().items())
            reason = (f"{result.unscored} ({idx.size} of its {cov['n_entries']} entries are "
                      f"in the vocabulary: {why})")  # fmt: skip
            skipped.append((list_name, int(cov["n_entries"]), int(idx.size), reason))
            log.warning("skipped %s: %s", list_name, reason)
        else:
            results.append(result)
            members[list_name] = idx
            key = str(result.iterations["null_key"].iloc[0])
            if key not in nulls:
                nulls[key] = null_of(key)
        progress.update(1)
    progress.finish()
    return _Each(
        resolutions, pd.DataFrame(covers).reset_index(drop=True), results, members, nulls,
        pd.DataFrame(skipped, columns=["list", "n_entries", "n_in_vocab", "reason"]),
    )  # fmt: skip


def _lists_table(tests: pd.DataFrame, summary: pd.DataFrame, each: _Each, tables: dict,
                 order: list[str]) -> pd.DataFrame:  # fmt: skip
    """score()'s per-list table: each list's entries, means, p-values, bounds and
    compression, and a row saying why for each list it could not score, in the lists'
    ``order``."""
    means = summary.pivot_table(index="list", columns="metric", values="mean", sort=False)
    table = pd.DataFrame(
        {
            "list": tests["list"],
            "entries": tests["list"].map(each.coverage.set_index("list")["n_entries"]).astype(int),
            "in_vocab": tests["size"].astype(int),
        }
    )
    for metric in ("accuracy", "recall", "fpr", "precision", "auc"):
        table[metric] = tests["list"].map(means[metric]).to_numpy()
    for column in ("p_value", "p_adjusted", "p_tail", "null_z", "p_floor", "p_mc_se",
                   "auc_detectable"):  # fmt: skip
        table[column] = tests[column].to_numpy()
    # what a list that is not learnable could still hold: its bounds from its members
    bounds = tables["bounds"].set_index("list")
    for column in ("auc_low", "auc_high"):
        table[column] = tests["list"].map(bounds[column]).to_numpy(dtype=float)
    codes_table = tables["codelength"]
    for source, column in (("list", "compression"), ("null", "null_compression")):
        part = codes_table[codes_table["source"] == source].set_index("list")["compression"]
        table[column] = tests["list"].map(part).to_numpy(dtype=float)
    table["not_scored"] = ""
    if len(each.skipped):
        rows = each.skipped.rename(columns={"n_entries": "entries", "n_in_vocab": "in_vocab",
                                            "reason": "not_scored"})  # fmt: skip
        rank = {name: k for k, name in enumerate(order)}
        table = pd.concat([table, rows], ignore_index=True)
        table = table.sort_values("list", key=lambda c: c.map(rank), kind="stable")
        table = table.reset_index(drop=True)
    return table


score.__doc__ = score.__doc__.format(settings=settings_doc(indent=8).lstrip())


def run_analysis(analysis: Analysis, lists: Lists, settings: Mapping) -> pd.DataFrame:
    """One analysis' table on the scored lists, in its schema; empty where it is off."""
    if not analysis.enabled(settings):
        return schemas.empty(analysis.table)
    return schemas.conform(analysis.run(lists, settings), analysis.table)
