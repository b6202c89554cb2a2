"""Pseudo-disambiguation (Lee 1999, section 3): can the embedding tell a real
co-occurrence (w, c1) from a fake one (w, c2)?

1. Co-occurrence pairs (word, context) are every ordered pair of in-vocabulary tokens at
   most ``window`` apart on a corpus line (out-of-vocabulary tokens are dropped first, as
   the trainers do). The vocabulary is the words seen ``min_count`` times in the tokens
   read (at most ``max_tokens`` from the corpus' start), so it is the same for every
   embedding of the corpus.
2. The pair tokens are split into ``folds`` folds at random (split by token). For test
   fold f, the other folds are the training data.
3. Test triples (Lee's AP90fake): each pair type of fold f that (a) is unseen in the
   training folds, (b) has both words seen in training, and (c) occurs at least
   ``min_test_count`` times in fold f gives (w, c1); c2 is drawn uniformly from the
   ``n_frequent`` most frequent context words that never co-occur with w in any fold. T
   counts pair types, not their multiplicities.
4. Each triple is decided from the embedding, by
   - ``cosine``: cos(w, c1) against cos(w, c2);
   - ``knn`` at each k: nearest-neighbour averaging, sum over the k nearest neighbours
     w' of w of max(cos(w, w'), 0) * P(c | w'), with P(c | w') from the training folds'
     counts (the weight's normaliser is the same for c1 and c2, so it is left out).
   - ``unigram``: the baseline without similarity, the context's training frequency
     (Lee's backoff reduces to it for unseen pairs); it prefers the frequent c2, so its
     error is high by construction, and the similarity methods are read against it.
   The error rate is (incorrect + ties / 2) / T; a tie is usually a "recall error": no
   neighbour was seen with either context. With window co-occurrences the frequent
   contexts are function words and w, which must never meet c2, a rare word: P(c2 | w')
   is large for any w', so kNN averaging drifts toward the unigram baseline as k grows.

The embedding itself was trained on the whole corpus, held-out folds included: only the
counts P(c | w') respect the folds. The test measures whether the embedding's geometry
generalises co-occurrence, as Lee's similarity functions did, not held-out likelihood.
"""

from __future__ import annotations

import gzip
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from learnability.evaluations.neighbours import norms, top_k
from learnability.evaluations.registry import score_row


@dataclass(frozen=True)
class PseudoConfig:
    window: int = 5
    folds: int = 10
    ks: tuple[int, ...] = (1, 2, 5, 10, 20, 50, 100)
    n_frequent: int = 50
    min_test_count: int = 2
    seed: int = 1999


def token_ids(lines: Iterable[list[str]], vocabulary: dict[str, int]) -> list[np.ndarray]:
    """Each line's in-vocabulary tokens as ids (out-of-vocabulary tokens dropped)."""
    out = []
    for tokens in lines:
        ids = np.fromiter((vocabulary.get(t, -1) for t in tokens), np.int64)
        ids = ids[ids >= 0]
        if ids.size > 1:
            out.append(ids)
    return out


def cooccurrence_pairs(lines: list[np.ndarray], window: int) -> np.ndarray:
    """(n, 2) int64 (word, context) pairs: both orders of every two tokens at most
    ``window`` apart on a line, in corpus order (line, offset, position)."""
    parts = []
    for ids in lines:
        for offset in range(1, min(window, ids.size - 1) + 1):
            left, right = ids[:-offset], ids[offset:]
            parts.append(np.stack([left, right], axis=1))
            parts.append(np.stack([right, left], axis=1))
    return np.concatenate(parts) if parts else np.empty((0, 2), np.int64)


def _contains(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    if not sorted_keys.size:
        return np.zeros(keys.shape, bool)
    pos = np.minimum(np.searchsorted(sorted_keys, keys), sorted_keys.size - 1)
    return sorted_keys[pos] == keys


def _lookup(sorted_keys: np.ndarray, values: np.ndarray, keys: np.ndarray) -> np.ndarray:
    if not sorted_keys.size:
        return np.zeros(keys.shape)
    pos = np.minimum(np.searchsorted(sorted_keys, keys), sorted_keys.size - 1)
    return np.where(sorted_keys[pos] == keys, values[pos], 0)


def make_triples(
    pairs: np.ndarray, n_words: int, cfg: PseudoConfig
) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """Returns (the test triples of every fold: columns fold, word, c1, c2 as vocabulary
    ids; per fold, the candidate pairs lost because no frequent context was eligible for
    c2; each pair token's fold)."""
    rng = np.random.default_rng(cfg.seed)
    fold_of = rng.integers(cfg.folds, size=len(pairs))
    keys = pairs[:, 0] * n_words + pairs[:, 1]
    all_keys = np.unique(keys)
    context_freq = np.bincount(pairs[:, 1], minlength=n_words)
    # most frequent first; ties by the lower id
    frequent = np.lexsort((np.arange(n_words), -context_freq))[: cfg.n_frequent]
    frequent = frequent[context_freq[frequent] > 0]
    rows = []
    lost = np.zeros(cfg.folds, np.int64)
    for f in range(cfg.folds):
        test = fold_of == f
        train_keys = np.unique(keys[~test])
        train_words = np.zeros(n_words, bool)
        train_words[pairs[~test, 0]] = True
        train_ctx = np.zeros(n_words, bool)
        train_ctx[pairs[~test, 1]] = True
        types, counts = np.unique(keys[test], return_counts=True)
        w, c1 = types // n_words, types % n_words
        keep = (
            ~_contains(train_keys, types)
            & train_words[w]
            & train_ctx[c1]
            & (counts >= cfg.min_test_count)
        )
        w, c1 = w[keep], c1[keep]
        # c2: a frequent context never seen with w in any fold
        cand = w[:, None] * n_words + frequent[None, :]
        eligible = ~_contains(all_keys, cand.ravel()).reshape(cand.shape)
        n_eligible = eligible.sum(axis=1)
        pick = np.floor(rng.random(w.size) * np.maximum(n_eligible, 1)).astype(np.int64)
        # the pick-th eligible column of each row
        col = np.argmax(np.cumsum(eligible, axis=1) > pick[:, None], axis=1)
        c2 = frequent[col] if frequent.size else np.zeros(w.size, np.int64)
        ok = n_eligible > 0
        rows.append(pd.DataFrame({"fold": f, "word": w[ok], "c1": c1[ok], "c2": c2[ok]}))
        lost[f] = int((~ok).sum())
    return pd.concat(rows, ignore_index=True), lost, fold_of


def _errors(s1: np.ndarray, s2: np.ndarray) -> dict:
    incorrect, ties, T = int((s1 < s2).sum()), int((s1 == s2).sum()), s1.size
    return {
        "n_test": T,
        "n_incorrect": incorrect,
        "n_ties": ties,
        "error_rate": (incorrect + ties / 2) / T if T else np.nan,
    }


def _unit(vectors: np.ndarray, row_norms: np.ndarray, rows: np.ndarray) -> np.ndarray:
    return np.asarray(vectors[rows], np.float32) / row_norms[rows][:, None]


def decide(
    vectors: np.ndarray,
    emb_ids: np.ndarray,
    pairs: np.ndarray,
    fold_of: np.ndarray,
    triples: pd.DataFrame,
    lost: np.ndarray,
    n_words: int,
    cfg: PseudoConfig,
) -> pd.DataFrame:
    """Error rates per fold, method and k (schema ``pseudo``). ``emb_ids`` maps
    corpus-vocabulary ids to embedding rows (-1: unknown to the embedding; such triples
    are counted in ``n_oov``, not asked)."""
    row_norms = norms(vectors)
    # embedding row -> corpus-vocabulary id (-1: a word the corpus vocabulary lacks)
    corpus_of_row = np.full(vectors.shape[0], -1, np.int64)
    corpus_of_row[emb_ids[emb_ids >= 0]] = np.flatnonzero(emb_ids >= 0)
    kmax = max(cfg.ks)
    out = []
    for f in range(cfg.folds):
        tf = triples[triples["fold"] == f]
        ids = {c: tf[c].to_numpy() for c in ("word", "c1", "c2")}
        known = (emb_ids[ids["word"]] >= 0) & (emb_ids[ids["c1"]] >= 0) & (emb_ids[ids["c2"]] >= 0)
        ew, e1, e2 = (emb_ids[ids[c][known]] for c in ("word", "c1", "c2"))
        base = {"fold": f, "n_oov": int((~known).sum()), "n_no_c2": int(lost[f])}
        uw = _unit(vectors, row_norms, ew)
        cos1 = np.einsum("ij,ij->i", uw, _unit(vectors, row_norms, e1))
        cos2 = np.einsum("ij,ij->i", uw, _unit(vectors, row_norms, e2))
        out.append({**base, "method": "cosine", "k": 0, **_errors(cos1, cos2)})
        train = fold_of != f
        # Lee's baseline without similarity: the context's training frequency (backoff to
        # the unigram). It prefers the frequent c2, so its error is high by construction
        context_counts = np.bincount(pairs[train, 1], minlength=n_words).astype(np.float64)
        c1_ids, c2_ids = ids["c1"][known], ids["c2"][known]
        out.append(
            {**base, "method": "unigram", "k": 0,
             **_errors(context_counts[c1_ids], context_counts[c2_ids])}
        )  # fmt: skip
        train_keys, train_counts = np.unique(
            pairs[train, 0] * n_words + pairs[train, 1], return_counts=True
        )
        totals = np.bincount(pairs[train, 0], minlength=n_words)
        nbr, sim = top_k(vectors, ew, kmax, row_norms=row_norms)
        weight = np.maximum(sim, 0).astype(np.float64)
        nbr_c = corpus_of_row[nbr]
        seen = nbr_c >= 0
        nbr_c = np.maximum(nbr_c, 0)
        denom = np.maximum(totals[nbr_c], 1)
        score = {}
        for name, ctx in (("c1", c1_ids), ("c2", c2_ids)):
            counts = _lookup(train_keys, train_counts, nbr_c * n_words + ctx[:, None])
            # cumulative over neighbours: column k - 1 is the sum over the k nearest
            score[name] = np.cumsum(weight * np.where(seen, counts / denom, 0.0), axis=1)
        for k in cfg.ks:
            col = min(k, score["c1"].shape[1]) - 1
            s1 = score["c1"][:, col] if col >= 0 else np.zeros(ew.size)
            s2 = score["c2"][:, col] if col >= 0 else np.zeros(ew.size)
            out.append({**base, "method": "knn", "k": k, **_errors(s1, s2)})
    return pd.DataFrame(out)


def read_corpus(path: str, max_tokens: int) -> tuple[list[list[str]], int]:
    """Lines of a corpus text file (gzip or plain), whole lines, until ``max_tokens``."""

    opener = gzip.open if str(path).endswith(".gz") else open
    lines, n = [], 0
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            tokens = line.split()
            if n + len(tokens) > max_tokens and lines:
                break
            lines.append(tokens)
            n += len(tokens)
    return lines, n


def evaluate_corpus(
    corpus: str,
    words: list[str],
    vectors: np.ndarray,
    cfg: PseudoConfig,
    *,
    max_tokens: int = 2_000_000,
    min_count: int = 5,
    dataset: str = "",
    embedding: str = "",
) -> tuple[pd.DataFrame, dict]:
    """The whole procedure on a corpus file for one embedding: (per-fold errors, counts of
    what was read). The pair vocabulary comes from the corpus alone, so every embedding
    of the corpus faces the same triples."""

    lines, n_tokens = read_corpus(corpus, max_tokens)
    counts = Counter(t for line in lines for t in line)
    vocab = sorted(w for w, c in counts.items() if c >= min_count)
    vocab_index = {w: i for i, w in enumerate(vocab)}
    pairs = cooccurrence_pairs(token_ids(lines, vocab_index), cfg.window)
    triples, lost, fold_of = make_triples(pairs, len(vocab), cfg)
    emb_index = {w: i for i, w in enumerate(words)}
    emb_ids = np.array([emb_index.get(w, -1) for w in vocab], dtype=np.int64)
    result = decide(vectors, emb_ids, pairs, fold_of, triples, lost, len(vocab), cfg)
    result.insert(0, "dataset", dataset)
    result.insert(0, "embedding", embedding)
    info = {
        "tokens": n_tokens,
        "lines": len(lines),
        "pair_vocabulary": len(vocab),
        "pair_tokens": len(pairs),
        "triples": len(triples),
        "vocabulary_unknown_to_embedding": int((emb_ids < 0).sum()),
    }
    return result, info


def scores(tables: dict) -> list[dict]:
    """Rows of the ``scores`` table (:mod:`.registry`): mean error over folds per method
    and k (section ``cosine``, ``unigram`` or ``knn-{k}``), with the std over folds as
    its own metric."""

    out = []
    per = tables["pseudo"]
    for (emb, ds, method, k), g in per.groupby(["embedding", "dataset", "method", "k"], sort=False):
        section = method if method in ("cosine", "unigram") else f"knn-{k}"
        n, oov = int(g["n_test"].sum()), int(g["n_oov"].sum())
        out.append(
            score_row(emb, "pseudo", ds, section, "error_rate", g["error_rate"].mean(), n, oov)
        )
        out.append(
            score_row(
                emb, "pseudo", ds, section, "error_rate_std", g["error_rate"].std(ddof=1), n, oov
            )
        )
    return out  # fmt: skip


def paired_items(per: pd.DataFrame) -> pd.DataFrame:
    """The folds the paired tests compare: per section (``cosine`` or ``knn-{k}``), the
    accuracy 1 - error; the unigram baseline is the same for every embedding, left out."""
    per = per[per["method"] != "unigram"].copy()
    per["section"] = np.where(per["method"] == "cosine", "cosine", "knn-" + per["k"].astype(str))
    per["accuracy"] = 1 - per["error_rate"].to_numpy(float)
    return per


def extra_columns(scores_table: pd.DataFrame) -> list[pd.Series]:
    """Comparison-table columns beyond the registry's picks: each embedding's best k of
    the k-nearest-neighbour decision and its error."""
    knn = scores_table[(scores_table["evaluation"] == "pseudo")
                       & (scores_table["metric"] == "error_rate")
                       & scores_table["section"].str.startswith("knn-")]  # fmt: skip
    out = []
    for ds, g in knn.groupby("dataset", sort=False):
        best = g.loc[g.groupby("embedding")["value"].idxmin()].set_index("embedding")
        out.append(best["value"].rename(f"pseudo: {ds} error (best k)"))
        out.append(
            best["section"].str.removeprefix("knn-").astype(int).rename(f"pseudo: {ds} best k")
        )
    return out


def job(emb, files, settings: dict, *, embedding: str, log) -> dict[str, pd.DataFrame]:
    """The workflow's job (``workflow/scripts/evaluate.py``): ``files`` is the corpus,
    (path, name); ``settings``: the ``evaluations.pseudo`` block."""
    ((corpus, name),) = files
    s = settings
    cfg = PseudoConfig(
        window=s.get("window", 5),
        folds=s.get("folds", 10),
        ks=tuple(s.get("ks", (1, 2, 5, 10, 20, 50, 100))),
        n_frequent=s.get("n_frequent", 50),
        min_test_count=s.get("min_test_count", 2),
        seed=s.get("seed", 1999),
    )
    result, info = evaluate_corpus(
        corpus, emb.words, emb.vectors, cfg, max_tokens=s.get("max_tokens", 2_000_000),
        min_count=s.get("min_count", 5), dataset=name, embedding=embedding,
    )  # fmt: skip
    log.info("read %s", info)
    log.info("\n%s", result.groupby(["method", "k"])["error_rate"].agg(["mean", "std"]))
    return {"pseudo": result}
