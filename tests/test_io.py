"""Atomic outputs: a reader sees the whole file or none, with the usual permissions."""

import os
import stat

import pytest

from learnability.io import atomic_path


def test_a_failed_write_leaves_nothing_and_a_good_one_appears_whole(tmp_path):
    target = tmp_path / "out" / "t.csv"
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("killed")
    assert not target.exists() and list(target.parent.iterdir()) == []
    with atomic_path(target) as tmp:
        tmp.write_text("whole")
        assert not target.exists()  # invisible until complete
    assert target.read_text() == "whole" and list(target.parent.iterdir()) == [target]


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_outputs_get_the_mode_of_a_plain_open(tmp_path, umask):
    old = os.umask(umask)
    try:
        with atomic_path(tmp_path / "a.txt") as tmp:
            tmp.write_text("x")
        with open(tmp_path / "b.txt", "w") as fh:
            fh.write("x")
    finally:
        os.umask(old)
    mode = stat.S_IMODE((tmp_path / "a.txt").stat().st_mode)
    assert mode == stat.S_IMODE((tmp_path / "b.txt").stat().st_mode) == 0o666 & ~umask
