"""The one tokenisation rule, shared by the corpus extractor and the word-list readers.

Rule (documented in the README):

1. Unicode NFKC normalisation (ligatures, full-width forms, non-breaking spaces), then
   curly and modifier apostrophes become ``'``, then lowercase.
2. A token is a maximal run of letters and digits, with single apostrophes allowed
   *inside* it: ``don't``, ``i'm``, ``o'clock`` and ``john's`` are one token each, while
   leading and trailing apostrophes are dropped (``'tis`` -> ``tis``, ``students'`` ->
   ``students``). Hyphens, slashes and all other punctuation separate tokens
   (``well-known`` -> ``well``, ``known``).
3. Numbers: a token that contains no letter (``1990``, ``3``, ``000``) is dropped;
   a token mixing letters and digits (``19th``, ``mp3``, ``1990s``) is kept.
4. Single letters are kept, so ``i`` and ``a`` are words like any other.
"""

from __future__ import annotations

import functools
import re
import unicodedata

import numpy as np

_APOSTROPHES = ("\u2019", "\u2018", "\u02bc", "\uff07")
# The rule as regex classes: a token is a run of ``[^\W_]`` with internal apostrophes,
# kept if it has a character of ``[^\W\d_]`` (a letter) and not only ``\d``. The
# compiled tokeniser takes its character classes from these (see _classes); the tests
# hold the rule as one plain pattern to check it against.
_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"\d")
_NO_LIMIT = 2**62


def normalize(text: str) -> str:
    """Step 1 of the rule: NFKC, one apostrophe, lowercase."""
    return normal_form(text).lower()


def normal_form(text: str) -> str:
    """Step 1 of the rule without the lowercasing: NFKC, one apostrophe (how a word as
    written is compared with a cased vocabulary, :mod:`learnability.concepts.matching`)."""
    if not text.isascii():  # NFKC leaves ASCII unchanged
        text = unicodedata.normalize("NFKC", text)
    # str.replace per apostrophe: str.translate with a mapping costs ~40 ns a character,
    # a quarter of the extraction's time
    for apostrophe in _APOSTROPHES:
        if apostrophe in text:
            text = text.replace(apostrophe, "'")
    return text


def tokenize(text: str) -> list[str]:
    """Split ``text`` into tokens by the rule in this module's docstring."""
    return tokenize_normalized(normalize(text))


def tokenize_normalized(text: str) -> list[str]:
    """Steps 2-4 of the rule, for text already passed through :func:`normalize`."""
    return token_lines(text)[0].split()


@functools.cache
def _classes() -> np.ndarray:
    """The class of every code point (0 other, 1 letter, 2 decimal digit), read off the
    regex engine's own ``[^\\W\\d_]`` and ``\\d`` so that it cannot drift from them
    (they follow the running Python's Unicode version)."""
    from learnability.corpus._token_kernel import DIGIT, LETTER

    every = "".join(map(chr, range(0x110000)))
    codes = np.frombuffer(every.encode("utf-32-le", "surrogatepass"), np.uint32)
    marked = _DIGIT.sub("\x02", _LETTER.sub("\x01", every))
    marks = np.frombuffer(marked.encode("utf-32-le", "surrogatepass"), np.uint32)
    classes = np.zeros(0x110000, np.uint8)
    changed = marks != codes  # "\x01" and "\x02" themselves are in neither class
    classes[changed & (marks == 1)] = LETTER
    classes[changed & (marks == 2)] = DIGIT
    return classes


def token_lines(text: str, max_line_tokens: int = _NO_LIMIT) -> tuple[str, int, int]:
    """Steps 2-4 of the rule over normalised text, kept in lines: each line of ``text``
    that has tokens becomes lines of at most ``max_line_tokens`` space-separated tokens,
    each ending in a newline. Returns that text, the number of tokens and of lines.

    One compiled pass (learnability.corpus._token_kernel): the extractor's hot path, 4x the
    speed of the regex and a join per paragraph.
    """
    from learnability.corpus._token_kernel import tokenize_codepoints

    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)
    out, tokens, lines = tokenize_codepoints(codes, _classes(), max_line_tokens)
    return out.tobytes().decode("utf-32-le", "surrogatepass"), int(tokens), int(lines)
