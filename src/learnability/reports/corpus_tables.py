"""The corpus comparison's tables for people (learnability.statistics.corpora computes
them): per embedding and pair of corpora, each list's mean AUC in either corpus over
its draws, the difference with its standard error and tests, then the Wilcoxon tests
over lists."""

from __future__ import annotations

import pandas as pd

from learnability.io import atomic_path
from learnability.reports.formats import to_latex, to_markdown, write_text
from learnability.reports.tables import wilcoxon_table


def differences_table(differences: pd.DataFrame) -> pd.DataFrame:
    """One row per embedding, pair of corpora, scheme and list."""
    d = differences
    return pd.DataFrame({
        "embedding": d["embedding"], "non-members": d["negatives"], "A": d["corpus_a"],
        "B": d["corpus_b"], "list": d["list"], "AUC A": d["auc_a"], "AUC B": d["auc_b"],
        "A - B": d["difference"], "SE": d["se"], "df": d["df"], "p": d["p_value"],
        "p (Holm)": d["p_holm"],
    })  # fmt: skip


def write_corpus_tables(
    differences: pd.DataFrame,
    wilcoxon: pd.DataFrame,
    draws: pd.DataFrame,
    *,
    level: float,
    out: dict[str, str],
    unscored: dict[str, int] | None = None,
) -> None:
    """``results/tables/corpora.md`` (the draws, each embedding's per-list differences,
    the tests over lists) and the CSV and LaTeX of the differences beside it."""
    tokens = int(draws["tokens"].iloc[0])
    sizes = draws.groupby("corpus", sort=False)["corpus_tokens"].first()
    seeds = ", ".join(map(str, sorted(draws["seed"].unique())))
    parts = [
        "# Comparing corpora", "",
        f"Each corpus drawn down to {tokens:,} tokens of its documents, once per seed "
        f"({seeds}); each embedding trained on each draw with that seed and every list "
        "scored on the words all draws know. Corpus sizes: "
        + ", ".join(f"{c} {int(n):,} tokens" for c, n in sizes.items()) + ".", "",
        "A - B: the difference of the draws' mean AUCs. SE bounds its standard error "
        "with the corpora's own sampling (a draw is part of a corpus, and a corpus one "
        "sample of its kind of text); p: Welch's t on it, p (Holm) over the lists of one "
        f"embedding and pair. Differences with p (Holm) < {level:g} are in bold.", "",
    ]  # fmt: skip
    if unscored:
        parts += [
            "Not scored (fewer than `learnability.min_words` of their words in the "
            "vocabulary every draw knows; in brackets, how many it holds): "
            + ", ".join(f"{name} ({n})" for name, n in unscored.items()) + ".", "",
        ]  # fmt: skip
    table = differences_table(differences)
    for (embedding, scheme), part in table.groupby(["embedding", "non-members"], sort=False):
        bold = pd.DataFrame(False, index=part.index, columns=part.columns)
        bold["A - B"] = part["p (Holm)"] < level
        parts += [f"## {embedding}, {scheme} non-members", "",
                  to_markdown(part.drop(columns=["embedding", "non-members"]), bold=bold.drop(
                      columns=["embedding", "non-members"])), ""]  # fmt: skip
    tests = wilcoxon_table(wilcoxon.rename(columns={"corpus_a": "embedding_a",
                                                    "corpus_b": "embedding_b"}))  # fmt: skip
    tests.insert(0, "non-members", wilcoxon["negatives"].to_numpy())
    tests.insert(0, "embedding", wilcoxon["embedding"].to_numpy())
    parts += [
        "## Wilcoxon signed-rank tests over lists", "",
        "Each pair of corpora once, in the configured order (A before B), on each list's "
        "mean AUC over the draws; the lists are the units, so this asks whether lists in "
        "general are more learnable in one corpus than in the other, given these corpora.",
        "", to_markdown(tests),
    ]  # fmt: skip
    write_text("\n".join(parts) + "\n", out["md"])
    with atomic_path(out["csv"]) as tmp:
        table.to_csv(tmp, index=False)
    with atomic_path(out["wilcoxon_csv"]) as tmp:
        tests.to_csv(tmp, index=False)
    write_text(to_latex(table), out["tex"])
