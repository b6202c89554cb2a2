"""Multi-part dumps: the manifest from the dump's own checksums, verified and resumable
downloads of each part from a server on 127.0.0.1, and per-part extraction that joins
into exactly the single-file extraction."""

import gzip
import json

import pytest
from dumps import multipart_dump
from local_server import Handler

from learnability.corpus.download import fetch
from learnability.corpus.dumps import (
    DEFAULT_PATTERN,
    DumpFile,
    build_manifest,
    parse_checksum_list,
    parse_dumpstatus,
    read_manifest,
)
from learnability.corpus.extract import extract_corpus, join_corpus
from learnability.errors import DownloadError, InputError


def _status(files, status="done"):
    return json.dumps({"jobs": {"articlesdump": {"status": status, "files": files}}})


def test_dumpstatus_parts_in_page_order_on_the_mirror():
    files = {
        f"x-pages-articles{k}.xml-p{lo}p{lo + 9}.bz2": {
            "size": k,
            "url": f"/enwiki/x/x-pages-articles{k}.xml-p{lo}p{lo + 9}.bz2",
            "sha1": "a" * 40,
            "md5": "b" * 32,
        }
        for k, lo in [(10, 900), (2, 20), (1, 1), (27, 5000), (27, 4000)]
    }
    parsed = parse_dumpstatus(_status(files), "articlesdump", "https://mirror/d/", "status")
    assert [f.name.split("articles")[1][:12] for f in parsed] == [
        "1.xml-p1p10.",
        "2.xml-p20p29",
        "10.xml-p900p",
        "27.xml-p4000",
        "27.xml-p5000",
    ]
    assert parsed[0].url == "https://mirror/d/x-pages-articles1.xml-p1p10.bz2"
    assert parsed[0].checksums == {"sha1": "a" * 40, "md5": "b" * 32}


def test_dumpstatus_errors_say_what_to_do():
    with pytest.raises(InputError, match="no job 'articlesdump'; it has other"):
        parse_dumpstatus('{"jobs": {"other": {}}}', "articlesdump", "", "s.json")
    with pytest.raises(InputError, match="status 'in-progress'.*incomplete"):
        parse_dumpstatus(_status({}, "in-progress"), "articlesdump", "", "s.json")
    with pytest.raises(InputError, match="not valid JSON"):
        parse_dumpstatus("<html>", "articlesdump", "", "s.json")


def test_checksum_list_picks_the_parts_and_names_a_bad_line():
    text = (
        f"{'a' * 40}  w-pages-articles2.xml-p11p20.bz2\n"
        f"{'b' * 40}  w-pages-articles.xml.bz2\n"
        f"{'c' * 40}  w-pages-articles1.xml-p1p10.bz2\n"
        f"{'d' * 32}  w-pages-articles-multistream1.xml-p1p10.bz2\n"
    )
    files = parse_checksum_list(text, "http://m/", "sums", DEFAULT_PATTERN)
    assert [(f.name, f.sha1[:1]) for f in files] == [
        ("w-pages-articles1.xml-p1p10.bz2", "c"),
        ("w-pages-articles2.xml-p11p20.bz2", "a"),
    ]
    with pytest.raises(InputError, match="sums, line 2"):
        parse_checksum_list(f"{'a' * 40}  x\nnot a checksum line\n", "", "sums", ".")


@pytest.fixture
def dump_server(server, tmp_path):
    Handler.files = multipart_dump(_mkdir(tmp_path / "src"))
    return server


def _mkdir(path):
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.mark.parametrize("status", ["dumpstatus.json", "testwiki-20990101-sha1sums.txt"])
def test_manifest_from_the_server(dump_server, tmp_path, status):
    files = build_manifest(status, f"{dump_server}/dump/", tmp_path / "m.tsv")
    assert [f.name for f in files] == [
        f"testwiki-20990101-pages-articles{k}.xml-p{40 * k - 39}p{40 * k}.bz2" for k in (1, 2, 3)
    ]
    assert read_manifest(tmp_path / "m.tsv") == files
    assert not (tmp_path / "m.tsv.status").exists()


def _pin(files, path, change=None):
    """A pinned manifest of ``files``; ``change``: (index, field, value) to alter one."""
    from dataclasses import replace

    from learnability.corpus.dumps import write_manifest

    pins = list(files)
    if change:
        k, field, value = change
        pins[k] = replace(pins[k], **{field: value})
    write_manifest(pins, path)
    return path


def test_a_pinned_dump_refuses_a_mirror_that_serves_another(dump_server, tmp_path):
    """The mirror's list is held to a committed manifest: the same parts pass; a changed
    sha1 or size, a pinned part the mirror lacks, or a part the pin does not list is
    refused in one line that names the part and the fix, and no manifest is written."""
    url = f"{dump_server}/dump/"
    served = build_manifest("dumpstatus.json", url, tmp_path / "served.tsv")
    out = tmp_path / "m.tsv"
    assert build_manifest("dumpstatus.json", url, out, pinned=_pin(served, tmp_path / "p.tsv"))
    out.unlink()
    cases = [
        ((1, "sha1", "f" * 40), rf"{served[1].name} has sha1 [0-9a-f]{{40}} where .* pins f{{40}}"),
        ((2, "size", 12345), rf"{served[2].name} has size \d+ where .* pins 12345"),
        ((0, "name", "extra.bz2"), r"lists no extra.bz2, which .* pins"),
    ]
    for change, message in cases:
        pin = _pin(served, tmp_path / "p.tsv", change)
        with pytest.raises(InputError, match=message) as err:
            build_manifest("dumpstatus.json", url, out, pinned=pin)
        assert "\n" not in str(err.value) and not out.exists()
    # a pin that leaves a served part out: refused, unless the config accepts it
    _pin(served[:2], tmp_path / "p.tsv")
    with pytest.raises(InputError, match=rf"{served[2].name} is not in .*allow_unpinned"):
        build_manifest("dumpstatus.json", url, out, pinned=tmp_path / "p.tsv")
    files = build_manifest("dumpstatus.json", url, out, pinned=tmp_path / "p.tsv",
                           allow_unpinned=True)  # fmt: skip
    assert files == served
    # a pin that is not a manifest says so
    (tmp_path / "bad.tsv").write_text("part\tchecksum\nx\ty\n")
    with pytest.raises(InputError, match=r"bad.tsv: not a dump manifest .*no name, size, sha1"):
        build_manifest("dumpstatus.json", url, out, pinned=tmp_path / "bad.tsv")


def test_parts_without_checksums_need_an_explicit_override(server, tmp_path):
    bare = {"x-pages-articles1.xml-p1p9.bz2": {"size": 3, "url": "/x"}}
    Handler.files = {"/dump/dumpstatus.json": _status(bare).encode()}
    with pytest.raises(DownloadError, match="no sha1 or md5 for 1 file.*allow_unverified"):
        build_manifest("dumpstatus.json", f"{server}/dump/", tmp_path / "m.tsv")
    assert not (tmp_path / "m.tsv").exists()
    build_manifest("dumpstatus.json", f"{server}/dump/", tmp_path / "m.tsv", allow_unverified=True)


def test_parts_download_verified_resume_and_join_into_the_whole(dump_server, tmp_path):
    files = build_manifest("dumpstatus.json", f"{dump_server}/dump/", tmp_path / "m.tsv")
    Handler.fail_first = [True]  # the first part's connection is cut halfway
    Handler.served = []
    parts = [fetch(f.url, tmp_path / "parts" / f.name, f.checksums, backoff=0.01) for f in files]
    first = Handler.files[f"/dump/{files[0].name}"]
    assert Handler.served[:2] == [len(first) // 2, len(first) - len(first) // 2]  # resumed
    for f, path in zip(files, parts, strict=True):
        assert path.read_bytes() == Handler.files[f"/dump/{f.name}"]

    # extraction part by part, joined, equals the extraction of the single-file dump
    out = tmp_path / "x"
    out.mkdir()
    for k, path in enumerate(parts):
        extract_corpus(
            [path], out / f"{k}.txt.gz", out / f"{k}.json", out_counts=out / f"{k}.parquet"
        )
    joined = join_corpus(
        [out / f"{k}.txt.gz" for k in range(3)],
        [out / f"{k}.parquet" for k in range(3)],
        [out / f"{k}.json" for k in range(3)],
        out / "text.txt.gz",
        out / "stats.json",
    )
    whole_path = tmp_path / "whole.bz2"
    whole_path.write_bytes(Handler.files["/dump/testwiki-20990101-pages-articles.xml.bz2"])
    whole = extract_corpus([whole_path], out / "whole.txt.gz", out / "whole.json")
    with gzip.open(out / "text.txt.gz", "rb") as a, gzip.open(out / "whole.txt.gz", "rb") as b:
        assert a.read() == b.read()
    assert joined.pop("parts") == 3
    assert joined == whole
    assert whole["skipped"]["redirect"] > 0 and whole["skipped"]["non_article_namespace"] > 0


def test_a_corrupted_part_is_rejected_and_leaves_nothing(dump_server, tmp_path):
    files = build_manifest("dumpstatus.json", f"{dump_server}/dump/", tmp_path / "m.tsv")
    Handler.corrupt = {f"/dump/{files[1].name}"}
    with pytest.raises(DownloadError, match="sha1 mismatch.*not kept"):
        fetch(files[1].url, tmp_path / "p" / files[1].name, files[1].checksums)
    assert list((tmp_path / "p").iterdir()) == []


def test_a_pin_of_names_is_locked_at_the_first_manifest_and_holds_every_later_one(
    dump_server, tmp_path
):
    """A pin may list names alone (as the paper's dump ships): the first manifest records
    the mirror's size, sha1 and md5 into it, and a later manifest from a mirror that
    serves another file under a pinned name is refused in one line, naming the part, and
    writes nothing; a pin with every field is left as it is."""
    from dataclasses import replace

    url = f"{dump_server}/dump/"
    served = build_manifest("dumpstatus.json", url, tmp_path / "served.tsv")
    pin = _pin([DumpFile(name=f.name, url="") for f in served], tmp_path / "lock.tsv")
    assert read_manifest(pin)[0].sha1 == "" and read_manifest(pin)[0].size is None
    out = tmp_path / "m.tsv"
    assert build_manifest("dumpstatus.json", url, out, pinned=pin) == served
    assert read_manifest(pin) == [replace(f, url="") for f in served]
    assert out.stat().st_mtime_ns >= pin.stat().st_mtime_ns  # the manifest is not behind it
    locked = pin.read_bytes()
    out.unlink()
    build_manifest("dumpstatus.json", url, out, pinned=pin)
    assert pin.read_bytes() == locked
    # the mirror now serves another second part (another size and checksums): refused
    out.unlink()
    status = json.loads(Handler.files["/dump/dumpstatus.json"])
    entry = status["jobs"]["articlesdump"]["files"][served[1].name]
    for field, value in (("md5", "e" * 32), ("sha1", "f" * 40), ("size", 7)):
        entry[field] = value
        Handler.files["/dump/dumpstatus.json"] = json.dumps(status).encode()
        with pytest.raises(InputError, match=rf"{served[1].name} has {field} {value} where "
                                             rf".*lock.tsv pins") as err:  # fmt: skip
            build_manifest("dumpstatus.json", url, out, pinned=pin)
        assert "\n" not in str(err.value) and not out.exists()
    assert pin.read_bytes() == locked


def _paper_dump(names: list[str]) -> dict:
    """A dumpstatus.json whose multistream job lists ``names`` (each a few bytes) and
    their index files, as Wikimedia's does; {path in the server: bytes}."""
    import hashlib

    files, listed = {}, {}
    for name in names:
        for served in (name, name.replace("-multistream", "-multistream-index").replace(
                ".xml-", ".txt-")):  # fmt: skip
            data = served.encode()
            files[f"/dump/{served}"] = data
            listed[served] = {"size": len(data), "url": f"/enwiki/20190701/{served}",
                              "sha1": hashlib.sha1(data).hexdigest(),
                              "md5": hashlib.md5(data).hexdigest()}  # fmt: skip
    job = {"status": "done", "files": dict(reversed(listed.items()))}
    files["/dump/dumpstatus.json"] = json.dumps({"jobs": {"articlesmultistreamdump": job}}).encode()
    return files


def test_the_paper_config_reads_the_57_files_of_the_2019_dump_and_refuses_others(server, tmp_path):
    """config/paper.yaml's job, pattern and pin on a mirror (127.0.0.1) that serves the
    2019-07-01 dump's 57 multistream files with their index files: the manifest is the 57
    in page order (parts 14 to 27 split), and the shipped pin, a list of names, gets their
    checksums. A mirror that serves the plain (not multistream) files, or one file fewer,
    is refused in one line."""
    import shutil

    import yaml
    from paths import REPO

    source = yaml.safe_load((REPO / "config/paper.yaml").read_text())["corpus"]["source"]
    shipped = REPO / source["pinned"]
    names = [f.name for f in read_manifest(shipped)]
    # the names as the reference list gives them, written here, not read from the pin
    numbers = [int(n.split("multistream")[1].split(".")[0]) for n in names]
    assert len(names) == 57 and len(set(names)) == 57
    assert [numbers.count(k) for k in range(1, 28)] == [1] * 13 + [2] * 9 + [3] * 3 + [4, 13]
    assert names[0] == "enwiki-20190701-pages-articles-multistream1.xml-p10p30302.bz2"
    assert names[-1] == "enwiki-20190701-pages-articles-multistream27.xml-p60663464p61197528.bz2"
    assert all(read_manifest(shipped)[k].sha1 == "" for k in range(57))  # names alone

    def manifest(served: list[str], pin):
        Handler.files = _paper_dump(served)
        return build_manifest(source["status"], f"{server}/dump/", tmp_path / "m.tsv",
                              job=source["job"], pattern=source["pattern"], pinned=pin,
                              allow_unverified=source["allow_unverified"])  # fmt: skip

    pin = shutil.copy(shipped, tmp_path / "pin.tsv")
    files = manifest(list(reversed(names)), pin)
    assert [f.name for f in files] == names
    assert all(f.sha1 and f.md5 and f.size for f in read_manifest(pin))
    plain = [n.replace("-multistream", "") for n in names]
    cases = [
        (plain, "lists no file of the dump .*set corpus.source.job and"),
        (names[:-1], f"lists no {names[-1]}, which .*pins \\(1 of 57"),
    ]
    for served, message in cases:
        pin = shutil.copy(shipped, tmp_path / "pin.tsv")
        (tmp_path / "m.tsv").unlink(missing_ok=True)
        with pytest.raises(InputError, match=message) as err:
            manifest(served, pin)
        assert "\n" not in str(err.value) and not (tmp_path / "m.tsv").exists()
        assert (tmp_path / "pin.tsv").read_bytes() == shipped.read_bytes()
