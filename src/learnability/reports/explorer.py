"""One self-contained HTML page to click through a run: for each (embedding, list), its
members ranked by held-out score with the outsiders marked, its suggested additions, a 2D
projection of members, suggestions and random non-members, and the embedding's
entanglement heatmap; a selector switches between lists.

Drawn with Plotly (plotly.py): it writes the whole plotly.js bundle into the page
(``include_plotlyjs=True``), so the file opens from disk with no server and no network,
and its selector (an ``updatemenus`` dropdown that switches trace visibility) needs no
JavaScript of ours. Bokeh inlines its JavaScript too, but a selector there is a
``CustomJS`` callback, i.e. hand-written chart code; Altair/Vega-Lite needs its three
libraries from a CDN unless a separate package inlines them.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from learnability.io import atomic_path
from learnability.protocol.sampling import derive_seed
from learnability.reports.formats import format_pvalue

# a member is an outsider when its held-out score beats fewer than half of the split's
# test non-members: the embedding places it with the non-members, not the list
OUTSIDER_SHARE = 0.5
SUGGESTIONS_SHOWN = 20
# the subtitle's longest line: at its font (12 px, about 6.5 px a character) 90 fit in
# the 700 px that plotly draws a page of unknown width at, within its margins
SUBTITLE_CHARACTERS = 90
COLORS = {"member": "#0072B2", "outsider": "#D55E00", "suggestion": "#009E73",
          "non-member": "#BBBBBB"}  # fmt: skip


@dataclass
class Panel:
    """What the page shows for one (embedding, list)."""

    embedding: str
    list: str
    auc: float
    members: pd.DataFrame  # schema members, of this list and embedding
    suggestions: pd.DataFrame  # schema suggestions
    projection: pd.DataFrame  # word, role, x, y
    # its test against random lists and what that test could have seen (verdict())
    verdict: str = ""


def projection(
    vectors: np.ndarray,
    words: Sequence[str],
    members: np.ndarray,
    suggested: np.ndarray,
    *,
    non_members: int,
    seed: int,
    list_name: str,
) -> pd.DataFrame:
    """Members, suggested words and ``non_members`` random other words on the first two
    principal components of those rows (signs fixed so that the members' mean is on the
    positive side of each axis)."""
    n = vectors.shape[0]
    outside = np.setdiff1d(np.arange(n), np.union1d(members, suggested))
    rng = np.random.default_rng(derive_seed(seed, "explorer", list_name))
    others = np.sort(rng.choice(outside, min(non_members, outside.size), replace=False))
    rows = np.concatenate([members, suggested, others]).astype(np.int64)
    roles = (
        ["member"] * len(members) + ["suggestion"] * len(suggested) + ["non-member"] * len(others)
    )
    x = np.asarray(vectors[rows], dtype=np.float64)
    x -= x.mean(axis=0)
    _, _, vt = np.linalg.svd(x, full_matrices=False)
    xy = x @ vt[:2].T
    if xy.shape[1] < 2:
        xy = np.column_stack([xy, np.zeros(len(rows))])
    signs = np.sign(xy[: len(members)].mean(axis=0))
    xy *= np.where(signs == 0, 1.0, signs)
    return pd.DataFrame({"index": rows, "word": [str(words[i]) for i in rows], "role": roles,
                         "x": xy[:, 0], "y": xy[:, 1]})  # fmt: skip


def _member_traces(panel: Panel):

    m = panel.members.dropna(subset=["rank"]).sort_values("rank")
    outsider = m["mean_share_outscored"] < OUTSIDER_SHARE
    return go.Scatter(
        x=m["rank"].astype(int),
        y=m["mean_share_outscored"],
        mode="markers",
        marker={
            "color": np.where(outsider, COLORS["outsider"], COLORS["member"]).tolist(),
            "size": 7,
            "symbol": np.where(outsider, "x", "circle").tolist(),
        },  # fmt: skip
        text=m["word"],
        hovertemplate="%{text}<br>rank %{x}<br>share outscored %{y:.3f}<extra></extra>",
        name="members (x: outsiders)",
        showlegend=False,
    )


def _suggestion_table(panel: Panel):

    s = panel.suggestions.sort_values("rank").head(SUGGESTIONS_SHOWN)
    return go.Table(
        header={
            "values": ["#", "suggested word", "mean probability", "top share", "count"],
            "fill_color": "#E8F4EF",
            "align": "left",
        },  # fmt: skip
        cells={
            "values": [
                s["rank"],
                s["word"],
                s["mean_probability"].round(3),
                s["top_share"].round(2),
                s["count"],
            ],
            "align": "left",
        },  # fmt: skip
    )


def _projection_traces(panel: Panel):

    p = panel.projection
    outsiders = set(panel.members.loc[panel.members["mean_share_outscored"] < OUTSIDER_SHARE,
                                      "word"])  # fmt: skip
    role = np.where(p["role"].eq("member") & p["word"].isin(outsiders), "outsider", p["role"])
    traces = []
    for name in ("non-member", "member", "outsider", "suggestion"):
        part = p[role == name]
        traces.append(
            go.Scatter(
                x=part["x"], y=part["y"], mode="markers", name=name, text=part["word"],
                marker={"color": COLORS[name], "size": 6 if name == "non-member" else 8,
                        "symbol": {"outsider": "x", "suggestion": "diamond"}.get(name, "circle")},
                hovertemplate="%{text}<extra>" + name + "</extra>",
            )
        )  # fmt: skip
    return traces


def wrapped(text: str, width: int = SUBTITLE_CHARACTERS) -> str:
    """``text`` broken into lines of at most ``width`` characters (plotly does not wrap
    a title), joined by ``<br>``."""
    return "<br>".join(textwrap.wrap(text, width, break_long_words=False))


def explorer_figure(panels: Sequence[Panel], entanglement: pd.DataFrame | None, title: str):
    """The page's one figure: 2 x 2 panels and a dropdown over (embedding, list)."""
    from plotly.subplots import make_subplots

    embeddings = list(dict.fromkeys(p.embedding for p in panels))
    fig = make_subplots(
        rows=2, cols=2,
        specs=[[{"type": "xy"}, {"type": "table"}], [{"type": "xy"}, {"type": "xy"}]],
        subplot_titles=["Members by held-out score (x: outsiders)", "Suggested additions",
                        "Projection: first two principal components",
                        "Entanglement: B's AUC above chance lost when A is erased"],
        horizontal_spacing=0.12, vertical_spacing=0.1,
    )  # fmt: skip
    owner: list[tuple[str, str | None]] = []  # each trace's (embedding, list); None: heatmap
    for panel in panels:
        fig.add_trace(_member_traces(panel), row=1, col=1)
        fig.add_trace(_suggestion_table(panel), row=1, col=2)
        owner += [(panel.embedding, panel.list)] * 2
        for trace in _projection_traces(panel):
            fig.add_trace(trace, row=2, col=1)
            owner.append((panel.embedding, panel.list))
    if entanglement is not None and len(entanglement):
        from learnability.analyses.entanglement import short_count

        for emb in embeddings:
            part = entanglement[entanglement["embedding"] == emb]
            if part.empty:
                continue
            order = list(dict.fromkeys(part["list_a"]))
            # only the pairs beyond the null after adjustment (and the diagonal, each
            # list erased from itself): the rest of a matrix of shares is mostly noise;
            # what each shown pair is reported as, in its hover text
            diagonal = part["list_a"] == part["list_b"]
            beyond = part["beyond_null"].astype(bool) | diagonal
            status = np.select(
                [diagonal, part["entangled"].astype(bool), part["overlap"].astype(bool),
                 beyond], ["itself", "entangled", "overlap: by shared members alone",
                 "beyond chance only: share not shown above the margin"], ""
            )  # fmt: skip
            shown = part.assign(share=part["share"].where(beyond), status=status)
            m, what = (
                shown.pivot(index="list_a", columns="list_b", values=column).reindex(
                    index=order, columns=order
                )
                for column in ("share", "status")
            )
            # its own embedding's counts: a name of its own, not the page's title
            legend = "share: " + short_count(part).replace("; ", "<br>")
            fig.add_trace(
                go.Heatmap(z=m.to_numpy(), x=order, y=order, zmin=-1, zmax=1,
                           colorscale="RdBu", reversescale=True,
                           customdata=what.fillna("").to_numpy(),
                           colorbar={"title": legend, "len": 0.42, "y": 0.2},
                           hovertemplate="erase %{y}, rescore %{x}: %{z:.2f}"
                                         "<br>%{customdata}<extra></extra>"),
                row=2, col=2,
            )  # fmt: skip
            owner.append((emb, None))
    buttons = []
    for panel in panels:
        visible = [e == panel.embedding and (li is None or li == panel.list) for e, li in owner]
        label = f"{panel.list} · {panel.embedding}"
        # the subtitle wrapped: one line of it ran off the page's right edge
        sub = wrapped(f"{panel.list} on {panel.embedding}: mean AUC {panel.auc:.3f}, "
                      f"{len(panel.members)} members{panel.verdict}")  # fmt: skip
        heading = f"{title}<br><sub>{sub}</sub>"
        buttons.append({"label": label, "method": "update",
                        "args": [{"visible": visible}, {"title.text": heading}]})  # fmt: skip
    first = buttons[0]["args"] if buttons else [{"visible": []}, {"title.text": title}]
    for trace, shown in zip(fig.data, first[0]["visible"], strict=True):
        trace.visible = shown
    fig.update_layout(
        title={"text": first[1]["title.text"], "x": 0.01},
        height=980,
        margin={"t": 160, "l": 60, "r": 40, "b": 60},
        legend={"orientation": "h", "y": -0.06, "x": 0.0},
        updatemenus=[
            {
                "buttons": buttons,
                "direction": "down",
                "x": 1.0,
                "xanchor": "right",
                "y": 1.1,
                "yanchor": "top",
                "showactive": True,
                "active": 0,
            }
        ],  # fmt: skip
        template="plotly_white",
    )
    fig.update_xaxes(title_text="rank in the list (1 = strongest)", row=1, col=1)
    fig.update_yaxes(title_text="share of test non-members outscored", row=1, col=1)
    fig.update_xaxes(title_text="PC 1", row=2, col=1)
    fig.update_yaxes(title_text="PC 2", row=2, col=1)
    fig.update_xaxes(title_text="rescored list (B)", row=2, col=2)
    fig.update_yaxes(title_text="erased list (A)", autorange="reversed", row=2, col=2)
    return fig


def write_explorer(fig, path: str | os.PathLike[str]) -> None:
    """The figure as one HTML file with plotly.js inside it (about 5 MB): it opens from
    disk in any browser, offline. The div id is fixed so a rerun writes the same bytes."""
    html = fig.to_html(include_plotlyjs=True, full_html=True, div_id="explorer",
                       config={"responsive": True, "displaylogo": False})  # fmt: skip
    with atomic_path(path) as tmp:
        tmp.write_text(html, encoding="utf-8")


def verdict(pvalues: pd.DataFrame | None, bounds: pd.DataFrame | None, embedding: str,
            name: str) -> str:  # fmt: skip
    """One list's test in words, for its panel's heading: its p-value, the smallest AUC
    that test detects (power), and its bounds from its members where there are some."""
    parts = []
    if pvalues is not None:
        pv = pvalues[(pvalues["list"] == name) & (pvalues["embedding"] == embedding)]
        if len(pv):
            r = pv.iloc[0]
            parts.append(f"p {format_pvalue(float(r['p_value']), float(r['p_floor']))}")
            sde, level = float(r["auc_detectable"]), float(r["power_alpha"])
            parts.append(
                f"{float(r['power']):.0%} power from AUC {sde:.3f} (p <= {level:g})"
                if np.isfinite(sde) else "no AUC detectable at this size"
            )  # fmt: skip
    if bounds is not None:
        b = bounds[(bounds["list"] == name) & (bounds["embedding"] == embedding)]
        if len(b) and np.isfinite(float(b["auc_high"].iloc[0])):
            r = b.iloc[0]
            parts.append(f"AUC {float(r['auc_low']):.3f}-{float(r['auc_high']):.3f} "
                         f"({float(r['confidence']):.0%} bounds each)")  # fmt: skip
    return "".join(f"; {p}" for p in parts)


def panels_for(
    vectors: np.ndarray,
    words: Sequence[str],
    *,
    embedding: str,
    lists: Sequence[str],
    members: pd.DataFrame,
    suggestions: pd.DataFrame,
    summary: pd.DataFrame,
    non_members: int,
    seed: int,
    pvalues: pd.DataFrame | None = None,
    bounds: pd.DataFrame | None = None,
) -> list[Panel]:
    """The panels of one embedding, one per list that has members and suggestions; with
    ``pvalues`` and ``bounds``, each heading says what the list's test could have seen
    (:func:`verdict`)."""
    out = []
    auc = summary[(summary["metric"] == "auc") & (summary["embedding"] == embedding)]
    auc = auc.set_index("list")["mean"]
    for name in lists:
        m = members[(members["list"] == name) & (members["embedding"] == embedding)]
        s = suggestions[(suggestions["list"] == name) & (suggestions["embedding"] == embedding)]
        if m.empty:
            continue
        proj = projection(vectors, words, m["index"].to_numpy(), s["index"].to_numpy(),
                          non_members=non_members, seed=seed, list_name=name)  # fmt: skip
        out.append(Panel(embedding, name, float(auc.get(name, np.nan)), m, s, proj,
                         verdict(pvalues, bounds, embedding, name)))  # fmt: skip
    return out
