"""Figures: rendered to files of the expected pixel size, legible layouts from 10 to 100
lists, and drawn from the numbers of the Parquet tables they are given."""

import struct

import matplotlib.image as mpimg
import numpy as np
import pandas as pd
import pytest

from learnability import schemas
from learnability.protocol.metrics import ROC_GRID
from learnability.reports import plots

EMBEDDINGS = ["word2vec", "fasttext", "glove", "random"]


def tables(n_lists: int, seed: int = 0, iterations: int = 20, null_lists: int = 50):
    """Synthetic outputs in the documented schemas: lists of a few sizes (so lists share
    null keys), AUCs that differ by embedding."""
    rng = np.random.default_rng(seed)
    lists = [f"list{k:03d}" for k in range(n_lists)]
    sizes = {name: (20, 40, 80)[k % 3] for k, name in enumerate(lists)}
    roc, its, summ, null, pv = [], [], [], [], []
    for e, emb in enumerate(EMBEDDINGS):
        strength = 1.0 + e
        for name in lists:
            key = f"size-{sizes[name]}"
            tpr = ROC_GRID ** (1 / strength)
            for f, m in zip(ROC_GRID, tpr, strict=True):
                roc.append((name, emb, "uniform", iterations, f, m, 0.05))
            aucs = np.clip(rng.normal(0.5 + 0.08 * e, 0.05, iterations), 0, 1)
            for i, a in enumerate(aucs):
                its.append((name, emb, "uniform", sizes[name], key, i, i, a, a, 1 - a, a, a))
            for metric in schemas.METRICS:
                summ.append((name, emb, "uniform", sizes[name], key, iterations, metric,
                             aucs.mean(), aucs.std(), np.nan, np.nan))  # fmt: skip
            p = 4 / (null_lists + 1)
            pv.append({"list": name, "embedding": emb, "negatives": "uniform",
                       "size": sizes[name], "auc": aucs.mean(), "method": "unmatched",
                       "method_requested": "unmatched", "method_reason": "configured",
                       "observed": aucs.mean(), "list_iterations": iterations,
                       "null_key": key, "null_size": sizes[name], "null_lists": null_lists,
                       "null_iterations": 10, "null_scale": 1.0, "within_var": np.nan,
                       "between_var": np.nan, "between_third": np.nan, "null_skewness": np.nan,
                       "null_auc_mean": 0.5, "null_auc_sd": 0.05,
                       "null_auc_min": 0.4, "null_auc_max": 0.6, "n_null_ge": 3,
                       "p_value": p, "p_mc_se": 0.01, "p_upper": p, "p_floor": 1 / (null_lists + 1),
                       "null_z": 1.0, "p_tail": np.nan, "power_alpha": 0.05, "power": 0.8,
                       "power_spread": 1.2, "auc_detectable": 0.6, "p_adjusted": 0.5,
                       "adjustment": "holm"})  # fmt: skip
        for size in sorted(set(sizes.values())):
            for j, a in enumerate(rng.normal(0.5, 0.3 / np.sqrt(size), null_lists)):
                null.append((emb, "uniform", f"size-{size}", size, j, j, 10, a, a, 1 - a, a, a,
                             *[0.01] * 5, *[0.0] * 5))  # fmt: skip

    def frame(rows, table):
        if rows and isinstance(rows[0], dict):
            return schemas.conform(pd.DataFrame(rows), table)
        return schemas.conform(pd.DataFrame(rows, columns=schemas.columns(table)), table)

    return lists, {
        "roc": frame(roc, "roc"),
        "iterations": frame(its, "iterations"),
        "summary": frame(summ, "summary"),
        "null": frame(null, "null"),
        "pvalues": frame(pv, "pvalues"),
    }


def png_size(path) -> tuple[int, int]:
    with open(path, "rb") as fh:
        head = fh.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def figures(lists, t):
    """(name, panels, inches of room for rotated names, figure)"""
    yield "roc", len(lists), 0.0, plots.roc_figure(t["roc"], lists, EMBEDDINGS, "ROC")
    auc = plots.auc_distribution_figure(t["iterations"], t["null"], lists, EMBEDDINGS, "AUC")
    yield "auc", len(lists), 0.06 * len("word2vec"), auc
    keys = t["pvalues"]["null_key"].nunique()
    yield "null", keys, 0.0, plots.null_histogram_figure(t["null"], t["pvalues"], "glove", "N")


@pytest.mark.parametrize("n_lists", [10, 100])
def test_figures_render_to_images_of_the_expected_size(tmp_path, n_lists):
    lists, t = tables(n_lists)
    for name, panels, room, fig in figures(lists, t):
        # every list (or null) has its own panel, and the empty slots are hidden
        assert sum(ax.get_visible() for ax in fig.axes) == panels
        png, svg = tmp_path / f"{name}.png", tmp_path / f"{name}.svg"
        plots.save(fig, png, svg)
        w, h = plots.figure_size(panels, extra_bottom=room)
        assert png_size(png) == (round(w * plots.DPI), round(h * plots.DPI))
        pixels = mpimg.imread(png)
        assert pixels[..., :3].std() > 0.05  # not a blank canvas
        assert svg.read_text().lstrip().startswith("<?xml") and "<svg" in svg.read_text()
    # the heatmap: one row per list, each row tall enough to read whatever the number of
    # lists (the figure grows instead), every cell's value written while they fit
    fig = plots.heatmap_figure(t["summary"], lists, EMBEDDINGS, "Heatmap")
    plots.save(fig, tmp_path / "heat.png")
    ax = fig.axes[0]
    assert ax.get_images()[0].get_array().shape == (n_lists, len(EMBEDDINGS))
    row_inches = ax.get_window_extent().height / fig.dpi / n_lists
    assert 0.2 < row_inches < 0.4, row_inches
    assert [t.get_text() for t in ax.get_yticklabels()] == lists
    written = [t.get_text() for t in ax.texts]
    assert len(written) == (n_lists * len(EMBEDDINGS) if n_lists <= 60 else 0)
    assert png_size(tmp_path / "heat.png")[1] == round(fig.get_figheight() * plots.DPI)
    # panels stay at their size: 100 lists make a larger figure, not smaller panels
    assert plots.grid(100) == (9, 12) and plots.grid(10) == (3, 4)


def test_grid_holds_every_panel():
    for n in range(1, 300):
        rows, cols = plots.grid(n)
        assert rows * cols >= n and (rows - 1) * cols < n and cols <= 12


def test_roc_curves_are_the_tables_numbers():
    lists, t = tables(3)
    fig = plots.roc_figure(t["roc"], lists, EMBEDDINGS, "ROC")
    ax = fig.axes[1]
    assert ax.get_title() == lists[1]
    lines = [ln for ln in ax.get_lines() if ln.get_linestyle() == "-"]
    assert len(lines) == len(EMBEDDINGS)
    for line, emb in zip(lines, EMBEDDINGS, strict=True):
        roc = t["roc"]
        r = roc[(roc["list"] == lists[1]) & (roc["embedding"] == emb)].sort_values("fpr")
        np.testing.assert_array_equal(line.get_xdata(), r["fpr"])
        np.testing.assert_array_equal(line.get_ydata(), r["tpr_mean"])
    plots.save(fig)


def test_heatmap_cells_are_the_mean_aucs():
    lists, t = tables(5)
    fig = plots.heatmap_figure(t["summary"], lists, EMBEDDINGS, "Heatmap")
    image = fig.axes[0].get_images()[0].get_array()
    s = t["summary"].query("metric == 'auc'")
    for i, name in enumerate(lists):
        for j, emb in enumerate(EMBEDDINGS):
            want = s[(s["list"] == name) & (s["embedding"] == emb)]["mean"].item()
            assert image[i, j] == pytest.approx(want, abs=0)
    texts = {tx.get_text() for tx in fig.axes[0].texts}
    assert f"{s['mean'].iloc[0]:.3f}" in texts
    plots.save(fig)


def test_null_histograms_count_every_random_list_and_mark_every_list():
    lists, t = tables(6, null_lists=37)
    fig = plots.null_histogram_figure(t["null"], t["pvalues"], "fasttext", "Null")
    pv = t["pvalues"].query("embedding == 'fasttext'")
    visible = [ax for ax in fig.axes if ax.get_visible() and ax.patches]
    assert len(visible) == pv["null_key"].nunique() == 3
    for ax in visible:
        assert ax.patches[0].get_data().values.sum() == 37
    marked = sorted(
        ln.get_xdata()[0]
        for ax in visible
        for ln in ax.get_lines()
        if ln.get_color() == plots.LIST_COLOR
    )
    np.testing.assert_allclose(marked, sorted(pv["auc"]))
    # each p-value label stands a few points off its line, on the side facing the middle
    for ax in visible:
        for label in ax.texts:
            assert label.get_anncoords() == "offset points" and abs(label.xyann[0]) >= 3
            assert (label.xyann[0] < 0) == (label.xy[0] > 0.5)
    # the random lists' count is in the legend, not in every panel title
    assert all(ax.get_title().startswith("n = ") and "random" not in ax.get_title()
               for ax in visible)  # fmt: skip
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any("37 random lists per panel" in t for t in legend), legend
    plots.save(fig)


def test_auc_boxes_summarise_the_iterations_and_the_matching_null():
    lists, t = tables(2)
    fig = plots.auc_distribution_figure(t["iterations"], t["null"], lists, EMBEDDINGS, "AUC")
    ax = fig.axes[0]
    medians = [ln.get_ydata()[0] for ln in ax.get_lines() if ln.get_color() == "k"
               and len(ln.get_xdata()) == 2 and ln.get_xdata()[0] != ln.get_xdata()[1]]  # fmt: skip
    its, null = t["iterations"], t["null"]
    it = its[(its["list"] == lists[0]) & (its["embedding"] == "word2vec")]
    nl = null[(null["embedding"] == "word2vec") & (null["null_key"] == it["null_key"].iloc[0])]
    # the first two medians drawn: word2vec's iterations, then its null
    assert medians[0] == pytest.approx(np.median(it["auc"]))
    assert medians[1] == pytest.approx(np.median(nl["auc"]))
    plots.save(fig)


def test_pseudo_curves_are_the_fold_means(tmp_path):
    rng = np.random.default_rng(0)
    rows = []
    for emb in EMBEDDINGS:
        for fold in range(5):
            rows.append((emb, "cosine", 0, fold, rng.random()))
            rows.append((emb, "unigram", 0, fold, 0.8))
            for k in (1, 5, 20):
                rows.append((emb, "knn", k, fold, rng.random()))
    df = pd.DataFrame(rows, columns=["embedding", "method", "k", "fold", "error_rate"])
    fig = plots.pseudo_figure(df, "Pseudo")
    ax = fig.axes[0]
    curves = [c for c in ax.containers]  # one errorbar container per embedding
    assert len(curves) == len(EMBEDDINGS)
    for container, emb in zip(curves, EMBEDDINGS, strict=True):
        line = container.lines[0]
        want = df[(df["embedding"] == emb) & (df["method"] == "knn")].groupby("k")["error_rate"]
        np.testing.assert_allclose(np.asarray(line.get_ydata(), float), want.mean().to_numpy())
        np.testing.assert_array_equal(np.asarray(line.get_xdata(), float), [1, 5, 20])
    assert ax.get_xscale() == "log" and "error rate" in ax.get_ylabel()
    plots.save(fig, tmp_path / "p.png")
    w, h = plots.PSEUDO_SIZE
    assert png_size(tmp_path / "p.png") == (round(w * plots.DPI), round(h * plots.DPI))


def test_figures_for_papers_pdf_and_svg_keep_text_and_rerun_to_the_same_bytes(tmp_path):
    """PNG at 200 dpi, an SVG whose text is text (editable), a PDF with embedded TrueType
    fonts (selectable), and no dates inside, so a rerun writes identical files."""
    lists, t = tables(3)
    paths = [tmp_path / f"roc.{ext}" for ext in plots.FORMATS]
    runs = []
    for _ in range(2):
        plots.save(plots.roc_figure(t["roc"], lists, EMBEDDINGS, "ROC title"), *paths)
        runs.append([p.read_bytes() for p in paths])
    assert runs[0] == runs[1]
    svg = paths[1].read_text(encoding="utf-8")
    assert "<text" in svg and "ROC title" in svg
    pdf = paths[2].read_bytes()
    # TrueType glyphs (as Type 0 / CIDFontType2 in matplotlib), not Type 3 outlines
    assert pdf.startswith(b"%PDF") and b"/CIDFontType2" in pdf and b"/Type3" not in pdf
    w, h = plots.figure_size(3)
    assert png_size(paths[0]) == (round(w * 200), round(h * 200))


def test_palette_is_colour_blind_safe_with_baselines_in_grey():
    names = ["fasttext", "glove", "word2vec", "random"]
    col = plots.colors(names, baselines=["random"])
    assert [col[n] for n in names[:3]] == plots.OKABE_ITO[:3]
    assert col["random"] == plots.BASELINE_COLOR
    # GloVe beside random was green beside red (tab10): now no red and green pair
    assert col["glove"] != col["random"] and len(set(col.values())) == 4


def test_long_list_names_are_cut_to_fit_their_panel():
    long = "noun_communication_and_other_very_long_things"
    assert plots.panel_title(long).endswith("\u2026") and len(plots.panel_title(long)) == 26
    assert plots.panel_title("family") == "family"


def test_a_long_title_stays_inside_a_narrow_figure():
    """A heatmap of three embeddings is narrow; the title (corpus, config, scheme) wraps
    to the figure's width instead of running off both edges."""
    lists, t = tables(3)
    title = ("Mean ROC AUC per list and embedding\npretrained embeddings, config GloVe 6B "
             "50d (config/glove6b50d.yaml), uniform non-members")  # fmt: skip
    fig = plots.heatmap_figure(t["summary"], lists, EMBEDDINGS[:3], title)
    fig.canvas.draw()
    box = fig._suptitle.get_window_extent()
    assert box.x0 >= 0 and box.x1 <= fig.bbox.width, (box, fig.bbox.width)
    assert fig._suptitle.get_text().count("\n") >= 2  # its second line was wrapped


def test_the_entanglement_heatmap_counts_and_marks_each_embedding_s_own_pairs():
    """Each panel's title counts its own embedding's entangled pairs, and those beyond
    chance only and by overlap, as the table's statuses give them (tests/tangles.py: the
    two embeddings differ); its cells carry one mark per such pair."""
    import tangles

    table = tangles.table()
    fig = plots.entanglement_figure(table, tangles.LISTS, list(tangles.STATUS), "E")
    panels = [ax for ax in fig.axes if ax.get_title()]
    assert len(panels) == len(tangles.STATUS)
    for ax, emb in zip(panels, tangles.STATUS, strict=True):
        c = tangles.count(emb)
        assert (f"{c['entangled']} of {c['tested']} pairs entangled (*)\n{c['chance']} beyond "
                f"chance only (+), {c['overlap']} overlap (o)") in ax.get_title()  # fmt: skip
        texts = [t.get_text() for t in ax.texts]
        for mark, key in (("*", "entangled"), ("+", "chance"), ("o", "overlap")):
            assert sum(t.endswith(mark) for t in texts) == c[key], (emb, mark, texts)
    plots.save(fig)
