"""The intrinsic evaluations' own Markdown reports (``results/tables/{kind}.md``, for the
kinds whose registry entry has ``report``; :mod:`learnability.evaluations.registry`):
presentation apart from the scoring, as the analyses' reports are."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from learnability.evaluations.analogy import summarise_analogies
from learnability.evaluations.multianswer import summarise_multi_answer
from learnability.reports.formats import to_markdown


def multi_answer_report(tables: dict, neighbours: int = 5) -> str:
    """Markdown for people: accuracy per section and embedding, then every failed query
    with its acceptable answers and its nearest neighbours (so a reader can judge the
    test item as well as the embedding)."""
    per = tables.get("multi_answer")
    if per is None or per.empty:
        return "No multi-answer test is configured (`evaluations.multi_answer.files`).\n"
    parts = []
    for ds, d in per.groupby("dataset", sort=False):
        acc = pd.concat(
            {e: summarise_multi_answer(g).set_index("section")["accuracy"]
             for e, g in d.groupby("embedding", sort=False)},
            axis=1,
        ).reset_index()  # fmt: skip
        parts.append(f"## {ds}: accuracy over the queries asked\n\n" + to_markdown(acc))
        failed = d[(d["status"] == "ok") & ~d["correct"].astype(bool)].copy()
        failed["neighbours"] = failed["neighbours"].str.split().str[:neighbours].str.join(" ")
        shown = failed[["embedding", "section", "query", "answers", "neighbours"]]
        parts.append(
            f"## {ds}: failed queries ({len(failed)}), with the {neighbours} nearest "
            f"neighbours\n\n" + (to_markdown(shown) if len(shown) else "None.\n")
        )
        unasked = d[d["status"] != "ok"]
        if len(unasked):
            parts.append(
                f"## {ds}: queries not asked ({len(unasked)})\n\n"
                + to_markdown(unasked[["embedding", "section", "query", "answers", "status"]])
            )
    return "\n".join(parts)


def analogy_report(tables: dict) -> str:
    """Markdown for people: 3CosAdd and 3CosMul accuracy per section and embedding, with
    the questions asked of each section (a section asked rarely says little)."""
    per = tables.get("analogy")
    if per is None or per.empty:
        return "No analogy test is configured (`evaluations.analogy.files`).\n"
    parts = []
    for ds, d in per.groupby("dataset", sort=False):
        frames = []
        for emb, g in d.groupby("embedding", sort=False):
            s = summarise_analogies(g).pivot(index="section", columns="method", values="accuracy")
            s.columns = [f"{emb} {m}" for m in s.columns]
            frames.append(s)
        asked = summarise_analogies(d[d["embedding"] == d["embedding"].iloc[0]])
        counts = asked.drop_duplicates("section").set_index("section")
        table = pd.concat(frames, axis=1)
        table.insert(0, "asked", counts["n_asked"])
        table.insert(0, "questions", counts["n_questions"])
        order = list(dict.fromkeys(d["section"])) + ["total"]
        table = table.reindex(order).reset_index()
        parts.append(
            f"## {ds}: accuracy over the questions asked (asked: all four words among the "
            "most frequent `restrict_vocab` of the first embedding)\n\n" + to_markdown(table)
        )
    return "\n".join(parts)


# by kind: a test keeps these the kinds whose registry entry has ``report``
REPORTS: dict[str, Callable[[dict], str]] = {
    "multi_answer": multi_answer_report,
    "analogy": analogy_report,
}
