"""The synthetic dump (learnability.corpus.synthdump): what the workflow's extraction reads back
from it, how its vocabulary grows, and that the workflow's manifest accepts it."""

from __future__ import annotations

import bz2
import hashlib
import html
import json
import re
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from learnability.cli import main
from learnability.corpus import synthdump
from learnability.corpus.dumps import build_manifest, read_manifest
from learnability.corpus.extract import extract_corpus


def test_extraction_gives_back_exactly_the_drawn_tokens(tmp_path, seed):
    """Only prose draws tokens: the real extraction (markup stripping, tokenizer, stub
    and redirect filters) must return every article token the generator drew, and
    nothing else, word for word."""
    drawn: Counter[str] = Counter()
    part = synthdump.write_part(
        tmp_path, wiki="x", date="1", part=1, first_page=1, xml_bytes=2_000_000,
        seed=seed, counts=drawn,
    )  # fmt: skip
    stats = extract_corpus(
        [tmp_path / part.name], tmp_path / "t.txt.gz", tmp_path / "s.json",
        out_counts=tmp_path / "c.parquet",
    )  # fmt: skip
    counts = pd.read_parquet(tmp_path / "c.parquet")
    assert dict(zip(counts["word"], counts["count"], strict=True)) == dict(drawn)
    assert stats["tokens"] == part.tokens == sum(drawn.values())
    assert stats["articles"] == part.articles and stats["pages"] == part.pages
    # redirects, other namespaces and stubs are in it, as in a real dump
    assert all(v > 0 for v in stats["skipped"].values()), stats["skipped"]
    # enwiki's markup density: about 26 bytes of XML per extracted token
    assert 21 < part.xml_bytes / part.tokens < 31


def _depths(text: str, opener: str, closer: str) -> int:
    """The deepest nesting of ``opener ... closer`` spans in ``text``."""
    depth = deepest = 0
    for m in re.finditer(re.escape(opener) + "|" + re.escape(closer), text):
        depth += 1 if m.group() == opener else -1
        deepest = max(deepest, depth)
    return deepest


def test_no_template_or_table_text_reaches_the_corpus(tmp_path, seed):
    """The markup is nested as enwiki's is (templates in templates four deep, tables in
    table cells, links inside navbox templates), and none of its words is extracted: every
    filler vocabulary is absent from the corpus, and could only get there by a leak (no
    filler word is a word of the sample the prose draws from)."""
    part = synthdump.write_part(
        tmp_path, wiki="x", date="1", part=1, first_page=1, xml_bytes=1_000_000, seed=seed
    )
    xml = html.unescape(bz2.decompress((tmp_path / part.name).read_bytes()).decode())
    assert _depths(xml, "{{", "}}") == synthdump.NEST_DEPTH
    assert _depths(xml, "{|", "|}") == 2
    assert "{{Navbox" in xml and "{{flatlist|\n* [[" in xml  # links inside templates
    assert "<!--" in xml and "<ref name=" in xml
    extract_corpus(
        [tmp_path / part.name], tmp_path / "t.txt.gz", tmp_path / "s.json",
        out_counts=tmp_path / "c.parquet",
    )  # fmt: skip
    corpus = set(pd.read_parquet(tmp_path / "c.parquet")["word"])
    lexicon = synthdump.sample_lexicon()
    sample = set(lexicon.head) | set(lexicon.tail)
    for kind, words in synthdump.FILLER.items():
        folded = {w.lower() for w in words}
        assert any(w in xml for w in words), kind  # this kind is in the dump
        assert not folded & sample, kind
        assert not folded & corpus, (kind, folded & corpus)


def test_vocabulary_grows_as_the_model_says(tmp_path, seed):
    """Types with count >= 5 in an extracted dump against the model's Poisson expectation.
    The count is a sum of independent indicators, so its SD is below sqrt(mean); 5 SD.
    At 2.6 B tokens the model gives Wikipedia's 2.5 M words (its fit)."""
    part = synthdump.write_part(
        tmp_path, wiki="x", date="1", part=1, first_page=1, xml_bytes=4_000_000, seed=seed
    )
    stats = extract_corpus([tmp_path / part.name], tmp_path / "t.txt.gz", tmp_path / "s.json")
    for k in (2, 5, 10):
        expected = synthdump.expected_vocabulary(stats["tokens"], k)
        got = stats["types_with_count_at_least"][str(k)]
        assert abs(got - expected) < 5 * np.sqrt(expected), (k, got, expected)
    assert synthdump.expected_vocabulary(2.6e9, 5) == pytest.approx(2.5e6, rel=0.01)


def test_fitted_constants_are_the_fit():
    s, q = synthdump.fit_tail()
    assert s == pytest.approx(synthdump.TAIL_S, abs=1e-3)
    assert q == pytest.approx(synthdump.TAIL_Q, rel=0.01)
    # the fit's sample anchor is the sample's own count, as the workflow extracts it
    lex = synthdump.sample_lexicon()
    assert len(lex.head) + len(lex.tail) == 33_737
    assert synthdump.expected_vocabulary(synthdump.SAMPLE_TOKENS, 5) == pytest.approx(
        8685, rel=0.01
    )


def test_dump_is_deterministic_and_accepted_by_the_manifest(tmp_path):
    """The same bytes with 1 or 2 processes; the status file's sizes and checksums are the
    files'; the workflow's manifest code lists the parts in page order."""
    one = main(["synthetic-dump", str(tmp_path / "a"), "--xml-mb", "1.5", "--parts", "3"])
    two = main([
        "synthetic-dump", str(tmp_path / "b"), "--xml-mb", "1.5", "--parts", "3",
        "--processes", "2",
    ])  # fmt: skip
    assert one == two == 0
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "b").iterdir())
    for name in names:
        a, b = ((tmp_path / d / name).read_bytes() for d in "ab")
        assert a == b, name
    status = json.loads((tmp_path / "a" / "dumpstatus.json").read_text())
    files = status["jobs"]["articlesdump"]["files"]
    assert len(files) == 3
    for name, info in files.items():
        data = (tmp_path / "a" / name).read_bytes()
        assert info["size"] == len(data)
        assert info["sha1"] == hashlib.sha1(data).hexdigest()
        assert info["md5"] == hashlib.md5(data).hexdigest()
    base = (tmp_path / "a").as_uri() + "/"
    build_manifest("dumpstatus.json", base, tmp_path / "manifest.tsv")
    listed = read_manifest(tmp_path / "manifest.tsv")
    assert [f.name for f in listed] == sorted(
        files, key=lambda n: int(n.split("articles")[1].split(".")[0])
    )
    summary = json.loads((tmp_path / "a" / "synthetic.json").read_text())
    assert summary["tokens"] == sum(f["tokens"] for f in summary["files"]) > 0


def test_bad_sizes_are_one_line_errors(tmp_path, capsys):
    assert main(["synthetic-dump", str(tmp_path / "x"), "--xml-mb", "0"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--xml-mb" in err
    assert not (tmp_path / "x").exists()


def test_spell_many_spells_each_rank_as_spell_does():
    """By hand at the digits' edges (base 70: "ba" is 0, "zu" 69, the first digit first),
    then against spell one rank at a time over ranks of one to four digits, unsorted."""
    from learnability.corpus.synthdump import spell, spell_many

    assert spell_many(np.array([0, 69, 70, 4900])) == ["baq", "zuq", "babeq", "bababeq"]
    ranks = np.random.default_rng(0).permutation(np.r_[0:5000, 343_000 - 5 : 343_000 + 5])
    assert spell_many(ranks) == [spell(int(r)) for r in ranks]
    assert spell_many(np.array([], dtype=np.int64)) == []
