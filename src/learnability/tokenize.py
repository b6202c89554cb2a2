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

import re
import unicodedata
from itertools import filterfalse

_APOSTROPHES = ("\u2019", "\u2018", "\u02bc", "\uff07")
# letters/digits (``[^\W_]``) with internal apostrophes
_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
# The same on ASCII text, where [^\W_] is [A-Za-z0-9]: a class the regex engine tests
# with a bitmap instead of a Unicode category lookup per character. Nine paragraphs in
# ten of the sample (the gensim fragment) are ASCII.
_TOKEN_ASCII = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z0-9]+)*")
_DIGIT = re.compile(r"\d")
_DIGIT_APOSTROPHE = re.compile(r"\d'\d")


def normalize(text: str) -> str:
    """Step 1 of the rule: NFKC, one apostrophe, lowercase."""
    if not text.isascii():  # NFKC leaves ASCII unchanged
        text = unicodedata.normalize("NFKC", text)
    # str.replace per apostrophe: str.translate with a mapping costs ~40 ns a character,
    # a quarter of the extraction's time
    for apostrophe in _APOSTROPHES:
        if apostrophe in text:
            text = text.replace(apostrophe, "'")
    return text.lower()


def tokenize(text: str) -> list[str]:
    """Split ``text`` into tokens by the rule in this module's docstring."""
    return tokenize_normalized(normalize(text))


def tokenize_normalized(text: str) -> list[str]:
    """Steps 2-4 of the rule, for text already passed through :func:`normalize` (the
    extractor normalises a whole article once, then tokenises it paragraph by paragraph:
    NFKC neither creates nor joins across newlines)."""
    tokens = (_TOKEN_ASCII if text.isascii() else _TOKEN).findall(text)
    if not _DIGIT.search(text):
        return tokens  # no decimal digit: every token holds a letter
    # "contains a letter" is "not only decimal digits (and apostrophes)": str.isdecimal is
    # the \d of Python's regexes. filterfalse calls it from C, with no Python loop.
    tokens = list(filterfalse(str.isdecimal, tokens))
    if _DIGIT_APOSTROPHE.search(text):
        # a token of digits joined by apostrophes ("12'34") needs one, and is rare
        tokens = [t for t in tokens if not t.replace("'", "").isdecimal()]
    return tokens
