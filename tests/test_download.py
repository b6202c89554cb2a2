"""Download code against a real HTTP server on 127.0.0.1 serving bytes the test made."""

import hashlib

import pytest
from local_server import PAYLOAD, Handler

from learnability.corpus.download import fetch, resolve_package_path
from learnability.errors import DownloadError

SHA256 = hashlib.sha256(PAYLOAD).hexdigest()


def test_full_download_verified(server, tmp_path):
    dest = fetch(f"{server}/dump.bz2", tmp_path / "d.bz2", {"sha256": SHA256})
    assert dest.read_bytes() == PAYLOAD
    assert not (tmp_path / "d.bz2.part").exists()


def test_resume_from_partial_file_uses_range(server, tmp_path):
    part = tmp_path / "d.bz2.part"
    part.write_bytes(PAYLOAD[:300_000])
    fetch(f"{server}/dump.bz2", tmp_path / "d.bz2", {"sha1": hashlib.sha1(PAYLOAD).hexdigest()})
    assert (tmp_path / "d.bz2").read_bytes() == PAYLOAD
    assert Handler.served == [len(PAYLOAD) - 300_000]  # only the missing bytes were sent


def test_dropped_connection_resumes_not_restarts(server, tmp_path):
    Handler.fail_first = [True]
    fetch(f"{server}/dump.bz2", tmp_path / "d.bz2", {"sha256": SHA256}, retries=2, backoff=0.01)
    assert (tmp_path / "d.bz2").read_bytes() == PAYLOAD
    assert Handler.served == [len(PAYLOAD) // 2, len(PAYLOAD) - len(PAYLOAD) // 2]


def test_progress_and_retries_are_logged(server, tmp_path, caplog):
    Handler.fail_first = [True]
    with caplog.at_level("INFO", logger="learnability.corpus.download"):
        fetch(
            f"{server}/dump.bz2",
            tmp_path / "d.bz2",
            {"sha256": SHA256},
            retries=2,
            backoff=0.01,
            progress_every=0.0,
        )
    text = caplog.text
    assert "attempt 1 of 3 failed" in text and "retrying in 0.0 s" in text
    assert f"resuming at byte {len(PAYLOAD) // 2}" in text
    assert "1.0 of 1.0 MB (100%)" in text and "MB/s" in text and "ETA" in text


def test_server_without_range_restarts_cleanly(server, tmp_path):
    Handler.support_range = False
    (tmp_path / "d.bz2.part").write_bytes(b"garbage" * 10)
    fetch(f"{server}/dump.bz2", tmp_path / "d.bz2", {"sha256": SHA256})
    assert (tmp_path / "d.bz2").read_bytes() == PAYLOAD


def test_checksum_mismatch_leaves_nothing(server, tmp_path):
    with pytest.raises(DownloadError, match="sha256 mismatch"):
        fetch(f"{server}/dump.bz2", tmp_path / "d.bz2", {"sha256": "0" * 64})
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("path,code", [("/missing", "404"), ("/error", "500")])
def test_http_errors_are_clear(server, tmp_path, path, code):
    with pytest.raises(DownloadError, match=code):
        fetch(f"{server}{path}", tmp_path / "d.bz2", {"sha256": SHA256}, retries=1, backoff=0.01)
    assert not (tmp_path / "d.bz2").exists()


def test_missing_checksum_is_an_error_unless_allowed(server, tmp_path):
    with pytest.raises(DownloadError, match="allow_unverified"):
        fetch(f"{server}/dump.bz2", tmp_path / "d.bz2", {})
    fetch(f"{server}/dump.bz2", tmp_path / "d.bz2", {}, allow_unverified=True)
    assert (tmp_path / "d.bz2").read_bytes() == PAYLOAD


def test_package_source_is_gensim_sample(tmp_path):
    src = "package://gensim/test/test_data/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
    path = resolve_package_path(src)
    assert path.is_file()
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    dest = fetch(src, tmp_path / "sample.bz2", {"sha256": sha})
    assert dest.read_bytes() == path.read_bytes()
    with pytest.raises(DownloadError, match="not installed"):
        resolve_package_path("package://no_such_pkg_xyz/a.bz2")


def test_local_file_source(tmp_path):
    src = tmp_path / "src.bin"
    src.write_bytes(PAYLOAD)
    fetch(f"file://{src}", tmp_path / "out.bin", {"md5": hashlib.md5(PAYLOAD).hexdigest()})
    assert (tmp_path / "out.bin").read_bytes() == PAYLOAD


def test_a_killed_download_resumes_where_it_stopped(server, tmp_path):
    """SIGKILL the process downloading (no handler runs, nothing is cleaned up): the next
    fetch asks only for the bytes after those already on disk."""
    import os
    import signal
    import subprocess
    import sys
    import time

    big = bytes(range(256)) * (4 << 12)  # 4 MiB, sent slowly
    Handler.files["/big.bz2"] = big
    Handler.slow.add("/big.bz2")
    digest = {"sha256": hashlib.sha256(big).hexdigest()}
    dest, part = tmp_path / "big.bz2", tmp_path / "big.bz2.part"
    child = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from learnability.corpus.download import fetch; "
         "fetch(sys.argv[1], sys.argv[2], {'sha256': sys.argv[3]})",
         f"{server}/big.bz2", str(dest), digest["sha256"]],
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not (part.exists() and part.stat().st_size >= 1 << 20):
        assert child.poll() is None and time.monotonic() < deadline
        time.sleep(0.01)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    have = part.stat().st_size
    assert 0 < have < len(big) and not dest.exists()
    fetch(f"{server}/big.bz2", dest, digest)
    assert dest.read_bytes() == big and not part.exists()
    assert Handler.starts == [0, have]  # resumed at the kill point, not from zero
