# The analyses over each embedding's lists (learnability.analyses.registry): codelength,
# suggestions, their held-out check, entanglement. One rule per analysis, and one per
# analysis with a report, all made from the registry and running one script each: the
# analysis' module does the work, as score() runs it.


include: "helpers/analyses.smk"


for analysis in ANALYSES.values():

    rule:
        name:
            analysis.name
        input:
            **analysis_inputs(analysis),
        output:
            analysis.output,
        log:
            analysis.output.replace("results/", "logs/", 1).replace(".parquet", ".log"),
        benchmark:
            f"benchmarks/out/{analysis.name}/{{embedding}}/{{negatives}}.tsv"
        conda:
            "../envs/learnability.yaml"
        threads: config["learnability"]["threads"] if analysis.fits else 1
        resources:
            **job_resources(analysis.name, analysis_sizes(analysis)),
        params:
            **analysis_params(analysis),
        script:
            "../scripts/analysis.py"


for analysis in (a for a in ANALYSES.values() if a.report):

    rule:
        name:
            f"{analysis.name}_table"
        input:
            analysis_files(analysis.name),
        output:
            **report_outputs(analysis),
        log:
            f"logs/tables/{{negatives}}/{analysis.name}.log",
        benchmark:
            f"benchmarks/out/{analysis.name}_table/{{negatives}}.tsv"
        localrule: True
        conda:
            "../envs/learnability.yaml"
        resources:
            **job_resources(f"{analysis.name}_table"),
        params:
            analysis=analysis.name,
            # the report job reads its analysis' entry (its table, its report's files)
            analysis_code=analysis_code(analysis),
            lists=list(LISTS),
            embeddings=EMBEDDINGS,
            title=plot_title(analysis.report.plot or ""),
        script:
            "../scripts/analysis_report.py"


rule explorer:
    input:
        unpack(explorer_inputs),
    output:
        # a page of its own (5 MB of it plotly.js), opened from the file, not the report
        "results/explorer.html",
    log:
        "logs/explorer.log",
    benchmark:
        "benchmarks/out/explorer.tsv"
    conda:
        "../envs/learnability.yaml"
    resources:
        **job_resources("explorer", embedding_sizes),
    params:
        embeddings=EMBEDDINGS,
        lists=list(LISTS),
        negatives=EXPLORER_NEGATIVES,
        non_members=config["explorer"]["non_members"],
        seed=config["learnability"]["seed"],
        title=f"learnability explorer: config {REPORT_NAME}",
    script:
        "../scripts/explorer.py"
