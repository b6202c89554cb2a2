import pandas as pd

from learnability.concepts.lists import list_overlap
from learnability.logs import logged
from learnability.reports.sweep_tables import write_sweep_tables
from learnability.schemas import empty, read_tables, write_table
from learnability.statistics.sweeps import (
    bootstrap_replicates,
    seed_comparison,
    sweep_effects,
    sweep_points,
    sweep_wilcoxon,
)

with logged(snakemake) as log:
    i, p, o = snakemake.input, snakemake.params, snakemake.output
    scores = read_tables(list(i.scores), "sweep_scores")
    iterations = read_tables(list(i.iterations), "sweep_iterations")
    # drawn once: the points' bands and the main effects' come from the same replicates
    reps = bootstrap_replicates(iterations, p.bootstrap, p.seed)
    band = dict(resamples=p.bootstrap, level=p.confidence, seed=p.seed, replicates=reps)
    points = sweep_points(scores, iterations, **band)
    effects = sweep_effects(points, iterations, **band)
    overlap = list_overlap(read_tables([i.concepts], "concept_words"), vocabulary="shared")
    wilcoxon = sweep_wilcoxon(scores, list(p.methods), p.alternative, overlap, list(p.units))
    write_table(scores, o.scores, "sweep_scores")
    write_table(points, o.points, "sweep_points")
    write_table(effects, o.effects, "sweep_effects")
    if wilcoxon.empty:
        wilcoxon = empty("sweep_wilcoxon")
    write_table(wilcoxon, o.wilcoxon, "sweep_wilcoxon")
    seed_tests, seed_spread = (
        seed_comparison(scores, list(p.methods), p.alternative, overlap, list(p.units))
        if p.seeds
        else (pd.DataFrame(), pd.DataFrame())
    )
    write_table(seed_tests if len(seed_tests) else empty("sweep_seed_tests"), o.seed_tests,
                "sweep_seed_tests")  # fmt: skip
    write_table(seed_spread if len(seed_spread) else empty("sweep_seed_spread"),
                o.seed_spread, "sweep_seed_spread")  # fmt: skip
    write_sweep_tables(
        points, wilcoxon, sweep=snakemake.wildcards.sweep, corpus=p.corpus,
        level=p.confidence, out=dict(o.items()), seed_tests=seed_tests,
        seed_spread=seed_spread,
    )  # fmt: skip
    log.info("\n%s", points[["embedding", "negatives", "n_lists", "auc"]].to_string(index=False))
