from learnability.concepts import list_overlap
from learnability.io import read_tables, write_table
from learnability.logs import logged
from learnability.sweeps import (
    bootstrap_replicates,
    sweep_effects,
    sweep_points,
    sweep_wilcoxon,
)
from learnability.tables import write_sweep_tables

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
        from learnability.schemas import empty

        wilcoxon = empty("sweep_wilcoxon")
    write_table(wilcoxon, o.wilcoxon, "sweep_wilcoxon")
    write_sweep_tables(
        points, wilcoxon, sweep=snakemake.wildcards.sweep, corpus=p.corpus,
        level=p.confidence, out=dict(o.items()),
    )  # fmt: skip
    log.info("\n%s", points[["embedding", "negatives", "n_lists", "auc"]].to_string(index=False))
