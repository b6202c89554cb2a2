import json
from pathlib import Path

import pandas as pd

from learnability.concepts.lists import list_overlap
from learnability.logs import logged
from learnability.pipeline.corpus_draws import draw_scores
from learnability.reports.corpus_tables import write_corpus_tables
from learnability.schemas import read_tables, write_table
from learnability.statistics.corpora import compare_corpora, unscored_lists

with logged(snakemake) as log:
    i, p, o = snakemake.input, snakemake.params, snakemake.output
    scores = read_tables(list(i.scores), "sweep_scores")
    draws = pd.DataFrame([
        {"corpus": corpus, "seed": seed, **json.loads(Path(path).read_text(encoding="utf-8"))}
        for (corpus, seed), path in zip(p.draws, i.draws, strict=True)
    ])  # fmt: skip
    overlap = list_overlap(read_tables([i.concepts], "concept_words"), vocabulary="shared")
    differences, wilcoxon = compare_corpora(
        draw_scores(scores), draws, list(p.corpora), p.alternative, overlap, list(p.units)
    )
    write_table(scores, o.scores, "sweep_scores")
    write_table(differences, o.differences, "corpus_differences")
    write_table(wilcoxon, o.wilcoxon, "corpus_wilcoxon")
    write_corpus_tables(differences, wilcoxon, draws, level=p.level, out=dict(o.items()),
                        unscored=unscored_lists(scores))  # fmt: skip
    log.info("\n%s", differences[["embedding", "corpus_a", "corpus_b", "list", "difference",
                                  "p_holm"]].to_string(index=False))  # fmt: skip
