"""Figures for people, drawn from the documented Parquet tables alone (matplotlib, no
display needed).

Every figure is a grid of small panels, one per list (or per null distribution), so that
it stays legible from 1 to a few hundred lists: each panel keeps its size and the figure
grows. Sizes are fixed in inches at :data:`DPI`, so a figure's pixel size follows from its
panel count (:func:`figure_size`), which the tests check.
"""

from __future__ import annotations

import math
import os
import textwrap
from collections.abc import Sequence

import matplotlib
import matplotlib.ticker
import numpy as np
import pandas as pd

# Figures are made as matplotlib.figure.Figure objects and saved by the Agg, SVG and PDF
# canvases: no pyplot (its figure registry and backend machinery cost every plot job
# most of a second at start-up) and no display (the workflow runs on servers and nodes)
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from learnability.io import atomic_path
from learnability.reports.analysis_tables import MARKS, reported_as
from learnability.reports.formats import format_pvalue
from learnability.statistics.pvalue_methods import RESCALING_METHODS

DPI = 200  # PNGs at print resolution; SVG and PDF are vector
PANEL = (2.4, 2.3)  # inches per panel, its share of the spacing included
# Text stays text: editable in an SVG editor, selectable and searchable in the PDF
# (TrueType fonts embedded, not Type 3 outlines).
# A fixed salt makes the SVG ids (clip paths) the same on every run.
matplotlib.rcParams.update(
    {"svg.fonttype": "none", "svg.hashsalt": "learnability", "pdf.fonttype": 42, "ps.fonttype": 42}
)
FORMATS = ("png", "svg", "pdf")
# Margins in inches, fixed whatever the panel count: room for the two-line title (top),
# the axis labels and the legend (bottom), tick labels (left). A fixed layout instead of
# matplotlib's constrained layout, which took seconds per figure at 100 panels.
TOP, BOTTOM, LEFT, RIGHT = 0.75, 0.9, 0.65, 0.15
WSPACE, HSPACE = 0.25, 0.4  # between panels: tick labels, a panel title
NULL_COLOR = "0.78"  # light grey: the nulls, apart from the dark grey baselines
LIST_COLOR = "#D55E00"  # a real list's mark on a grey null (Okabe-Ito vermillion)


def grid(n: int, max_cols: int = 12) -> tuple[int, int]:
    """(rows, columns) for ``n`` panels: close to square, a little wider than tall."""
    n = max(n, 1)
    cols = min(max_cols, max(1, math.ceil(math.sqrt(n * 1.4))))
    cols = min(cols, n)
    return math.ceil(n / cols), cols


def figure_size(
    n_panels: int, panel: tuple[float, float] = PANEL, extra_bottom: float = 0.0
) -> tuple[float, float]:
    rows, cols = grid(n_panels)
    return (
        LEFT + cols * panel[0] + RIGHT,
        TOP + rows * panel[1] + BOTTOM + extra_bottom,
    )


def name_room(names: Sequence[str]) -> float:
    """Inches below the bottom panels for names written at 60 degrees as tick labels."""
    return 0.06 * max((len(n) for n in names), default=0)


# Okabe & Ito's palette (2008), distinguishable with every common colour-vision
# deficiency, in an order that keeps the first pairs far apart; grey is kept for the
# random baselines and the nulls.
OKABE_ITO = [
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
    "#000000",  # black
]
BASELINE_COLOR = "0.3"


def colors(names: Sequence[str], baselines: Sequence[str] = ()) -> dict[str, object]:
    """A colour per embedding: Okabe-Ito for the first eight that are not baselines
    (matplotlib's tab20 beyond), grey for the random baselines."""
    out: dict[str, object] = {}
    others = [n for n in names if n not in set(baselines)]
    cmap = matplotlib.colormaps["tab20"]
    for i, name in enumerate(others):
        out[name] = OKABE_ITO[i] if len(others) <= len(OKABE_ITO) else cmap(i % cmap.N)
    for name in names:
        out.setdefault(name, BASELINE_COLOR)
    return out


TITLE_CHARS = 26  # a panel title longer than this would run into its neighbour's


def panel_title(name: str) -> str:
    return name if len(name) <= TITLE_CHARS else name[: TITLE_CHARS - 1] + "\u2026"


def _fitted(title: str, width: float, fontsize: float) -> str:
    """``title`` with each line wrapped to a figure ``width`` inches wide (about 0.55 em
    a character), so that a narrow figure (few embeddings or lists) shows all of it."""

    chars = max(20, int(width * 72 / (0.55 * fontsize)))
    return "\n".join(textwrap.fill(line, chars) for line in title.splitlines())


def _panels(n: int, title: str, panel: tuple[float, float] = PANEL, extra_bottom: float = 0.0):
    rows, cols = grid(n)
    w, h = figure_size(n, panel, extra_bottom)
    fig = Figure(figsize=(w, h), dpi=DPI)
    # Not shared axes: sharing makes every limit change visit all siblings, quadratic in
    # the panel count (seconds at 100 panels). Limits are set alike on every panel
    # instead, and _label_outer keeps tick labels on the outer panels only.
    axes = fig.subplots(rows, cols, squeeze=False)
    fig.subplots_adjust(
        left=LEFT / w,
        right=1 - RIGHT / w,
        top=1 - TOP / h,
        bottom=(BOTTOM + extra_bottom) / h,
        wspace=WSPACE / (panel[0] - WSPACE),
        hspace=HSPACE / (panel[1] - HSPACE),
    )
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    fig.suptitle(_fitted(title, w, 11), fontsize=11, y=1 - 0.08 / h, va="top")
    return fig, axes


def _legend(fig: Figure, handles, labels) -> None:
    fig.legend(
        handles,
        labels,
        loc="lower center",
        bbox_to_anchor=(0.5, 0.0),
        ncols=min(len(labels), 6),
        fontsize=8,
        frameon=False,
    )


def _label_outer(axes: np.ndarray, n: int, xlabel: str, ylabel: str, xlim=None, ylim=None) -> None:
    """Same limits on every panel; tick labels and axis labels on the outer panels only
    (left column, and the lowest panel of each column, which may sit above empty slots)."""
    rows, cols = axes.shape
    for k, ax in enumerate(axes.flat[:n]):
        r, c = divmod(k, cols)
        if xlim is not None:
            ax.set_xlim(*xlim)
        if ylim is not None:
            ax.set_ylim(*ylim)
        ax.tick_params(labelsize=7)
        bottom = k + cols >= n
        ax.tick_params(labelbottom=bottom, labelleft=c == 0)
        if bottom and xlabel:
            ax.set_xlabel(xlabel, fontsize=8)
        if c == 0:
            ax.set_ylabel(ylabel, fontsize=8)


def _groups(df: pd.DataFrame, order: str | None = None) -> dict[tuple, pd.DataFrame]:
    """(list, embedding) -> its rows, in one pass (a mask per panel and embedding is
    quadratic in the number of lists)."""
    out = {}
    for key, g in df.groupby(["list", "embedding"], sort=False, observed=True):
        out[key] = g.sort_values(order) if order else g
    return out


def roc_figure(
    roc: pd.DataFrame,
    lists: Sequence[str],
    embeddings: Sequence[str],
    title: str,
    baselines: Sequence[str] = (),
) -> Figure:
    """Mean ROC curve per list, one curve per embedding with a band of +-1 std of the TPR
    over the iterations, and the chance diagonal."""
    fig, axes = _panels(len(lists), title)
    col = colors(embeddings, baselines)
    handles = []
    by = _groups(roc, "fpr")
    for ax, name in zip(axes.flat, lists, strict=False):
        ax.plot([0, 1], [0, 1], ls="--", lw=0.8, color="0.5")
        for emb in embeddings:
            r = by.get((name, emb))
            if r is None:
                continue
            x, m, s = r["fpr"].to_numpy(), r["tpr_mean"].to_numpy(), r["tpr_std"].to_numpy()
            ax.fill_between(x, np.clip(m - s, 0, 1), np.clip(m + s, 0, 1), color=col[emb],
                            alpha=0.15, lw=0)  # fmt: skip
            (line,) = ax.plot(x, m, color=col[emb], lw=1.2)
            if len(handles) < len(embeddings):
                handles.append(line)
        ax.set_title(panel_title(name), fontsize=9)
        ax.set_aspect("equal")
    _label_outer(axes, len(lists), "FPR (share of test non-members)",
                 "TPR (share of held-out members)", (0, 1), (0, 1))  # fmt: skip
    _legend(fig, [*handles, Line2D([], [], ls="--", color="0.5")],
            [*embeddings[: len(handles)], "chance"])  # fmt: skip
    return fig


def auc_distribution_figure(
    iterations: pd.DataFrame,
    null: pd.DataFrame,
    lists: Sequence[str],
    embeddings: Sequence[str],
    title: str,
    baselines: Sequence[str] = (),
) -> Figure:
    """Per list: for each embedding, a box of the per-iteration AUCs (coloured) and, beside
    it, a grey box of the null distribution that the list is tested against (mean AUC of
    each random list with the list's own null key: same size, or same frequency profile),
    with a diamond at the list's mean AUC."""
    fig, axes = _panels(len(lists), title, extra_bottom=name_room(embeddings))
    col = colors(embeddings, baselines)
    pos = np.arange(len(embeddings)) * 2.0
    its = _groups(iterations)
    nulls = {k: g["auc"].to_numpy() for k, g in null.groupby(["embedding", "null_key"])}
    for ax, name in zip(axes.flat, lists, strict=False):
        ax.axhline(0.5, ls="--", lw=0.8, color="0.5")
        # one boxplot call per panel (real, null, real, null, ...): a call per box made
        # the figure take seconds per ten lists
        data, where, fill, means = [], [], [], []
        for k, emb in enumerate(embeddings):
            it = its.get((name, emb))
            if it is None:
                continue
            auc = it["auc"].to_numpy()
            data.append(auc)
            where.append(pos[k])
            fill.append(col[emb])
            means.append((pos[k], auc.mean()))
            nl = nulls.get((emb, it["null_key"].iloc[0]))
            if nl is not None and len(nl):
                data.append(nl)
                where.append(pos[k] + 0.8)
                fill.append(NULL_COLOR)
        if data:
            boxes = ax.boxplot(data, positions=where, widths=0.6, patch_artist=True,
                               showfliers=False, medianprops={"color": "k"})  # fmt: skip
            for box, color in zip(boxes["boxes"], fill, strict=True):
                box.set(facecolor=color, alpha=0.6)
            x, y = zip(*means, strict=True)
            ax.plot(x, y, ls="", marker="D", ms=3, color="k")
        ax.set_title(panel_title(name), fontsize=9)
        ax.set_xticks(pos + 0.4, embeddings, rotation=60, ha="right", fontsize=7)
    _label_outer(axes, len(lists), "", "ROC AUC", (pos[0] - 1, pos[-1] + 1.8), (0, 1))
    patches = [Rectangle((0, 0), 1, 1, fc=col[e], alpha=0.6) for e in embeddings]
    _legend(
        fig,
        [*patches, Rectangle((0, 0), 1, 1, fc=NULL_COLOR, alpha=0.6),
         Line2D([], [], marker="D", ls="", color="k")],
        [*embeddings, "null: mean AUC of each random list", "list mean AUC"],
    )  # fmt: skip
    return fig


def null_histogram_figure(
    null: pd.DataFrame, pvalues: pd.DataFrame, embedding: str, title: str, bins: int = 30
) -> Figure:
    """One embedding's null distributions, one panel per null key, with the value of each
    real list tested against it marked with its p-value. The histogram shows what the
    p-value compared with: under ``random_lists.method: rescaled`` or ``rescaled_skew``
    the random lists' means mapped to the lists' number of splits, under ``truncated``
    the list's mark is the mean of its first splits (``observed``). A p-value at its floor
    reads "p < 0.001"."""
    # deferred: the comparison imports SciPy's statistics and optimisation (about 0.5 s),
    # which the other figures' jobs do not need
    from learnability.statistics.significance import comparison_null

    null = null[null["embedding"] == embedding]
    pv = pvalues[pvalues["embedding"] == embedding].sort_values("list")
    keys = sorted(set(pv["null_key"]), key=lambda k: (len(k), k)) or sorted(set(null["null_key"]))
    fig, axes = _panels(len(keys), title)
    samples = {k: g["auc"].to_numpy() for k, g in null.groupby("null_key")}
    method = pv["method"].iloc[0] if len(pv) else "unmatched"
    if len(pv):
        k_list = int(pv["list_iterations"].iloc[0])
        for key, g in null.groupby("null_key"):
            samples[key] = comparison_null(g, method, k_list)[0]
    # one set of bin edges and one count scale for all panels, so that they compare
    everything = np.concatenate([*samples.values(), pv["observed"].to_numpy(), [0.5]])
    lo, hi = float(np.nanmin(everything)), float(np.nanmax(everything))
    pad = 0.03 * max(hi - lo, 0.05)
    edges = np.linspace(lo - pad, hi + pad, bins + 1)
    counts = {k: np.histogram(samples.get(k, np.empty(0)), edges)[0] for k in keys}
    ymax = 1.3 * max((int(c.max()) for c in counts.values() if c.size), default=1)
    n_null = 0
    for ax, key in zip(axes.flat, keys, strict=False):
        ax.stairs(counts[key], edges, fill=True, color=NULL_COLOR)
        tested = pv[pv["null_key"] == key]
        ax.axvline(0.5, ls="--", lw=0.8, color="0.5")
        for i, row in enumerate(tested.itertuples(index=False)):
            ax.axvline(row.observed, color=LIST_COLOR, lw=1.2)
            # labels on the side of the line facing the middle, so none leaves the panel,
            # and a few points off it, so that the line does not cross the text
            right = row.observed > 0.5
            p = format_pvalue(row.p_value, row.p_floor)
            p = f"p {p}" if p.startswith("<") else f"p = {p}"
            ax.annotate(f"{panel_title(row.list)}\n{p}",
                        (row.observed, ymax * (0.97 - 0.13 * (i % 7))),
                        xytext=(-3 if right else 3, 0), textcoords="offset points",
                        fontsize=6, va="top", ha="right" if right else "left",
                        color=LIST_COLOR)  # fmt: skip
        size = int(tested["size"].iloc[0]) if len(tested) else key.removeprefix("size-")
        # the random lists' count is the same in every panel: it is in the legend
        kind = "" if key.startswith("size-") else " (freq.-matched)"
        ax.set_title(f"n = {size}{kind}", fontsize=8)
        n_null = max(n_null, int(counts[key].sum()))
    null_label = f"null distribution: {n_null} random lists per panel" + (
        f", means rescaled to {int(pv['list_iterations'].iloc[0])} splits"
        if method in RESCALING_METHODS
        else ""
    )
    _label_outer(axes, len(keys), "mean AUC of a random list", "random lists",
                 (edges[0], edges[-1]), (0, ymax))  # fmt: skip
    _legend(
        fig,
        [Rectangle((0, 0), 1, 1, fc=NULL_COLOR), Line2D([], [], color=LIST_COLOR)],
        [null_label, "real list (mean AUC, empirical p)"],
    )
    return fig


def heatmap_figure(
    summary: pd.DataFrame, lists: Sequence[str], embeddings: Sequence[str], title: str
) -> Figure:
    """Mean AUC, lists x embeddings, values written in the cells while they fit."""
    auc = (
        summary[summary["metric"] == "auc"]
        .pivot(index="list", columns="embedding", values="mean")
        .reindex(index=list(lists), columns=list(embeddings))
    )
    width = max(4.0, 1.0 * len(embeddings) + 2.5)
    height = 0.28 * len(lists) + 1.8
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    ax = fig.subplots()
    values = auc.to_numpy(dtype=float)
    finite = values[np.isfinite(values)]
    lo = min(0.5, finite.min()) if finite.size else 0.5
    hi = max(lo + 0.05, finite.max()) if finite.size else 1.0
    im = ax.imshow(values, cmap="viridis", vmin=lo, vmax=hi, aspect="auto")
    ax.set_xticks(range(len(embeddings)), embeddings, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(lists)), lists, fontsize=7 if len(lists) > 40 else 8)
    ax.set_xlabel("embedding", fontsize=9)
    ax.set_ylabel("word list", fontsize=9)
    if len(lists) <= 60:
        mid = (lo + hi) / 2
        for (i, j), v in np.ndenumerate(values):
            if np.isfinite(v):
                ax.text(j, i, f"{v:.3f}", ha="center", va="center", fontsize=7,
                        color="k" if v > mid else "w")  # fmt: skip
    fig.colorbar(im, ax=ax, label="mean ROC AUC over iterations", shrink=0.8)
    fig.suptitle(_fitted(title, width, 10), fontsize=10)
    return fig


def entanglement_figure(
    table: pd.DataFrame, lists: Sequence[str], embeddings: Sequence[str], title: str
) -> Figure:
    """One heatmap per embedding: row A (erased), column B (rescored), the share of B's
    AUC above chance that erasing A removes (schema ``entanglement``); a grey dot marks
    a pair not measured (``entanglement.pairs: related``), a star a pair entangled
    (``entangled``: beyond erasing random lists, and its share above the margin with
    confidence), a + a pair beyond the null only, an o one beyond it by overlap alone
    (:data:`learnability.reports.analysis_tables.MARKS`)."""
    from learnability.analyses.entanglement import counts

    lists = [li for li in lists if li in set(table["list_a"])]
    embeddings = [e for e in embeddings if e in set(table["embedding"])]
    side = 0.3 * len(lists) + 1.2
    width = len(embeddings) * side + 1.6
    fig = Figure(figsize=(width, side + 1.4), dpi=DPI, layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, max(1, len(embeddings)), squeeze=False)[0])
    im = None
    for ax, name in zip(axes, embeddings, strict=True):
        part = table[table["embedding"] == name]
        share = part.pivot(index="list_a", columns="list_b", values="share").reindex(
            index=lists, columns=lists
        )
        values = share.to_numpy(dtype=float)
        measured = (
            part.pivot(index="list_a", columns="list_b", values="measured")
            .reindex(index=lists, columns=lists)
            .fillna(False)
            .to_numpy(dtype=bool)
        )
        marks = (
            part.assign(mark=[MARKS.get(reported_as(r), "") for r in part.itertuples()])
            .pivot(index="list_a", columns="list_b", values="mark")
            .reindex(index=lists, columns=lists)
            .fillna("")
            .to_numpy()
        )
        im = ax.imshow(values, cmap="RdBu_r", vmin=-1, vmax=1, aspect="equal")
        ax.set_xticks(range(len(lists)), lists, rotation=60, ha="right", fontsize=7)
        ax.set_yticks(range(len(lists)), lists, fontsize=7)
        c = counts(part)
        ax.set_title(f"{panel_title(name)}\n{c.entangled} of {c.tested} pairs entangled (*)\n"
                     f"{c.chance} beyond chance only (+), {c.overlap} overlap (o)",
                     fontsize=8)  # fmt: skip
        ax.set_xlabel("rescored list (B)", fontsize=8)
        if len(lists) <= 25:
            for (i, j), v in np.ndenumerate(values):
                if np.isfinite(v):
                    ax.text(j, i, f"{v:.2f}{marks[i, j]}", ha="center", va="center", fontsize=5.5,
                            color="w" if abs(v) > 0.6 else "k")  # fmt: skip
                elif not measured[i, j]:  # a pair that cannot matter: not measured
                    ax.text(j, i, "·", ha="center", va="center", fontsize=12, color="0.35")
    axes[0].set_ylabel("erased list (A)", fontsize=8)
    if im is not None:
        fig.colorbar(im, ax=list(axes), label="share of B's AUC above 0.5 that A accounts for",
                     shrink=0.8)  # fmt: skip
    fig.suptitle(_fitted(title, width, 10), fontsize=10)
    return fig


def ranking_figure(table: pd.DataFrame, title: str) -> Figure:
    """Per negatives scheme, the compared embeddings best first: the mean AUC with its
    bootstrap interval, each labelled with its rank and rank interval; between adjacent
    rows, whether the paired test (Holm) separates them (schema ``ranking``)."""
    schemes = list(dict.fromkeys(table["negatives"]))
    n = table.groupby("negatives").size().max()
    width = 5.2 * len(schemes) + 0.8
    fig = Figure(figsize=(width, 0.45 * n + 1.6), dpi=DPI, layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, len(schemes), squeeze=False)[0])
    for ax, scheme in zip(axes, schemes, strict=True):
        part = table[table["negatives"] == scheme].sort_values("rank")
        y = np.arange(len(part))[::-1]
        err = [part["mean"] - part["ci_low"], part["ci_high"] - part["mean"]]
        ax.errorbar(part["mean"], y, xerr=err, fmt="o", color="k", ms=4, capsize=3)
        labels = [f"{r.embedding}  #{r.rank} [{r.rank_low:g}, {r.rank_high:g}]"
                  for r in part.itertuples()]  # fmt: skip
        ax.set_yticks(y, labels, fontsize=8)
        lo, hi = float(part["ci_low"].min()), float(part["ci_high"].max())
        span = max(1e-3, hi - lo)
        for k, r in enumerate(part.itertuples()):
            if r.next_embedding is None or pd.isna(r.next_embedding):
                continue
            mark = "separated" if r.separated else "not separated"
            # right of the axes, between the two rows it is about
            ax.annotate(f"{mark}\n(Holm p = {format_pvalue(r.p_adjusted)})",
                        (1.03, y[k] - 0.5), xycoords=("axes fraction", "data"),
                        fontsize=6.5, va="center", annotation_clip=False,
                        color="k" if r.separated else LIST_COLOR)  # fmt: skip
        ax.set_xlim(lo - 0.1 * span, hi + 0.1 * span)
        ax.set_ylim(-0.7, len(part) - 0.3)
        ax.set_xlabel(f"mean {part['metric'].iloc[0].upper()} over lists (bootstrap interval)",
                      fontsize=8)  # fmt: skip
        ax.set_title(f"{scheme} non-members", fontsize=9)
        ax.tick_params(axis="x", labelsize=7)
    fig.suptitle(_fitted(title, width, 10), fontsize=10)
    return fig


PSEUDO_SIZE = (7.2, 5.4)  # inches


def pseudo_figure(pseudo: pd.DataFrame, title: str, baselines: Sequence[str] = ()) -> Figure:
    """Pseudo-disambiguation error rate against k (log scale), one line per embedding:
    the mean over folds with a bar of one std (Lee 1999's Figure 2), and each
    embedding's cosine decision as a dashed horizontal line of its colour."""
    fig = Figure(figsize=PSEUDO_SIZE, dpi=DPI, layout="constrained")
    ax = fig.subplots()
    names = list(dict.fromkeys(pseudo["embedding"]))
    palette = colors(names, baselines)
    for name in names:
        part = pseudo[pseudo["embedding"] == name]
        knn = part[part["method"] == "knn"].groupby("k")["error_rate"].agg(["mean", "std"])
        ax.errorbar(knn.index, knn["mean"], yerr=knn["std"].fillna(0), marker="o", ms=3,
                    capsize=2, color=palette[name], label=f"{name}: kNN averaging")  # fmt: skip
        cosine = part[part["method"] == "cosine"]["error_rate"].mean()
        ax.axhline(cosine, ls="--", lw=1, color=palette[name], label=f"{name}: cosine")
    unigram = pseudo[pseudo["method"] == "unigram"]["error_rate"]
    if len(unigram):  # a property of the corpus folds, the same for every embedding
        ax.axhline(unigram.mean(), color="k", lw=1, ls="-.", label="unigram baseline")
    ax.axhline(0.5, color=NULL_COLOR, lw=0.8, ls=":", label="chance")
    ax.set_xscale("log")
    ax.set_xlabel("k, nearest neighbours averaged (log scale)", fontsize=9)
    ax.set_ylabel("error rate, (incorrect + ties/2) / T (mean ± std over folds)", fontsize=8)
    ax.set_ylim(0, 1)
    # below the axes: inside, it would cover the curves
    ax.legend(fontsize=7, ncols=3, frameon=False, loc="upper center",
              bbox_to_anchor=(0.5, -0.14))  # fmt: skip
    fig.suptitle(title, fontsize=10)
    return fig


SWEEP_PANEL = (3.2, 2.6)  # inches


def sweep_figure(effects: pd.DataFrame, title: str) -> Figure:
    """A sweep's main effects (schema ``sweep_effects``): one panel per swept parameter
    (columns) and negatives scheme (rows), the mean AUC at each value, one line per
    method with its bootstrap band; numeric values on a numeric axis (log-scaled when
    they span a factor of 10 or more), others as categories."""
    parameters = list(dict.fromkeys(effects["parameter"]))
    schemes = list(dict.fromkeys(effects["negatives"]))
    methods = list(dict.fromkeys(effects["method"]))
    palette = colors(methods)
    cols, rows = max(1, len(parameters)), max(1, len(schemes))
    # at least wide enough for the two-line title over one column of panels
    w, h = max(6.6, SWEEP_PANEL[0] * cols + 0.6), SWEEP_PANEL[1] * rows + 1.3
    fig = Figure(figsize=(w, h), dpi=DPI, layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    finite = effects[["ci_low", "ci_high", "auc"]].to_numpy(dtype=float)
    finite = finite[np.isfinite(finite)]
    lo = min(0.5, finite.min()) - 0.02 if finite.size else 0.45
    hi = max(lo + 0.1, finite.max() + 0.02) if finite.size else 1.0
    for r, scheme in enumerate(schemes):
        for c, parameter in enumerate(parameters):
            ax = axes[r, c]
            part = effects[(effects["negatives"] == scheme) & (effects["parameter"] == parameter)]
            numeric = bool(len(part)) and part["x"].notna().all()
            values = list(dict.fromkeys(part.sort_values("x" if numeric else "value")["value"]))
            for method in methods:
                m = part[part["method"] == method]
                if m.empty:
                    continue
                m = m.set_index("value").reindex(values).dropna(subset=["auc"])
                x = m["x"].to_numpy(float) if numeric else [values.index(v) for v in m.index]
                ax.plot(x, m["auc"], marker="o", ms=3, lw=1.2, color=palette[method], label=method)
                ax.fill_between(
                    x, m["ci_low"], m["ci_high"], color=palette[method], alpha=0.2, lw=0
                )
            if numeric:
                xs = part["x"].to_numpy(float)
                if xs.size and xs.min() > 0 and xs.max() / xs.min() >= 10:
                    ax.set_xscale("log")
                ax.set_xticks(sorted(set(xs)), [str(v) for v in values], fontsize=7)
                ax.minorticks_off()
            else:
                ax.set_xticks(range(len(values)), values, fontsize=7)
            ax.axhline(0.5, color=NULL_COLOR, lw=0.8, ls=":")
            ax.set_ylim(lo, hi)
            ax.tick_params(labelsize=7)
            ax.set_xlabel(parameter, fontsize=8)
            if c == 0:
                ax.set_ylabel(f"mean ROC AUC over lists\n({scheme} non-members)", fontsize=8)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncols=min(len(labels), 6),
                   fontsize=8, frameon=False)  # fmt: skip
    fig.suptitle(title, fontsize=10)
    return fig


def corpus_figure(differences: pd.DataFrame, title: str, level: float = 0.05) -> Figure:
    """The corpus comparison (schema ``corpus_differences``): one panel per embedding
    (columns) and pair of corpora and scheme (rows), each list's difference of mean AUCs
    A - B with its interval (Welch's t at ``level``, two-sided, before Holm), filled where
    the Holm-adjusted p is below ``level``."""
    # deferred: SciPy's statistics take about 0.5 s to import, which the other figures'
    # jobs do not need
    from scipy.stats import t as student

    embeddings = list(dict.fromkeys(differences["embedding"]))
    rows = list(dict.fromkeys(zip(differences["corpus_a"], differences["corpus_b"],
                                  differences["negatives"], strict=True)))  # fmt: skip
    lists = list(dict.fromkeys(differences["list"]))
    w = max(6.6, 3.0 * len(embeddings) + 1.6)
    h = (0.22 * len(lists) + 1.0) * len(rows) + 1.2
    fig = Figure(figsize=(w, h), dpi=DPI, layout="constrained")
    axes = fig.subplots(len(rows), len(embeddings), squeeze=False, sharey=True)
    half = student.ppf(1 - level / 2, differences["df"]) * differences["se"]
    reach = np.abs(differences["difference"]) + np.where(np.isfinite(half), half, 0.0)
    span = np.nanmax(reach)
    span = float(span) * 1.1 if np.isfinite(span) and span > 0 else 0.1
    for r, (a, b, scheme) in enumerate(rows):
        for c, embedding in enumerate(embeddings):
            ax = axes[r, c]
            mask = (
                (differences["embedding"] == embedding)
                & (differences["corpus_a"] == a)
                & (differences["corpus_b"] == b)
                & (differences["negatives"] == scheme)
            )
            part, err = differences[mask], half[mask]
            y = np.array([len(lists) - 1 - lists.index(n) for n in part["list"]])
            shown = np.where(np.isfinite(err), err, 0.0)
            ax.errorbar(part["difference"], y, xerr=shown, fmt="none", ecolor="0.4",
                        elinewidth=0.9, capsize=2)  # fmt: skip
            found = (part["p_holm"] < level).to_numpy()
            ax.plot(part["difference"][found], y[found], "o", color=LIST_COLOR, ms=4)
            ax.plot(part["difference"][~found], y[~found], "o", mfc="white", mec="k", ms=4)
            ax.axvline(0.0, color=NULL_COLOR, lw=0.8, ls=":")
            ax.set_xlim(-span, span)
            ax.set_yticks(range(len(lists)), lists[::-1], fontsize=7)
            ax.tick_params(axis="x", labelsize=7)
            ax.set_title(f"{embedding}: {a} - {b}", fontsize=8)
            ax.set_xlabel(f"difference of mean ROC AUC ({scheme} non-members)", fontsize=7)
    fig.suptitle(_fitted(title, w, 10), fontsize=10)
    return fig


def words_needed_figure(table: pd.DataFrame, lists: Sequence[str], title: str) -> Figure:
    """The words-needed curve (schema ``words_needed``): a panel per list, the measured
    power (with its standard error) against the number of words, log scale, one line per
    embedding, and the target power dashed; beneath, the same sizes' smallest detectable
    AUC against the subsets' mean AUC is what the power follows."""
    lists = [name for name in lists if name in set(table["list"])]
    embeddings = list(dict.fromkeys(table["embedding"]))
    color = colors(embeddings)
    fig, axes = _panels(len(lists), title, extra_bottom=0.2)
    for ax, name in zip(axes.flat, lists, strict=False):
        for embedding, g in table[table["list"] == name].groupby("embedding", sort=False):
            g = g.sort_values("words")
            ax.errorbar(g["words"], g["power"], yerr=g["power_se"], color=color[embedding],
                        marker="o", ms=3, lw=1.1, capsize=1.5)  # fmt: skip
        target = float(table["power_target"].iloc[0])
        ax.axhline(target, color=NULL_COLOR, lw=0.9, ls="--")
        ax.set_title(panel_title(f"{name} ({int(table[table['list'] == name]['size'].iloc[0])})"),
                     fontsize=9)  # fmt: skip
    # one log axis for every panel, ticked at round numbers of words, no minor labels
    most = int(table["words"].max())
    ticks = [t for t in (5, 10, 20, 50, 100, 200, 500, 1000, 2000) if t <= most * 1.2]
    for ax in axes.flat[: len(lists)]:
        ax.set_xscale("log")
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    alpha = float(table["power_alpha"].iloc[0])
    _label_outer(axes, len(lists), "words in the list", f"power (p <= {alpha:g})",
                 xlim=(4, most * 1.3), ylim=(-0.03, 1.03))  # fmt: skip
    handles = [Line2D([], [], color=color[e], marker="o", ms=3) for e in embeddings]
    _legend(fig, handles, embeddings)
    return fig


NO_DATE = {"pdf": {"CreationDate": None}, "svg": {"Date": None}}


def save(fig: Figure, *paths: str | os.PathLike[str]) -> None:
    """Write ``fig`` to each path (format from the suffix: .png, .svg, .pdf), atomically.
    PDF and SVG carry no creation date, so a rerun writes the same bytes."""
    for path in paths:
        fmt = os.path.splitext(str(path))[1][1:]
        metadata = NO_DATE.get(fmt)
        with atomic_path(path) as tmp:
            fig.savefig(tmp, dpi=DPI, format=fmt, metadata=metadata)
