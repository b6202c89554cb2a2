"""How a table is written for people: a cell as the paper prints it (three decimals,
tiny p-values in scientific notation, a p-value at its floor as "< x"), Markdown and
LaTeX booktabs with bold and italic marks, and the atomic write of a table's Markdown,
CSV and LaTeX files. Every table of :mod:`learnability.reports` goes through these."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from learnability.io import atomic_path

# the summary rows under a table of lists (Table 6's): a rule goes above the first
SUMMARY_ROWS = ("Mean", "Median", "random(max)", "random(avg)")
RANDOM_ROWS = ("random(max)", "random(avg)")


def format_value(v: object, digits: int = 3) -> str:
    """One cell as the paper prints it: floats to ``digits`` decimals (tiny p-values in
    scientific notation rather than as 0.000), integers as integers, missing as blank."""
    if isinstance(v, float | np.floating):
        if np.isnan(v):
            return ""
        if v != 0 and abs(v) < 10**-digits:
            return f"{v:.1e}"
        return f"{v:.{digits}f}"
    if isinstance(v, int | np.integer):
        return str(int(v))
    return "" if v is None or v is pd.NA else str(v)


def ceil_significant(x: float, digits: int = 2) -> float:
    """``x`` rounded *up* to ``digits`` significant digits, so that "< x" stays true."""
    if not np.isfinite(x) or x <= 0:
        return float(x)
    exponent = int(np.floor(np.log10(x))) - digits + 1
    return float(np.ceil(x / 10.0**exponent - 1e-9) * 10.0**exponent)


def format_pvalue(p: float, floor: float = float("nan"), *, from_floor: bool = False) -> str:
    """A p-value for people. At its floor 1 / (R + 1) (no random list reached the list)
    the true p is smaller than printed: "< 0.001". ``from_floor`` marks a p adjusted from
    raw p-values at the floor, which the true adjusted p does not exceed: "<= 0.008"."""
    if p is None or not np.isfinite(p):
        return ""
    if from_floor:
        return f"<= {ceil_significant(p):g}"
    if np.isfinite(floor) and p <= floor * (1 + 1e-9):
        return f"< {ceil_significant(floor):g}"
    return format_value(float(p))


def to_markdown(
    df: pd.DataFrame,
    digits: int = 3,
    bold: pd.DataFrame | None = None,
    italic: pd.DataFrame | None = None,
) -> str:
    """A GitHub-flavoured Markdown table; floats rounded to ``digits`` as in the paper;
    cells flagged in ``bold``/``italic`` (frames shaped like ``df``) emphasised."""
    header = "| " + " | ".join(map(str, df.columns)) + " |"
    numeric = [pd.api.types.is_numeric_dtype(df[c]) for c in df.columns]
    align = "|" + "|".join("---:" if n else "---" for n in numeric) + "|"
    cells = _cells(df, digits, bold, italic, ("**", "**"), ("*", "*"), lambda s: s)
    body = ["| " + " | ".join(row) + " |" for row in cells]
    return "\n".join([header, align, *body]) + "\n"


_LATEX_SPECIAL = {c: "\\" + c for c in "&%$#_{}"}
_LATEX_SPECIAL.update(
    {"~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}
)
# "< 0.001": in LaTeX's default font encoding a bare < prints as an inverted !
_LATEX_SPECIAL.update({"<": r"\textless{}", ">": r"\textgreater{}"})


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


def to_latex(
    df: pd.DataFrame,
    digits: int = 3,
    bold: pd.DataFrame | None = None,
    italic: pd.DataFrame | None = None,
    rule_before: tuple[str, ...] = SUMMARY_ROWS,
    group_sep: str | None = None,
) -> str:
    """A booktabs ``tabular`` (needs ``\\usepackage{booktabs}``): text columns left-aligned,
    numbers right-aligned, a ``\\midrule`` before the first summary row (Mean, random...),
    emphasis as :func:`to_markdown`."""
    numeric = [pd.api.types.is_numeric_dtype(df[c]) for c in df.columns]
    spec = "".join("r" if n else "l" for n in numeric)
    lines = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule"]
    names = [str(c) for c in df.columns]
    if group_sep is not None:
        # "group: column" names: a spanning group row over its columns, then the columns
        split = [n.split(group_sep, 1) if group_sep in n else ["", n] for n in names]
        spans: list[list] = []
        for group, _ in split:
            if spans and spans[-1][0] == group:
                spans[-1][1] += 1
            else:
                spans.append([group, 1])
        cells, rules, col = [], [], 1
        for group, width in spans:
            cells.append(f"\\multicolumn{{{width}}}{{c}}{{{latex_escape(group)}}}" if group else "")
            cells += [""] * (width - 1) if not group else []
            if group:
                rules.append(f"\\cmidrule(lr){{{col}-{col + width - 1}}}")
            col += width
        lines.append(" & ".join(cells) + r" \\")
        lines.append(" ".join(rules))
        names = [n for _, n in split]
    lines.append(" & ".join(latex_escape(n) for n in names) + r" \\")
    lines.append("\\midrule")
    cells = _cells(df, digits, bold, italic, (r"\textbf{", "}"), (r"\textit{", "}"), latex_escape)
    ruled = False
    first = df.columns[0]
    for label, row in zip(df[first].astype(str), cells, strict=True):
        if not ruled and label in rule_before and len(lines) > 4:
            lines.append("\\midrule")
            ruled = True
        lines.append(" & ".join(row) + r" \\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n"


def _cells(df, digits, bold, italic, b, i, escape) -> list[list[str]]:
    out = []
    for r in range(len(df)):
        row = []
        for c in range(len(df.columns)):
            text = escape(format_value(df.iat[r, c], digits))
            if text and italic is not None and italic.iat[r, c]:
                text = i[0] + text + i[1]
            if text and bold is not None and bold.iat[r, c]:
                text = b[0] + text + b[1]
            row.append(text)
        out.append(row)
    return out


def write_text(text: str, path: str | os.PathLike[str]) -> None:
    with atomic_path(path) as tmp:
        Path(tmp).write_text(text, encoding="utf-8")


def write_table_files(
    df: pd.DataFrame,
    md_path: str | os.PathLike[str],
    csv_path: str | os.PathLike[str] | None = None,
    title: str = "",
    tex_path: str | os.PathLike[str] | None = None,
    bold: pd.DataFrame | None = None,
    italic: pd.DataFrame | None = None,
    footer: str = "",
) -> None:
    """``footer``: Markdown after the table (notes, a further section)."""
    md = (f"## {title}\n\n" if title else "") + to_markdown(df, bold=bold, italic=italic)
    md += ("\n" + footer) if footer else ""
    write_text(md, md_path)
    if csv_path is not None:
        with atomic_path(csv_path) as tmp:
            df.to_csv(tmp, index=False)
    if tex_path is not None:
        tex = (f"% {title}\n" if title else "") + to_latex(df, bold=bold, italic=italic)
        write_text(tex, tex_path)
