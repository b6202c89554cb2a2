"""Command-line tools over the same functions the workflow uses.

- ``learnability compare --aucs FILE.csv``: the comparison stage on a table of per-list
  AUCs in long format (``list,embedding,auc``), e.g. numbers copied from a paper.
- ``learnability evaluate --embedding PATH --lists PATH``: learnability, a size-matched
  null and the member diagnostics of one embedding, without a Snakemake config.
- ``learnability empath-lists DIR``: regenerate the shipped open word lists.
- ``learnability wordnet-lists DIR [--hypernyms TSV]``: regenerate the WordNet lists.
"""

from __future__ import annotations

import argparse
import logging
import sys
import traceback
from pathlib import Path

import pandas as pd

from learnability import __version__, provenance, schemas
from learnability.analyses.base import Setting
from learnability.analyses.registry import ANALYSES, settings_keys
from learnability.concepts.empath import build_lists
from learnability.concepts.wordnet import write_lists
from learnability.defaults import PRETRAINED
from learnability.embeddings.pretrained import FORMATS, UNICODE_ERRORS
from learnability.embeddings.shipped import SHIPPED, default_name
from learnability.errors import InputError
from learnability.io import atomic_path
from learnability.reports.analysis_tables import check_table, words_needed_markdown
from learnability.reports.explorer import explorer_figure, panels_for, write_explorer
from learnability.reports.formats import to_markdown
from learnability.reports.records import SHOWN_INPUTS, describe
from learnability.statistics.comparison import compare_embeddings


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

    summary = read_aucs(args.aucs)
    embeddings = args.embeddings or list(dict.fromkeys(summary["embedding"]))
    result = compare_embeddings(summary, embeddings, args.alternative, vocabulary="n/a")
    # p-values to 4 significant digits: the table's 3 decimals would show the paper's
    # 0.0088 as 0.009 and 1/1024 as 0.001
    shown = result.assign(**{c: result[c].map(lambda p: f"{p:.4g}") for c in ("p_value", "p_holm")})
    print(to_markdown(shown), end="")
    if args.out:
        write_by_suffix(result, args.out, "wilcoxon")
    return 0


OUT_SUFFIXES = (".csv", ".parquet", ".json")
# the per-list table that `evaluate` prints and writes (a view of learnability.api's)
LIST_COLUMNS = [
    "list", "entries", "in_vocab", "accuracy", "recall", "fpr", "precision", "auc",
    "p_value", "p_tail", "null_z", "auc_detectable", "auc_low", "auc_high", "compression",
    "null_compression",
]  # fmt: skip
# the per-list file's columns beyond the printed table's: the p-value adjusted across
# the lists (--adjust) and why a list was not scored
WRITTEN_TOO = ["p_adjusted", "not_scored"]
COVERAGE_SHOWN = [
    "list", "n_entries", "n_in_vocab", "n_oov", "n_phrases", "n_duplicates",
    "n_wildcard_words", "max_wildcard_share", "n_matched_lower", "n_matched_variant",
    "n_case_collisions",
]  # fmt: skip


def write_by_suffix(df: pd.DataFrame, path: Path, table: str | None = None) -> None:
    """``df`` as CSV, Parquet or JSON (records) by ``path``'s suffix, atomically; checked
    against the documented schema ``table`` where there is one."""

    if table is not None:
        df = schemas.conform(df, table)
    suffix = path.suffix.lower()
    with atomic_path(path) as tmp:
        if suffix == ".csv":
            df.to_csv(tmp, index=False)
        elif suffix == ".parquet":
            schemas.write_parquet(df, tmp)
        elif suffix == ".json":
            df.to_json(tmp, orient="records", indent=1)
        else:
            raise InputError(f"{path}: unknown suffix; use one of {OUT_SUFFIXES}")


def evaluate_command(args: argparse.Namespace) -> int:
    from learnability.api import score
    from learnability.inputs import as_embedding
    from learnability.reports.tables import member_extremes

    name = args.name or default_name(args.embedding)
    emb = as_embedding(
        args.embedding,
        name=name,
        fmt=args.format,
        max_vocab=args.max_vocab,
        words=args.words,
        words_column=args.words_column,
        member=args.member,
        exclude_prefixes=args.exclude_prefixes,
        allow_pickle=args.allow_pickle or None,
        unicode_errors=args.unicode_errors,
    )
    scores = score(
        emb,
        args.lists,
        name=name,
        **{setting.key: getattr(args, setting.key) for setting in flag_settings()},
    )
    # a list too small to score is a row without metrics, and a line under the table
    table = scores.lists[LIST_COLUMNS]
    unscored = scores.lists[scores.lists["not_scored"] != ""]
    covered = scores.coverage
    print(f"## {name}: {args.iterations} iterations per list, p-values ({args.pvalue_method}) "
          f"against {args.null_lists} random lists of the same size, smallest possible p "
          f"1/{args.null_lists + 1}\n")  # fmt: skip
    print(to_markdown(table))
    for row in unscored.itertuples():
        print(f"not scored: {row.list}: {row.not_scored}")
    if len(unscored):
        print()
    print(f"## Coverage: how each list's entries met the vocabulary (case: {args.case})\n")
    print(to_markdown(covered[COVERAGE_SHOWN]))
    flagged = covered[covered["n_wildcards_flagged"] > 0]
    for cov in flagged.itertuples():
        print(
            f"note: in {cov.list}, one wildcard supplies {cov.max_wildcard_share:.0%} of the "
            "list's words; check its expansions (--out-dir writes them)\n"
        )
    weakest = member_extremes(scores.members, k=args.show)
    print("## Weakest and strongest members (share of held-out non-members outscored)\n")
    print(to_markdown(weakest[["list", "members", "weakest", "strongest"]]), end="")
    print_analyses(scores, args.show)
    if args.out:
        write_by_suffix(scores.lists[[*LIST_COLUMNS, *WRITTEN_TOO]], args.out)
    if args.out_dir:
        args.out_dir.mkdir(parents=True, exist_ok=True)
        ext = "." + args.out_format
        lists_file = args.out_dir / f"lists{ext}"
        write_by_suffix(scores.lists[[*LIST_COLUMNS, *WRITTEN_TOO]], lists_file)
        write_by_suffix(scores.concept_words, args.out_dir / f"concept_words{ext}", "concept_words")
        write_by_suffix(covered, args.out_dir / f"coverage{ext}", "coverage")
        write_by_suffix(scores.members, args.out_dir / f"members{ext}", "members")
        write_by_suffix(scores.null, args.out_dir / f"null{ext}", "null")
        for analysis in ANALYSES.values():
            frame = scores.analyses[analysis.name]
            write_by_suffix(frame, args.out_dir / f"{analysis.name}{ext}", analysis.table)
        if len(scores.suggestions):
            write_page(scores, emb, args.out_dir / "explorer.html", args.seed)
        if len(scores.words_needed):
            from learnability.reports.plots import save, words_needed_figure

            figure = words_needed_figure(
                scores.words_needed, list(scores.lists["list"]),
                f"How many words each list needs: {name}",
            )  # fmt: skip
            save(figure, *(args.out_dir / f"words_needed.{e}" for e in ("png", "svg", "pdf")))
    return 0


def print_analyses(scores, shown: int) -> None:
    """The analyses in short: each list's first suggestions, the held-out check, the
    most entangled pairs, and the words-needed curve where asked for."""

    if len(scores.suggestions):
        print("\n## Suggested additions (mean probability over the splits' classifiers)\n")
        top = scores.suggestions[scores.suggestions["rank"] <= shown]
        rows = {
            name: ", ".join(f"{w} ({q:.2f})" for w, q in g[["word", "mean_probability"]].values)
            for name, g in top.groupby("list", sort=False)
        }
        rows = pd.Series(rows, name="suggestions").rename_axis("list")
        print(to_markdown(rows.reset_index()), end="")
    if len(scores.suggestion_check):
        print("\n## Held-out check: recall@k of hidden members, beside random words of "
              "their frequency (baseline@k)\n")  # fmt: skip
        table = check_table(scores.suggestion_check, list(dict.fromkeys(scores.lists["list"])))
        print(to_markdown(table.drop(columns=["embedding"])), end="")
    pairs = scores.entanglement
    if (pairs["list_a"] != pairs["list_b"]).any():  # more than one list
        from learnability.analyses.entanglement import entangled, summary_line

        print("\n## Entangled pairs (share of B's AUC above chance lost when A is erased): "
              "beyond erasing random lists, and above the margin with confidence\n")  # fmt: skip
        print(summary_line(pairs) + ".")
        top = entangled(pairs).head(shown)
        if len(top):
            cols = ["list_a", "list_b", "auc_before", "auc_after", "share", "share_low",
                    "p_adjusted", "p_margin_adjusted"]  # fmt: skip
            print("\n" + to_markdown(top[cols]), end="")
    if len(scores.words_needed):
        print("\n## How many words each list needs (power at random subsets of its members)\n")
        print(words_needed_markdown(scores.words_needed, list(scores.lists["list"])), end="")


def write_page(scores, emb, path: Path, seed: int) -> None:
    """The explorer page of one embedding's lists (learnability.reports.explorer)."""

    label = scores.settings["embedding"]
    panels = panels_for(
        emb.vectors, emb.words, embedding=label, lists=list(scores.lists["list"]),
        members=scores.members, suggestions=scores.suggestions, summary=scores.summary,
        non_members=200, seed=seed, pvalues=scores.pvalues, bounds=scores.bounds,
    )  # fmt: skip
    title = f"learnability explorer: {label} ({scores.settings['negatives']} non-members)"
    write_explorer(explorer_figure(panels, scores.entanglement, title), path)


def wordnet_command(args: argparse.Namespace) -> int:

    write_lists(args.out_dir, args.wordnet, args.hypernyms)
    return 0


def empath_command(args: argparse.Namespace) -> int:

    for name, n in build_lists(args.out_dir).items():
        print(f"{name}\t{n}")
    return 0


def synthetic_dump_command(args: argparse.Namespace) -> int:
    from learnability.corpus.synthdump import write_dump

    if args.xml_mb <= 0 or args.parts < 1 or args.processes < 1:
        raise InputError("synthetic-dump: --xml-mb must be > 0, --parts and --processes >= 1")
    summary = write_dump(
        args.out_dir, xml_mb=args.xml_mb, parts=args.parts, seed=args.seed,
        processes=args.processes,
    )  # fmt: skip
    print(
        f"{summary['parts']} parts, {summary['xml_bytes'] / 1e6:.1f} MB of XML "
        f"({summary['bz2_bytes'] / 1e6:.1f} MB bz2), {summary['articles']} articles, "
        f"{summary['tokens']} tokens; expected types at min_count 5: "
        f"{summary['expected_types_at_least_5']}; "
        f"corpus.source.base_url: {args.out_dir.resolve()}/, "
        "corpus.source.status: dumpstatus.json"
    )
    return 0


def provenance_command(args: argparse.Namespace) -> int:

    text, differs = describe(args.file, all_inputs=args.all)
    print(text)
    return 3 if differs and args.check else 0


# exit statuses: 1 for bad input (a file, a value), 2 for bad usage (argparse's own)
EXIT_INPUT, EXIT_USAGE = 1, 2


def _read_files(args: argparse.Namespace) -> list[Path]:
    """The files and folders a command reads, for its outputs' provenance: the arguments
    that name one that exists (a ``package://`` one where it lies), outputs left out."""
    from learnability.corpus.download import resolve_package_path

    found = []
    for key, value in vars(args).items():
        if key.startswith("out") or key == "func":
            continue
        for v in value if isinstance(value, list | tuple) else [value]:
            if isinstance(v, str) and v.startswith("package://"):
                try:
                    v = resolve_package_path(v)
                except Exception:  # noqa: BLE001 - the command itself says why, in one line
                    continue
            if isinstance(v, str | Path) and str(v) and Path(v).exists():
                found.append(Path(v))
    return found


def _input_names(args: argparse.Namespace) -> str:
    """The files a command was given, to name in an unexpected error."""
    names = [
        str(v)
        for k, v in vars(args).items()
        if (isinstance(v, Path) and k != "out") or (k in ("embedding", "words") and v)
    ]
    return ", ".join(names)


def flag_settings() -> list[Setting]:
    """The settings ``learnability evaluate`` takes as flags: score()'s own
    (:data:`learnability.api.SETTINGS`), then the analyses'."""
    from learnability.api import SETTINGS

    return [*SETTINGS, *(setting for setting in settings_keys().values() if setting.flag)]


def build_parser() -> argparse.ArgumentParser:
    """The command's parser (also the source of the CLI reference page)."""

    FORMATS_AUTO = ["auto", *FORMATS]
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
    cmp_.add_argument("--out", type=Path, help="write the table (.csv, .parquet or .json)")
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
        required=True,
        help="a file (word2vec text/binary, GloVe text, fastText .vec/.bin, gensim "
        "KeyedVectors, a .npy matrix with --words; gz, bz2, zip ok), a workflow embedding "
        "folder (results/embeddings/NAME), package://DIST/path inside an installed package, "
        f"or a shipped name: {', '.join(SHIPPED)} (the glove6b extra)",
    )
    ev.add_argument("--name", help="the embedding's name in the tables (default: from --embedding)")
    ev.add_argument(
        "--lists", type=Path, required=True, help="a .txt list, a .dic, or a folder of them"
    )
    # the config's pretrained options (embeddings.NAME), with its defaults
    ev.add_argument(
        "--format", choices=FORMATS_AUTO, help=f"embedding file format ({PRETRAINED['format']})"
    )
    ev.add_argument("--max-vocab", type=int, help="keep the N most frequent words")
    ev.add_argument(
        "--words", help="--format npy: the matrix's words, one per row (.txt, or a table)"
    )
    ev.add_argument("--words-column", help="the column of --words that holds them")
    ev.add_argument("--member", help="the file to read inside a zip archive")
    ev.add_argument(
        "--exclude-prefixes", nargs="+", help="skip (and count) words starting with these"
    )
    ev.add_argument(
        "--allow-pickle",
        action="store_true",
        help="load a gensim .kv/.model file: it is a pickle, and loading it runs any code "
        "it holds; only for files you trust",
    )
    ev.add_argument(
        "--unicode-errors",
        choices=list(UNICODE_ERRORS),
        help="a word in the embedding file that is not UTF-8: an error (strict, the "
        "default), decoded with U+FFFD (replace) or without its bad bytes (ignore), or "
        "skipped; counted",
    )
    ev.add_argument("--show", type=int, default=5, help="members shown per list (5)")
    ev.add_argument(
        "--out", type=Path, help="also write the per-list table (.csv, .parquet or .json)"
    )
    # score()'s settings, then the analyses' (learnability.analyses.registry: settings with
    # a flag), each a flag made from its Setting
    for setting in flag_settings():
        # a list-valued setting (power.sizes) takes its values after the flag
        many = isinstance(setting.default, tuple)
        ev.add_argument(
            setting.flag,
            dest=setting.key,
            type=int if many else type(setting.default),
            nargs="+" if many else None,
            metavar="N" if many else None,
            default=setting.default,
            choices=setting.choices,
            help=f"{setting.help}; default {setting.default}",
        )
    ev.add_argument(
        "--out-dir",
        type=Path,
        help="also write lists, concept_words (every entry's status, matched form and "
        "wildcard expansions), coverage, members, null and the analyses' tables "
        f"({', '.join(ANALYSES)}) into this folder, with the workflow's schemas, and "
        "explorer.html (one page, opens offline)",
    )
    ev.add_argument(
        "--out-format", choices=["parquet", "csv"], default="parquet", help="of --out-dir"
    )
    ev.set_defaults(func=evaluate_command)
    emp = sub.add_parser("empath-lists", help="regenerate the shipped Empath word lists")
    emp.add_argument("out_dir", type=Path)
    emp.set_defaults(func=empath_command)
    wn = sub.add_parser(
        "wordnet-lists", help="regenerate the shipped WordNet supersense lists (and graph)"
    )
    wn.add_argument("out_dir", type=Path)
    wn.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    wn.add_argument("--hypernyms", type=Path, help="also write the noun hypernym graph (TSV)")
    wn.set_defaults(func=wordnet_command)
    syn = sub.add_parser(
        "synthetic-dump",
        help="write a synthetic multi-part Wikipedia dump that grows like the real one",
        description="bz2 parts, dumpstatus.json and sha1sums.txt of made-up articles whose "
        "vocabulary grows like English Wikipedia's (2.5 M words at min_count 5 at 2.6 B "
        "tokens), with the embedded sample's markup; for rehearsing the workflow at scale "
        "(learnability.corpus.synthdump says how)",
    )
    syn.add_argument("out_dir", type=Path)
    syn.add_argument("--xml-mb", type=float, default=100.0, help="MB of XML in all (100)")
    syn.add_argument("--parts", type=int, default=4, help="part files (4)")
    syn.add_argument("--seed", type=int, default=0)
    syn.add_argument("--processes", type=int, default=1, help="parts written at once (1)")
    syn.set_defaults(func=synthetic_dump_command)
    prov = sub.add_parser(
        "provenance",
        help="how a table was made, and whether the current code and environment would "
        "make the same file",
        description="Print the record a workflow output carries (a Parquet table's "
        "metadata, a meta.json's provenance): the package version and commit, the rule, "
        "the digests of its code, params and inputs, and the library versions; then "
        "compare them with the current code, libraries and inputs.",
    )
    prov.add_argument("file", type=Path, help="a Parquet table or a meta.json of a run")
    prov.add_argument(
        "--check", action="store_true", help="exit 3 if the current code or environment differs"
    )
    prov.add_argument(
        "--all",
        action="store_true",
        help=f"list every input (the first {SHOWN_INPUTS} otherwise) and the code's modules",
    )
    prov.set_defaults(func=provenance_command)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    out = getattr(args, "out", None)
    if out is not None and out.suffix.lower() not in OUT_SUFFIXES:
        parser.error(f"--out {out}: use a .csv, .parquet or .json file")  # exits 2
    logging.basicConfig(
        level=logging.ERROR if args.quiet else logging.INFO,
        format="%(message)s",
        stream=sys.stderr,
        force=True,
    )

    # what the command writes carries its record: the command, its arguments, its code
    settings = {k: str(v) for k, v in vars(args).items() if k != "func"}
    try:
        with provenance.command(
            f"learnability {args.command}", settings, ["learnability.cli"], _read_files(args)
        ):
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
