"""What a notebook holds, turned into what the protocol reads: an embedding (a gensim
``KeyedVectors``, a mapping of word to vector, a ``(words, vectors)`` pair, a workflow
embedding folder, any file the workflow imports, a shipped name) as an
:class:`~learnability.embeddings.store.Embedding`, and word lists (a mapping of name to
words, one sequence, a ``.txt`` / ``.dic`` file or a folder of them) as entries. Every
problem is one :class:`~learnability.errors.InputError` line naming the word, the item
or the file. :func:`learnability.score` calls these first."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from learnability.concepts.lists import Entry, read_dictionary, read_wordlist
from learnability.embeddings import load_embedding
from learnability.embeddings.pretrained import import_embedding
from learnability.embeddings.shipped import SHIPPED, default_name, pretrained_spec, resolve
from learnability.embeddings.store import Embedding
from learnability.errors import InputError

LIST_SUFFIXES = (".txt",)
DICTIONARY_SUFFIXES = (".dic", ".csv", ".tsv")


def load_lists(path: Path) -> dict[str, list[Entry]]:
    """Concept lists from a ``.txt`` list, a dictionary (``.dic``, a ``word,category``
    ``.csv``/``.tsv`` or Empath's ``categories.tsv``; every category) or a folder of them
    (suffixes in any case); other files in a folder are named on stderr, not read."""

    path = Path(path)
    if path.is_dir():
        found = sorted(p for p in path.iterdir() if p.is_file())
        usable = LIST_SUFFIXES + DICTIONARY_SUFFIXES
        files = [p for p in found if p.suffix.lower() in usable]
        ignored = [p.name for p in found if p not in files and not p.name.startswith(".")]
        if ignored:
            print(
                f"{path}: not lists, ignored: {', '.join(ignored[:10])}"
                + (f" and {len(ignored) - 10} more" if len(ignored) > 10 else ""),
                file=sys.stderr,
            )
        if not files:
            raise InputError(
                f"{path}: no word lists (.txt) or dictionaries (.dic, .csv, .tsv) in this folder"
            )
    elif path.is_file():
        files = [path]
    else:
        raise InputError(f"{path}: no such file or folder of word lists")
    lists: dict[str, list[Entry]] = {}
    for f in files:
        if f.suffix.lower() in DICTIONARY_SUFFIXES:
            dic = read_dictionary(f)
            for category, entries in dic.entries.items():
                if entries:
                    lists[f"{f.stem}_{category}"] = entries
        else:
            lists[f.stem] = read_wordlist(f)
    return lists


def _entries(name: str, words) -> list[Entry]:
    if isinstance(words, (str, os.PathLike)) and Path(words).is_file():
        return read_wordlist(words)
    if isinstance(words, str) or not isinstance(words, Sequence | np.ndarray | pd.Series):
        raise InputError(
            f"list {name!r}: give its words as a list of strings (or a .txt file), "
            f"not {type(words).__name__}"
        )
    entries = []
    for i, word in enumerate(words, start=1):
        if not isinstance(word, str):
            raise InputError(f"list {name!r}, item {i}: {word!r} is not a string")
        if word.strip():
            entries.append(Entry(word.strip(), i))
    if not entries:
        raise InputError(f"list {name!r} has no words")
    return entries


def as_lists(source) -> dict[str, list[Entry]]:
    """Word lists from a mapping of name to words (or to a .txt file), one sequence of
    words (named ``concept``), or a path to a list, a dictionary or a folder of them."""
    if isinstance(source, (str, os.PathLike)):
        return load_lists(Path(source))
    if isinstance(source, Mapping):
        if not source:
            raise InputError("no word lists given")
        return {str(name): _entries(str(name), words) for name, words in source.items()}
    return {"concept": _entries("concept", source)}


def _workflow_folder(source) -> Path | None:
    """The folder ``source`` names, when it is one (not a spec, a short name or a file)."""

    if not isinstance(source, (str, os.PathLike)):
        return None
    text = os.fspath(source)
    if text in SHIPPED or text.startswith("package://") or not Path(text).is_dir():
        return None
    return Path(text)


def open_embedding(source, tmp: Path, name: str | None = None, **options) -> Embedding:
    """An embedding folder as the workflow writes it (memory-mapped in place), or a
    pretrained spec (:func:`learnability.embeddings.shipped.pretrained_spec`: a short
    name, a path, ``package://DIST/path`` or a config mapping, with ``options`` over it)
    imported into ``tmp`` and memory-mapped there."""

    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    folder = _workflow_folder(source)
    if folder is not None:
        if not (folder / "vectors.npy").is_file() or not (folder / "vocab.parquet").is_file():
            raise InputError(
                f"{folder}: a folder must hold vectors.npy and vocab.parquet (the "
                "workflow's results/embeddings/NAME); or give the embedding file itself"
            )
        return load_embedding(folder, mmap=True)
    spec = pretrained_spec(source, **options)
    path = resolve(spec["path"])
    if not path.exists():
        raise InputError(
            f"{spec['path']}: no such embedding file or folder; give a file, a workflow "
            f"embedding folder, package://DIST/path, or a shipped name ({', '.join(SHIPPED)})"
        )
    if spec["subword_oov"]:
        raise InputError(
            f"{spec['path']}: subword_oov needs the lists' words, which only the workflow "
            "passes to the import; drop it here, or score the embedding with the workflow"
        )
    words = resolve(spec["words"], "the words of") if "words" in spec else None
    meta = import_embedding(
        path,
        tmp,
        name=name or default_name(source),
        fmt=spec["format"],
        member=spec.get("member"),
        max_vocab=spec.get("max_vocab"),
        exclude_prefixes=tuple(spec["exclude_prefixes"]),
        frequency_ordered=spec["frequency_ordered"],
        allow_pickle=spec["allow_pickle"],
        unicode_errors=spec["unicode_errors"],
        words=words,
        words_column=spec.get("words_column"),
    )
    if meta["n_undecodable"]:
        shown = ", ".join(f"{w['where']} {w['bytes']!r}" for w in meta["undecodable_words"][:5])
        print(
            f"{path}: {meta['n_undecodable']} words not UTF-8 ({spec['unicode_errors']}): {shown}",
            file=sys.stderr,
        )
    return load_embedding(tmp, mmap=True)


def _checked(words: list, vectors, name: str, counts=None) -> Embedding:
    vectors = np.asarray(vectors)
    if vectors.ndim != 2 or vectors.shape[0] != len(words):
        raise InputError(
            f"embedding {name!r}: {len(words)} words but vectors of shape {vectors.shape}; "
            "give one vector (a row) per word"
        )
    if not np.issubdtype(vectors.dtype, np.floating):
        vectors = vectors.astype(np.float64)
    bad = [w for w in words if not isinstance(w, str) or not w]
    if bad:
        raise InputError(f"embedding {name!r}: {bad[0]!r} is not a word (a non-empty string)")
    seen: set[str] = set()
    for word in words:
        if word in seen:
            raise InputError(f"embedding {name!r}: the word {word!r} has two vectors")
        seen.add(word)
    finite = np.isfinite(vectors).all(axis=1)
    if not finite.all():
        raise InputError(
            f"embedding {name!r}: the vector of {words[int(np.argmin(finite))]!r} is not "
            f"finite ({int((~finite).sum())} such words); drop or fix them"
        )
    counts = np.zeros(len(words), dtype=np.int64) if counts is None else np.asarray(counts)
    return Embedding(words=list(words), vectors=vectors, counts=counts, name=name)


def _is_spec(source) -> bool:
    """A config mapping (``path: ...``), not a mapping of word to vector."""
    return isinstance(source, Mapping) and any(
        isinstance(source.get(k), str) for k in ("path", "url")
    )


def as_embedding(
    source,
    *,
    name: str | None = None,
    fmt: str | None = None,
    max_vocab: int | None = None,
    words: str | os.PathLike | None = None,
    words_column: str | None = None,
    member: str | None = None,
    exclude_prefixes: Sequence[str] | None = None,
    frequency_ordered: bool | None = None,
    allow_pickle: bool | None = None,
    unicode_errors: str | None = None,
) -> Embedding:
    """An :class:`~learnability.embeddings.store.Embedding` from a gensim
    ``KeyedVectors`` (its ``count`` attribute, when set, gives word frequencies), a
    mapping of word to vector, a ``(words, vectors)`` pair, a workflow embedding folder,
    or any embedding the workflow's config accepts (read into memory): a file, a
    ``package://DIST/path``, a shipped name (``"glove6b"``, ``"glove6b_400k"``) or a
    config mapping (``{"path": ..., "words": ..., "format": "npy"}``). The keyword
    options are the config's pretrained options (``fmt`` is ``format``); given, they
    override the spec's."""
    if isinstance(source, Embedding):
        return source
    if isinstance(source, (str, os.PathLike)) or _is_spec(source):
        options = dict(
            format=fmt, max_vocab=max_vocab, words=None if words is None else os.fspath(words),
            words_column=words_column, member=member,
            exclude_prefixes=None if exclude_prefixes is None else tuple(exclude_prefixes),
            frequency_ordered=frequency_ordered, allow_pickle=allow_pickle,
            unicode_errors=unicode_errors,
        )  # fmt: skip
        given = source if _is_spec(source) else os.fspath(source)
        if _workflow_folder(given) is not None:  # memory-mapped in place, nothing copied
            return open_embedding(given, Path(given))
        with tempfile.TemporaryDirectory() as tmp:
            emb = open_embedding(given, Path(tmp), name, **options)
            # read into memory: the temporary folder goes away
            return Embedding(
                words=emb.words,
                vectors=np.array(emb.vectors),
                counts=np.array(emb.counts),
                name=name or default_name(given),
                meta=emb.meta,
            )
    if hasattr(source, "index_to_key") and hasattr(source, "vectors"):
        counts = getattr(source, "expandos", {}).get("count")
        words = list(source.index_to_key)
        return _checked(words, source.vectors, name or "embedding", counts)
    if isinstance(source, tuple) and len(source) == 2:
        return _checked(list(source[0]), source[1], name or "embedding")
    if isinstance(source, Mapping):
        words = list(source)
        vectors = np.stack([np.asarray(source[w], dtype=np.float64) for w in words])
        return _checked(words, vectors, name or "embedding")
    raise InputError(
        f"cannot read an embedding from {type(source).__name__}: give a gensim KeyedVectors, "
        "a mapping of word to vector, a (words, vectors) pair, a path, package://DIST/path, "
        "a shipped name or a config mapping with 'path'"
    )
