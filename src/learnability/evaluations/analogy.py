"""Word analogies (a : b :: c : ?) by 3CosAdd and 3CosMul: the benchmark that ships
inside gensim (``questions-words.txt``), computed the way gensim computes it so that the
numbers can be checked against ``KeyedVectors.evaluate_word_analogies`` (word-pair
similarity, the other gensim benchmark, is :mod:`.word_pairs`):

- the candidates, and the words a question may use, are the ``restrict_vocab`` most
  frequent words (gensim's default 300,000); a question with a word outside them is not
  asked and is counted (``status = oov``);
- matching is case-insensitive through the corpus' normalisation (NFKC + lowercase);
  gensim upper-cases both sides, the same match for our lowercased vocabulary;
- 3CosAdd ranks candidates by cos(x, unit(b + c - a)), the three question words excluded
  (gensim's ``most_similar(positive=[b, c], negative=[a])``);
- 3CosMul (Levy & Goldberg 2014, eq. 4, cosines shifted to [0, 1]) ranks by
  cos'(x, b) cos'(x, c) / (cos'(x, a) + eps); gensim's ``most_similar_cosmul`` uses
  eps = 1e-6, Levy & Goldberg 0.001 (our default, configurable).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from learnability.concepts.matching import DEFAULT_CASE, Matcher
from learnability.corpus.tokenize import normalize
from learnability.errors import InputError
from learnability.evaluations.neighbours import (
    block_size,
    cosine_scores,
    norms,
    top_of_scores,
)
from learnability.evaluations.registry import score_row, warn_skipped
from learnability.io import read_text_lines

GENSIM_RESTRICT_VOCAB = 300_000
COSMUL_EPS = 0.001


def restricted_index(
    words: list[str], restrict_vocab: int, case: str = DEFAULT_CASE
) -> tuple[int, Matcher]:
    """(limit, a matcher) over the ``restrict_vocab`` first (most frequent) words, under
    the ``case`` policy (:mod:`learnability.concepts.matching`). On a lower-case vocabulary every
    policy is gensim's case-insensitive lookup; on a cased one ``auto`` takes the form as
    written first, then its lower-case form, then the more frequent case variant (gensim:
    the more frequent variant always)."""
    limit = min(restrict_vocab, len(words))
    return limit, Matcher(words[:limit], case)


@dataclass(frozen=True)
class Question:
    section: str
    line: int
    words: tuple[str, str, str, str]


def read_analogies(path: str | os.PathLike[str]) -> tuple[list[Question], int]:
    """Questions under ``: section`` headers, four words a line. Returns the questions
    and the number of malformed lines skipped (gensim skips them too; we count them)."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such analogy file; fix the path in the config")
    section = None
    out: list[Question] = []
    skipped = 0
    for number, raw in enumerate(read_text_lines(path, "analogy file (UTF-8 text)"), start=1):
        if raw.startswith(": "):
            section = raw[2:].strip()
            continue
        if not raw.strip():
            continue
        if section is None:
            raise InputError(
                f"{path}, line {number}: a question before any ': section' header; start "
                "the file with a header line such as ': capital-common-countries'"
            )
        fields = raw.split()
        if len(fields) != 4:
            skipped += 1
            continue
        out.append(Question(section, number, tuple(fields)))  # type: ignore[arg-type]
    if not out:
        raise InputError(f"{path}: no questions; expected lines 'a b c d' under headers")
    return out, skipped


def evaluate_analogies(
    vectors: np.ndarray,
    words: list[str],
    questions: list[Question],
    *,
    restrict_vocab: int = GENSIM_RESTRICT_VOCAB,
    eps: float = COSMUL_EPS,
    dataset: str = "",
    embedding: str = "",
    block_bytes: int = 64 << 20,
    case: str = DEFAULT_CASE,
) -> pd.DataFrame:
    """One row per question (schema ``analogy``) with both methods' predictions; words are
    found under the ``case`` policy (:func:`restricted_index`)."""
    limit, matcher = restricted_index(words, restrict_vocab, case)
    row_norms = norms(np.asarray(vectors[:limit]))
    unit = np.asarray(vectors[:limit], dtype=np.float32)
    ids = np.full((len(questions), 4), -1, np.int64)
    for r, q in enumerate(questions):
        ids[r] = [matcher.index(w) for w in q.words]
    asked = np.flatnonzero((ids >= 0).all(axis=1))
    pred_add = np.full(len(questions), -1, np.int64)
    pred_mul = np.full(len(questions), -1, np.int64)
    step = block_size(limit, block_bytes) // 3 or 1
    for start in range(0, asked.size, step):
        rows = asked[start : start + step]
        a, b, c = (ids[rows, j] for j in range(3))
        ua, ub, uc = (unit[x] / row_norms[x][:, None] for x in (a, b, c))
        # gensim: the unit vector of the mean of the weighted unit vectors, float32
        mean = (ub + uc - ua) / np.float32(3)
        mean /= np.linalg.norm(mean, axis=1, keepdims=True)
        cos_a, cos_b, cos_c, cos_t = (
            cosine_scores(vectors, row_norms, t, limit) for t in (ua, ub, uc, mean)
        )
        exclude = (np.arange(rows.size)[:, None], np.stack([a, b, c], axis=1))
        cos_t[exclude] = -np.inf
        pred_add[rows] = top_of_scores(cos_t, 1)[0][:, 0]
        del cos_t
        mul = ((1 + cos_b) / 2) * ((1 + cos_c) / 2) / ((1 + cos_a) / 2 + np.float32(eps))
        mul[exclude] = -np.inf
        pred_mul[rows] = top_of_scores(mul, 1)[0][:, 0]
    expected = ids[:, 3]
    ok = (ids >= 0).all(axis=1)
    return pd.DataFrame(
        {
            "embedding": embedding,
            "dataset": dataset,
            "section": [q.section for q in questions],
            "line": [q.line for q in questions],
            "a": [normalize(q.words[0]) for q in questions],
            "b": [normalize(q.words[1]) for q in questions],
            "c": [normalize(q.words[2]) for q in questions],
            "expected": [normalize(q.words[3]) for q in questions],
            "status": np.where(ok, "ok", "oov"),
            "predicted_add": [words[i] if i >= 0 else "" for i in pred_add],
            "correct_add": ok & (pred_add == expected),
            "predicted_mul": [words[i] if i >= 0 else "" for i in pred_mul],
            "correct_mul": ok & (pred_mul == expected),
        }
    )


def summarise_analogies(per_question: pd.DataFrame) -> pd.DataFrame:
    """Accuracy per section and in total, over the questions asked (gensim's score),
    with the questions not asked counted."""
    out = []
    groups = [(s, g) for s, g in per_question.groupby("section", sort=False)]
    groups.append(("total", per_question))
    for section, g in groups:
        ok = g["status"] == "ok"
        n_ok = int(ok.sum())
        for method in ("add", "mul"):
            correct = int(g[f"correct_{method}"].sum())
            out.append(
                {
                    "section": section,
                    "method": "3CosAdd" if method == "add" else "3CosMul",
                    "n_questions": len(g),
                    "n_asked": n_ok,
                    "n_correct": correct,
                    "accuracy": correct / n_ok if n_ok else np.nan,
                }
            )
    return pd.DataFrame(out)


def scores(tables: dict) -> list[dict]:
    """Rows of the ``scores`` table (:mod:`.registry`): 3CosAdd and 3CosMul accuracy per
    section, over the questions asked."""

    out = []
    for (emb, ds), g in tables["analogy"].groupby(["embedding", "dataset"], sort=False):
        for r in summarise_analogies(g).itertuples():
            metric = "accuracy_3cosadd" if r.method == "3CosAdd" else "accuracy_3cosmul"
            out.append(
                score_row(emb, "analogy", ds, r.section, metric, r.accuracy, r.n_asked,
                          r.n_questions - r.n_asked)
            )  # fmt: skip
    return out


def job(emb, files, settings: dict, *, embedding: str, log) -> dict[str, pd.DataFrame]:
    """The workflow's job (``workflow/scripts/evaluate.py``): every (path, dataset) of
    ``files`` on one embedding, ``settings``: ``restrict_vocab``, ``cosmul_eps``,
    ``case``."""

    def one(path, name: str) -> pd.DataFrame:
        questions, skipped = read_analogies(path)
        warn_skipped(log, name, skipped, " (not 4 words)")
        per = evaluate_analogies(
            emb.vectors, emb.words, questions, restrict_vocab=settings["restrict_vocab"],
            eps=settings["cosmul_eps"], case=settings["case"], dataset=name,
            embedding=embedding,
        )  # fmt: skip
        total = summarise_analogies(per).query("section == 'total'")
        log.info("%s:\n%s", name, total.to_string(index=False))
        return per

    return {"analogy": pd.concat([one(*f) for f in files], ignore_index=True)}
