"""A corpus source -> tokenised plain-text corpus (gzip, one paragraph a line, each
document ended by an empty line) + stats."""

from __future__ import annotations

import gzip
import io
import json
import os
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from operator import itemgetter
from pathlib import Path

import numpy as np
import pandas as pd

from learnability.corpus.documents import SourceOptions, unwrap
from learnability.corpus.lines import DOCUMENT_END, iter_documents
from learnability.corpus.sources import SOURCES
from learnability.corpus.tokenize import normalize, token_lines
from learnability.errors import InputError
from learnability.io import atomic_path, write_json
from learnability.schemas import read_tables, write_table

# gensim's trainers cut a "sentence" at 10,000 tokens without warning; lines are written
# well below that so nothing is ever cut.
GENSIM_MAX_SENTENCE = 10_000
COUNT_THRESHOLDS = (1, 2, 5, 10, 100)
# the workflow's default dump (config/config.yaml's corpus.source.path): gensim's Wikipedia
# fragment, 106 articles and 449,531 tokens as extracted here
SAMPLE_DUMP = (
    "package://gensim/test/test_data/"
    "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
)


SKIPPED_IDS_SHOWN = 20


@dataclass
class CorpusStats:
    source: str = "mediawiki"
    pages: int = 0
    # why documents were left out: the source's reasons (a dump's other namespaces and
    # redirects), then the short ones
    skipped: Counter[str] = field(default_factory=Counter)
    articles: int = 0
    # documents kept in each group of a table's group column
    groups: Counter[str] = field(default_factory=Counter)
    lines: int = 0
    tokens: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    # the first SKIPPED_IDS_SHOWN documents left out for each reason, by id (a table's id
    # column, a text's file or file:line), so that a user can look them up
    skipped_ids: dict[str, list[str]] = field(default_factory=dict)
    # the summed count of every type, where the types themselves are not kept (a join)
    type_counts: np.ndarray | None = None

    def skip(self, reason: str, ident: str | None) -> None:
        self.skipped[reason] += 1
        if ident is not None:
            shown = self.skipped_ids.setdefault(reason, [])
            if len(shown) < SKIPPED_IDS_SHOWN:
                shown.append(ident)

    def as_dict(self, min_article_tokens: int, max_line_tokens: int) -> dict[str, object]:
        if self.type_counts is not None:
            values = self.type_counts
        else:
            values = np.fromiter(self.counts.values(), dtype=np.int64, count=len(self.counts))
        short = f"shorter_than_{min_article_tokens}_tokens"
        return {
            "source": self.source,
            "pages": self.pages,
            "skipped": {**self.skipped, short: self.skipped[short]},
            "articles": self.articles,
            **({"groups": dict(sorted(self.groups.items()))} if self.groups else {}),
            **({"skipped_ids": self.skipped_ids} if self.skipped_ids else {}),
            "lines": self.lines,
            "tokens": self.tokens,
            "types": int(values.size),
            "types_with_count_at_least": {
                str(k): int((values >= k).sum()) for k in COUNT_THRESHOLDS
            },
            "max_line_tokens": max_line_tokens,
            "min_article_tokens": min_article_tokens,
        }


def extract_corpus(
    dumps: list[str | os.PathLike[str]],
    out_text: str | os.PathLike[str],
    out_stats: str | os.PathLike[str],
    *,
    out_counts: str | os.PathLike[str] | None = None,
    min_article_tokens: int = 50,
    max_line_tokens: int = 1000,
    progress_every: float | None = None,
    source: str = "mediawiki",
    options: SourceOptions | None = None,
    ranges: dict[str, list[int]] | None = None,
) -> dict[str, object]:
    """Extract the documents of one or more files of a corpus source
    (:data:`~learnability.corpus.sources.SOURCES`: a dump's articles by default) into one
    gzip text file, tokenised by the one rule.

    Documents with fewer than ``min_article_tokens`` tokens are left out (for a dump:
    stubs and disambiguation fragments), as are those the source skips (a dump's other
    namespaces and redirects); every one is counted in the stats, by reason.
    ``out_counts`` (Parquet: word, count) keeps the token counts so that
    :func:`join_corpus` can merge parts exactly. ``ranges``: path -> [start, end] for a
    file of which this part reads the lines starting in that byte range.

    It streams: memory holds one read of decompressed XML
    (:data:`learnability.corpus.mediawiki.READ_SIZE`, 1 MiB) with the pages it
    completes, or one document of another source, and the counts of the distinct tokens
    seen (about 100 bytes a type: a few hundred MB for a full Wikipedia
    part), whatever the size of the input.
    """
    if not 0 < max_line_tokens <= GENSIM_MAX_SENTENCE:
        raise ValueError(
            f"max_line_tokens={max_line_tokens}: must be in 1..{GENSIM_MAX_SENTENCE}, "
            "since gensim silently cuts longer lines"
        )
    reader = SOURCES[source]
    options = options or SourceOptions()
    skips = [*reader.skips, *(["other_group"] if options.group is not None else [])]
    stats = CorpusStats(source=source, skipped=Counter(dict.fromkeys(skips, 0)))
    short = f"shorter_than_{min_article_tokens}_tokens"
    with atomic_path(out_text) as tmp:
        # No name and mtime=0 in the gzip header keep the bytes identical across runs;
        # level 3 compresses about 3x faster than the default 9 (it was a tenth of the
        # extraction's time) for a slightly larger intermediate file.
        with (
            open(tmp, "wb") as fh,
            gzip.GzipFile(filename="", fileobj=fh, mode="wb", mtime=0, compresslevel=3) as raw,
            io.TextIOWrapper(raw, encoding="utf-8", newline="\n") as out,
        ):
            for path in dumps:
                # a part of a large file reads its byte range of it
                span = (ranges or {}).get(str(path))
                read_as = replace(options, byte_range=tuple(span)) if span else options
                for doc in reader.read(Path(path), read_as, progress_every):
                    stats.pages += 1
                    if doc.skip is not None:
                        stats.skipped[doc.skip] += 1
                        continue
                    if options.group is not None and doc.group != options.group:
                        stats.skipped["other_group"] += 1  # a group's corpus: the others out
                        continue
                    # a source of wrapped text: a blank line ends a paragraph, a line
                    # end does not (a MediaWiki article's lines are its paragraphs)
                    raw = unwrap(doc.text) if reader.wrapped else doc.text
                    text, n_tokens, n_lines = token_lines(normalize(raw), max_line_tokens)
                    if n_tokens < min_article_tokens:
                        stats.skip(short, doc.id)
                        continue
                    stats.articles += 1
                    stats.lines += n_lines
                    stats.tokens += n_tokens
                    stats.counts.update(text.split())
                    if doc.group is not None:
                        stats.groups[doc.group] += 1
                    out.write(text)
                    out.write(DOCUMENT_END)
        names = ", ".join(map(str, dumps))
        if stats.pages == 0 and source == "mediawiki":
            raise InputError(f"{names}: no <page> found. Is this a MediaWiki XML export?")
        # (a byte range of a large file may hold no line start: the join checks the whole)
        if stats.articles == 0 and source != "mediawiki" and not ranges:
            raise InputError(
                f"{names}: no document found with at least {min_article_tokens} token(s) "
                f"({stats.pages} read); check its source, format ({source}), text_column"
                + (
                    f" and group ({options.group!r}: {sum(stats.groups.values())} kept)"
                    if options.group is not None
                    else ""
                )
            )
    result = stats.as_dict(min_article_tokens, max_line_tokens)
    if out_counts is not None:
        write_counts(stats.counts, out_counts)
    write_json(result, out_stats)
    return result


def write_counts(counts: Counter[str], path: str | os.PathLike[str]) -> None:
    # most frequent first, ties alphabetical: two sorts that compare from C (the second
    # is stable, reverse included), not one with a Python key per item
    items = sorted(sorted(counts.items()), key=itemgetter(1), reverse=True)
    words, values = zip(*items, strict=True) if items else ((), ())
    df = pd.DataFrame({"word": list(words), "count": np.array(values, dtype=np.int64)})
    write_table(df, path, "token_counts")


def join_corpus(
    texts: list[str | os.PathLike[str]],
    counts: list[str | os.PathLike[str]],
    stats_files: list[str | os.PathLike[str]],
    out_text: str | os.PathLike[str],
    out_stats: str | os.PathLike[str],
) -> dict[str, object]:
    """Join the extractions of a dump's parts, in page order, into one corpus.

    The gzip members are concatenated byte for byte (a multi-member gzip file reads as
    the concatenation of its members), so the text equals the extraction of the whole
    dump in one job; the stats are summed and the type counts merged from the parts'
    counts, so they equal it too."""
    if not (len(texts) == len(counts) == len(stats_files)) or not texts:
        raise ValueError("join_corpus needs one text, counts and stats file per part")
    parts = [json.loads(Path(p).read_text(encoding="utf-8")) for p in stats_files]
    settings = {(p["min_article_tokens"], p["max_line_tokens"]) for p in parts}
    if len(settings) != 1:
        raise InputError(
            f"{', '.join(map(str, stats_files))}: the parts were extracted with different "
            "corpus settings; rerun the extraction of every part"
        )
    min_article_tokens, max_line_tokens = settings.pop()
    stats = CorpusStats(source=parts[0].get("source", "mediawiki"))
    for p in parts:
        stats.pages += p["pages"]
        stats.skipped.update(p["skipped"])
        stats.groups.update(p.get("groups", {}))
        for reason, ids in p.get("skipped_ids", {}).items():
            shown = stats.skipped_ids.setdefault(reason, [])
            shown.extend(ids[: SKIPPED_IDS_SHOWN - len(shown)])
        stats.articles += p["articles"]
        stats.lines += p["lines"]
        stats.tokens += p["tokens"]
    if stats.articles == 0 and stats.source != "mediawiki":
        raise InputError(
            f"{', '.join(map(str, stats_files))}: no document found with at least "
            f"{min_article_tokens} token(s) in any part ({stats.pages} read); check the "
            "corpus' source, format and text_column"
        )
    stats.type_counts = merged_type_counts(counts, Path(out_text).parent)
    with atomic_path(out_text) as tmp, open(tmp, "wb") as out:
        for path in texts:
            with open(path, "rb") as fh:
                shutil.copyfileobj(fh, out, 16 << 20)
    result = stats.as_dict(min_article_tokens, max_line_tokens)
    result["parts"] = len(texts)
    write_json(result, out_stats)
    return result


# a join's type counts are summed in this many hash partitions of the words, one at a
# time: memory holds one part's count table and one partition, not every part's table
# (27 parts of enwiki hold about 60-80 M rows, 15 M distinct types)
JOIN_PARTITIONS = 16


def merged_type_counts(
    counts: list[str | os.PathLike[str]], workdir: str | os.PathLike[str],
    partitions: int = JOIN_PARTITIONS,
) -> np.ndarray:  # fmt: skip
    """The summed count of every distinct word over the parts' count tables, in no
    particular order. Each table is read once and split by a hash of the word into
    ``partitions`` files under a temporary folder in ``workdir``; each partition is then
    summed on its own (a word lands in one partition from every part)."""

    totals = []
    with tempfile.TemporaryDirectory(dir=workdir, prefix=".join-") as tmp:
        for k, path in enumerate(counts):
            table = read_tables([path], "token_counts")
            words = table["word"].astype(object).to_numpy()
            which = pd.util.hash_array(words, categorize=False) % np.uint64(partitions)
            order = np.argsort(which, kind="stable")
            bounds = np.searchsorted(which[order], np.arange(partitions + 1))
            for p in range(partitions):
                rows = order[bounds[p] : bounds[p + 1]]
                piece = pd.DataFrame(
                    {"word": words[rows], "count": table["count"].to_numpy()[rows]}
                )
                piece.to_parquet(Path(tmp) / f"{p:03d}-{k:05d}.parquet", index=False)
            del table, words
        for p in range(partitions):
            pieces = sorted(Path(tmp).glob(f"{p:03d}-*.parquet"))
            part = pd.concat([pd.read_parquet(f) for f in pieces], ignore_index=True)
            totals.append(part.groupby("word", sort=False)["count"].sum().to_numpy(np.int64))
            for f in pieces:
                f.unlink()
    return np.concatenate(totals) if totals else np.empty(0, np.int64)


def corpus_prefix(
    corpus: str | os.PathLike[str],
    out_text: str | os.PathLike[str],
    out_stats: str | os.PathLike[str],
    fraction: float,
) -> dict[str, object]:
    """The first ``fraction`` of a corpus' tokens, for a sweep over corpus size: exactly
    round(fraction x tokens) of them (at least one), in order; the line where the share
    ends is cut there. Everything else about the corpus is unchanged, its documents'
    boundaries included. Two passes over the text (a count, then the copy), so memory
    stays that of one document."""
    if not 0 < fraction <= 1:
        raise ValueError(f"corpus fraction {fraction}: must be in (0, 1]")
    total = sum(len(tokens) for doc in iter_documents(corpus) for tokens in doc)
    budget = max(1, round(fraction * total))
    kept = lines = 0
    with atomic_path(out_text) as tmp:
        with (
            open(tmp, "wb") as fh,
            gzip.GzipFile(filename="", fileobj=fh, mode="wb", mtime=0, compresslevel=3) as raw,
            io.TextIOWrapper(raw, encoding="utf-8", newline="\n") as out,
        ):
            for document in iter_documents(corpus):
                if kept >= budget:
                    break
                for tokens in document:
                    if kept >= budget:
                        break
                    tokens = tokens[: budget - kept]
                    out.write(" ".join(tokens) + "\n")
                    kept += len(tokens)
                    lines += 1
                out.write(DOCUMENT_END)
    stats = {"fraction": fraction, "tokens": kept, "corpus_tokens": total, "lines": lines}
    write_json(stats, out_stats)
    return stats


def write_wikicorpus_text(
    dump: str | os.PathLike[str], out: str | os.PathLike[str], max_line_tokens: int = 1000
) -> dict:
    """Write ``dump`` as gensim's ``WikiCorpus`` tokenises it (lowercase alphabetic tokens
    of 2-15 characters), each article cut into lines of at most ``max_line_tokens``: the
    corpus on which the GloVe reference figures were measured
    (benchmarks/glove_vs_reference.py). Our own extractor differs on purpose (it keeps
    "i", "a" and contractions)."""
    from gensim.corpora.wikicorpus import WikiCorpus

    lines = tokens = 0
    with atomic_path(out) as tmp, gzip.open(tmp, "wt", encoding="utf-8") as fh:
        for article in WikiCorpus(str(dump), dictionary={}, processes=1).get_texts():
            for i in range(0, len(article), max_line_tokens):
                piece = article[i : i + max_line_tokens]
                fh.write(" ".join(piece) + "\n")
                lines += 1
                tokens += len(piece)
    return {"lines": lines, "tokens": tokens}
