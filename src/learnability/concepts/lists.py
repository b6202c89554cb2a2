"""Concept lists: plain word lists and LIWC-style ``.dic`` dictionaries, and their coverage.

Entries are put in the corpus tokeniser's normal form
(:func:`~learnability.corpus.tokenize.normal_form`) and found in a vocabulary under one
case policy (:mod:`learnability.concepts.matching`), so a list word and a corpus token
are compared under one rule. Nothing is dropped silently:
every entry ends up in the resolution table with a status (see ``docs/reference/outputs.md``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from learnability import schemas
from learnability.concepts.matching import DEFAULT_CASE, Matcher
from learnability.corpus.tokenize import normal_form
from learnability.defaults import OVERLAP_WARN
from learnability.errors import InputError
from learnability.io import decode_text, read_text_lines, read_user_bytes


@dataclass(frozen=True)
class Entry:
    """One entry of a list as written, with the source line it came from. ``conditional``:
    a LIWC entry whose category depends on the neighbouring words (see :func:`read_dic`)."""

    text: str
    line: int
    conditional: bool = False


_WORDLIST = "word list (one entry per line)"


def _read_bytes(path: Path) -> bytes:
    return read_user_bytes(path, _WORDLIST)


def _read_text(path: Path) -> list[str]:
    return read_text_lines(path, _WORDLIST)


def read_wordlist(path: str | os.PathLike[str]) -> list[Entry]:
    """A plain list: one entry per line; ``#`` starts a comment, and so does ``;`` at the
    start of a line (the header of Bing Liu's opinion lexicon); blank lines are ignored.
    A line with a tab holds several columns (a lexicon such as VADER's, word then
    ratings) and is refused: taken whole, it could never match a word."""
    path = Path(path)
    entries = []
    for lineno, line in enumerate(_read_text(path), start=1):
        if line.lstrip().startswith(";"):
            continue
        text = line.split("#", 1)[0].strip()
        if "\t" in text:
            raise InputError(
                f"{path}, line {lineno}: tab-separated columns ({text[:40]!r}); a word list "
                "holds one entry per line. Keep the first column (cut -f1 FILE > list.txt), "
                "or give the file as a dictionary table with 'word' and 'category' columns"
            )
        if text:
            entries.append(Entry(text, lineno))
    if not entries:
        raise InputError(
            f"{path}: the word list has no entries (one word per line, '#' for comments)"
        )
    return entries


@dataclass(frozen=True)
class Dictionary:
    """A LIWC-style dictionary: category id -> name, each category's entries, each
    category's parent in the header's indentation hierarchy (None at the top), and the
    encoding the file was read with."""

    path: Path
    categories: dict[str, str]
    entries: dict[str, list[Entry]]  # category name -> entries
    parents: dict[str, str | None] = field(default_factory=dict)
    encoding: str = "utf-8"


# One field of an entry line: a plain id ("125"), or a conditional one, "(02 134)125/464"
# (categories 125 or 464 depending on whether the previous word is in 02 or 134) or
# "<of>131/125" (depending on the next word).
_PLAIN_ID = re.compile(r"^\d+$")
_CONDITIONAL = re.compile(r"^(?:\((?P<ctx>[^)]*)\)|<(?P<next>[^>]*)>)(?P<ids>\d+(?:/\d+)*)$")
_FIELD = re.compile(r"\([^)]*\)\S*|<[^>]*>\S*|\S+")


def _decode_dic(path: Path) -> tuple[list[str], str]:
    """The lines and the encoding, under the one encoding policy of text inputs
    (:func:`learnability.io.decode_text`; LIWC2007's own dictionaries are windows-1252)."""
    text, encoding = decode_text(_read_bytes(path), path)
    return text.splitlines(), encoding


def _split_entry(line: str) -> tuple[str, list[str]]:
    """(entry text, category fields). Text before the first tab is the entry, spaces
    included (a multiword entry); without a tab, the entry is every leading field up to
    the first that reads as a category id."""
    if "\t" in line:
        head, rest = line.split("\t", 1)
        return head.strip(), _FIELD.findall(rest)
    fields = _FIELD.findall(line)
    k = 1
    while k < len(fields) and not (_PLAIN_ID.match(fields[k]) or _CONDITIONAL.match(fields[k])):
        k += 1
    return " ".join(fields[:k]), fields[k:]


def read_dic(path: str | os.PathLike[str]) -> Dictionary:
    """Read a LIWC-style ``.dic`` (LIWC2007 and LIWC2015 styles).

    - A header between two ``%`` lines of ``id<TAB>name`` lines (text after the name is a
      description and is ignored); indentation marks a subcategory of the nearest less
      indented category above it (LIWC2015).
    - Then ``entry<TAB>id<TAB>id...`` lines; tabs or runs of spaces separate fields; blank
      lines are skipped; an entry may end in ``*`` (a prefix wildcard) and may hold spaces
      (a multiword entry, later reported as a phrase).
    - The same entry on several lines belongs to the union of their categories.
    - Conditional fields, ``(02 134)125/464`` or ``<of>131/125``, give the entry every
      category id they can carry (here 125 and 464); the entry is marked ``conditional``.
    - UTF-8 or windows-1252. Matching is case-insensitive (entries are normalised with
      the corpus tokeniser's rule when resolved).
    """
    path = Path(path)
    lines, encoding = _decode_dic(path)
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or lines[i].strip() != "%":
        raise InputError(
            f"{path}, line {i + 1}: a .dic file must start with a '%' line, "
            "then 'id<TAB>category' lines, then another '%' line"
        )
    categories: dict[str, str] = {}
    parents: dict[str, str | None] = {}
    stack: list[tuple[int, str]] = []  # (indentation, name) of the open ancestors
    i += 1
    while i < len(lines) and lines[i].strip() != "%":
        line = lines[i]
        if line.strip():
            parts = line.split(None, 2)
            if len(parts) < 2 or not _PLAIN_ID.match(parts[0]):
                raise InputError(
                    f"{path}, line {i + 1}: header line {line.strip()!r} must be "
                    "'id<TAB>category name' with a numeric id (or is the header's "
                    "closing '%' line missing?)"
                )
            cid, name = parts[0], parts[1]
            if cid in categories:
                raise InputError(f"{path}, line {i + 1}: category id {cid} defined twice")
            if name in parents:
                raise InputError(
                    f"{path}, line {i + 1}: category name {name!r} is used by two ids; "
                    "rename one of them"
                )
            indent = len(line.expandtabs(8)) - len(line.expandtabs(8).lstrip())
            while stack and stack[-1][0] >= indent:
                stack.pop()
            categories[cid] = name
            parents[name] = stack[-1][1] if stack else None
            stack.append((indent, name))
        i += 1
    if i >= len(lines):
        raise InputError(f"{path}: the category header is not closed by a '%' line")
    entries: dict[str, list[Entry]] = {name: [] for name in categories.values()}
    # ids compare as numbers: LIWC2007 writes "02" in conditions for the header's "2"
    by_number = {int(cid): name for cid, name in categories.items()}
    for lineno in range(i + 2, len(lines) + 1):
        line = lines[lineno - 1]
        if not line.strip():
            continue
        word, fields = _split_entry(line)
        if not fields:
            raise InputError(
                f"{path}, line {lineno}: entry {word!r} has no category id; write 'entry<TAB>id'"
            )
        ids: list[str] = []
        conditional = False
        for f in fields:
            if _PLAIN_ID.match(f):
                ids.append(f)
                continue
            m = _CONDITIONAL.match(f)
            if m is None:
                raise InputError(
                    f"{path}, line {lineno}: entry {word!r} has the field {f!r}, which is "
                    "neither a category id nor a conditional one like '(02 134)125/464' "
                    "or '<of>131/125'; fix or remove it"
                )
            conditional = True
            ids.extend(m.group("ids").split("/"))
            context = (m.group("ctx") or "").split()
            for cid in context:
                if not _PLAIN_ID.match(cid):
                    break  # a condition on words, not category ids
                if int(cid) not in by_number:
                    raise InputError(
                        f"{path}, line {lineno}: entry {word!r}'s condition refers to "
                        f"category id {cid}, which the header does not define"
                    )
        added: set[str] = set()
        for cid in ids:
            if int(cid) not in by_number:
                raise InputError(
                    f"{path}, line {lineno}: entry {word!r} uses category id "
                    f"{cid}, which the header does not define"
                )
            name = by_number[int(cid)]
            if name not in added:  # "125 125" on one line is one membership
                entries[name].append(Entry(word, lineno, conditional))
                added.add(name)
    return Dictionary(path, categories, entries, parents, encoding)


DICTIONARY_FORMATS = ("auto", "dic", "table", "empath")


def detect_dictionary_format(path: str | os.PathLike[str]) -> str:
    """``.dic`` is LIWC; ``.csv`` a table; ``.tsv`` a table when its header names the
    ``word`` and ``category`` columns, else Empath's ``category<TAB>word...`` layout."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".dic":
        return "dic"
    if suffix == ".csv":
        return "table"
    if suffix == ".tsv":
        first = next(iter(_read_text(path)), "")
        header = {h.strip().lower() for h in first.split("\t")}
        return "table" if {"word", "category"} <= header else "empath"
    raise InputError(
        f"{path}: cannot tell the dictionary's layout from its name; use .dic (LIWC), "
        ".csv/.tsv (a word,category table) or set 'format' (dic, table, empath)"
    )


def read_table_dictionary(path: str | os.PathLike[str]) -> Dictionary:
    """A ``word,category`` table (CSV, or TSV for ``.tsv``) with a header naming both
    columns (in any order and case; other columns are ignored). One row per membership;
    a word in several rows belongs to each category."""
    path = Path(path)
    lines = _read_text(path)
    sep = "\t" if path.suffix.lower() == ".tsv" else ","
    if not lines:
        raise InputError(f"{path}: the table is empty; write a header 'word{sep}category'")
    header = [h.strip().lower() for h in lines[0].split(sep)]
    if "word" not in header or "category" not in header:
        raise InputError(
            f"{path}, line 1: the header must name a 'word' and a 'category' column "
            f"(separated by {sep!r}); found {lines[0][:80]!r}"
        )
    iw, ic = header.index("word"), header.index("category")
    entries: dict[str, list[Entry]] = {}
    for lineno, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = [f.strip() for f in line.split(sep)]
        if len(fields) <= max(iw, ic) or not fields[iw] or not fields[ic]:
            raise InputError(
                f"{path}, line {lineno}: expected a word and a category, found {line[:80]!r}"
            )
        entries.setdefault(fields[ic], []).append(Entry(fields[iw], lineno))
    return Dictionary(path, {c: c for c in entries}, entries, dict.fromkeys(entries))


def read_empath(path: str | os.PathLike[str]) -> Dictionary:
    """Empath's ``categories.tsv`` layout: ``category<TAB>word<TAB>word...`` per line;
    multiword entries are written with ``_`` and become phrases (spaces)."""
    path = Path(path)
    entries: dict[str, list[Entry]] = {}
    for lineno, line in enumerate(_read_text(path), start=1):
        if not line.strip():
            continue
        name, *words = line.rstrip("\n").split("\t")
        if not name.strip() or not any(w.strip() for w in words):
            raise InputError(
                f"{path}, line {lineno}: expected 'category<TAB>word<TAB>word...', "
                f"found {line[:80]!r}"
            )
        if name.strip() in entries:
            raise InputError(f"{path}, line {lineno}: category {name.strip()!r} appears twice")
        entries[name.strip()] = [
            Entry(w.strip().replace("_", " "), lineno) for w in words if w.strip()
        ]
    if not entries:
        raise InputError(f"{path}: no categories")
    return Dictionary(path, {c: c for c in entries}, entries, dict.fromkeys(entries))


def read_dictionary(path: str | os.PathLike[str], fmt: str = "auto") -> Dictionary:
    """A dictionary of categories in any supported layout (see :data:`DICTIONARY_FORMATS`)."""
    fmt = detect_dictionary_format(path) if fmt == "auto" else fmt
    if fmt == "dic":
        return read_dic(path)
    if fmt == "table":
        return read_table_dictionary(path)
    if fmt == "empath":
        return read_empath(path)
    raise InputError(f"{path}: unknown dictionary format {fmt!r}; use {DICTIONARY_FORMATS}")


def load_entries(
    source: str | os.PathLike[str], category: str | None = None, fmt: str = "auto"
) -> list[Entry]:
    """The entries of one list: a ``.txt`` list, or one category of a dictionary."""
    if category:
        return read_dictionary(source, fmt).entries[category]
    return read_wordlist(source)


_WS = re.compile(r"\s")
# the tokeniser's pieces (runs of letters and digits, apostrophes inside), numbers
# included: an entry of two or more ("well-known", "2-faced", "fair-minded") can only be
# a phrase in a vocabulary built by the tokeniser
_PIECE = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_SPLIT = re.compile(r"[^\w']|_")  # a character the tokeniser splits on
COLUMNS = list(schemas.TABLES["concept_words"])


def resolve(
    entries: list[Entry],
    vocabulary: list[str],
    *,
    list_name: str,
    embedding: str,
    source: str,
    case: str = DEFAULT_CASE,
    counts: np.ndarray | None = None,
    matcher: Matcher | None = None,
) -> pd.DataFrame:
    """Resolve entries against a vocabulary: one row per entry, and per wildcard expansion.

    Statuses: ``in_vocab`` (a word in the vocabulary), ``oov`` (not in it), ``expanded``
    (one vocabulary word matched by a ``prefix*`` wildcard), ``no_match`` (a wildcard that
    matched nothing), ``phrase`` (an entry with spaces, or one that the tokeniser splits
    in two, like "well-known", and that the vocabulary does not hold as written: GloVe
    6B has "in-law"), ``duplicate`` (a word already resolved by an earlier entry). The
    concept is the set of words with status ``in_vocab`` or ``expanded``; no word appears
    twice in it. ``case`` is the case policy (:mod:`learnability.concepts.matching`; ``counts``
    pick the most frequent case variant); ``match`` says how each word was found and
    ``variants`` lists the vocabulary's other case variants of it. ``position`` numbers
    the entries as read (duplicates included); ``conditional`` marks rows of LIWC entries
    whose category depends on context.
    """
    matcher = matcher or Matcher(vocabulary, case, counts)
    case = matcher.case
    seen_entries: set[str] = set()
    used: set[int] = set()
    rows: list[tuple] = []

    def add(pos, entry, kind, word, status, match=None, variants=""):
        rows.append(
            (pos, entry.line, entry.text, kind, word, status, match, variants, entry.conditional)
        )

    for pos, entry in enumerate(entries):
        written = normal_form(entry.text.strip())
        folded = written.lower()
        key = folded if case == "lower" else written
        if key in seen_entries:
            add(pos, entry, "wildcard" if written.endswith("*") else "word", None, "duplicate")
            continue
        seen_entries.add(key)
        if _WS.search(written):
            add(pos, entry, "phrase", None, "phrase")
        elif written.endswith("*"):
            prefix = written.rstrip("*")
            matches = matcher.expand(prefix)
            if not matches and _SPLIT.search(prefix):
                # "fair-*": only a word with a hyphen could match, and the tokeniser
                # splits those; a phrase, like "well-known"
                add(pos, entry, "phrase", None, "phrase")
            elif not matches:
                add(pos, entry, "wildcard", None, "no_match")
            for row in matches:
                status = "duplicate" if row in used else "expanded"
                used.add(row)
                add(pos, entry, "wildcard", vocabulary[row], status, "prefix")
        else:
            row, how = matcher.find(written)
            others = [v for v in matcher.variants(written) if row < 0 or v != vocabulary[row]]
            variants = "|".join(others) if (row >= 0 and others) or len(others) > 1 else ""
            if row >= 0:
                status = "duplicate" if row in used else "in_vocab"
                used.add(row)
                add(pos, entry, "word", vocabulary[row], status, how, variants)
            elif len(_PIECE.findall(folded)) > 1:
                add(pos, entry, "phrase", None, "phrase", None, variants)
            else:
                add(
                    pos,
                    entry,
                    "word",
                    written if case == "exact" else folded,
                    "oov",
                    None,
                    variants,
                )
    df = pd.DataFrame(
        rows, columns=[c for c in COLUMNS if c not in ("list", "embedding", "source", "case")]
    )
    df.insert(0, "source", source)
    df.insert(0, "embedding", embedding)
    df.insert(0, "list", list_name)
    df["case"] = case
    return df[COLUMNS]


def concept_words(resolved: pd.DataFrame) -> list[str]:
    """The words that make up the concept: in-vocabulary entries and wildcard expansions."""
    mask = resolved["status"].isin(["in_vocab", "expanded"])
    return resolved.loc[mask, "word"].astype(str).tolist()


def coverage(
    resolved: pd.DataFrame, vocabulary: str = "own", max_wildcard_share: float = 0.25
) -> pd.DataFrame:
    """One summary row per (list, embedding) from a resolution table; ``vocabulary`` says
    what it was resolved against: the embedding's ``own`` or the compared embeddings'
    ``shared`` vocabulary. A wildcard whose expansions make up more than
    ``max_wildcard_share`` of the concept is flagged: a short prefix (``art*``) can swallow
    a list with words that have nothing to do with it."""
    rows = []
    for (list_name, embedding, source), g in resolved.groupby(
        ["list", "embedding", "source"], sort=True
    ):
        first = g.drop_duplicates("position")  # one row per entry, not per expansion
        wild = first[first["kind"] == "wildcard"]
        plain = g[g["kind"] == "word"]
        n_in_vocab = int(g["status"].isin(["in_vocab", "expanded"]).sum())
        n_plain = int((first["kind"] == "word").sum())
        n_oov = int((g["status"] == "oov").sum())
        expanded = g[g["status"] == "expanded"].groupby("position").size()
        shares = expanded / n_in_vocab if n_in_vocab else expanded * 0.0
        rows.append(
            {
                "list": list_name,
                "embedding": embedding,
                "vocabulary": vocabulary,
                "source": source,
                "n_entries": len(first),
                "n_plain": n_plain,
                "n_wildcards": len(wild),
                "n_wildcard_words": int((g["status"] == "expanded").sum()),
                "n_wildcards_unmatched": int((g["status"] == "no_match").sum()),
                "max_wildcard_share": float(shares.max()) if len(shares) else 0.0,
                "n_wildcards_flagged": int((shares > max_wildcard_share).sum()),
                "n_phrases": int((g["status"] == "phrase").sum()),
                "n_duplicates": int((g["status"] == "duplicate").sum()),
                "n_conditional": int(first["conditional"].sum()),
                "case": str(g["case"].iloc[0]),
                "n_matched_lower": int((plain["match"] == "lower").sum()),
                "n_matched_variant": int((plain["match"] == "variant").sum()),
                "n_case_collisions": int((plain["variants"].fillna("") != "").sum()),
                "n_oov": n_oov,
                "n_in_vocab": n_in_vocab,
                "oov_rate": n_oov / n_plain if n_plain else 0.0,
                # why the list is not scored in the space it was resolved against (too
                # few words in it): filled by whoever scores it, which knows min_words
                "not_scored": None,
            }
        )
    return pd.DataFrame(rows)


def member_indices(
    resolved: pd.DataFrame, vocabulary: pd.Index | pd.Series | list[str]
) -> np.ndarray:
    """Row indices in the embedding of the concept's words (see :func:`concept_words`).
    ``vocabulary`` may be a ``pd.Index`` of the words, whose hash table is built once and
    kept by pandas: a caller that looks up many lists in one large vocabulary passes one
    (:func:`learnability.pipeline.jobs.vocab_index`)."""
    index = vocabulary if isinstance(vocabulary, pd.Index) else pd.Index(list(vocabulary))
    words = concept_words(resolved)
    rows = index.get_indexer(words)
    if (rows < 0).any():
        missing = [w for w, r in zip(words, rows, strict=True) if r < 0]
        raise KeyError(f"{len(missing)} concept words not in the vocabulary: {missing[:5]}")
    return rows.astype(np.int64)


# A pair of lists sharing more than this share of the smaller one's members is reported
# as nested: their AUCs are not independent units of the Wilcoxon test.


def list_overlap(resolved: pd.DataFrame, vocabulary: str = "own") -> pd.DataFrame:
    """Every pair of lists resolved against one embedding (schema ``overlap``): how many
    in-vocabulary members they share, as a share of the smaller list's, and whether that
    share is above ``OVERLAP_WARN``. ``resolved`` is the resolution tables of one
    embedding (:func:`resolve`)."""
    members = {name: set(concept_words(g)) for name, g in resolved.groupby("list", sort=True)}
    embedding = str(resolved["embedding"].iloc[0]) if len(resolved) else ""
    names = sorted(members)
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            shared = len(members[a] & members[b])
            smaller = min(len(members[a]), len(members[b]))
            share = shared / smaller if smaller else 0.0
            rows.append(
                {
                    "embedding": embedding,
                    "vocabulary": vocabulary,
                    "list_a": a,
                    "list_b": b,
                    "n_a": len(members[a]),
                    "n_b": len(members[b]),
                    "n_shared": shared,
                    "overlap": share,
                    "nested": share > OVERLAP_WARN,
                }
            )
    return pd.DataFrame(rows, columns=list(schemas.TABLES["overlap"]))
