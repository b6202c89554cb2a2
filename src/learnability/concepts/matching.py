"""Finding a word of a list or a test file in an embedding's vocabulary: one rule, used by
the concept lists and by every evaluation.

Our trained vocabularies are lower-case (the tokeniser lowercases), but imported ones
often are not: GoogleNews word2vec, GloVe 840B and fastText's crawl and wiki-news sets
keep "Australia" and "australia" as two words. The ``case`` policy says how a word as
written finds its vocabulary word; every text is first put in the tokeniser's normal form
(NFKC, one apostrophe: :func:`learnability.corpus.tokenize.normal_form`):

- ``auto`` (default): the form as written if the vocabulary has it, else its lower-case
  form, else the most frequent vocabulary word that lower-cases to the same form (a case
  variant: "NASA" for "nasa"). On a lower-case vocabulary this is plain lower-casing.
- ``lower``: the lower-case form only (the rule before case policies existed: on a cased
  vocabulary, capitalised words can then only match their lower-case twins).
- ``exact``: the form as written only.

Each match says how it was found (``exact``, ``lower``, ``variant``), and every vocabulary
word that folds to the same form is reported, so a case collision ("US" / "us") is seen.
Wildcards (``prefix*``) expand over lower-cased forms under ``auto`` (each form standing
for its chosen variant, as above), over the words as they are under ``lower`` (with the
prefix lower-cased) and ``exact`` (with the prefix as written).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

import numpy as np

from learnability.corpus.tokenize import normal_form
from learnability.defaults import default

CASE_POLICIES = ("auto", "lower", "exact")
DEFAULT_CASE: str = default("matching.case")


class Matcher:
    """Looks words up in one vocabulary under one case policy.

    ``counts`` (one per word) decide which of several case variants is the most frequent;
    without them (or on ties) the earlier word wins, which is the more frequent one in
    frequency-ordered files and in our stores.
    """

    def __init__(
        self,
        words: Sequence[str],
        case: str = DEFAULT_CASE,
        counts: Sequence[int] | np.ndarray | None = None,
    ) -> None:
        if case not in CASE_POLICIES:
            raise ValueError(f"unknown case policy {case!r}; use one of {CASE_POLICIES}")
        self.words = list(words)
        self.case = case
        n = len(self.words)
        # a word's first row: built from the last row back, so the earliest one is kept
        # (one call rather than a loop in Python: a vocabulary can hold 3 million words)
        self.row: dict[str, int] = dict(
            zip(reversed(self.words), range(n - 1, -1, -1), strict=True)
        )
        order = (
            np.argsort(-np.asarray(counts, dtype=np.int64), kind="stable").tolist()
            if counts is not None
            else range(n)
        )
        # lower-cased form -> rows of the words that have it, most frequent first; an
        # ASCII word is its own normal form (NFKC and the apostrophes change only other
        # characters)
        self.folded: dict[str, list[int]] = {}
        for i in order:
            w = self.words[i]
            form = w.lower() if w.isascii() else normal_form(w).lower()
            self.folded.setdefault(form, []).append(i)
        self._sorted: dict[bool, list[str]] = {}

    def find(self, text: str) -> tuple[int, str | None]:
        """(row, how) of ``text``'s vocabulary word: how is ``exact`` (the form as
        written), ``lower`` (its lower-case form) or ``variant``; (-1, None) if none."""
        form = normal_form(text)
        if self.case != "lower" and form in self.row:
            return self.row[form], "exact"
        if self.case == "exact":
            return -1, None
        lower = form.lower()
        if lower in self.row:
            return self.row[lower], "exact" if lower == form else "lower"
        if self.case == "auto" and lower in self.folded:
            return self.folded[lower][0], "variant"
        return -1, None

    def index(self, text: str) -> int:
        return self.find(text)[0]

    def variants(self, text: str) -> list[str]:
        """Every vocabulary word that lower-cases to ``text``'s lower-case form."""
        return [self.words[i] for i in self.folded.get(normal_form(text).lower(), [])]

    def expand(self, prefix: str) -> list[int]:
        """Rows matched by the wildcard ``prefix*``, in the sorted order of their forms."""
        form = normal_form(prefix)
        if not form:
            return []  # a bare '*' would match the whole vocabulary
        folded = self.case == "auto"
        if folded not in self._sorted:
            self._sorted[folded] = sorted(self.folded if folded else self.row)
        keys = self._prefixed(self._sorted[folded], form if self.case == "exact" else form.lower())
        return [self.find(k)[0] if folded else self.row[k] for k in keys]

    @staticmethod
    def _prefixed(sorted_keys: list[str], prefix: str) -> list[str]:
        lo = bisect.bisect_left(sorted_keys, prefix)
        out = []
        for key in sorted_keys[lo:]:
            if not key.startswith(prefix):
                break
            out.append(key)
        return out
