import bz2
import gzip
import json
import random
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from conftest import page, write_dump

from learnability.corpus import extract as corpus
from learnability.corpus.extract import extract_corpus
from learnability.corpus.lines import iter_lines
from learnability.errors import InputError

LONG = " ".join(f"w{i % 50}x" for i in range(2500))


def test_extract_filters_pages_and_counts(tmp_path):
    dump = write_dump(
        tmp_path / "d.xml.bz2",
        [
            page("Art", "The '''cat''' sat on the [[mat]]. " * 10),
            page("Redirect", "#REDIRECT [[Art]]", redirect="Art"),
            page("Untagged redirect", "#redirect [[Art]]"),
            page("Talk:Art", "talk page text " * 30, ns=1),
            page("Stub", "Too short."),
            page("Long", LONG),
        ],
    )
    text, stats_path = tmp_path / "text.txt.gz", tmp_path / "stats.json"
    stats = extract_corpus([dump], text, stats_path, min_article_tokens=20, max_line_tokens=1000)
    assert stats == json.loads(stats_path.read_text())
    assert stats["pages"] == 6
    assert stats["skipped"] == {
        "non_article_namespace": 1,
        "redirect": 2,
        "shorter_than_20_tokens": 1,
    }
    assert stats["articles"] == 2
    lines = list(iter_lines(text))
    assert lines[0][:6] == ["the", "cat", "sat", "on", "the", "mat"]
    # the 2500-token paragraph is cut into lines of at most 1000 tokens, nothing lost
    long_lines = lines[1:]
    assert [len(x) for x in long_lines] == [1000, 1000, 500]
    assert stats["tokens"] == 60 + 2500
    assert stats["types"] == 5 + 50
    assert stats["types_with_count_at_least"]["5"] == 5 + 50


def test_output_is_byte_identical_across_runs(tmp_path):
    dump = write_dump(tmp_path / "d.xml.bz2", [page("A", "word " * 60)])
    extract_corpus([dump], tmp_path / "a.gz", tmp_path / "a.json")
    extract_corpus([dump], tmp_path / "b.gz", tmp_path / "b.json")
    assert (tmp_path / "a.gz").read_bytes() == (tmp_path / "b.gz").read_bytes()


def test_corrupt_dump_names_file_and_leaves_no_output(tmp_path):
    bad = tmp_path / "bad.xml.bz2"
    bad.write_bytes(b"BZh91AY&SY" + b"\x00" * 100)
    out = tmp_path / "out" / "text.txt.gz"
    with pytest.raises(InputError, match="bad.xml.bz2"):
        extract_corpus([bad], out, tmp_path / "out" / "stats.json")
    assert not out.exists()
    assert list((tmp_path / "out").iterdir()) == []


def test_truncated_xml(tmp_path):
    good = write_dump(tmp_path / "g.xml.bz2", [page("A", "word " * 60)])
    import bz2

    xml = bz2.decompress(good.read_bytes())
    trunc = tmp_path / "t.xml.bz2"
    trunc.write_bytes(bz2.compress(xml[: len(xml) // 2]))
    with pytest.raises(InputError, match="truncated"):
        extract_corpus([trunc], tmp_path / "x.gz", tmp_path / "x.json")


def test_lines_are_gzip_utf8(tmp_path):
    dump = write_dump(tmp_path / "d.xml.bz2", [page("A", "Ünïcode wörds " * 30)])
    extract_corpus([dump], tmp_path / "t.gz", tmp_path / "s.json")
    with gzip.open(tmp_path / "t.gz", "rt", encoding="utf-8") as fh:
        assert fh.readline().startswith("ünïcode wörds")


def test_extraction_logs_the_share_of_the_dump_read(tmp_path, caplog, monkeypatch):
    dump = write_dump(tmp_path / "d.xml.bz2", [page("A", "word " * 60) for _ in range(30)])
    # one progress update per read: small reads give many on a small dump
    monkeypatch.setattr(corpus, "READ_SIZE", 1024)
    xml_size = len(bz2.decompress(dump.read_bytes()))
    with caplog.at_level("INFO", logger="learnability.corpus.extract"):
        extract_corpus([dump], tmp_path / "t.gz", tmp_path / "s.json", progress_every=0.0)
    size = dump.stat().st_size / 1e6
    lines = [m for m in caplog.messages if m.startswith("d.xml.bz2 read: ")]
    assert len(lines) >= xml_size // 1024 and all(" MB/s, ETA " in m for m in lines)
    assert lines[-1].startswith(f"d.xml.bz2 read: {size:.1f} of {size:.1f} MB (100%)")


@pytest.mark.parametrize("kind", ["no pages", "zero bytes"])
def test_an_empty_dump_is_a_clear_error_with_no_output(tmp_path, kind):
    dump = tmp_path / "empty.xml.bz2"
    if kind == "no pages":
        write_dump(dump, [])
    else:
        dump.write_bytes(b"")
    match = "no <page> found" if kind == "no pages" else r"the dump is empty \(0 bytes\)"
    with pytest.raises(InputError, match=rf"empty\.xml\.bz2.*{match}"):
        extract_corpus([dump], tmp_path / "out" / "t.gz", tmp_path / "out" / "s.json")
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


def test_token_counts_are_written_most_frequent_first_ties_alphabetical(tmp_path):
    rng = random.Random(5)
    counts = Counter({f"{rng.choice('abc')}{i % 97}": rng.randint(1, 9) for i in range(3000)})
    corpus.write_counts(counts, tmp_path / "c.parquet")
    got = pd.read_parquet(tmp_path / "c.parquet")
    expected = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    assert list(zip(got["word"], got["count"], strict=True)) == expected
    assert got["count"].dtype == "int64"


def test_bz2_through_indexed_bzip2_and_the_standard_library_agree(tmp_path, monkeypatch):
    # indexed_bzip2 reads bz2 where it is installed; the standard library is the
    # fallback. Same pages, same corpus, same errors (a two-stream file, as in
    # Wikipedia's multistream dumps, included).
    pytest.importorskip("indexed_bzip2")
    one = write_dump(tmp_path / "one.xml.bz2", [page(f"A{i}", "word " * 60) for i in range(40)])
    data = one.read_bytes()
    xml = bz2.decompress(data).decode()
    cut = xml.index("<page>", len(xml) // 2)
    two = tmp_path / "two.xml.bz2"
    two.write_bytes(bz2.compress(xml[:cut].encode()) + bz2.compress(xml[cut:].encode()))
    truncated = tmp_path / "cut.xml.bz2"
    truncated.write_bytes(data[: len(data) // 2])
    flipped = bytearray(data)
    flipped[len(flipped) // 2] ^= 0xFF
    corrupt = tmp_path / "crc.xml.bz2"
    corrupt.write_bytes(bytes(flipped))
    results = []
    for module in (corpus.indexed_bzip2, None):
        monkeypatch.setattr(corpus, "indexed_bzip2", module)
        pages = [list(corpus.iter_pages(p)) for p in (one, two)]
        assert pages[0] == pages[1] and len(pages[0]) == 40
        results.append(pages[0])
        for bad in (truncated, corrupt):
            with pytest.raises(InputError, match=rf"{bad.name}: the file cannot be decompressed"):
                list(corpus.iter_pages(bad))
    assert results[0] == results[1]


def test_plain_gzip_and_bz2_exports_give_the_same_pages(tmp_path):
    dump = write_dump(tmp_path / "d.xml.bz2", [page(f"P{i}", "word " * 60) for i in range(25)])
    xml = bz2.decompress(dump.read_bytes())
    (tmp_path / "d.xml").write_bytes(xml)
    (tmp_path / "d.xml.gz").write_bytes(gzip.compress(xml))
    pages = [list(corpus.iter_pages(tmp_path / n)) for n in ("d.xml.bz2", "d.xml", "d.xml.gz")]
    assert pages[0] == pages[1] == pages[2] and len(pages[0]) == 25
    cut = tmp_path / "cut.xml.gz"
    cut.write_bytes(gzip.compress(xml)[:-100])
    with pytest.raises(InputError, match="cut.xml.gz: the file cannot be decompressed"):
        list(corpus.iter_pages(cut))


def test_a_missing_dump_is_a_clear_error(tmp_path):
    with pytest.raises(InputError, match=r"gone\.xml\.bz2: no such dump file"):
        list(corpus.iter_pages(tmp_path / "gone.xml.bz2"))


@pytest.mark.parametrize("partitions", [1, 3, 16])
def test_join_sums_type_counts_by_partition_as_a_counter_does(tmp_path, seed, partitions):
    """The join's hash-partitioned sum against a Counter over every part's rows: the same
    multiset of totals, whatever the number of partitions; no temporary file left."""
    from learnability.corpus.extract import merged_type_counts, write_counts

    rng = np.random.default_rng(seed)
    reference: Counter[str] = Counter()
    paths = []
    for k in range(5):
        words = [f"w{i}" for i in rng.zipf(1.3, size=3000) if i < 10**6]
        part = Counter(words)
        reference.update(part)
        paths.append(tmp_path / f"{k}.parquet")
        write_counts(part, paths[-1])
    got = merged_type_counts(paths, tmp_path, partitions=partitions)
    assert sorted(got.tolist()) == sorted(reference.values())
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths)
