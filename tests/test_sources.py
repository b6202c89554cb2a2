"""The corpus sources (learnability.corpus.sources): plain text, JSON Lines, CSV, TSV and
Parquet give the same corpus when they hold the same documents, compressed or not, on
real text from gensim's package data (lee_background.cor: 300 news articles, one a
line); bad input is one InputError naming the file, the line or column and the fix, and
leaves no output."""

import bz2
import gzip
import json
import lzma
from pathlib import Path

import gensim
import pandas as pd
import pytest

from learnability.corpus.documents import SourceOptions
from learnability.corpus.extract import extract_corpus, join_corpus
from learnability.corpus.sources import SOURCES, plan_parts, source_files
from learnability.corpus.tokenize import tokenize
from learnability.errors import InputError

DATA = Path(gensim.__file__).parent / "test" / "test_data"
LEE = DATA / "lee_background.cor"


def _documents() -> list[str]:
    return [line.rstrip("\n") for line in LEE.read_text(encoding="utf-8").splitlines()]


def _extract(tmp: Path, name: str, files, source: str, **options) -> tuple[bytes, dict]:
    out = tmp / name
    out.mkdir()
    stats = extract_corpus(
        files, out / "text.txt.gz", out / "stats.json", out_counts=out / "counts.parquet",
        min_article_tokens=1, source=source, options=SourceOptions(**options),
    )  # fmt: skip
    return gzip.decompress((out / "text.txt.gz").read_bytes()), stats


def _compress(path: Path, suffix: str) -> Path:
    data = path.read_bytes()
    if suffix == ".gz":
        packed = gzip.compress(data)
    elif suffix == ".bz2":
        packed = bz2.compress(data)
    elif suffix == ".xz":
        packed = lzma.compress(data)
    else:
        import zstandard

        packed = zstandard.ZstdCompressor().compress(data)
    target = path.with_name(path.name + suffix)
    target.write_bytes(packed)
    return target


def test_every_source_gives_the_same_corpus_for_the_same_documents(tmp_path):
    docs = _documents()
    assert len(docs) == 300
    src = tmp_path / "src"
    folder = src / "articles"
    folder.mkdir(parents=True)
    for i, doc in enumerate(docs):  # one document a file, in name order
        (folder / f"{i:03d}.txt").write_text(doc + "\n", encoding="utf-8")
    (folder / ".hidden.txt").write_text("hidden words never read\n")
    table = pd.DataFrame({"id": range(len(docs)), "text": docs, "source": "lee"})
    with open(src / "lee.jsonl", "w", encoding="utf-8") as fh:
        for row in table.to_dict("records"):
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    table.to_csv(src / "lee.csv", index=False)
    table.to_csv(src / "lee.tsv", index=False, sep="\t")
    table.to_parquet(src / "lee.parquet", index=False)

    reference, ref_stats = _extract(tmp_path, "lines", [LEE], "text", document="line")
    # the reference is gensim's file tokenised by the one rule, a line a document, each
    # ended by an empty line (corpus.lines.DOCUMENT_END)
    ended = "".join(" ".join(tokenize(d)) + "\n\n" for d in docs if tokenize(d))
    assert reference.decode() == ended
    assert ref_stats["articles"] == 300 and ref_stats["source"] == "text"
    assert ref_stats["tokens"] == sum(len(tokenize(d)) for d in docs)
    files = source_files(folder, "text")
    assert len(files) == 300 and files[0].name == "000.txt"
    cases = {
        "folder": (files, "text", {}),
        "jsonl": ([src / "lee.jsonl"], "jsonl", {}),
        "csv": ([src / "lee.csv"], "csv", {}),
        "tsv": ([src / "lee.tsv"], "tsv", {}),
        "parquet": ([src / "lee.parquet"], "parquet", {}),
        "jsonl.zst": ([_compress(src / "lee.jsonl", ".zst")], "jsonl", {}),
        "csv.gz": ([_compress(src / "lee.csv", ".gz")], "csv", {}),
        "tsv.xz": ([_compress(src / "lee.tsv", ".xz")], "tsv", {}),
        "lines.bz2": ([_compress(LEE, ".bz2")], "text", {"document": "line"}),
    }
    for name, (paths, source, options) in cases.items():
        text, stats = _extract(tmp_path, name, paths, source, **options)
        assert text == reference, name
        assert {k: v for k, v in stats.items() if k != "source"} == {
            k: v for k, v in ref_stats.items() if k != "source"
        }, name
    # a group column: each document counted in its group
    _, stats = _extract(tmp_path, "groups", [src / "lee.csv"], "csv", group_column="source")
    assert stats["groups"] == {"lee": 300}


def test_the_documents_left_out_are_named_by_their_id_or_their_place(tmp_path):
    """Documents shorter than the threshold are counted, and the first 20 of them named:
    by the id column, else by file and line (or row), a text file by its name; a join
    keeps the first 20 over its parts, in order."""
    texts = ["one two three four five", "too short", "", "six seven eight nine ten"] * 10
    table = pd.DataFrame({"speech": texts, "key": [f"s{i}" for i in range(len(texts))]})
    table.to_csv(tmp_path / "t.csv", index=False)
    table.to_json(tmp_path / "t.jsonl", orient="records", lines=True)
    short_ids = [f"s{i}" for i, t in enumerate(texts) if len(t.split()) < 5]
    out = {}
    for name, files, source, options in (
        ("csv", [tmp_path / "t.csv"], "csv", {"text_column": "speech", "id_column": "key"}),
        ("jsonl", [tmp_path / "t.jsonl"], "jsonl", {"text_column": "speech"}),
    ):
        folder = tmp_path / name
        folder.mkdir()
        out[name] = extract_corpus(files, folder / "text.txt.gz", folder / "stats.json",
                                   min_article_tokens=5, source=source,
                                   options=SourceOptions(**options))  # fmt: skip
    reason = "shorter_than_5_tokens"
    assert out["csv"]["skipped"][reason] == len(short_ids) == 20
    assert out["csv"]["skipped_ids"] == {reason: short_ids[:20]}
    rows = [i + 1 for i, t in enumerate(texts) if len(t.split()) < 5]  # JSON Lines: line i+1
    assert out["jsonl"]["skipped_ids"][reason] == [f"t.jsonl:{r}" for r in rows[:20]]
    docs = tmp_path / "docs"
    docs.mkdir()
    for i, t in enumerate(texts[:4]):
        (docs / f"d{i}.txt").write_text(t, encoding="utf-8")
    parts = [[docs / "d0.txt", docs / "d1.txt"], [docs / "d2.txt", docs / "d3.txt"]]
    for k, files in enumerate(parts):
        (tmp_path / f"p{k}").mkdir()
        extract_corpus(files, tmp_path / f"p{k}" / "text.txt.gz", tmp_path / f"p{k}" / "s.json",
                       out_counts=tmp_path / f"p{k}" / "c.parquet", min_article_tokens=5,
                       source="text")  # fmt: skip
    joined = join_corpus(*([tmp_path / f"p{k}" / n for k in range(2)]
                           for n in ("text.txt.gz", "c.parquet", "s.json")),
                         tmp_path / "j.txt.gz", tmp_path / "j.json")  # fmt: skip
    assert joined["skipped_ids"] == {reason: ["d1.txt", "d2.txt"]}
    # a text file's paragraphs named by the line each starts on, its lines by their own
    # (counted by hand: 1-based; a blank line, a document of no tokens, is skipped too)
    lines = ["one two three four five", "", "too", "short", "", "", "also short", "",
             "six seven", "eight nine ten"]  # fmt: skip
    (tmp_path / "t.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for document, named in (("paragraph", ["t.txt:3", "t.txt:7"]),
                            ("line", [f"t.txt:{n}" for n in range(2, 11)])):  # fmt: skip
        folder = tmp_path / document
        folder.mkdir()
        stats = extract_corpus([tmp_path / "t.txt"], folder / "text.txt.gz",
                               folder / "stats.json", min_article_tokens=5, source="text",
                               options=SourceOptions(document=document))  # fmt: skip
        assert stats["skipped_ids"] == {reason: named}, document


def _join_parts(tmp: Path, plan: dict, source: str, **options) -> bytes:
    """Each part of ``plan`` (corpus_plan's) extracted with its byte ranges, then joined."""
    from learnability.corpus.sources import piece_files, piece_ranges

    outs = []
    for part, pieces in plan.items():
        out = tmp / part
        out.mkdir()
        extract_corpus(piece_files(pieces), out / "text.txt.gz", out / "stats.json",
                       out_counts=out / "counts.parquet", min_article_tokens=1, source=source,
                       options=SourceOptions(**options), ranges=piece_ranges(pieces))  # fmt: skip
        outs.append(out)
    join_corpus(*([o / n for o in outs] for n in ("text.txt.gz", "counts.parquet", "stats.json")),
                tmp / "joined.txt.gz", tmp / "joined.json")  # fmt: skip
    return gzip.decompress((tmp / "joined.txt.gz").read_bytes())


def test_one_large_line_based_file_is_cut_into_parts_at_line_ends(tmp_path):
    """A JSON Lines file and a text file of one document a line, larger than part_mb,
    are cut into byte ranges, one job each: every line is read by exactly one part,
    whether a cut falls inside a line or on its first byte, and the parts join to the
    corpus one job makes; a Parquet file is cut between its row groups. A compressed
    file or a CSV is not cut."""
    from learnability.corpus.sources import corpus_plan

    docs = _documents()[:12]  # about 18 kB: up to 14 parts a file below
    jsonl = tmp_path / "lee.jsonl"
    jsonl.write_text("".join(json.dumps({"text": d}) + "\n" for d in docs), encoding="utf-8")
    text = tmp_path / "lee.txt"
    text.write_text("".join(d + "\n" for d in docs), encoding="utf-8")
    first_line = len(jsonl.read_bytes().split(b"\n")[0]) + 1
    for name, path, source, options in (("jsonl", jsonl, "jsonl", {}),
                                        ("text", text, "text", {"document": "line"})):  # fmt: skip
        whole, _ = _extract(tmp_path, f"whole-{name}", [path], source, **options)
        # a cut on a line's first byte (jsonl: the second line's), and cuts inside lines
        for part_bytes in (first_line, 5_000):
            block = {"format": source, "path": str(path), "part_mb": part_bytes / 2**20,
                     **options}  # fmt: skip
            plan = corpus_plan(block)
            size = path.stat().st_size
            assert len(plan) == -(-size // part_bytes) > 1
            assert all(len(pieces) == 1 and pieces[0][1] is not None for pieces in plan.values())
            tmp = tmp_path / f"{name}-{part_bytes}"
            tmp.mkdir()
            assert _join_parts(tmp, plan, source, **options) == whole, (name, part_bytes)
    # a Parquet file: cut between its row groups (of 5 rows here), rows numbered in the file
    import pyarrow as pa
    import pyarrow.parquet as pq

    table_path = tmp_path / "lee.parquet"
    pq.write_table(pa.table({"text": docs}), table_path, row_group_size=5)
    whole, _ = _extract(tmp_path, "whole-parquet", [table_path], "parquet")
    plan = corpus_plan({"format": "parquet", "path": str(table_path),
                        "part_mb": table_path.stat().st_size / 3 / 2**20})  # fmt: skip
    groups = [pieces[0][1:] for pieces in plan.values()]
    assert len(groups) >= 2 and groups[0][0] == 0 and groups[-1][1] == -(-len(docs) // 5)
    assert all(a[1] == b[0] for a, b in zip(groups, groups[1:], strict=False))
    (tmp_path / "parquet-parts").mkdir()
    assert _join_parts(tmp_path / "parquet-parts", plan, "parquet") == whole
    # a part's rows are numbered in the file: the third part starts at row 11
    bad_table = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"text": list(range(12))}), bad_table, row_group_size=5)
    plan = corpus_plan({"format": "parquet", "path": str(bad_table), "part_mb": 1e-6})
    assert len(plan) == 3  # 12 rows: groups of 5, 5 and 2
    (tmp_path / "bad-parquet").mkdir()
    with pytest.raises(InputError, match=rf"^{bad_table}: row 11: column 'text' holds int 10"):
        _join_parts(tmp_path / "bad-parquet", {"part-0003": plan["part-0003"]}, "parquet")
    # not cut: compressed, or CSV (a quoted cell may hold a newline)
    packed = _compress(jsonl, ".gz")
    table = tmp_path / "lee.csv"
    pd.DataFrame({"text": docs}).to_csv(table, index=False)
    for block in ({"format": "jsonl", "path": str(packed), "part_mb": 1e-3},
                  {"format": "csv", "path": str(table), "part_mb": 1e-3}):  # fmt: skip
        assert list(corpus_plan(block).values()) == [[(block["path"], None, None)]]
    # an error in a part names the file and the byte its line starts at
    lines = jsonl.read_bytes().split(b"\n")
    lines[9] = b"{broken"
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(lines))
    offset = sum(len(line) + 1 for line in lines[:9])
    plan = corpus_plan({"format": "jsonl", "path": str(bad), "part_mb": 6_000 / 2**20})
    (tmp_path / "bad").mkdir()
    with pytest.raises(InputError, match=rf"^{bad}:byte {offset}: the JSON is cut or malformed"):
        _join_parts(tmp_path / "bad", plan, "jsonl")
    assert bad.read_bytes()[offset : offset + 7] == b"{broken"


def test_a_folder_fans_out_into_parts_that_join_to_the_whole(tmp_path):
    docs = _documents()
    for i, doc in enumerate(docs):
        (tmp_path / f"{i:03d}.txt").write_text(doc + "\n", encoding="utf-8")
    files = source_files(tmp_path, "text")
    size = sum(f.stat().st_size for f in files)
    parts = plan_parts(files, size // 4)
    assert [f for p in parts for f in p] == files and 4 <= len(parts) <= 5
    assert all(sum(f.stat().st_size for f in p) <= size // 4 for p in parts if len(p) > 1)
    whole, whole_stats = _extract(tmp_path, "whole", files, "text")
    outs = [_extract(tmp_path, f"part{k}", p, "text") for k, p in enumerate(parts)]
    joined = tmp_path / "joined"
    joined.mkdir()
    stats = join_corpus(
        [tmp_path / f"part{k}" / "text.txt.gz" for k in range(len(parts))],
        [tmp_path / f"part{k}" / "counts.parquet" for k in range(len(parts))],
        [tmp_path / f"part{k}" / "stats.json" for k in range(len(parts))],
        joined / "text.txt.gz", joined / "stats.json",
    )  # fmt: skip
    assert gzip.decompress((joined / "text.txt.gz").read_bytes()) == whole
    assert b"".join(text for text, _ in outs) == whole
    assert {k: v for k, v in stats.items() if k != "parts"} == whole_stats


def _bad_cases(tmp: Path) -> dict[str, tuple[list[Path], str, dict, str]]:
    """name: (files, source, options, what the one line must say)."""
    undecodable = tmp / "latin1.txt"
    undecodable.write_bytes("first line\nsecond caf\u00e9 line\n".encode("latin-1"))
    no_column = tmp / "no_text.jsonl"
    no_column.write_text('{"body": "words here"}\n', encoding="utf-8")
    bad_json = tmp / "bad.jsonl"
    bad_json.write_text('{"text": "fine"}\n{"text": "cut\n', encoding="utf-8")
    number = tmp / "number.jsonl"
    number.write_text('{"text": 12}\n', encoding="utf-8")
    csv_no_column = tmp / "speeches.csv"
    csv_no_column.write_text("speech,party\nwords,a\n", encoding="utf-8")
    ragged = tmp / "ragged.csv"
    ragged.write_text("text\nfine\ntoo,many\n", encoding="utf-8")
    parquet = tmp / "t.parquet"
    pd.DataFrame({"body": ["a b"]}).to_parquet(parquet)
    not_parquet = tmp / "fake.parquet"
    not_parquet.write_text("not a parquet file")
    corrupt = tmp / "cut.jsonl.gz"
    corrupt.write_bytes(gzip.compress(b'{"text": "a b c"}\n' * 1000)[:-40])
    import zstandard

    packed = zstandard.ZstdCompressor().compress(b'{"text": "a b c"}\n' * 1000)
    half = len(packed) // 2
    corrupt_zst = tmp / "flipped.jsonl.zst"  # 20 bytes inverted in its middle
    corrupt_zst.write_bytes(packed[:half] + bytes(b ^ 0xFF for b in packed[half : half + 20])
                            + packed[half + 20 :])  # fmt: skip
    empty = tmp / "empty.txt"
    empty.write_text("")
    return {
        "undecodable": ([undecodable], "text", {}, f"{undecodable}:2: byte 0xe9 is not UTF-8; "
                        "convert the file to UTF-8 (iconv -f <its encoding> -t UTF-8)"),
        "undecodable file": ([undecodable], "text", {"document": "file"},
                             f"{undecodable}:2: byte 0xe9 is not UTF-8; convert"),
        "no column": ([no_column], "jsonl", {}, f"{no_column}:1: no column 'text'; set "
                      "corpus.source.text_column to the column holding it (this file has: body)"),
        "bad json": ([bad_json], "jsonl", {}, f"{bad_json}:2: the JSON is cut or malformed "
                     "(Unterminated string at column 10); JSON Lines holds one whole object"),
        "not text": ([number], "jsonl", {}, f"{number}:1: column 'text' holds int 12, not text"),
        "csv column": ([csv_no_column], "csv", {}, f"{csv_no_column}:1: no column 'text'"),
        "group": ([csv_no_column], "csv", {"text_column": "speech", "group_column": "year"},
                  f"{csv_no_column}:1: no column 'year'; set corpus.source.group_column"),
        "id": ([csv_no_column], "csv", {"text_column": "speech", "id_column": "key"},
               f"{csv_no_column}:1: no column 'key'; set corpus.source.id_column"),
        "ragged": ([ragged], "csv", {}, f"{ragged}:3: more fields than the header's 1"),
        "parquet column": ([parquet], "parquet", {}, f"{parquet}: no column 'text'"),
        "not parquet": ([not_parquet], "parquet", {}, f"{not_parquet}: not a readable Parquet"),
        "corrupt": ([corrupt], "jsonl", {}, f"{corrupt}: the file cannot be decompressed"),
        "corrupt zst": ([corrupt_zst], "jsonl", {},
                        f"{corrupt_zst}: the file cannot be decompressed (zstd"),
        "empty": ([empty], "text", {}, f"{empty}: no document found"),
        "missing": ([tmp / "gone.txt"], "text", {}, f"{tmp / 'gone.txt'}: no such file"),
    }  # fmt: skip


def test_bad_input_is_one_line_naming_the_file_the_line_and_the_fix(tmp_path):
    for name, (files, source, options, said) in _bad_cases(tmp_path).items():
        out = tmp_path / "out" / name.replace(" ", "_")
        out.mkdir(parents=True)
        with pytest.raises(InputError) as err:
            extract_corpus(files, out / "text.txt.gz", out / "stats.json",
                           out_counts=out / "counts.parquet", min_article_tokens=1,
                           source=source, options=SourceOptions(**options))  # fmt: skip
        message = str(err.value)
        assert message.startswith(said) and "\n" not in message, (name, message)
        if name.startswith("corrupt"):  # the library's own words between, then the fix
            fix = "); it is corrupt or truncated, or its suffix names the wrong compression"
            assert message.endswith(fix), message
        assert not any(out.iterdir()), (name, list(out.iterdir()))  # nothing partial
    # a part of a file names a line by the byte it starts at ("first line\n": 11 bytes)
    from learnability.corpus.documents import read_lines, read_text

    undecodable = tmp_path / "latin1.txt"
    with pytest.raises(InputError) as err:
        list(read_lines(undecodable, (0, 100)))
    assert str(err.value) == (f"{undecodable}:byte 11: byte 0xe9 is not UTF-8; convert the "
                              "file to UTF-8 (iconv -f <its encoding> -t UTF-8)")  # fmt: skip
    # a byte-order mark is not text: a whole file's, a first line's, a first part's
    marked = tmp_path / "bom.txt"
    marked.write_text("\ufeffone two\nthree\n", encoding="utf-8")
    assert read_text(marked) == "one two\nthree\n"
    assert list(read_lines(marked)) == [(1, "one two"), (2, "three")]
    assert list(read_lines(marked, (0, 100))) == [("byte 0", "one two"), ("byte 11", "three")]
    # a folder without a file of that source; a path that is neither
    with pytest.raises(InputError, match="no csv file in this folder"):
        source_files(tmp_path / "out", "csv")
    with pytest.raises(InputError, match="no such file or folder"):
        source_files(tmp_path / "nowhere", "csv")


def test_the_registry_names_each_source_once_with_its_reader():
    assert set(SOURCES) == {"mediawiki", "text", "jsonl", "csv", "tsv", "parquet"}
    suffixes = [s for source in SOURCES.values() for s in source.suffixes]
    assert len(suffixes) == len(set(suffixes))  # a folder's file belongs to one source
    assert all(callable(s.read) and s.summary for s in SOURCES.values())
    # one registry shared by every caller in the process: an entry cannot be changed
    # in place by one of them
    with pytest.raises(AttributeError):
        SOURCES["text"].suffixes = (".md",)


def test_the_config_names_the_registrys_sources_and_a_bad_source_in_one_line(tmp_path):
    from learnability.corpus.sources import (
        corpus_plan,
        min_document_tokens,
        piece_files,
        source_options,
    )
    from learnability.errors import ConfigError
    from learnability.pipeline.config import load_schema

    def corpus_parts(dump: dict) -> dict[str, list[str]]:  # each part's files
        return {part: piece_files(pieces) for part, pieces in corpus_plan(dump).items()}

    source = load_schema()["$defs"]["source"]["properties"]
    assert source["format"]["enum"] == list(SOURCES)
    assert corpus_parts({"format": "mediawiki", "path": "x.bz2"}) == {}
    (tmp_path / "a.csv").write_text("text\nwords\n")
    (tmp_path / "b.csv").write_text("text\nmore words\n")
    parts = corpus_parts({"format": "csv", "path": str(tmp_path), "part_mb": 1e-6})
    assert parts == {"part-0001": [str(tmp_path / "a.csv")], "part-0002": [str(tmp_path / "b.csv")]}
    assert list(corpus_parts({"format": "csv", "path": f"file://{tmp_path}"})) == ["part-0001"]
    for dump_block, said in (
        ({"format": "csv", "path": "https://example.org/x.csv"}, "download it first"),
        ({"format": "csv", "path": str(tmp_path / "none")}, "no such file or folder"),
        ({"format": "jsonl", "path": str(tmp_path)}, "no jsonl file in this folder"),
        ({"format": "text", "path": "x", "base_url": "https://x/"}, "corpus.source.base_url"),
    ):
        with pytest.raises(ConfigError, match=said) as err:
            corpus_parts(dump_block)
        assert "\n" not in str(err.value) and str(err.value).startswith("corpus.source.")
    # the params of an extraction: only what its format reads
    full = {"document": "line", "text_column": "body", "group_column": None, "group": None}
    assert source_options({"format": "mediawiki", **full}) == {}
    assert source_options({"format": "text", **full}) == {"document": "line"}
    assert source_options({"format": "csv", **full}) == {
        "text_column": "body",
        "group_column": None,
        "group": None,
        "id_column": None,
    }
    corpus = {"min_article_tokens": 50, "min_document_tokens": 3}
    assert min_document_tokens({"corpus": {**corpus, "source": {"format": "csv"}}}) == 3
    assert min_document_tokens({"corpus": {**corpus, "source": {}}}) == 50
    mine = {"corpus": {**corpus, "source": {"format": "mediawiki"}}}
    assert min_document_tokens(mine, {"format": "csv"}) == 3


def test_a_list_in_the_corpus_language_meets_its_words(tmp_path):
    """A Bulgarian list (capitalised entries, a wildcard, a word the text lacks) against
    the vocabulary of gensim's Bulgarian fragment as the workflow extracts it: found by
    the same tokenisation and case policy, each entry's fate counted."""
    from test_wikitext import BG_DUMP

    from learnability.concepts.lists import read_wordlist, resolve

    extract_corpus([BG_DUMP], tmp_path / "t.txt.gz", tmp_path / "s.json",
                   out_counts=tmp_path / "c.parquet", min_article_tokens=1)  # fmt: skip
    counts = pd.read_parquet(tmp_path / "c.parquet")
    words = counts["word"].tolist()
    (tmp_path / "calendar.txt").write_text(
        "# календарни думи\nКалендар*\nГодина\nДен\nЮлиански\nнесъществуваща\n", encoding="utf-8"
    )
    entries = read_wordlist(tmp_path / "calendar.txt")
    table = resolve(entries, words, list_name="calendar", embedding="bg", source="calendar.txt",
                    counts=counts["count"].to_numpy())  # fmt: skip
    # the reference: the corpus' own words, by plain string tests
    prefixed = sorted(w for w in words if w.startswith("календар"))
    assert len(prefixed) >= 3
    found = table[table["status"].isin(["in_vocab", "expanded"])]
    assert sorted(found.loc[found["entry"] == "Календар*", "word"]) == prefixed
    assert set(found.loc[found["entry"] != "Календар*", "word"]) == {"година", "ден", "юлиански"}
    assert table.loc[table["entry"] == "несъществуваща", "status"].tolist() == ["oov"]


@pytest.mark.parametrize("document", ["paragraph", "file"])
def test_hard_wrapped_text_gives_the_corpus_of_its_unwrapped_copy(tmp_path, document):
    """Python's language reference, hard-wrapped as shipped (with \\r\\n line ends) and
    unwrapped (each paragraph one line), gives the same corpus, byte for byte: a line
    end inside a paragraph is a space, a blank line ends it, so each corpus line is a
    paragraph (not a ~70-character line) and the trainers' windows cross the wraps."""
    from wrapped import topics, unwrapped, write_topics

    wrapped_files = write_topics(tmp_path / "wrapped", wrap=True, crlf=True)
    flat_files = write_topics(tmp_path / "flat", wrap=False)
    text, stats = _extract(tmp_path, "w", wrapped_files, "text", document=document)
    flat_text, flat_stats = _extract(tmp_path, "f", flat_files, "text", document=document)
    assert (tmp_path / "w" / "text.txt.gz").read_bytes() == (
        tmp_path / "f" / "text.txt.gz"
    ).read_bytes()
    # a paragraph's id is the line it starts on, which the unwrapping renumbers
    ids = "skipped_ids" if document == "paragraph" else None
    assert {k: v for k, v in stats.items() if k != ids} == {
        k: v for k, v in flat_stats.items() if k != ids
    }
    if ids:
        assert [len(v) for v in stats[ids].values()] == [len(v) for v in flat_stats[ids].values()]
    # each line a paragraph of the unwrapped text; each document (a topic, or a
    # paragraph) ended by an empty line
    paragraphs = {
        name: [" ".join(tokenize(p)) for p in unwrapped(t).split("\n") if tokenize(p)]
        for name, t in topics().items()
    }  # fmt: skip
    if document == "file":
        expected = "".join("".join(p + "\n" for p in ps) + "\n" for ps in paragraphs.values())
        assert stats["articles"] == len(paragraphs) == 79
    else:
        expected = "".join(p + "\n\n" for ps in paragraphs.values() for p in ps)
        assert stats["articles"] == sum(map(len, paragraphs.values()))
    assert text.decode() == expected
    physical = sum(t.count("\n") for t in topics().values())
    assert stats["lines"] == sum(map(len, paragraphs.values())) < physical / 2


def test_a_paragraph_is_read_by_the_one_part_its_first_line_starts_in(tmp_path):
    """Cut at every byte, a file's two parts read each paragraph exactly once (the part
    its first line starts in, reading past its end to finish it), whatever the line
    before the cut: blank, whitespace alone (a no-break space too), \\r\\n, or text."""
    from learnability.corpus.documents import read_paragraphs

    path = tmp_path / "p.txt"
    path.write_bytes(
        "\ufeffFirst para\r\ngoes on\r\n\r\n  \t\nsecond\nline two\n\u00a0\nthird é\n\n\n"
        "fourth one\nstill fourth\n \nlast, no end".encode()
    )  # fmt: skip
    whole = [text for _, text in read_paragraphs(path)]
    assert whole == ["First para\ngoes on", "second\nline two", "third é",
                     "fourth one\nstill fourth", "last, no end"]  # fmt: skip
    size = path.stat().st_size
    for cut in range(size + 1):
        parts = [[t for _, t in read_paragraphs(path, r)] for r in ((0, cut), (cut, size))]
        assert parts[0] + parts[1] == whole, (cut, parts)
    # named by the byte their first line starts at (3 of the BOM, 12, 9, 2, 4)
    assert [w for w, _ in read_paragraphs(path, (0, size))][1] == "byte 30"


def _paragraphs_by_hand(data: bytes) -> list[tuple[str, str]]:
    """The reference for a part's reading: ``data``'s paragraphs (runs of lines that are
    not whitespace alone, by str.isspace) named by the byte their first line starts at,
    from the bytes' own line offsets (a leading byte-order mark is no text)."""
    out, held, first, offset = [], [], 0, 0
    for raw in [x + b"\n" for x in data.split(b"\n")[:-1]] + [data.split(b"\n")[-1]]:
        line = raw.decode("utf-8").removeprefix("\ufeff" if offset == 0 else "").rstrip("\r\n")
        if line.strip():  # str.strip(): whitespace as str.isspace has it
            first = first if held else offset
            held.append(line)
        elif held:
            out.append((f"byte {first}", "\n".join(held)))
            held = []
        offset += len(raw)
    if held:
        out.append((f"byte {first}", "\n".join(held)))
    return out


def test_parts_cut_anywhere_read_the_paragraphs_named_by_hand_even_across_long_lines(tmp_path):
    """Cut into two or three parts near every line's end (and inside 64 KiB lines), the
    parts read each paragraph once, named by the byte it starts at, as counted by hand:
    whitespace lines of ASCII separators, of U+00A0 and U+2000 (non-ASCII bytes, 0x80
    among them), one of 70,000 spaces and one of 70,000 letters (the look back before a
    cut reads 64 KiB at a time), a byte-order mark and \r\n ends."""
    from learnability.corpus.documents import read_paragraphs

    # (the 70,000 letters before the long blank lines: a look back that went astray past
    # 64 KiB would land in them)
    lines = ["\ufeffopening line", "goes on", " \t", "second", "\u00a0", "third \u00e9",
             "\u2000", "\x1c\x1d", "y" * 70_000 + " z", "fourth", " " * 70_000,
             "\u00a0" + " " * 70_000, "fifth " + "x" * 70_000, "tail", "", "\u2000 ",
             "last"]  # fmt: skip
    data = "\r\n".join(lines).encode("utf-8")
    path = tmp_path / "p.txt"
    path.write_bytes(data)
    want = _paragraphs_by_hand(data)
    assert [t.split()[0][:6] for _, t in want] == ["openin", "second", "third", "yyyyyy",
                                                   "fifth", "last"]  # fmt: skip
    assert list(read_paragraphs(path, (0, len(data)))) == want
    ends = [i + 1 for i, b in enumerate(data) if b == ord("\n")]
    cuts = sorted({c for e in ends for c in range(e - 3, e + 4) if 0 <= c <= len(data)}
                  | {0, 1, 2, 3, 70_000, 100_000, 150_000, 200_000, len(data)})  # fmt: skip
    for cut in cuts:
        got = [p for r in ((0, cut), (cut, len(data))) for p in read_paragraphs(path, r)]
        assert got == want, cut
    for a, b in zip(cuts[::7], cuts[3::7], strict=False):
        got = [p for r in ((0, a), (a, b), (b, len(data))) for p in read_paragraphs(path, r)]
        assert got == want, (a, b)


def test_parts_of_small_files_cut_at_every_byte_read_the_paragraphs_named_by_hand(tmp_path):
    """The look back before a cut at the file's start: a one-letter first line, a first
    line of a byte-order mark and spaces (blank), a mark inside the file (text, not
    whitespace: only the first line's is dropped), and empty lines at the start."""
    from learnability.corpus.documents import read_paragraphs

    files = ["x\npara\n\nnext", "\ufeff  \npara one\n\n two", "a\n\ufeff \nb\n\nc",
             "\n\n\nfirst\n \nsecond\n", "\ufeff\nq\nr"]  # fmt: skip
    for n, text in enumerate(files):
        data = text.encode("utf-8")
        path = tmp_path / f"f{n}.txt"
        path.write_bytes(data)
        want = _paragraphs_by_hand(data)
        for cut in range(len(data) + 1):
            got = [p for r in ((0, cut), (cut, len(data))) for p in read_paragraphs(path, r)]
            assert got == want, (text, cut)
    # an undecodable byte is reported once, by the part that reads its line: the next
    # part looks back at that line (text, not blank: its paragraph goes on) without error
    path = tmp_path / "bad.txt"
    path.write_bytes(b" \xe9\nnext\n\nlast\n")  # a space and a bad byte: looked at decoded
    assert list(read_paragraphs(path, (3, 14))) == [("byte 9", "last")]
    with pytest.raises(InputError, match=r"bad.txt:byte 0: byte 0xe9 is not UTF-8"):
        list(read_paragraphs(path, (0, 3)))


def test_a_large_paragraph_text_is_cut_into_parts_that_join_to_the_whole(tmp_path):
    """One large hard-wrapped file, a document a paragraph, cut into byte ranges of
    several sizes: the parts join to the corpus one job makes, byte for byte."""
    from wrapped import topics

    from learnability.corpus.sources import corpus_plan

    path = tmp_path / "reference.txt"
    path.write_bytes("\r\n\r\n".join(topics().values()).replace("\n", "\r\n").encode())
    whole, whole_stats = _extract(tmp_path, "whole", [path], "text", document="paragraph")
    size = path.stat().st_size
    for part_bytes in (size // 7, size // 3 + 1):
        plan = corpus_plan({"format": "text", "path": str(path), "document": "paragraph",
                            "part_mb": part_bytes / 2**20})  # fmt: skip
        assert len(plan) == -(-size // part_bytes) > 1
        tmp = tmp_path / f"parts-{part_bytes}"
        tmp.mkdir()
        assert _join_parts(tmp, plan, "text", document="paragraph") == whole, part_bytes
        joined = json.loads((tmp / "joined.json").read_text())
        for key in ("articles", "lines", "tokens", "types", "pages", "skipped"):
            assert joined[key] == whole_stats[key], key


def test_a_folders_files_are_found_at_any_depth_with_hidden_files_and_folders_left_out(
    tmp_path,
):
    # the corpus folder itself may sit inside a hidden folder (a user's ~/.data): only
    # the parts below it count. A subfolder's files are read, a hidden file or folder's
    # (.git, .cache, an editor's backup) are not, nor another source's files
    root = tmp_path / ".data" / "corpus"
    wanted = ["a.txt", "b.txt.gz", "sub/c.txt", "sub/deeper/d.text", "sub/e.cor.bz2", "notes"]
    hidden = [".f.txt", ".git/g.txt", "sub/.cache/h.txt", "sub/.deeper/i.txt", ".j/k/l.txt"]
    other = ["table.csv", "sub/rows.jsonl", "sub/readme.md"]
    for name in wanted + hidden + other:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("words\n")
    found = source_files(root, "text")
    assert [p.relative_to(root).as_posix() for p in found] == sorted(wanted)
    assert [p.name for p in source_files(root, "csv")] == ["table.csv"]
    # a hidden folder's files only: none to read, said in one line
    only_hidden = tmp_path / "only"
    (only_hidden / ".git").mkdir(parents=True)
    (only_hidden / ".git" / "x.txt").write_text("words\n")
    with pytest.raises(InputError, match="no text file in this folder") as err:
        source_files(only_hidden, "text")
    assert "\n" not in str(err.value)


def test_a_groups_corpus_holds_that_groups_documents_and_counts_the_others_left_out(tmp_path):
    # source.group keeps the documents whose group column holds it: the corpus is exactly
    # the reference tokenisation of those documents, the others counted as other_group;
    # a number in the column matches its text ("1990")
    docs = _documents()[:60]
    party = ["red" if i % 3 == 0 else "blue" for i in range(len(docs))]
    year = [1990 if i % 4 == 0 else 2000 for i in range(len(docs))]
    path = tmp_path / "speeches.csv"
    pd.DataFrame({"text": docs, "party": party, "year": year}).to_csv(path, index=False)
    for column, group, values in (("party", "red", party), ("year", "1990", list(map(str, year)))):
        kept = [d for d, v in zip(docs, values, strict=True) if v == group]
        text, stats = _extract(tmp_path, f"{column}-{group}", [path], "csv",
                               group_column=column, group=group)  # fmt: skip
        assert 0 < len(kept) < len(docs) / 2
        assert text.decode() == "".join(" ".join(tokenize(d)) + "\n\n" for d in kept), group
        assert stats["articles"] == len(kept) and stats["pages"] == len(docs)
        assert stats["skipped"]["other_group"] == len(docs) - len(kept)
        assert stats["groups"] == {group: len(kept)}
    # a group the column never holds: one line naming the group and how many it kept
    with pytest.raises(InputError, match=r"group \('green': 0 kept\)") as err:
        _extract(tmp_path, "green", [path], "csv", group_column="party", group="green")
    assert "\n" not in str(err.value)


def _sized(folder: Path, sizes: list[int]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for i, n in enumerate(sizes):
        f = folder / f"f{i}.txt"
        f.write_bytes(b"x" * n)
        files.append(f)
    return files


def test_parts_and_pieces_are_planned_as_counted_by_hand_at_their_boundaries(tmp_path):
    """Hand-counted plans at part_bytes = 10: files whose sizes sum to exactly the part
    share it (4 + 6), the next starts a part; a splittable file larger than a part is cut
    into its own parts between the small files before and after it; a range's MB is its
    bytes over 10^6."""
    from learnability.corpus.sources import cuts, plan_pieces, range_mb

    files = _sized(tmp_path / "a", [4, 6, 1, 10, 11])
    names = [[f.name for f in part] for part in plan_parts(files, 10)]
    assert names == [["f0.txt", "f1.txt"], ["f2.txt"], ["f3.txt"], ["f4.txt"]]

    big = _sized(tmp_path / "b", [25])[0]
    assert cuts(big, 10) == [(0, 10), (10, 20), (20, 25)]
    small, large, after = _sized(tmp_path / "c", [3, 15, 2])
    pieces = plan_pieces([small, large, after], 10, lambda f: True)
    assert pieces == [[(str(small.resolve()), None, None)],
                      [(str(large.resolve()), 0, 10)], [(str(large.resolve()), 10, 15)],
                      [(str(after.resolve()), None, None)]]  # fmt: skip
    # a file that may not be cut stays whole, however large
    assert plan_pieces([large], 10, lambda f: False) == [[(str(large.resolve()), None, None)]]
    assert range_mb(str(big), 1_000_000, 3_500_000) == pytest.approx(2.5)


def test_a_parquet_file_is_cut_between_row_groups_of_about_a_part(tmp_path):
    """Eight identical row groups (so of one compressed size s, read from pyarrow's own
    metadata) at part_bytes = 3 s: groups [0, 3), [3, 6), [6, 8), a group never cut and
    a part never over 3 s; a range's MB is its groups' bytes; a file of one group larger
    than a part stays whole."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from learnability.corpus.sources import cuts, plan_pieces, range_mb

    rows = pa.table({"text": [f"document {i} " + "word " * (i % 7) for i in range(200)]})
    path = tmp_path / "t.parquet"
    with pq.ParquetWriter(path, rows.schema) as writer:
        for _ in range(8):
            writer.write_table(rows)
    meta = pq.ParquetFile(path).metadata
    sizes = {meta.row_group(g).column(0).total_compressed_size for g in range(8)}
    assert meta.num_row_groups == 8 and len(sizes) == 1
    s = sizes.pop()
    assert cuts(path, 3 * s) == [(0, 3), (3, 6), (6, 8)]
    assert range_mb(str(path), 3, 6) == pytest.approx(3 * s / 1e6)
    whole = tmp_path / "one.parquet"
    pq.write_table(rows, whole)
    one = pq.ParquetFile(whole).metadata.row_group(0).column(0).total_compressed_size
    assert plan_pieces([whole], one // 2, lambda f: True) == [[(str(whole.resolve()), None, None)]]


def test_each_format_finds_the_suffixes_its_how_to_names(tmp_path):
    """docs/how-to/own-corpus.md: text is `.txt`, `.text`, `.cor` or no suffix; tables
    `.jsonl`/`.ndjson`/`.json`, `.csv`, `.tsv`/`.tab`, `.parquet`; a dump `.xml`; any of
    them compressed. A folder holding one file of every suffix gives each format exactly
    its own; a folder with none says where it looked and the fix, in one line."""
    named = {"mediawiki": [".xml"], "text": [".txt", ".text", ".cor", ""],
             "jsonl": [".jsonl", ".ndjson", ".json"], "csv": [".csv"], "tsv": [".tsv", ".tab"],
             "parquet": [".parquet"]}  # fmt: skip
    folder = tmp_path / "all"
    folder.mkdir()
    for fmt, suffixes in named.items():
        for k, suffix in enumerate(suffixes):
            (folder / f"{fmt}{k}{suffix}").write_text("x")
            (folder / f"{fmt}{k}z{suffix}.gz").write_text("x")
    for fmt, suffixes in named.items():
        found = sorted(p.name for p in source_files(folder, fmt))
        wanted = [f"{fmt}{k}{s}" for k, s in enumerate(suffixes)]
        wanted += [f"{fmt}{k}z{s}.gz" for k, s in enumerate(suffixes)]
        assert found == sorted(wanted), fmt

    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError) as err:
        source_files(empty, "text")
    assert str(err.value) == (f"{empty}: no text file in this folder (looked for .txt, .text, "
                              ".cor, no suffix, compressed or not); check the path and the "
                              "format")  # fmt: skip
    with pytest.raises(InputError) as err:
        source_files(tmp_path / "missing", "csv")
    assert str(err.value) == f"{tmp_path / 'missing'}: no such file or folder"


def test_a_corpus_config_that_cannot_be_read_names_its_block_setting_and_fix(tmp_path):
    """corpus_plan's one-line ConfigErrors, written out: a group without its column, a
    multi-part download, a URL, a missing folder, each naming the block it is in
    (``corpus.source`` by default, ``corpora.NAME`` for another corpus); a dump plans no parts;
    file:// is a local path."""
    from learnability.corpus.sources import corpus_plan
    from learnability.errors import ConfigError

    (tmp_path / "a.txt").write_text("one document\n")

    def error(dump: dict, *where: str) -> str:
        with pytest.raises(ConfigError) as err:
            corpus_plan(dump, *where)
        return str(err.value)

    assert corpus_plan({"path": str(tmp_path)}) == {}  # no format: a MediaWiki dump
    assert error({"format": "csv", "path": str(tmp_path), "group": "x"}) == (
        "corpus.source.group: 'x' is a value of the group column; name that column in "
        "corpus.source.group_column"
    )
    assert error({"format": "csv", "path": str(tmp_path), "group": "x"}, "corpora.b") == (
        "corpora.b.group: 'x' is a value of the group column; name that column in "
        "corpora.b.group_column"
    )
    assert error({"format": "text", "path": str(tmp_path), "base_url": "http://h/"}) == (
        "corpus.source.base_url: a multi-part download is for MediaWiki dumps; give the "
        "file or folder of your corpus in corpus.source.path (and base_url: null)"
    )
    for missing in ({"format": "text"}, {"format": "csv", "path": None}):
        assert error(missing, "corpora.b") == (
            f"corpora.b.path: not given; name the file or folder of your corpus "
            f"({missing['format']}) there"
        )
    assert error({"format": "text", "path": "https://h/c.txt"}) == (
        "corpus.source.path: https://h/c.txt: a corpus of your own (text) is read from a local "
        "file or folder, or package://; download it first and give its path"
    )
    assert error({"format": "text", "path": str(tmp_path / "no")}, "corpora.b") == (
        f"corpora.b.path: {tmp_path / 'no'}: no such file or folder"
    )
    plan = corpus_plan({"format": "text", "path": f"file://{tmp_path}"})
    assert plan == {"part-0001": [(str((tmp_path / "a.txt").resolve()), None, None)]}
    # a file inside an installed package (gensim's Lee corpus), and a missing one
    lee = corpus_plan(
        {"format": "text", "path": "package://gensim/test/test_data/lee_background.cor"}
    )
    assert lee == {"part-0001": [(str(LEE.resolve()), None, None)]}
    assert error({"format": "text", "path": "package://gensim/none.txt"}) == (
        "corpus.source.path: package://gensim/none.txt: no file 'none.txt' inside the installed "
        "package 'gensim'"
    )
    # the group with its column plans as any table does
    assert corpus_plan({"format": "text", "path": str(tmp_path), "group": "x",
                        "group_column": "g"}) == plan  # fmt: skip


def test_a_dumps_skips_are_counted_by_the_names_its_reader_gives_and_its_lines_kept(tmp_path):
    """A MediaWiki dump of one article (two lines of prose, one sentence each) and one
    talk page: stats.json counts the talk page under the reason the reader gives
    (non_article_namespace) and redirects at 0 under theirs, and the article's two lines
    stay two lines (a dump's stripped wikitext is not re-wrapped, as a text file's
    paragraphs are)."""
    from dumps import page, write_dump

    first = " ".join(f"alpha{i}" for i in range(8))
    second = " ".join(f"beta{i}" for i in range(8))
    pages = [page("A", f"{first}\n{second}"), page("Talk:A", "talk " * 20, ns=1)]
    dump = write_dump(tmp_path / "d.xml.bz2", pages)
    text, stats = _extract(tmp_path, "out", [dump], "mediawiki")
    # and the documents under min_article_tokens (1 here) by theirs, at 0
    assert dict(stats["skipped"]) == {"non_article_namespace": 1, "redirect": 0,
                                      "shorter_than_1_tokens": 0}  # fmt: skip
    assert text.decode().splitlines() == [first, second, ""]  # "": the document's end
    # an article under min_article_tokens is named by its title, as a table's row by its
    # id (and only such documents: the talk page and the redirect are counted, not named)
    pages += [page("Stub & co", "two words"), page("R", "#REDIRECT [[A]]", redirect="A"),
              page("Stub 2", "one")]  # fmt: skip
    dump = write_dump(tmp_path / "e.xml.bz2", pages)
    out = tmp_path / "short"
    out.mkdir()
    stats = extract_corpus([dump], out / "text.txt.gz", out / "stats.json", min_article_tokens=3,
                           source="mediawiki", options=SourceOptions())  # fmt: skip
    assert stats["skipped_ids"] == {"shorter_than_3_tokens": ["Stub & co", "Stub 2"]}
    assert dict(stats["skipped"]) == {"non_article_namespace": 1, "redirect": 1,
                                      "shorter_than_3_tokens": 2}  # fmt: skip


def test_which_files_may_be_cut_and_which_settings_a_format_reads():
    """splittable, by hand: one document a line or a paragraph, uncompressed, or Parquet;
    not a whole-file text, not CSV (a quoted cell may hold a newline), not compressed.
    source_options: only the settings the format reads (a dump none)."""
    from learnability.corpus.sources import source_options, splittable

    cases = [("a.jsonl", "jsonl", None, True), ("a.jsonl.gz", "jsonl", None, False),
             ("a.txt", "text", "line", True), ("a.txt", "text", "paragraph", True),
             ("a.txt", "text", "file", False), ("a.txt.xz", "text", "line", False),
             ("a.csv", "csv", "line", False), ("a.tsv", "tsv", None, False),
             ("a.parquet", "parquet", None, True)]  # fmt: skip
    for name, source, document, expected in cases:
        assert splittable(Path(name), source, document) is expected, (name, source, document)
    dump = {"document": "line", "text_column": "body", "group": "g", "group_column": "c"}
    assert source_options(dump) == {}
    assert source_options({**dump, "format": "text"}) == {"document": "line"}
    assert source_options({**dump, "format": "csv"}) == {
        "text_column": "body",
        "group_column": "c",
        "group": "g",
        "id_column": None,
    }
