"""How much of concept B is concept A: erase A from the embedding with LEACE
(:mod:`learnability.analyses.leace`) and rescore B with the same protocol and splits.

For each ordered pair (A, B): the eraser of A is fitted on the whole vocabulary (label:
membership of A), applied to every row, and B's splits (the learnability job's own
seeds, so its first ``iterations`` splits) are fitted and scored again. ``share`` is the
part of B's AUC above chance (0.5) that erasing A removes: (before - after) / (before -
0.5), defined where B's AUC is above chance by ``MIN_Z`` standard errors of its mean
over the splits (else NaN: the share of noise is noise). A share near 0 says B is
learnable without anything linear about A; nested lists give a large share one way and
a smaller one the other. On the diagonal (A = B) the share exceeds 1: the eraser
equalises the class means over all the members, so a split's held-out half lands on
the other side of the mean from its training half (an AUC below 0.5).

Which pairs: erasing A moves every row along one direction only, by its A-coordinate
(x - mean) . b. Erasing A can change B's AUC only if the two lists share members, or if
B's members sit apart from the other rows along that coordinate (B's classifier then
leans on it). So by default (``pairs="related"``) a pair is measured when A = B, when A
and B share a member, or when B's members outside A are ``min_z`` or more standard
errors from the rows in neither list along A's coordinate (``link_z``, Welch's t); the
other pairs get a row with ``measured`` false and no share. ``pairs="all"`` measures
every pair. Real lists are nearly all related so (their members sit apart from the
vocabulary along one another's directions: ``benchmarks/entanglement_pairs.py``);
``pairs="sharing"`` measures only A = B and the pairs that share members, a fifth of
them among 200 real lists, for runs over hundreds of lists.

Which pairs are reported: three questions, one column each. ``beyond_null``: is erasing
A worse for B than erasing a random list of A's size (the pair's p-value against
:mod:`learnability.analyses.entanglement_null`, adjusted over every ordered pair)? With
hundreds of thousands of words nearly any two coherent lists pass that, so it says
nothing of how much. ``overlap``: a pair beyond the null whose A, outside B, is not
aligned with B beyond the null (the direction test alone, adjusted over the same family):
the two share members, which is the dictionary's doing, not the embedding's (on Gaussian
random vectors nested lists pass the null so). ``entangled``: beyond the null, not by
overlap alone, and with a share above ``entanglement.margin`` with confidence: the
one-sided test of share <= margin against share > margin, Student's t over the paired
splits (``p_margin``), adjusted over every ordered pair as the null's p-values are
(``p_margin_adjusted`` <= alpha). Both tests must reject, each at alpha: an
intersection-union test, so each pair's claim is at level alpha without a further
correction; over all pairs (holm) the chance of any false claim is at most 2 alpha, the
two families' levels together, and alpha where every pair is beyond the null or none is.
``share_low`` is the share's one-sided lower confidence bound at 1 - alpha (unadjusted).

Cost: one eraser per list (two d-vectors once the covariance's roots are known), one
matrix-vector product per list for the screen, and ``measured pairs x iterations`` fits
(``lists^2 x iterations`` for all pairs), which is why ``entanglement.iterations``
defaults to fewer splits than the protocol's.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from learnability.analyses.base import Analysis, Lists, Report, Setting
from learnability.analyses.leace import Eraser, Whitening
from learnability.defaults import default
from learnability.progress import Progress
from learnability.statistics.adjust import adjust_pvalues

log = logging.getLogger(__name__)

CHANCE = 0.5
# B's AUC must be above chance by this many standard errors of its mean for a share
MIN_Z = 3.0
# which ordered pairs are measured (the config's entanglement.pairs enum; a test keeps
# the two equal): those that can matter, those that share members, or all
PAIRS = ("related", "sharing", "all")
# the adjustments of the pairs' p-values (the config's entanglement.adjust enum)
ADJUST = ("holm", "bh")
# the tests' columns a pair gets before its share is measured (the diagonal and the
# unmeasured pairs keep these)
UNMEASURED = {"share_low": np.nan, "p_margin": np.nan}


def _se(values: np.ndarray) -> float:
    return float(values.std(ddof=1) / np.sqrt(values.size)) if values.size > 1 else 0.0


def link_z(
    coordinate: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    totals: tuple[float, float] | None = None,
) -> float:
    """How far list B's members outside A sit from the rows in neither list along A's
    erased coordinate (``coordinate``, one value per row): the difference of the means
    over its standard error (Welch). NaN where B has fewer than two members outside A
    (the pair shares members, and is measured for that). ``totals``: the coordinate's
    sum and sum of squares, when already computed."""
    own = np.setdiff1d(b, a, assume_unique=True)
    if own.size < 2:
        return float("nan")
    values = coordinate[own]
    # the rows in neither list from the whole's sums (one pass over the vocabulary per
    # list A, not per pair: k^2 passes over 3 M rows would cost more than the fits)
    total, squares = totals if totals is not None else (coordinate.sum(), coordinate @ coordinate)
    both = coordinate[np.union1d(a, b)]
    m = coordinate.size - both.size
    rest_mean = (total - both.sum()) / m
    rest_var = (squares - both @ both - m * rest_mean**2) / (m - 1)
    diff = float(values.mean() - rest_mean)
    se = float(np.sqrt(values.var(ddof=1) / values.size + max(rest_var, 0.0) / m))
    if se > 0:
        return diff / se
    return 0.0 if diff == 0 else float(np.copysign(np.inf, diff))


def _local(splits: list) -> tuple[np.ndarray, list]:
    """The rows a list's splits touch (sorted) and the splits indexing into them."""
    rows = np.unique(np.concatenate([np.concatenate([sp[0], sp[2]]) for sp in splits]))
    return rows, [
        (np.searchsorted(rows, tr), y, np.searchsorted(rows, te), ty) for tr, y, te, ty in splits
    ]


def _aucs(vectors: np.ndarray, splits: list, protocol) -> np.ndarray:
    from learnability.protocol.splits import fit_splits

    return fit_splits(vectors, splits, protocol).metrics()["auc"]


def screen(
    x: np.ndarray,
    members: Mapping[str, np.ndarray],
    *,
    pairs: str,
    min_z: float,
    white: Whitening | None = None,
) -> tuple[dict, dict, dict, dict]:
    """Each list's eraser, and for every ordered pair (A, B) its ``link_z``, its shared
    members and whether it is measured (``pairs``: see the module): what decides the
    analysis' cost before any fit (``benchmarks/entanglement_pairs.py`` counts the
    related pairs among real lists). ``white``: x's whitening, if already computed."""
    white = white or Whitening.of(x)
    erasers, links, shared, measured = {}, {}, {}, {}
    for a, m_a in members.items():
        erasers[a] = Eraser.of_members(x, m_a, white)
        # one whole-vocabulary vector at a time: 24 MB at 3 M words
        coordinate = erasers[a].coordinate(x)
        totals = (coordinate.sum(), coordinate @ coordinate)
        for b, m_b in members.items():
            links[a, b] = link_z(coordinate, m_a, m_b, totals)
            shared[a, b] = int(np.intersect1d(m_a, m_b).size)
            sharing = a == b or shared[a, b] > 0
            related = sharing or abs(links[a, b]) >= min_z
            measured[a, b] = pairs == "all" or bool(related if pairs == "related" else sharing)
    return erasers, links, shared, measured


def entanglement(
    vectors: np.ndarray,
    lists: Mapping[str, np.ndarray],
    protocol,
    *,
    bins: np.ndarray | None = None,
    embedding: str,
    pairs: str = default("entanglement.pairs"),
    min_z: float = default("entanglement.min_z"),
    adjust: str = default("entanglement.adjust"),
    alpha: float = default("entanglement.alpha"),
    margin: float = default("entanglement.margin"),
) -> pd.DataFrame:
    """Every ordered pair of ``lists`` (name -> member rows), one row each: B's mean AUC
    over ``protocol.iterations`` splits before and, for the measured pairs (``pairs``:
    ``related`` or ``all``, see the module), after erasing A, the share of B's AUC above
    chance that A accounts for, and that share's Monte Carlo standard error over the
    paired splits; for every pair A != B its test against erasing a random list of A's
    size and profile (:mod:`learnability.analyses.entanglement_null`), adjusted by
    ``adjust`` over all of them, and ``entangled`` where that is at most ``alpha``
    (schema ``entanglement``)."""
    if pairs not in PAIRS:
        raise ValueError(f"entanglement pairs {pairs!r}: one of {', '.join(PAIRS)}")
    # deferred: the fitting code imports numba, and the random-list test SciPy's
    # statistics and sparse matrices (about 0.6 s together), which the workflow's head
    # process (it reads the registry to make the rules) does not need
    from learnability.analyses.entanglement_null import pair_pvalues
    from learnability.protocol.classify import PROGRESS_SECONDS, quiet_fits
    from learnability.protocol.splits import concept_seeds, draw_splits

    # the vectors as given (memory-mapped, float32): no whole-matrix copy is made; the
    # sums over the vocabulary go block by block, and only the rows that a list's
    # splits touch are read into memory (and erased), one list at a time
    x = vectors
    n = x.shape[0]
    members = {name: np.unique(np.asarray(m, dtype=np.int64)) for name, m in lists.items()}
    splits = {
        # the learnability job's own splits: their first protocol.iterations
        name: draw_splits(
            n, m, protocol, concept_seeds(protocol.seed, name, protocol.iterations), bins
        )
        for name, m in members.items()
    }
    k = len(members)
    white = Whitening.of(x)
    erasers, links, shared, measured = screen(x, members, pairs=pairs, min_z=min_z,
                                              white=white)  # fmt: skip
    # every pair's test (no fits), adjusted over all ordered pairs A != B: the family is
    # fixed before any share is measured, whichever pairs are
    tests = pair_pvalues(x, members, white, bins)
    off = ~np.eye(k, dtype=bool)
    adjusted = np.full((k, k), np.nan)
    adjusted[off] = adjust_pvalues(tests.p_value[off], adjust)
    # the direction test alone, over the same family: a pair beyond the null without it
    # is beyond by the members it shares (a nested pair's direction is untested: NaN, 1)
    direction = np.full((k, k), np.nan)
    direction[off] = adjust_pvalues(np.nan_to_num(tests.p_direction[off], nan=1.0), adjust)
    index = {name: i for i, name in enumerate(tests.names)}
    todo = sum(measured.values())
    # its cost grows with the square of the list count: said before it starts
    log.info(
        "entanglement: %d lists, %s of %s ordered pairs measured (%s) x %d splits = %s fits "
        "(all pairs grow with the square of the list count; entanglement.iterations: 0 "
        "turns it off)",
        k, f"{todo:,}", f"{k * k:,}",
        {"all": "all", "sharing": "those sharing members"}.get(
            pairs, f"those sharing members or linked by |z| >= {min_z:g}"
        ),
        protocol.iterations, f"{(k + todo) * protocol.iterations:,}",
    )  # fmt: skip
    progress = Progress("entanglement", todo, unit="pairs", every=PROGRESS_SECONDS, logger=log)
    found = {}
    for b, m_b in members.items():
        # B's rows (its splits' training and test rows) and its splits on them
        rows, local = _local(splits[b])
        own = np.asarray(x[rows], dtype=np.float64)
        with quiet_fits():
            before = _aucs(own, local, protocol)
        for a, m_a in members.items():
            row = {
                "embedding": embedding,
                "negatives": protocol.negatives,
                "list_a": a,
                "list_b": b,
                "n_a": int(m_a.size),
                "n_b": int(m_b.size),
                "n_shared": shared[a, b],
                "link_z": float(links[a, b]),
                "measured": measured[a, b],
                "iterations": protocol.iterations,
                "auc_before": float(before.mean()),
                "auc_after": np.nan,
                "share": np.nan,
                "share_se": np.nan,
                **UNMEASURED,
            }
            i, j = index[a], index[b]
            row.update(
                alignment=float(tests.alignment[i, j]),
                p_overlap=float(tests.p_overlap[i, j]),
                p_direction=float(tests.p_direction[i, j]),
                p_value=float(tests.p_value[i, j]),
                p_adjusted=float(adjusted[i, j]),
                adjust=adjust,
                alpha=float(alpha),
                margin=float(margin),
                beyond_null=bool(adjusted[i, j] <= alpha),
                overlap=bool(adjusted[i, j] <= alpha and not direction[i, j] <= alpha),
            )
            found[a, b] = row
            if not measured[a, b]:
                continue
            with quiet_fits():
                after = _aucs(erasers[a](own), local, protocol)
            progress.update(1)
            above = before.mean() - CHANCE
            diff = before - after
            se = diff.std(ddof=1) / np.sqrt(diff.size) if diff.size > 1 else np.nan
            if not above > MIN_Z * _se(before):
                # B is not learnable beyond its own Monte Carlo error: a share of a
                # difference from chance that is noise is noise (it ran to 34 on the
                # sample's fastText `anger`, AUC 0.48), so there is none
                above = np.nan
            share, share_se = float(diff.mean() / above), float(se / above)
            row.update(auc_after=float(after.mean()), share=share, share_se=share_se,
                       **margin_test(share, share_se, diff.size, margin, alpha))  # fmt: skip
    rows = [found[a, b] for a in members for b in members]  # A's rows together
    progress.finish()
    table = pd.DataFrame(rows)
    return relevant(table, adjust, alpha)


def margin_test(share: float, share_se: float, splits: int, margin: float,
                alpha: float) -> dict[str, float]:  # fmt: skip
    """The one-sided test of share <= ``margin`` against share > ``margin`` from the
    share's mean and standard error over ``splits`` paired splits (Student's t, splits -
    1 degrees of freedom: the standard error is estimated from those splits), and the
    share's one-sided lower confidence bound at 1 - ``alpha``. NaN where there is no
    share (B not above chance) or fewer than two splits."""
    if not (np.isfinite(share) and np.isfinite(share_se)) or splits < 2:
        return dict(UNMEASURED)
    # deferred: scipy.stats takes about 0.5 s to import, and the analyses' registry brings
    # this module into every Snakemake start (the Snakefile's parse, each cluster job's)
    from scipy import stats

    df = splits - 1
    if share_se > 0:
        p = float(stats.t.sf((share - margin) / share_se, df))
    else:  # every split took the same share: no doubt either way
        p = 0.0 if share > margin else 1.0
    return {"share_low": float(share - stats.t.ppf(1 - alpha, df) * share_se), "p_margin": p}


def relevant(table: pd.DataFrame, adjust: str, alpha: float) -> pd.DataFrame:
    """``table`` with ``p_margin_adjusted`` (the margin tests adjusted over every ordered
    pair A != B, as the null's p-values are: a pair without a share cannot pass, p 1)
    and ``entangled``: beyond the null, not by overlap alone, and share > margin after
    adjustment."""
    off = (table["list_a"] != table["list_b"]).to_numpy()
    adjusted = np.full(len(table), np.nan)
    adjusted[off] = adjust_pvalues(table["p_margin"].fillna(1.0).to_numpy()[off], adjust)
    entangled = (table["beyond_null"].to_numpy(dtype=bool)
                 & ~table["overlap"].to_numpy(dtype=bool) & (adjusted <= alpha))  # fmt: skip
    return table.assign(p_margin_adjusted=adjusted, entangled=entangled)


def run(lists: Lists, settings: Mapping[str, Any]) -> pd.DataFrame:
    """The analysis: every ordered pair's entanglement (schema ``entanglement``)."""
    protocol = replace(lists.protocol, iterations=settings["entanglement_iterations"])
    return entanglement(lists.vectors, lists.members, protocol, bins=lists.bins,
                        embedding=lists.embedding, pairs=settings["entanglement_pairs"],
                        min_z=settings["entanglement_min_z"],
                        adjust=settings["entanglement_adjust"],
                        alpha=settings["entanglement_alpha"],
                        margin=settings["entanglement_margin"])  # fmt: skip


def _ordered(pairs: pd.DataFrame) -> pd.DataFrame:
    return pairs.sort_values(["share", "p_adjusted"], ascending=[False, True],
                             na_position="last", kind="stable")  # fmt: skip


def beyond_null(table: pd.DataFrame) -> pd.DataFrame:
    """The pairs A != B beyond their null after adjustment (entangled, merely beyond
    chance, or by overlap), the largest share first (a pair whose share was not
    measured last)."""
    off = table["list_a"] != table["list_b"]
    return _ordered(table[off & table["beyond_null"].astype(bool)])


def entangled(table: pd.DataFrame) -> pd.DataFrame:
    """The pairs reported entangled (``entangled``: beyond the null, not by overlap
    alone, share above the margin with confidence), the largest share first."""
    return _ordered(table[table["entangled"].astype(bool)])


def tested(table: pd.DataFrame) -> int:
    """How many ordered pairs were tested (the adjustment's family)."""
    return int(table["p_value"].notna().sum())


@dataclass(frozen=True)
class Counts:
    """The ordered pairs A != B of one table by what they are reported as: ``beyond``
    = ``entangled`` + ``chance`` (beyond the null, share not shown above the margin) +
    ``overlap`` (beyond the null by shared members alone)."""

    tested: int
    beyond: int
    entangled: int
    chance: int
    overlap: int


def counts(table: pd.DataFrame) -> Counts:
    """What every page says of ``table`` (one embedding and scheme): one count each."""
    beyond = beyond_null(table)
    n_entangled = int(beyond["entangled"].astype(bool).sum())
    n_overlap = int(beyond["overlap"].astype(bool).sum())
    return Counts(tested(table), len(beyond), n_entangled,
                  len(beyond) - n_entangled - n_overlap, n_overlap)  # fmt: skip


def short_count(table: pd.DataFrame) -> str:
    """The counts in a few words, for a figure's legend or a panel's title."""
    c = counts(table)
    return (f"{c.entangled} of {c.tested} pairs entangled; {c.chance} more beyond chance "
            f"only, {c.overlap} by overlap")  # fmt: skip


def summary_line(table: pd.DataFrame) -> str:
    """How many pairs are beyond the null, of how many tested, at which level, and of
    them how many are entangled, merely beyond chance, or beyond by overlap alone."""
    c = counts(table)
    if not len(table):
        return "0 of 0 ordered pairs tested (none tested)"
    first = table.iloc[0]
    level = f"{first['adjust']}-adjusted p <= {first['alpha']:g}"
    return (f"{c.beyond} of {c.tested} ordered pairs tested beyond erasing a random list "
            f"of A's size ({level}): {c.entangled} entangled (share above "
            f"{first['margin']:g} with confidence, {first['adjust']}-adjusted), "
            f"{c.chance} more merely beyond chance (share not shown above "
            f"{first['margin']:g}), {c.overlap} by the members they share alone "
            "(overlap)")  # fmt: skip


def _describe(table: pd.DataFrame) -> str:
    top = entangled(table).head(5)
    cols = ["list_a", "list_b", "auc_before", "auc_after", "share", "share_low", "p_adjusted"]
    return summary_line(table) + ("\n" + top[cols].to_string() if len(top) else "")


ANALYSIS = Analysis(
    name="entanglement",
    summary="how much of each list B is each list A: the share of B's AUC above chance "
    "that erasing A (LEACE) removes",
    output="results/analyses/{embedding}/{negatives}/entanglement.parquet",
    table="entanglement",
    run=run,
    enabled=lambda s: s["entanglement_iterations"] > 0,
    settings=(
        Setting(
            "entanglement_iterations",
            "entanglement.iterations",
            "splits per pair of lists for their entanglement (LEACE) (0: none)",
            "--entanglement-iterations",
        ),  # fmt: skip
        Setting(
            "entanglement_pairs",
            "entanglement.pairs",
            "the ordered pairs measured: related (sharing a member, or linked along the "
            "erased direction), sharing (sharing a member) or all",
            "--entanglement-pairs",
            choices=PAIRS,
        ),  # fmt: skip
        Setting(
            "entanglement_adjust",
            "entanglement.adjust",
            "the adjustment of the pairs' p-values against erasing random lists, over all "
            "ordered pairs: holm (family-wise) or bh (false discovery rate)",
            "--entanglement-adjust",
            choices=ADJUST,
        ),  # fmt: skip
        Setting(
            "entanglement_alpha",
            "entanglement.alpha",
            "the level of the pairs' adjusted tests (against the null, and of share > margin)",
            "--entanglement-alpha",
        ),  # fmt: skip
        Setting(
            "entanglement_margin",
            "entanglement.margin",
            "the share above which, with confidence, a pair beyond the null is reported entangled",
            "--entanglement-margin",
        ),  # fmt: skip
        Setting(
            "entanglement_min_z",
            "entanglement.min_z",
            "with related pairs: the link (B's members' mean along A's erased direction, in "
            "standard errors) from which a pair without shared members is measured",
            "--entanglement-min-z",
        ),  # fmt: skip
    ),
    scope="pairs",
    report=Report(
        category="Entanglement",
        formats=("md", "csv"),
        plot="Entanglement: erasing list A (LEACE), list B's AUC above chance lost",
    ),
    describe=_describe,
)
