import bz2
import gzip
import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from dumps import page, write_dump
from paths import REPO

from learnability.corpus import extract as corpus
from learnability.corpus import mediawiki
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
    # by hand: "the" 20 times, cat/sat/on/mat 10 each, the 50 long words 50 each
    assert stats["types_with_count_at_least"] == {"1": 55, "2": 55, "5": 55, "10": 55,
                                                  "100": 0}  # fmt: skip
    # a line of gensim's most (10,000 tokens) is allowed; one more would be cut by it
    extract_corpus([dump], text, stats_path, min_article_tokens=20, max_line_tokens=10_000)
    with pytest.raises(ValueError, match=r"must be in 1\.\.10000, since gensim silently"):
        extract_corpus([dump], text, stats_path, max_line_tokens=10_001)


def test_the_sample_dump_is_gensims_and_the_configs_default():
    import yaml

    from learnability.corpus.download import resolve_package_path

    assert resolve_package_path(corpus.SAMPLE_DUMP).is_file()
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    assert config["corpus"]["source"]["path"] == corpus.SAMPLE_DUMP


def test_pages_as_other_exports_write_them(tmp_path):
    """The reader takes what MediaWiki's export formats leave out: no XML namespace (an
    old or hand-made export), a page without <ns> or with an empty one (the main
    namespace), without a title or text or with empty ones (nothing, not a placeholder),
    and a <redirect/> whose text does not start #REDIRECT (still a redirect). Plain,
    gzip and bz2 files read alike, their share read logged as they are read."""
    xml = (
        "<mediawiki>\n"
        "<page><title>No ns</title><revision><text>plain words here</text></revision></page>\n"
        "<page><title>Empty ns</title><ns/><revision><text>more words</text></revision></page>\n"
        "<page><ns>0</ns><revision><text>untitled</text></revision></page>\n"
        "<page><title/><ns>0</ns><revision><text/></revision></page>\n"
        "<page><title>Gone</title><ns>0</ns></page>\n"
        '<page><title>Moved</title><ns>0</ns><redirect title="There" />'
        "<revision><text>see there</text></revision></page>\n"
        "</mediawiki>\n"
    )
    want = [("No ns", 0, False, "plain words here"), ("Empty ns", 0, False, "more words"),
            ("", 0, False, "untitled"), ("", 0, False, ""), ("Gone", 0, False, ""),
            ("Moved", 0, True, "see there")]  # fmt: skip
    files = {".xml": xml.encode(), ".xml.gz": gzip.compress(xml.encode()),
             ".xml.bz2": bz2.compress(xml.encode())}  # fmt: skip
    for suffix, data in files.items():
        path = tmp_path / f"odd{suffix}"
        path.write_bytes(data)
        got = [(p.title, p.ns, p.redirect, p.text) for p in mediawiki.iter_pages(path, 0.0)]
        assert got == want, suffix
    assert [mediawiki.is_redirect(mediawiki.Page(*w)) for w in want] == [False] * 5 + [True]


SITEINFO = """<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10">
<siteinfo><sitename>Wiki</sitename><namespaces>
<namespace key="-2">Medium</namespace><namespace key="0" />
<namespace key="6">Datei</namespace><namespace key="14">Kategorie</namespace>
</namespaces></siteinfo>
"""


def test_namespaces_are_read_from_the_head_of_the_file(tmp_path, monkeypatch):
    """A dump's <siteinfo> namespaces by hand (a namespace without a key is the main
    one's number, 0; an empty name is ""), read from its head: a file cut short after
    its <siteinfo> (as a partial download is) still gives them, and an export without
    one gives none, however its pages go on. The wiki's own names for files and
    categories then leave its articles' text."""
    monkeypatch.setattr(mediawiki, "READ_SIZE", 16)  # the head: many reads before the cut
    cut = tmp_path / "cut.xml"
    cut.write_text(SITEINFO + " " * 64 + "<<< cut short")
    assert mediawiki.read_namespaces(cut) == {-2: "Medium", 0: "", 6: "Datei", 14: "Kategorie"}
    keyless = tmp_path / "keyless.xml"
    keyless.write_text("<mediawiki><siteinfo><namespaces><namespace>Main</namespace>"
                       "</namespaces></siteinfo></mediawiki>")  # fmt: skip
    assert mediawiki.read_namespaces(keyless) == {0: "Main"}
    bare = tmp_path / "bare.xml"
    bare.write_text("<mediawiki><page><title>A</title><ns>0</ns><revision><text>x <<<<")
    assert mediawiki.read_namespaces(bare) == {}
    monkeypatch.setattr(mediawiki, "READ_SIZE", 1 << 20)
    text = "Der Hund bellt laut. [[Datei:Bild.jpg|mini|Ein Bild]] [[Kategorie:Tiere]] " * 5
    dump = tmp_path / "de.xml.bz2"
    dump.write_bytes(bz2.compress((SITEINFO + page("Hund", text) + "</mediawiki>").encode()))
    extract_corpus([dump], tmp_path / "t.gz", tmp_path / "s.json", min_article_tokens=1)
    words = {w for line in iter_lines(tmp_path / "t.gz") for w in line}
    assert words == {"der", "hund", "bellt", "laut"}


def test_a_missing_empty_or_malformed_dump_gets_its_one_line(tmp_path):
    missing, empty, broken = tmp_path / "no.xml", tmp_path / "empty.xml", tmp_path / "b.xml"
    empty.write_bytes(b"")
    broken.write_text("<mediawiki><siteinfo></mediawiki>")
    lines = {
        missing: f"{missing}: no such dump file. Check the path in the config "
        "(corpus.source.path), or let the workflow download it again.",
        empty: f"{empty}: the dump is empty (0 bytes): its download failed or was cut short; "
        "delete it and download it again",
    }
    for path, line in lines.items():
        with pytest.raises(InputError) as caught:
            list(mediawiki.iter_pages(path))
        assert str(caught.value) == line
    for read, tail in ((lambda p: list(mediawiki.iter_pages(p)), " Download the dump again (a "
                        "partial download leaves truncated XML) or check that it is a "
                        "MediaWiki export."),
                       (mediawiki.read_namespaces, " Download the dump again or check that it "
                        "is a MediaWiki export.")):  # fmt: skip
        with pytest.raises(InputError) as caught:
            read(broken)
        message = str(caught.value)
        assert message.startswith(f"{broken}: the XML is malformed or truncated (")
        assert message.endswith(")." + tail) and "\n" not in message


def test_the_pages_are_the_same_at_any_read_size(tmp_path, monkeypatch):
    # reads of 64 bytes cut every page across several: the corpus and its stats are the
    # default read's, byte for byte
    rng = random.Random(5)
    pages = [page(f"P{i}", " ".join(rng.choice("abcdefgh") * 3 for _ in range(40)))
             for i in range(12)]  # fmt: skip
    dump = write_dump(tmp_path / "d.xml.bz2", pages)
    out = {}
    for size in (1 << 20, 64):
        monkeypatch.setattr(mediawiki, "READ_SIZE", size)
        text, stats = tmp_path / f"t{size}.gz", tmp_path / f"s{size}.json"
        extract_corpus([dump], text, stats, min_article_tokens=1)
        out[size] = (gzip.decompress(text.read_bytes()), stats.read_text())
    assert out[64] == out[1 << 20] and out[64][0].count(b"\n") >= 12


def test_the_share_read_is_logged_in_mb(tmp_path, caplog):
    rng = random.Random(3)
    words = ["".join(rng.choice("abcdefghijklmnop") for _ in range(8)) for _ in range(60_000)]
    dump = write_dump(tmp_path / "big.xml.bz2", [page("Big", " ".join(words))])
    size = dump.stat().st_size / 1e6
    assert size > 0.2  # a size whose tenths show the scale
    with caplog.at_level("INFO", logger="learnability.corpus.mediawiki"):
        list(mediawiki.iter_pages(dump, progress_every=0.0))
    assert caplog.messages[-1].startswith(f"big.xml.bz2 read: {size:.1f} of {size:.1f} MB")


def test_the_first_20_short_documents_are_named(tmp_path):
    dump = write_dump(tmp_path / "d.xml.bz2", [page(f"Stub {i:02d}", "short") for i in range(25)]
                      + [page("Long", "word " * 30)])  # fmt: skip
    stats = extract_corpus([dump], tmp_path / "t.gz", tmp_path / "s.json", min_article_tokens=20)
    assert stats["skipped"]["shorter_than_20_tokens"] == 25
    assert stats["skipped_ids"] == {"shorter_than_20_tokens": [f"Stub {i:02d}" for i in range(20)]}


def test_the_wikicorpus_text_is_gensims_articles_in_lines(tmp_path):
    """write_wikicorpus_text (the reference text for GloVe's comparison) against gensim's
    WikiCorpus read here: its articles' tokens, each cut into lines of at most 1000 by
    default (or the given size), the counts returned the lines and tokens written."""
    from gensim.corpora.wikicorpus import WikiCorpus

    long = " ".join(f"wordx{i % 97}" for i in range(2300))
    other = " ".join(["alpha", "beta", "gamma", "delta"] * 300)
    dump = write_dump(tmp_path / "d.xml.bz2", [page("Long", long), page("Other", other)])
    articles = list(WikiCorpus(str(dump), dictionary={}, processes=1).get_texts())
    assert [len(a) for a in articles] == [2300, 1200]
    for size, given in ((1000, {}), (700, {"max_line_tokens": 700})):
        out = tmp_path / f"w{size}.txt.gz"
        got = corpus.write_wikicorpus_text(dump, out, **given)
        want = [a[i : i + size] for a in articles for i in range(0, len(a), size)]
        assert gzip.decompress(out.read_bytes()).decode() == "".join(
            " ".join(line) + "\n" for line in want
        )
        assert got == {"lines": len(want), "tokens": 3500}


def test_the_join_spreads_each_parts_words_over_its_partitions(tmp_path, monkeypatch):
    """The join's memory bound: each part's words are split by a hash into the
    partitions (every word in one, the same one in every part), each about 1 / n of the
    part, so that one partition at a time is summed."""
    from learnability.corpus.extract import merged_type_counts, write_counts

    paths, parts = [], []
    for k in range(3):
        part = Counter({f"w{i}": i % 7 + 1 for i in range(k * 500, k * 500 + 2000)})
        parts.append(part)
        paths.append(tmp_path / f"{k}.parquet")
        write_counts(part, paths[-1])
    written: dict[str, list[str]] = {}
    real = pd.DataFrame.to_parquet

    def spy(self, path, *args, **kwargs):
        written[Path(path).name] = list(self["word"])
        return real(self, path, *args, **kwargs)

    monkeypatch.setattr(pd.DataFrame, "to_parquet", spy)
    merged_type_counts(paths, tmp_path, partitions=4)
    where: dict[str, int] = {}
    for k, part in enumerate(parts):
        pieces = [written[f"{p:03d}-{k:05d}.parquet"] for p in range(4)]
        assert sorted(w for piece in pieces for w in piece) == sorted(part)  # each once
        assert max(len(piece) for piece in pieces) < 0.4 * len(part)  # about a quarter
        for p, piece in enumerate(pieces):
            for w in piece:
                assert where.setdefault(w, p) == p  # the same partition in every part


def test_a_join_of_parts_by_hand_and_its_refusals(tmp_path):
    """The join's stats from its parts by hand (one part alone keeps its source; groups
    summed; the first 20 short documents across parts, in part order); its refusals in
    one line each: lists of other lengths or none, parts of other settings, and a corpus
    of another source where no part kept a document."""
    from learnability.corpus.extract import join_corpus

    parts = []
    for k, n in enumerate((15, 10)):
        dump = write_dump(tmp_path / f"d{k}.xml.bz2",
                          [page(f"S{k}-{i:02d}", "short") for i in range(n)]
                          + [page(f"L{k}", "word " * 30)])  # fmt: skip
        files = [tmp_path / f"{k}{e}" for e in (".txt.gz", ".parquet", ".json")]
        extract_corpus([dump], files[0], files[2], out_counts=files[1], min_article_tokens=20)
        stats = json.loads(files[2].read_text())
        stats["groups"] = {"a": k + 1, "b": 2}
        files[2].write_text(json.dumps(stats))
        parts.append(files)
    texts, counts, stats_files = (list(x) for x in zip(*parts, strict=True))
    out = tmp_path / "out"
    out.mkdir()
    one = join_corpus(texts[:1], counts[:1], stats_files[:1], out / "1.gz", out / "1.json")
    assert one["source"] == "mediawiki" and one["parts"] == 1
    both = join_corpus(texts, counts, stats_files, out / "t.gz", out / "s.json")
    assert both["groups"] == {"a": 3, "b": 4} and both["articles"] == 2
    assert both["skipped_ids"]["shorter_than_20_tokens"] == (
        [f"S0-{i:02d}" for i in range(15)] + [f"S1-{i:02d}" for i in range(5)]
    )
    with pytest.raises(ValueError) as caught:
        join_corpus(texts, counts[:1], stats_files, out / "x.gz", out / "x.json")
    assert str(caught.value) == "join_corpus needs one text, counts and stats file per part"
    with pytest.raises(ValueError):
        join_corpus([], [], [], out / "x.gz", out / "x.json")
    other = json.loads(stats_files[1].read_text())
    other["max_line_tokens"] = 500
    stats_files[1].write_text(json.dumps(other))
    with pytest.raises(InputError) as caught:
        join_corpus(texts, counts, stats_files, out / "x.gz", out / "x.json")
    assert str(caught.value) == (
        f"{stats_files[0]}, {stats_files[1]}: the parts were extracted with different "
        "corpus settings; rerun the extraction of every part"
    )
    stats_files[1].write_text(json.dumps({**other, "max_line_tokens": 1000}))
    for path in stats_files:
        empty = json.loads(path.read_text())
        empty.update(articles=0)
        path.write_text(json.dumps(empty))
    # a dump's parts may hold no article (redirects only): joined as they are
    nothing = join_corpus(texts, counts, stats_files, out / "0.gz", out / "0.json")
    assert nothing["articles"] == 0 and nothing["source"] == "mediawiki"
    # a part written before stats named their source is a dump's
    for path in stats_files:
        old = json.loads(path.read_text())
        del old["source"]
        path.write_text(json.dumps(old))
    assert join_corpus(texts, counts, stats_files, out / "0.gz", out / "0.json")["source"] == (
        "mediawiki"
    )
    for path in stats_files:
        table = json.loads(path.read_text())
        table.update(source="csv")
        path.write_text(json.dumps(table))
    with pytest.raises(InputError) as caught:
        join_corpus(texts, counts, stats_files, out / "x.gz", out / "x.json")
    assert str(caught.value) == (
        f"{stats_files[0]}, {stats_files[1]}: no document found with at least 20 token(s) "
        "in any part (27 read); check the corpus' source, format and text_column"
    )
    assert sorted(p.name for p in out.iterdir()) == ["0.gz", "0.json", "1.gz", "1.json",
                                                     "s.json", "t.gz"]  # fmt: skip


def test_a_dump_is_read_a_mebibyte_at_a_time(tmp_path, monkeypatch):
    # constant memory: a dump of 1.5 MiB of XML is decompressed in reads of at most 1 MiB
    # (mediawiki.READ_SIZE, as the docstrings state), not whole
    text = " ".join(["alpha", "beta", "gamma"] * 26_000)  # about 0.46 MB a page
    dump = write_dump(tmp_path / "d.xml.bz2", [page(f"P{i}", text) for i in range(4)])
    assert len(bz2.decompress(dump.read_bytes())) > 1.5 * 2**20
    sizes: list[int] = []
    real = mediawiki._Dump.read

    def read(self):
        chunk = real(self)
        sizes.append(len(chunk))
        return chunk

    monkeypatch.setattr(mediawiki._Dump, "read", read)
    assert len(list(mediawiki.iter_pages(dump))) == 4
    assert max(sizes) == 2**20 and len(sizes) >= 3


def test_a_page_cannot_be_altered():
    import dataclasses

    page_ = mediawiki.Page("Art", 0, False, "text")
    with pytest.raises(dataclasses.FrozenInstanceError):
        page_.text = "other"  # type: ignore[misc]


def test_without_indexed_bzip2_the_standard_library_reads_the_dump(tmp_path):
    # a fresh Python in which the optional package cannot be imported (as where it is not
    # installed): the module falls back to bz2 and extracts the same corpus
    import subprocess
    import sys

    dump = write_dump(tmp_path / "d.xml.bz2", [page("Art", "The cat sat on the mat. " * 10)])
    code = (
        "import sys; sys.modules['indexed_bzip2'] = None\n"
        "from learnability.corpus import extract, mediawiki\n"
        "assert mediawiki.indexed_bzip2 is None\n"
        f"stats = extract.extract_corpus([{str(dump)!r}], {str(tmp_path / 't.gz')!r}, "
        f"{str(tmp_path / 's.json')!r}, min_article_tokens=1)\n"
        "print(stats['tokens'])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["60"]


def test_output_is_byte_identical_across_runs(tmp_path):
    dump = write_dump(tmp_path / "d.xml.bz2", [page("A", "word " * 60)])
    extract_corpus([dump], tmp_path / "a.gz", tmp_path / "a.json")
    extract_corpus([dump], tmp_path / "b.gz", tmp_path / "b.json")
    assert (tmp_path / "a.gz").read_bytes() == (tmp_path / "b.gz").read_bytes()


def test_corrupt_dump_names_file_and_leaves_no_output(tmp_path):
    bad = tmp_path / "bad.xml.bz2"
    bad.write_bytes(b"BZh91AY&SY" + b"\x00" * 100)
    out = tmp_path / "out" / "text.txt.gz"
    with pytest.raises(InputError) as caught:
        extract_corpus([bad], out, tmp_path / "out" / "stats.json")
    # one line: the file, why (the decompressor's words), and the fix
    message = str(caught.value)
    assert message.startswith(f"{bad}: the file cannot be decompressed (") and "\n" not in message
    assert message.endswith("). It is corrupt or truncated: delete it and download it again.")
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
    monkeypatch.setattr(mediawiki, "READ_SIZE", 1024)
    xml_size = len(bz2.decompress(dump.read_bytes()))
    with caplog.at_level("INFO", logger="learnability.corpus.mediawiki"):
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
    for module in (mediawiki.indexed_bzip2, None):
        monkeypatch.setattr(mediawiki, "indexed_bzip2", module)
        pages = [list(mediawiki.iter_pages(p)) for p in (one, two)]
        assert pages[0] == pages[1] and len(pages[0]) == 40
        results.append(pages[0])
        for bad in (truncated, corrupt):
            with pytest.raises(InputError, match=rf"{bad.name}: the file cannot be decompressed"):
                list(mediawiki.iter_pages(bad))
    assert results[0] == results[1]


def test_plain_gzip_and_bz2_exports_give_the_same_pages(tmp_path):
    dump = write_dump(tmp_path / "d.xml.bz2", [page(f"P{i}", "word " * 60) for i in range(25)])
    xml = bz2.decompress(dump.read_bytes())
    (tmp_path / "d.xml").write_bytes(xml)
    (tmp_path / "d.xml.gz").write_bytes(gzip.compress(xml))
    pages = [list(mediawiki.iter_pages(tmp_path / n)) for n in ("d.xml.bz2", "d.xml", "d.xml.gz")]
    assert pages[0] == pages[1] == pages[2] and len(pages[0]) == 25
    cut = tmp_path / "cut.xml.gz"
    cut.write_bytes(gzip.compress(xml)[:-100])
    with pytest.raises(InputError, match="cut.xml.gz: the file cannot be decompressed"):
        list(mediawiki.iter_pages(cut))


def test_a_missing_dump_is_a_clear_error(tmp_path):
    with pytest.raises(InputError, match=r"gone\.xml\.bz2: no such dump file"):
        list(mediawiki.iter_pages(tmp_path / "gone.xml.bz2"))


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


def test_every_reader_gives_a_mediawiki_corpus_sentences_as_without_its_boundaries(tmp_path):
    """The empty line after each document (corpus.lines.DOCUMENT_END) is no sentence to
    any reader: the token readers, the plain file of gensim's corpus_file mode and
    fastText, the transformer's chunks, GloVe's counts, a sweep's prefix and the trainers'
    vectors are those of the same corpus without it, which is byte for byte what the
    extraction wrote before documents were marked (checked against the earlier code on
    gensim's sample dump: word2vec, fastText, one-thread GloVe and a 30 % prefix's
    word2vec gave identical vectors)."""

    from learnability.corpus.cooccur import count_cooccurrences
    from learnability.corpus.extract import corpus_prefix, join_corpus
    from learnability.corpus.lines import (
        LineCorpus,
        count_vocabulary,
        gzip_members,
        iter_documents,
        member_lines,
    )
    from learnability.embeddings._plain import plain_corpus
    from learnability.embeddings.glove import train_glove
    from learnability.embeddings.transformer import _chunks
    from learnability.embeddings.word2vec import train_word2vec

    rng = np.random.default_rng(5)
    words = [f"w{i}" for i in range(60)]

    def article(k: int) -> str:
        paragraphs = (" ".join(rng.choice(words, 20 + 7 * p)) for p in range(1 + k % 4))
        return "\n\n".join(paragraphs)

    parts = []
    for part in range(2):  # a joined corpus: a gzip member a part
        dump = write_dump(tmp_path / f"d{part}.xml.bz2",
                          [page(f"A{part}{k}", article(k)) for k in range(6)])  # fmt: skip
        out = tmp_path / f"p{part}"
        out.mkdir()
        extract_corpus([dump], out / "text.txt.gz", out / "stats.json",
                       out_counts=out / "counts.parquet", min_article_tokens=1)  # fmt: skip
        parts.append(out)
    corpus = tmp_path / "text.txt.gz"
    stats = join_corpus(*([p / n for p in parts] for n in ("text.txt.gz", "counts.parquet",
                                                           "stats.json")),
                        corpus, tmp_path / "stats.json")  # fmt: skip
    text = gzip.decompress(corpus.read_bytes()).decode()
    before = text.replace("\n\n", "\n")  # the corpus as it was written without boundaries
    assert text.count("\n\n") == stats["articles"] == 12 and "\n\n\n" not in text
    old = tmp_path / "old.txt.gz"
    old.write_bytes(gzip.compress(before.encode()))
    sentences = [line.split() for line in before.splitlines()]
    assert len(sentences) == stats["lines"] == sum(1 + k % 4 for k in range(6)) * 2
    assert list(iter_lines(corpus)) == list(LineCorpus(corpus)) == sentences
    assert [line for doc in iter_documents(corpus) for line in doc] == sentences
    assert len(list(iter_documents(corpus))) == 12
    members = gzip_members(corpus)
    assert len(members) == 2
    assert [t for a, b in members for t in member_lines(corpus, a, b)] == sentences
    assert count_vocabulary(str(corpus), 1, processes=2)[0] == count_vocabulary(str(old), 1)[0]
    with plain_corpus(str(corpus), str(tmp_path)) as plain:
        assert plain.read_text() == before
    assert list(_chunks(str(corpus), 7)) == list(_chunks(str(old), 7))
    index = {w: i for i, w in enumerate(words)}
    new_counts = count_cooccurrences(LineCorpus(corpus), index, 5, workdir=tmp_path)
    old_counts = count_cooccurrences(LineCorpus(old), index, 5, workdir=tmp_path)
    assert all(np.array_equal(a, b) for a, b in zip(new_counts, old_counts, strict=True))
    # a prefix keeps the boundaries and cuts the same sentences
    corpus_prefix(corpus, tmp_path / "pre.txt.gz", tmp_path / "pre.json", 0.4)
    corpus_prefix(old, tmp_path / "old-pre.txt.gz", tmp_path / "old-pre.json", 0.4)
    assert list(iter_lines(tmp_path / "pre.txt.gz")) == list(
        iter_lines(tmp_path / "old-pre.txt.gz")
    )
    assert gzip.decompress((tmp_path / "pre.txt.gz").read_bytes()).decode().endswith("\n\n")
    # and the trainers' vectors
    params = dict(dim=8, window=3, min_count=1, negative=3, sample=0.0, alpha=0.025,
                  min_alpha=1e-4, epochs=1, seed=3)  # fmt: skip
    glove = dict(dim=8, window=3, min_count=1, seed=3, epochs=2, x_max=10, alpha=0.75,
                 learning_rate=0.05)  # fmt: skip
    for train, p in ((train_word2vec, params), (train_glove, glove)):
        a, b = train(str(corpus), p, 1), train(str(old), p, 1)
        assert a.words == b.words and np.array_equal(a.vectors, b.vectors), train.__name__
