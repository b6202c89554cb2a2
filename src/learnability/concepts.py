"""Concept lists: plain word lists and LIWC-style ``.dic`` dictionaries, and their coverage.

Entries are normalised with the corpus tokeniser's own :func:`~learnability.tokenize.normalize`,
so a list word and a corpus token are compared under one rule. Nothing is dropped silently:
every entry ends up in the resolution table with a status (see ``docs/outputs.md``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from learnability.errors import InputError
from learnability.tokenize import normalize


@dataclass(frozen=True)
class Entry:
    """One entry of a list as written, with the source line it came from."""

    text: str
    line: int


def _read_text(path: Path) -> list[str]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the word list ({exc.strerror})") from exc
    if b"\x00" in raw:
        raise InputError(
            f"{path}: contains NUL bytes; this looks like a binary file, "
            "not a word list (one entry per line, UTF-8)"
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(f"{path}, line {line}: not valid UTF-8; save the file as UTF-8") from exc
    return text.splitlines()


def read_wordlist(path: str | os.PathLike[str]) -> list[Entry]:
    """A plain list: one entry per line; ``#`` starts a comment; blank lines are ignored."""
    path = Path(path)
    entries = []
    for lineno, line in enumerate(_read_text(path), start=1):
        text = line.split("#", 1)[0].strip()
        if text:
            entries.append(Entry(text, lineno))
    if not entries:
        raise InputError(
            f"{path}: the word list has no entries (one word per line, '#' for comments)"
        )
    return entries


@dataclass(frozen=True)
class Dictionary:
    """A LIWC-style dictionary: category id -> name, and each category's entries."""

    path: Path
    categories: dict[str, str]
    entries: dict[str, list[Entry]]  # category name -> entries


def read_dic(path: str | os.PathLike[str]) -> Dictionary:
    """Read a LIWC-style ``.dic``: a ``%``-delimited header of ``id<TAB>name`` lines, then
    ``entry<TAB>id<TAB>id...`` lines. Entries may end in ``*`` (a prefix wildcard)."""
    path = Path(path)
    lines = _read_text(path)
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or lines[i].strip() != "%":
        raise InputError(
            f"{path}, line {i + 1}: a .dic file must start with a '%' line, "
            "then 'id<TAB>category' lines, then another '%' line"
        )
    categories: dict[str, str] = {}
    i += 1
    while i < len(lines) and lines[i].strip() != "%":
        line = lines[i].strip()
        if line:
            parts = line.split(None, 1)
            if len(parts) != 2:
                raise InputError(
                    f"{path}, line {i + 1}: header line {line!r} must be 'id<TAB>category name'"
                )
            cid, name = parts[0], parts[1].strip()
            if cid in categories:
                raise InputError(f"{path}, line {i + 1}: category id {cid} defined twice")
            categories[cid] = name
        i += 1
    if i >= len(lines):
        raise InputError(f"{path}: the category header is not closed by a '%' line")
    entries: dict[str, list[Entry]] = {name: [] for name in categories.values()}
    for lineno in range(i + 2, len(lines) + 1):
        line = lines[lineno - 1].rstrip("\n")
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) < 2:
            fields = line.split()
        word, ids = fields[0].strip(), [f.strip() for f in fields[1:] if f.strip()]
        if not ids:
            raise InputError(
                f"{path}, line {lineno}: entry {word!r} has no category id; write 'entry<TAB>id'"
            )
        for cid in ids:
            if cid not in categories:
                raise InputError(
                    f"{path}, line {lineno}: entry {word!r} uses category id "
                    f"{cid}, which the header does not define"
                )
            entries[categories[cid]].append(Entry(word, lineno))
    return Dictionary(path, categories, entries)


_WS = re.compile(r"\s")


def resolve(
    entries: list[Entry],
    vocabulary: list[str],
    *,
    list_name: str,
    embedding: str,
    source: str,
) -> pd.DataFrame:
    """Resolve entries against a vocabulary: one row per entry, and per wildcard expansion.

    Statuses: ``in_vocab`` (a word in the vocabulary), ``oov`` (not in it), ``expanded``
    (one vocabulary word matched by a ``prefix*`` wildcard), ``no_match`` (a wildcard that
    matched nothing), ``phrase`` (an entry with spaces, which a unigram vocabulary cannot
    hold), ``duplicate`` (a word already resolved by an earlier entry). The concept is the
    set of words with status ``in_vocab`` or ``expanded``; no word appears twice in it.
    """
    vocab_set = set(vocabulary)
    sorted_vocab: list[str] | None = None
    seen_entries: set[str] = set()
    used: set[str] = set()
    rows: list[tuple[int, str, str, str | None, str]] = []
    for entry in entries:
        text = normalize(entry.text.strip())
        if text in seen_entries:
            kind = "wildcard" if text.endswith("*") else "word"
            rows.append((entry.line, entry.text, kind, None, "duplicate"))
            continue
        seen_entries.add(text)
        if _WS.search(text):
            rows.append((entry.line, entry.text, "phrase", None, "phrase"))
        elif text.endswith("*"):
            prefix = text.rstrip("*")
            if sorted_vocab is None:
                sorted_vocab = sorted(vocabulary)
            matches = _prefix_matches(sorted_vocab, prefix)
            if not matches:
                rows.append((entry.line, entry.text, "wildcard", None, "no_match"))
            for word in matches:
                status = "duplicate" if word in used else "expanded"
                used.add(word)
                rows.append((entry.line, entry.text, "wildcard", word, status))
        elif text in vocab_set:
            status = "duplicate" if text in used else "in_vocab"
            used.add(text)
            rows.append((entry.line, entry.text, "word", text, status))
        else:
            rows.append((entry.line, entry.text, "word", text, "oov"))
    df = pd.DataFrame(rows, columns=["line", "entry", "kind", "word", "status"])
    df.insert(0, "source", source)
    df.insert(0, "embedding", embedding)
    df.insert(0, "list", list_name)
    return df


def _prefix_matches(sorted_vocab: list[str], prefix: str) -> list[str]:
    import bisect

    if not prefix:
        return []  # a bare '*' would match the whole vocabulary: treat as no match
    lo = bisect.bisect_left(sorted_vocab, prefix)
    out = []
    for word in sorted_vocab[lo:]:
        if not word.startswith(prefix):
            break
        out.append(word)
    return out


def concept_words(resolved: pd.DataFrame) -> list[str]:
    """The words that make up the concept: in-vocabulary entries and wildcard expansions."""
    mask = resolved["status"].isin(["in_vocab", "expanded"])
    return resolved.loc[mask, "word"].astype(str).tolist()


def coverage(resolved: pd.DataFrame) -> pd.DataFrame:
    """One summary row per (list, embedding) from a resolution table."""
    rows = []
    for (list_name, embedding, source), g in resolved.groupby(
        ["list", "embedding", "source"], sort=True
    ):
        first = g.drop_duplicates(["line", "entry"])  # one row per entry, not per expansion
        wild = first[first["kind"] == "wildcard"]
        n_in_vocab = int(g["status"].isin(["in_vocab", "expanded"]).sum())
        n_plain = int((first["kind"] == "word").sum())
        n_oov = int((g["status"] == "oov").sum())
        rows.append(
            {
                "list": list_name,
                "embedding": embedding,
                "source": source,
                "n_entries": len(first),
                "n_plain": n_plain,
                "n_wildcards": len(wild),
                "n_wildcard_words": int((g["status"] == "expanded").sum()),
                "n_wildcards_unmatched": int((g["status"] == "no_match").sum()),
                "n_phrases": int((g["status"] == "phrase").sum()),
                "n_duplicates": int((g["status"] == "duplicate").sum()),
                "n_oov": n_oov,
                "n_in_vocab": n_in_vocab,
                "oov_rate": n_oov / n_plain if n_plain else 0.0,
            }
        )
    return pd.DataFrame(rows)


def member_indices(resolved: pd.DataFrame, vocabulary: pd.Series | list[str]) -> np.ndarray:
    """Row indices in the embedding of the concept's words (see :func:`concept_words`)."""
    position = pd.Series(np.arange(len(vocabulary)), index=pd.Index(list(vocabulary)))
    return position.loc[concept_words(resolved)].to_numpy(dtype=np.int64)
