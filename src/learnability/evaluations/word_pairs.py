"""Word-pair similarity: Spearman's rho between gold scores and cosines, on the
benchmarks that ship inside gensim (``simlex999.txt``, ``wordsim353.tsv``), computed the
way gensim's ``KeyedVectors.evaluate_word_pairs`` computes it: the words a pair may use
are the ``restrict_vocab`` most frequent (gensim's default 300,000), matched through the
corpus' normalisation; a pair with a word outside them is counted (``status = oov``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from learnability.concepts.matching import DEFAULT_CASE
from learnability.corpus.tokenize import normalize
from learnability.errors import InputError
from learnability.evaluations.analogy import GENSIM_RESTRICT_VOCAB, restricted_index
from learnability.evaluations.neighbours import unit_rows
from learnability.evaluations.registry import score_row, warn_skipped
from learnability.io import read_text_lines


@dataclass(frozen=True)
class Pair:
    line: int
    a: str
    b: str
    gold: float


def read_word_pairs(path: str | os.PathLike[str]) -> tuple[list[Pair], int]:
    """Tab-separated ``word1 word2 score`` lines; ``#`` lines are comments. Returns the
    pairs and the number of malformed lines skipped (counted, as gensim skips them)."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such word-pair file; fix the path in the config")
    out: list[Pair] = []
    skipped = 0
    for number, raw in enumerate(read_text_lines(path, "word-pair file (UTF-8 text)"), start=1):
        if not raw.strip() or raw.startswith("#"):
            continue
        fields = raw.split("\t")
        try:
            a, b, score = fields
            out.append(Pair(number, a.strip(), b.strip(), float(score)))
        except ValueError:
            skipped += 1
    if not out:
        raise InputError(f"{path}: no pairs; expected 'word1<TAB>word2<TAB>score' lines")
    return out, skipped


def evaluate_word_pairs(
    vectors: np.ndarray,
    words: list[str],
    pairs: list[Pair],
    *,
    restrict_vocab: int = GENSIM_RESTRICT_VOCAB,
    dataset: str = "",
    embedding: str = "",
    case: str = DEFAULT_CASE,
) -> pd.DataFrame:
    """One row per pair (schema ``word_pairs``): the gold score and the cosine, or
    ``status = oov`` when a word is outside the ``restrict_vocab`` most frequent."""
    _, matcher = restricted_index(words, restrict_vocab, case)
    ia = np.array([matcher.index(p.a) for p in pairs], dtype=np.int64)
    ib = np.array([matcher.index(p.b) for p in pairs], dtype=np.int64)
    ok = (ia >= 0) & (ib >= 0)
    # only the pairs' rows: the restricted vocabulary may be 300,000 x 300
    ua, ub = (unit_rows(np.asarray(vectors[i[ok]])) for i in (ia, ib))
    cos = np.full(len(pairs), np.nan)
    cos[ok] = np.einsum("ij,ij->i", ua, ub)
    return pd.DataFrame(
        {
            "embedding": embedding,
            "dataset": dataset,
            "line": [p.line for p in pairs],
            "a": [normalize(p.a) for p in pairs],
            "b": [normalize(p.b) for p in pairs],
            "gold": [p.gold for p in pairs],
            "status": np.where(ok, "ok", "oov"),
            "cosine": cos,
        }
    )


def spearman(per_pair: pd.DataFrame) -> dict:
    """Spearman's rho between gold scores and cosines over the pairs asked."""
    ok = per_pair[per_pair["status"] == "ok"]
    rho = stats.spearmanr(ok["gold"], ok["cosine"]).statistic if len(ok) > 2 else np.nan
    return {
        "n_pairs": len(per_pair),
        "n_used": len(ok),
        "n_oov": int((per_pair["status"] != "ok").sum()),
        "spearman": float(rho),
    }


def scores(tables: dict) -> list[dict]:
    """Rows of the ``scores`` table (:mod:`.registry`): Spearman's rho per dataset."""

    out = []
    for (emb, ds), g in tables["word_pairs"].groupby(["embedding", "dataset"], sort=False):
        s = spearman(g)
        out.append(
            score_row(
                emb, "word_pairs", ds, "total", "spearman", s["spearman"], s["n_used"], s["n_oov"]
            )
        )
    return out  # fmt: skip


def job(emb, files, settings: dict, *, embedding: str, log) -> dict[str, pd.DataFrame]:
    """The workflow's job (``workflow/scripts/evaluate.py``): every (path, dataset) of
    ``files`` on one embedding, ``settings``: ``restrict_vocab`` and ``case``."""

    def one(path, name: str) -> pd.DataFrame:
        pairs, skipped = read_word_pairs(path)
        warn_skipped(log, name, skipped)
        per = evaluate_word_pairs(
            emb.vectors, emb.words, pairs, restrict_vocab=settings["restrict_vocab"],
            case=settings["case"], dataset=name, embedding=embedding,
        )  # fmt: skip
        log.info("%s: %s", name, spearman(per))
        return per

    return {"word_pairs": pd.concat([one(*f) for f in files], ignore_index=True)}
