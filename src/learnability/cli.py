"""Command-line tools over the same functions the workflow uses.

- ``learnability compare --aucs FILE.csv``: the comparison stage on a table of per-list
  AUCs in long format (``list,embedding,auc``), e.g. numbers copied from a paper.
- ``learnability empath-lists DIR``: regenerate the shipped open word lists.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from learnability.errors import InputError


def read_aucs(path: Path) -> pd.DataFrame:
    """Read a long-format AUC table and shape it like the workflow's summary table."""
    try:
        df = pd.read_csv(path)
    except (OSError, pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read it as CSV ({exc})") from exc
    missing = {"list", "embedding", "auc"} - set(df.columns)
    if missing:
        raise InputError(
            f"{path}: missing columns {sorted(missing)}; expected a header "
            "'list,embedding,auc' and one row per (list, embedding)"
        )
    bad = pd.to_numeric(df["auc"], errors="coerce").isna()
    if bad.any():
        line = int(bad.to_numpy().nonzero()[0][0]) + 2  # header is line 1
        raise InputError(f"{path}, line {line}: auc {df['auc'][bad].iloc[0]!r} is not a number")
    dup = df.duplicated(["list", "embedding"])
    if dup.any():
        row = df[dup].iloc[0]
        raise InputError(
            f"{path}: list {row['list']!r} appears twice for embedding {row['embedding']!r}"
        )
    return pd.DataFrame(
        {
            "list": df["list"].astype(str),
            "embedding": df["embedding"].astype(str),
            "negatives": "n/a",  # unknown for published numbers
            "metric": "auc",
            "mean": df["auc"].astype(float),
        }
    )


def compare_command(args: argparse.Namespace) -> int:
    from learnability.io import write_table
    from learnability.stats import compare_embeddings
    from learnability.tables import to_markdown

    summary = read_aucs(args.aucs)
    embeddings = args.embeddings or list(dict.fromkeys(summary["embedding"]))
    result = compare_embeddings(summary, embeddings, args.alternative)
    print(to_markdown(result), end="")
    if args.out:
        if args.out.suffix == ".parquet":
            write_table(result, args.out, "wilcoxon")
        else:
            result.to_csv(args.out, index=False)
    return 0


def empath_command(args: argparse.Namespace) -> int:
    from learnability.empath import build_lists

    for name, n in build_lists(args.out_dir).items():
        print(f"{name}\t{n}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="learnability", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    cmp_ = sub.add_parser("compare", help="Wilcoxon tests on a CSV of per-list AUCs")
    cmp_.add_argument("--aucs", type=Path, required=True, help="CSV with list,embedding,auc")
    cmp_.add_argument(
        "--embeddings", nargs="+", help="embeddings to compare (default: all, in file order)"
    )
    cmp_.add_argument("--alternative", choices=["greater", "less", "two-sided"], default="greater")
    cmp_.add_argument("--out", type=Path, help="write the table (.csv, or .parquet)")
    cmp_.set_defaults(func=compare_command)
    emp = sub.add_parser("empath-lists", help="regenerate the shipped Empath word lists")
    emp.add_argument("out_dir", type=Path)
    emp.set_defaults(func=empath_command)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (InputError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
