# Comparing corpora (config compare_corpora; learnability.pipeline.corpus_draws): each
# corpus drawn down to one token budget once per seed, each embedding trained on each
# draw (train_embedding) and scored as a sweep's points are (sweeps.smk, sweep
# "corpora"), then each list's difference tested across the draws
# (learnability.statistics.corpora).


include: "helpers/corpora.smk"


# only with a comparison: the rules without wildcards would be planned by any run that
# forces every rule (the cluster plan)
if COMPARED_CORPORA:

    rule draw_corpus:
        input:
            text="results/corpus/{corpus}/text.txt.gz",
            compared=compared_stats,  # the budget: half the smallest compared corpus
        output:
            text="results/corpus/{corpus}/draws/seed-{seed}/text.txt.gz",
            stats="results/corpus/{corpus}/draws/seed-{seed}/stats.json",
        log:
            "logs/draw_corpus/{corpus}/{seed}.log",
        benchmark:
            "benchmarks/out/draw_corpus/{corpus}/{seed}.tsv"
        wildcard_constraints:
            seed=r"[0-9]+",
        conda:
            "../envs/learnability.yaml"
        resources:
            **job_resources("draw_corpus", draw_sizes),
        params:
            tokens=config["compare_corpora"]["tokens"],
        script:
            "../scripts/draw_corpus.py"

    rule corpus_comparison:
        input:
            scores=draw_point_scores,
            draws=[f"{draw_folder(c, s)}/stats.json" for c, s in DRAWS],
            concepts=f"results/sweeps/{CORPORA_SWEEP}/concepts.parquet",  # which lists nest
        output:
            **CORPUS_TABLES,
        log:
            "logs/corpus_comparison.log",
        benchmark:
            "benchmarks/out/corpus_comparison.tsv"
        conda:
            "../envs/learnability.yaml"
        resources:
            **job_resources("corpus_comparison"),
        params:
            corpora=COMPARED_CORPORA,
            draws=DRAWS,
            alternative=config["compare_corpora"]["alternative"],
            units=config["compare"]["units"],
            level=1 - config["learnability"]["confidence"],
        script:
            "../scripts/corpus_comparison.py"

    rule plot_corpora:
        input:
            "results/corpora/differences.parquet",
        output:
            png=report(
                "results/plots/corpora.png",
                caption="../report/corpora.rst",
                category="Corpora",
            ),
            svg="results/plots/corpora.svg",
            pdf="results/plots/corpora.pdf",
        log:
            "logs/plots/corpora.log",
        benchmark:
            "benchmarks/out/plot_corpora.tsv"
        conda:
            "../envs/learnability.yaml"
        resources:
            **job_resources("plot_corpora"),
        params:
            title=CORPORA_TITLE,
            level=1 - config["learnability"]["confidence"],
        script:
            "../scripts/plot_corpora.py"
