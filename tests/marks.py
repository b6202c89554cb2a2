"""Marks shared by test files."""

import sys

import pytest


def _glove_python_skip():
    from learnability.embeddings.registry import METHODS

    below = METHODS["glove_python"].python_below
    return pytest.mark.skipif(
        sys.version_info[:2] >= below,
        reason=f"glove-python (bicleaner-ai-glove) has no build for Python "
        f"{below[0]}.{below[1]} and later (pyproject.toml's glove_python extra)",
    )


# the tests that compare with glove-python, whose package cannot install on Python 3.13+
needs_glove_python = _glove_python_skip()
