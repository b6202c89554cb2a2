"""Corpora drawn down to a token budget (learnability.corpus.sample): exactly the budget,
lines of the corpus in its order, the same draw for the same seed, every line as likely
as any other; a budget above the corpus is one line of error."""

import gzip
from pathlib import Path

import gensim
import numpy as np
import pytest

from learnability.corpus.documents import SourceOptions
from learnability.corpus.extract import extract_corpus
from learnability.corpus.sample import sample_lines
from learnability.errors import InputError

LEE = Path(gensim.__file__).parent / "test" / "test_data" / "lee_background.cor"


def _lines(path: Path) -> list[str]:
    return gzip.decompress(path.read_bytes()).decode().splitlines()


def test_a_sample_holds_exactly_the_budget_in_lines_of_the_corpus_in_its_order(tmp_path):
    corpus = tmp_path / "lee.txt.gz"
    extract_corpus([LEE], corpus, tmp_path / "lee.json", min_article_tokens=1, source="text",
                   options=SourceOptions(document="line"))  # fmt: skip
    lines = _lines(corpus)
    total = sum(len(line.split()) for line in lines)
    stats = sample_lines(corpus, tmp_path / "a.txt.gz", tmp_path / "a.json", 20_000, seed=1)
    drawn = _lines(tmp_path / "a.txt.gz")
    assert sum(len(line.split()) for line in drawn) == 20_000 == stats["tokens"]
    assert stats["corpus_tokens"] == total and stats["lines"] == len(drawn) < len(lines)
    # each a line of the corpus, in the corpus' order; one of them (the last drawn) may
    # be cut to a prefix of its line
    at, cut = 0, 0
    for d in drawn:  # a subsequence of the corpus' lines (earliest match, in order)
        while lines[at] != d and not lines[at].startswith(d + " "):
            at += 1  # an IndexError here: a line not in the corpus, or out of its order
        cut += lines[at] != d
        at += 1
    assert cut <= 1
    # the same seed, the same bytes; another seed, another sample
    sample_lines(corpus, tmp_path / "b.txt.gz", tmp_path / "b.json", 20_000, seed=1)
    sample_lines(corpus, tmp_path / "c.txt.gz", tmp_path / "c.json", 20_000, seed=2)
    assert (tmp_path / "b.txt.gz").read_bytes() == (tmp_path / "a.txt.gz").read_bytes()
    assert _lines(tmp_path / "c.txt.gz") != drawn
    # the whole corpus is a sample of itself
    sample_lines(corpus, tmp_path / "d.txt.gz", tmp_path / "d.json", total, seed=3)
    assert _lines(tmp_path / "d.txt.gz") == lines
    with pytest.raises(InputError, match=r"lee\.txt\.gz: 59,576 tokens, and a sample of 59,577"):
        sample_lines(corpus, tmp_path / "e.txt.gz", tmp_path / "e.json", total + 1, seed=1)
    assert not (tmp_path / "e.txt.gz").exists() and not (tmp_path / "e.json").exists()


def test_every_line_is_as_likely_to_be_drawn(tmp_path):
    """50 lines of 10 tokens, a budget of 20 lines: over 1000 seeds each line is drawn
    Binomial(1000, 0.4) times (sd 15.5); every count within 5 sd of 400 (a false alarm
    once in about 35,000 runs)."""
    corpus = tmp_path / "c.txt.gz"
    with gzip.open(corpus, "wt", encoding="utf-8") as fh:
        for i in range(50):
            fh.write(" ".join(f"w{i}x{j}" for j in range(10)) + "\n")
    counts = np.zeros(50, dtype=int)
    for seed in range(1000):
        sample_lines(corpus, tmp_path / "s.txt.gz", tmp_path / "s.json", 200, seed=seed)
        drawn = _lines(tmp_path / "s.txt.gz")
        assert len(drawn) == 20
        counts[[int(line.split()[0][1:].split("x")[0]) for line in drawn]] += 1
    assert counts.sum() == 20_000
    assert np.abs(counts - 400).max() < 5 * np.sqrt(1000 * 0.4 * 0.6), counts
