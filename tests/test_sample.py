"""Corpora drawn down to a token budget (learnability.corpus.sample): exactly the budget,
whole documents of the corpus in its order with their boundaries, the same draw for the
same seed, every document as likely as any other; a budget above the corpus is one line
of error."""

import gzip
from pathlib import Path

import gensim
import numpy as np
import pytest

from learnability.corpus.documents import SourceOptions
from learnability.corpus.extract import extract_corpus
from learnability.corpus.sample import sample_documents
from learnability.errors import InputError

LEE = Path(gensim.__file__).parent / "test" / "test_data" / "lee_background.cor"


def _documents(path: Path) -> list[list[str]]:
    """A corpus' documents, each its lines: the runs of lines between empty ones."""
    text = gzip.decompress(path.read_bytes()).decode()
    assert text.endswith("\n\n") or not text, "every document, the last too, ends in a blank"
    return [block.split("\n") for block in text.removesuffix("\n\n").split("\n\n") if block]


def _write(path: Path, documents: list[list[str]]) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.writelines("".join(line + "\n" for line in doc) + "\n" for doc in documents)


def test_a_sample_holds_exactly_the_budget_in_documents_of_the_corpus_in_its_order(tmp_path):
    corpus = tmp_path / "lee.txt.gz"
    extract_corpus([LEE], corpus, tmp_path / "lee.json", min_article_tokens=1, source="text",
                   options=SourceOptions(document="line"))  # fmt: skip
    docs = [doc[0] for doc in _documents(corpus)]  # one line a document
    total = sum(len(line.split()) for line in docs)
    stats = sample_documents(corpus, tmp_path / "a.txt.gz", tmp_path / "a.json", 20_000, seed=1)
    drawn = [doc[0] for doc in _documents(tmp_path / "a.txt.gz")]
    assert sum(len(line.split()) for line in drawn) == 20_000 == stats["tokens"]
    assert stats["corpus_tokens"] == total and stats["documents"] == len(drawn) < len(docs)
    assert stats["lines"] == len(drawn) and stats["corpus_documents"] == len(docs)
    # each a document of the corpus, in the corpus' order; one of them (the last drawn)
    # may be cut to a prefix of its own
    at, cut = 0, 0
    for d in drawn:  # a subsequence of the corpus' documents (earliest match, in order)
        while docs[at] != d and not docs[at].startswith(d + " "):
            at += 1  # an IndexError here: a document not in the corpus, or out of its order
        cut += docs[at] != d
        at += 1
    assert cut <= 1
    # the same seed, the same bytes; another seed, another sample
    sample_documents(corpus, tmp_path / "b.txt.gz", tmp_path / "b.json", 20_000, seed=1)
    sample_documents(corpus, tmp_path / "c.txt.gz", tmp_path / "c.json", 20_000, seed=2)
    assert (tmp_path / "b.txt.gz").read_bytes() == (tmp_path / "a.txt.gz").read_bytes()
    assert [d[0] for d in _documents(tmp_path / "c.txt.gz")] != drawn
    # the whole corpus is a sample of itself, byte for byte
    sample_documents(corpus, tmp_path / "d.txt.gz", tmp_path / "d.json", total, seed=3)
    assert gzip.decompress((tmp_path / "d.txt.gz").read_bytes()) == gzip.decompress(
        corpus.read_bytes()
    )
    with pytest.raises(InputError, match=r"lee\.txt\.gz: 59,576 tokens, and a sample of 59,577"):
        sample_documents(corpus, tmp_path / "e.txt.gz", tmp_path / "e.json", total + 1, seed=1)
    assert not (tmp_path / "e.txt.gz").exists() and not (tmp_path / "e.json").exists()


def test_a_draw_takes_whole_documents_of_several_lines_and_cuts_the_last_one_alone(tmp_path):
    """Twelve documents of one to four lines (each line's tokens name its document and
    line), drawn at 40 of their 132 tokens over 50 seeds: every document drawn is whole,
    lines and boundary, but one (the last drawn) that is cut to a prefix of its tokens,
    and they come in the corpus' order."""
    documents = [
        [" ".join(f"d{d}l{k}t{t}" for t in range(3 + (d + k) % 4)) for k in range(1 + d % 4)]
        for d in range(12)
    ]  # fmt: skip
    corpus = tmp_path / "c.txt.gz"
    _write(corpus, documents)
    total = sum(len(line.split()) for doc in documents for line in doc)
    assert total == 132
    for seed in range(50):
        stats = sample_documents(corpus, tmp_path / "s.txt.gz", tmp_path / "s.json", 40, seed)
        drawn = _documents(tmp_path / "s.txt.gz")
        assert sum(len(line.split()) for doc in drawn for line in doc) == 40
        which = [int(doc[0].split()[0][1:].split("l")[0]) for doc in drawn]
        assert which == sorted(which) and len(set(which)) == len(which)
        cut = [d for d, doc in zip(which, drawn, strict=True) if doc != documents[d]]
        assert len(cut) <= 1, (seed, drawn)
        for d, doc in zip(which, drawn, strict=True):
            # a cut one: whole lines, then a prefix of the next line of the same document
            whole = " ".join(documents[d]).split()
            assert " ".join(doc).split() == whole[: len(" ".join(doc).split())]
            assert all(line == documents[d][k] for k, line in enumerate(doc[:-1]))
        assert stats["documents"] == len(drawn) and stats["lines"] == sum(map(len, drawn))
        assert stats["corpus_documents"] == 12 and stats["corpus_lines"] == 30
    assert stats["corpus_tokens"] == total


def test_every_document_is_as_likely_to_be_drawn(tmp_path):
    """50 documents of two lines of 5 tokens, a budget of 20 documents: over 1000 seeds
    each document is drawn Binomial(1000, 0.4) times (sd 15.5); every count within 5 sd
    of 400 (a false alarm once in about 35,000 runs)."""
    corpus = tmp_path / "c.txt.gz"
    _write(corpus, [[" ".join(f"w{i}x{k}y{j}" for j in range(5)) for k in range(2)]
                    for i in range(50)])  # fmt: skip
    counts = np.zeros(50, dtype=int)
    for seed in range(1000):
        sample_documents(corpus, tmp_path / "s.txt.gz", tmp_path / "s.json", 200, seed=seed)
        drawn = _documents(tmp_path / "s.txt.gz")
        assert len(drawn) == 20 and all(len(doc) == 2 for doc in drawn)
        counts[[int(doc[0].split()[0][1:].split("x")[0]) for doc in drawn]] += 1
    assert counts.sum() == 20_000
    assert np.abs(counts - 400).max() < 5 * np.sqrt(1000 * 0.4 * 0.6), counts
