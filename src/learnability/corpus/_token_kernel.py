"""The tokenisation rule of :mod:`learnability.corpus.tokenize` as one compiled pass over code
points, for the corpus extractor: the regex engine tested each character's Unicode
category in C but handed every token back to Python as an object, and the extractor
then joined the tokens into lines again. Here tokens are copied straight into the
output text; Python's ``str.split`` makes the token objects for counting.

Imported on first use, so that reading a word list does not load numba.
"""

from __future__ import annotations

import numpy as np
from numba import njit

OTHER, LETTER, DIGIT = 0, 1, 2  # character classes; LETTER is "alphanumeric, not decimal"
_APOSTROPHE, _NEWLINE, _SPACE = ord("'"), ord("\n"), ord(" ")


@njit(cache=True)
def tokenize_codepoints(
    cp: np.ndarray, classes: np.ndarray, max_line_tokens: int
) -> tuple[np.ndarray, int, int]:
    """Code points of normalised text -> the code points of its token lines, the
    number of tokens and the number of lines.

    A token is a run of LETTER/DIGIT characters with single apostrophes inside; it is
    kept if it holds a LETTER. Each input line (paragraph) with tokens becomes output
    lines of at most ``max_line_tokens`` tokens separated by spaces, each ending in a
    newline; lines without tokens are dropped.
    """
    n = cp.shape[0]
    out = np.empty(2 * n + 1, np.uint32)  # a one-letter token per character, plus spaces
    o = 0
    tokens = 0
    lines = 0
    on_line = 0  # tokens written on the current output line
    i = 0
    while i < n:
        c = cp[i]
        if c == _NEWLINE:
            if on_line > 0:
                out[o] = _NEWLINE
                o += 1
                lines += 1
                on_line = 0
            i += 1
            continue
        k = classes[c]
        if k == OTHER:
            i += 1
            continue
        start = i
        letter = k == LETTER
        i += 1
        while i < n:
            k = classes[cp[i]]
            if k != OTHER:
                letter = letter or k == LETTER
                i += 1
            elif cp[i] == _APOSTROPHE and i + 1 < n and classes[cp[i + 1]] != OTHER:
                i += 1
            else:
                break
        if not letter:
            continue  # a number: no letter among its characters
        if on_line == max_line_tokens:
            out[o] = _NEWLINE
            o += 1
            lines += 1
            on_line = 0
        if on_line > 0:
            out[o] = _SPACE
            o += 1
        for j in range(start, i):
            out[o] = cp[j]
            o += 1
        on_line += 1
        tokens += 1
    if on_line > 0:
        out[o] = _NEWLINE
        o += 1
        lines += 1
    return out[:o], tokens, lines
