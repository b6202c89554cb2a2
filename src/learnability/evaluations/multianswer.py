"""Multi-answer similarity (the BATS / Women Writers Project format).

A test file has ``: section`` header lines, then one query per line::

    : family
    father<TAB>mother/dad/parent

A query is correct when any acceptable answer is among its k nearest neighbours by
cosine, the query itself excluded. Words are matched by the corpus' own normalisation
(NFKC, one apostrophe, lowercase: :func:`learnability.corpus.tokenize.normalize`), so a list in
any case finds the corpus' words; the WWP notebook upper-cases both sides instead, which
is the same match for a lowercased corpus.

Every query is accounted for. ``status`` says which could be asked: ``ok``; ``query_oov``
(the query word is not in the vocabulary); ``answers_oov`` (no acceptable answer is).
Accuracy is reported two ways: over the queries that could be asked (``accuracy``), and
over all queries with the unaskable ones counted wrong (``accuracy_all``, the notebook's
total score).
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
from learnability.evaluations.neighbours import top_k
from learnability.evaluations.registry import score_row
from learnability.io import read_text_lines


@dataclass(frozen=True)
class Query:
    section: str
    line: int
    query: str
    answers: tuple[str, ...]


def read_multi_answer(path: str | os.PathLike[str]) -> list[Query]:
    """Read a multi-answer test file, or a folder of them (BATS ships one ``.txt`` file
    per category: each is read in name order). Lines before any header belong to a
    section named after their file (a BATS file holds one category and no header); blank
    lines and lines starting with ``#`` are skipped."""
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix == ".txt" and p.is_file())
        if not files:
            raise InputError(
                f"{path}: a folder without .txt test files; point the config at a file or "
                "at a folder of BATS-style .txt files"
            )
        return [q for f in files for q in _read_file(f)]
    if not path.is_file():
        raise InputError(f"{path}: no such test file; fix the path in the config")
    return _read_file(path)


def _read_file(path: Path) -> list[Query]:
    section = path.stem
    queries: list[Query] = []
    for number, raw in enumerate(
        read_text_lines(path, "multi-answer test file (UTF-8 text)"), start=1
    ):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith(":"):
            section = line[1:].strip()
            if not section:
                raise InputError(f"{path}, line {number}: a ':' header needs a section name")
            continue
        fields = line.split("\t") if "\t" in line else line.split()
        if len(fields) != 2 or not fields[0].strip() or not fields[1].strip():
            raise InputError(
                f"{path}, line {number}: expected 'query<TAB>answer1/answer2/...', got "
                f"{raw!r}; put one query and its slash-separated answers on each line"
            )
        answers = tuple(a.strip() for a in fields[1].split("/") if a.strip())
        queries.append(Query(section, number, fields[0].strip(), answers))
    if not queries:
        raise InputError(f"{path}: no queries; expected lines 'query<TAB>answer1/answer2'")
    return queries


def evaluate_multi_answer(
    vectors: np.ndarray,
    words: list[str],
    queries: list[Query],
    *,
    k: int = 15,
    dataset: str = "",
    embedding: str = "",
    case: str = DEFAULT_CASE,
) -> pd.DataFrame:
    """One row per query (schema ``multi_answer``): whether it could be asked, whether an
    answer was among the query's k neighbours, the best answer's rank (1 = nearest) and
    the neighbours themselves, so that a failed query can be read off the table. Words
    are found in the vocabulary under the ``case`` policy
    (:mod:`learnability.concepts.matching`)."""
    matcher = Matcher(words, case)
    rows = []
    asked: list[int] = []
    for q in queries:
        query = normalize(q.query)
        answers = list(dict.fromkeys(normalize(a) for a in q.answers))
        q_row = matcher.index(q.query)
        found = (matcher.index(a) for a in dict.fromkeys(q.answers))
        known = list(dict.fromkeys(r for r in found if r >= 0 and r != q_row))
        if q_row < 0:
            status = "query_oov"
        elif not known:
            status = "answers_oov"
        else:
            status = "ok"
            asked.append(len(rows))
        rows.append(
            {
                "embedding": embedding,
                "dataset": dataset,
                "section": q.section,
                "line": q.line,
                "query": query,
                "answers": "/".join(answers),
                "n_answers": len(answers),
                "n_answers_in_vocab": len(known),
                "status": status,
                "correct": False,
                "rank": pd.NA,
                "neighbours": "",
                "_known": known,
                "_row": q_row,
            }
        )
    if asked:
        q_idx = np.array([rows[r]["_row"] for r in asked])
        nbr, _ = top_k(vectors, q_idx, k)
        for r, neighbours in zip(asked, nbr, strict=True):
            hits = np.flatnonzero(np.isin(neighbours, rows[r]["_known"]))
            rows[r]["correct"] = hits.size > 0
            rows[r]["rank"] = int(hits[0]) + 1 if hits.size else pd.NA
            rows[r]["neighbours"] = " ".join(words[j] for j in neighbours)
    df = pd.DataFrame(rows).drop(columns=["_known", "_row"])
    df["k"] = k
    return df


def summarise_multi_answer(per_query: pd.DataFrame) -> pd.DataFrame:
    """Per section and in total: queries, asked, correct, both accuracies and the OOV
    rate (the share of queries that could not be asked)."""
    out = []
    groups = [(s, g) for s, g in per_query.groupby("section", sort=False)]
    groups.append(("total", per_query))
    for section, g in groups:
        n = len(g)
        ok = g["status"] == "ok"
        correct = int(g["correct"].sum())
        out.append(
            {
                "section": section,
                "n_queries": n,
                "n_asked": int(ok.sum()),
                "n_correct": correct,
                "accuracy": correct / int(ok.sum()) if ok.any() else np.nan,
                "accuracy_all": correct / n if n else np.nan,
                "oov_rate": 1 - ok.mean() if n else np.nan,
                "n_query_oov": int((g["status"] == "query_oov").sum()),
                "n_answers_oov": int((g["status"] == "answers_oov").sum()),
            }
        )
    return pd.DataFrame(out)


def scores(tables: dict) -> list[dict]:
    """Rows of the ``scores`` table (:mod:`.registry`): accuracy over the queries asked,
    over all queries, and the OOV rate, per section."""

    out = []
    for (emb, ds), g in tables["multi_answer"].groupby(["embedding", "dataset"], sort=False):
        for r in summarise_multi_answer(g).itertuples():
            oov = r.n_queries - r.n_asked
            out.append(
                score_row(
                    emb, "multi_answer", ds, r.section, "accuracy", r.accuracy, r.n_asked, oov
                )
            )
            out.append(
                score_row(
                    emb,
                    "multi_answer",
                    ds,
                    r.section,
                    "accuracy_all",
                    r.accuracy_all,
                    r.n_queries,
                    oov,
                )
            )
            out.append(
                score_row(
                    emb, "multi_answer", ds, r.section, "oov_rate", r.oov_rate, r.n_queries, oov
                )
            )
    return out  # fmt: skip


def job(emb, files, settings: dict, *, embedding: str, log) -> dict[str, pd.DataFrame]:
    """The workflow's job (``workflow/scripts/evaluate.py``): every (path, dataset) of
    ``files`` on one embedding, ``settings``: ``k`` and ``case``."""

    def one(path, name: str) -> pd.DataFrame:
        per = evaluate_multi_answer(
            emb.vectors, emb.words, read_multi_answer(path), k=settings["k"],
            case=settings["case"], dataset=name, embedding=embedding,
        )  # fmt: skip
        log.info("%s:\n%s", name, summarise_multi_answer(per).to_string(index=False))
        return per

    return {"multi_answer": pd.concat([one(*f) for f in files], ignore_index=True)}
