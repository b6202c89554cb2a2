"""Command-line tools over the same functions the workflow uses.

- ``learnability compare --aucs FILE.csv``: the comparison stage on a table of per-list
  AUCs in long format (``list,embedding,auc``), e.g. numbers copied from a paper.
- ``learnability evaluate --embedding PATH --lists PATH``: learnability, a size-matched
  null and the member diagnostics of one embedding, without a Snakemake config.
- ``learnability empath-lists DIR``: regenerate the shipped open word lists.
"""

from __future__ import annotations

import argparse
import logging
import sys
import traceback
from pathlib import Path

import pandas as pd

from learnability.errors import InputError
from learnability.io import atomic_path


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
    result = compare_embeddings(summary, embeddings, args.alternative, vocabulary="n/a")
    print(to_markdown(result), end="")
    if args.out:
        if args.out.suffix == ".parquet":
            write_table(result, args.out, "wilcoxon")
        else:
            with atomic_path(args.out) as tmp:
                result.to_csv(tmp, index=False)
    return 0


def load_lists(path: Path) -> dict[str, list]:
    """Concept lists from a ``.txt`` list, a dictionary (``.dic``, a ``word,category``
    ``.csv``/``.tsv`` or Empath's ``categories.tsv``; every category) or a directory of
    ``.txt`` lists (and ``.dic`` files)."""
    from learnability.concepts import read_dictionary, read_wordlist

    if path.is_dir():
        files = sorted(path.glob("*.txt")) + sorted(path.glob("*.dic"))
        if not files:
            raise InputError(f"{path}: no *.txt lists or *.dic dictionaries in this folder")
    elif path.is_file():
        files = [path]
    else:
        raise InputError(f"{path}: no such file or folder of word lists")
    lists: dict[str, list] = {}
    for f in files:
        if f.suffix.lower() in (".dic", ".csv", ".tsv"):
            dic = read_dictionary(f)
            for category, entries in dic.entries.items():
                if entries:
                    lists[f"{f.stem}_{category}"] = entries
        else:
            lists[f.stem] = read_wordlist(f)
    return lists


def open_embedding(
    path: Path,
    tmp: Path,
    fmt: str,
    max_vocab: int | None,
    allow_pickle: bool = False,
    unicode_errors: str = "strict",
):
    """An embedding directory as the workflow writes it, or any supported file, imported
    into ``tmp`` first; loaded memory-mapped."""
    from learnability.embeddings import load_embedding
    from learnability.embeddings.pretrained import import_embedding

    if path.is_dir():
        if not (path / "vectors.npy").is_file() or not (path / "vocab.parquet").is_file():
            raise InputError(
                f"{path}: a folder must hold vectors.npy and vocab.parquet (the workflow's "
                "results/embeddings/NAME); or give the embedding file itself"
            )
        return load_embedding(path, mmap=True)
    meta = import_embedding(
        path,
        tmp,
        name=path.name,
        fmt=fmt,
        max_vocab=max_vocab,
        allow_pickle=allow_pickle,
        unicode_errors=unicode_errors,
    )
    if meta["n_undecodable"]:
        shown = ", ".join(f"{w['where']} {w['bytes']!r}" for w in meta["undecodable_words"][:5])
        print(
            f"{path}: {meta['n_undecodable']} words not UTF-8 ({unicode_errors}): {shown}",
            file=sys.stderr,
        )
    return load_embedding(tmp, mmap=True)


def evaluate_command(args: argparse.Namespace) -> int:
    import tempfile

    import numpy as np

    from learnability.concepts import coverage, member_indices, resolve
    from learnability.evaluate import (
        MIN_WORDS,
        Protocol,
        evaluate_concept_full,
        null_distribution,
        summarize,
    )
    from learnability.stats import compare_with_null, comparison_null, first_iterations_mean
    from learnability.tables import member_extremes, to_markdown

    lists = load_lists(args.lists)
    with tempfile.TemporaryDirectory() as tmp:
        emb = open_embedding(
            args.embedding,
            Path(tmp),
            args.format,
            args.max_vocab,
            args.allow_pickle,
            args.unicode_errors,
        )
        vocab = pd.Series(emb.words)
        name = args.embedding.name
        protocol = Protocol(iterations=args.iterations, C=args.C, seed=args.seed)
        rows, members, nulls = [], [], {}
        for list_name, entries in lists.items():
            resolved = resolve(
                entries, emb.words, list_name=list_name, embedding=name, source=str(args.lists)
            )
            idx = member_indices(resolved, vocab)
            cov = coverage(resolved).iloc[0]
            if idx.size < MIN_WORDS:
                print(
                    f"skipped {list_name}: {idx.size} of its {cov['n_entries']} entries are in "
                    f"the vocabulary; at least {MIN_WORDS} are needed",
                    file=sys.stderr,
                )
                continue
            result = evaluate_concept_full(
                emb.vectors, idx, protocol, list_name=list_name, embedding=name, vocabulary=vocab
            )
            summary = summarize(result.iterations, bootstrap=0).set_index("metric")["mean"]
            size = int(np.unique(idx).size)
            if size not in nulls:
                nulls[size] = null_distribution(
                    emb.vectors,
                    size=size,
                    lists=args.null_lists,
                    iterations=(
                        args.iterations if args.pvalue_method == "matched" else args.null_iterations
                    ),
                    C=args.C,
                    seed=args.seed + 1,
                    embedding=name,
                )
            values, k_null, *_ = comparison_null(nulls[size], args.pvalue_method, args.iterations)
            observed = summary["auc"]
            if args.pvalue_method == "truncated":
                observed = float(first_iterations_mean(result.iterations, k_null).iloc[0])
            test = compare_with_null(observed, values)
            rows.append(
                {
                    "list": list_name,
                    "entries": int(cov["n_entries"]),
                    "in_vocab": size,
                    "accuracy": summary["accuracy"],
                    "recall": summary["recall"],
                    "fpr": summary["fpr"],
                    "precision": summary["precision"],
                    "auc": summary["auc"],
                    "p_value": test["p_value"],
                    "p_tail": test["p_tail"],
                    "null_z": test["null_z"],
                }
            )
            members.append(result.members)
    if not rows:
        raise InputError(f"{args.lists}: no list has enough words in {args.embedding}")
    table = pd.DataFrame(rows)
    print(f"## {name}: {args.iterations} iterations per list, p-values ({args.pvalue_method}) "
          f"against {args.null_lists} random lists of the same size, smallest possible p "
          f"1/{args.null_lists + 1}\n")  # fmt: skip
    print(to_markdown(table))
    weakest = member_extremes(pd.concat(members, ignore_index=True), k=args.show)
    print("## Weakest and strongest members (share of held-out non-members outscored)\n")
    print(to_markdown(weakest[["list", "members", "weakest", "strongest"]]), end="")
    if args.out:
        with atomic_path(args.out) as tmp:
            table.to_csv(tmp, index=False)
    return 0


def empath_command(args: argparse.Namespace) -> int:
    from learnability.empath import build_lists

    for name, n in build_lists(args.out_dir).items():
        print(f"{name}\t{n}")
    return 0


# exit statuses: 1 for bad input (a file, a value), 2 for bad usage (argparse's own)
EXIT_INPUT, EXIT_USAGE = 1, 2


def _input_names(args: argparse.Namespace) -> str:
    """The files a command was given, to name in an unexpected error."""
    names = [str(v) for k, v in vars(args).items() if isinstance(v, Path) and k != "out"]
    return ", ".join(names)


def main(argv: list[str] | None = None) -> int:
    from learnability import __version__
    from learnability.embeddings.pretrained import UNICODE_ERRORS
    from learnability.stats import DEFAULT_PVALUE_METHOD, PVALUE_METHODS

    parser = argparse.ArgumentParser(prog="learnability", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"learnability {__version__}")
    parser.add_argument(
        "--debug", action="store_true", help="on an error, print the full traceback too"
    )
    parser.add_argument(
        "--quiet", action="store_true", help="no progress lines on stderr, only errors"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    cmp_ = sub.add_parser("compare", help="Wilcoxon tests on a CSV of per-list AUCs")
    cmp_.add_argument("--aucs", type=Path, required=True, help="CSV with list,embedding,auc")
    cmp_.add_argument(
        "--embeddings", nargs="+", help="embeddings to compare (default: all, in file order)"
    )
    cmp_.add_argument("--alternative", choices=["greater", "less", "two-sided"], default="greater")
    cmp_.add_argument("--out", type=Path, help="write the table (.csv, or .parquet)")
    cmp_.set_defaults(func=compare_command)
    ev = sub.add_parser(
        "evaluate",
        help="learnability, size-matched null and member diagnostics of one embedding",
        description="Score every list on one embedding with the workflow's code: the "
        "paper's protocol (uniform non-members), an empirical p-value against random lists "
        "of the list's in-vocabulary size, and each list's weakest members.",
    )
    ev.add_argument(
        "--embedding",
        type=Path,
        required=True,
        help="a workflow embedding folder (results/embeddings/NAME) or a file: word2vec "
        "text/binary, GloVe text, fastText .vec/.bin, gensim KeyedVectors (gz, bz2, zip ok)",
    )
    ev.add_argument(
        "--lists", type=Path, required=True, help="a .txt list, a .dic, or a folder of them"
    )
    ev.add_argument("--iterations", type=int, default=200, help="splits per list (200)")
    ev.add_argument("--null-lists", type=int, default=100, help="random lists per size (100)")
    ev.add_argument("--null-iterations", type=int, default=10, help="splits each (10)")
    ev.add_argument(
        "--pvalue-method",
        choices=list(PVALUE_METHODS),
        default=DEFAULT_PVALUE_METHOD,
        help="how lists' means are compared with random lists' (random_lists.method; "
        f"{DEFAULT_PVALUE_METHOD})",
    )
    ev.add_argument("--C", type=float, default=1.0, help="inverse L2 strength (1.0)")
    ev.add_argument("--seed", type=int, default=2020)
    ev.add_argument("--format", default="auto", help="embedding file format (auto)")
    ev.add_argument("--max-vocab", type=int, help="keep the N most frequent words")
    ev.add_argument(
        "--allow-pickle",
        action="store_true",
        help="load a gensim .kv/.model file: it is a pickle, and loading it runs any code "
        "it holds; only for files you trust",
    )
    ev.add_argument(
        "--unicode-errors",
        choices=list(UNICODE_ERRORS),
        default="strict",
        help="a word in the embedding file that is not UTF-8: an error (strict), decoded "
        "with U+FFFD (replace) or without its bad bytes (ignore), or skipped; counted",
    )
    ev.add_argument("--show", type=int, default=5, help="members shown per list (5)")
    ev.add_argument("--out", type=Path, help="also write the per-list table as CSV")
    ev.set_defaults(func=evaluate_command)
    emp = sub.add_parser("empath-lists", help="regenerate the shipped Empath word lists")
    emp.add_argument("out_dir", type=Path)
    emp.set_defaults(func=empath_command)
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.ERROR if args.quiet else logging.INFO,
        format="%(message)s",
        stream=sys.stderr,
        force=True,
    )
    try:
        return args.func(args)
    except InputError as exc:
        if args.debug:
            traceback.print_exc()
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback, unless --debug
        if args.debug:
            traceback.print_exc()
        text = " ".join(str(exc).split())[:300]
        print(
            f"error: {type(exc).__name__} while reading {_input_names(args)}: {text} "
            "(rerun with --debug for the traceback, and report it if the file is valid)",
            file=sys.stderr,
        )
        return EXIT_INPUT


if __name__ == "__main__":
    sys.exit(main())
