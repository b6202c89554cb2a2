# Input functions and resources of the rules in analyses.smk, beside them (Snakemake's
# linter keeps functions out of files with rules).
from learnability.analyses.registry import target
from learnability.pipeline.rerun import target_params


def explorer_inputs(wildcards):
    scheme = {"negatives": EXPLORER_NEGATIVES}
    w = type("W", (), scheme)
    return dict(
        vectors=[f"{space(e)}/vectors.npy" for e in EMBEDDINGS],
        vocab=[f"{space(e)}/vocab.parquet" for e in EMBEDDINGS],
        members=learnability_files("members.parquet", negatives=[EXPLORER_NEGATIVES]),
        summaries=summaries(EMBEDDINGS, [EXPLORER_NEGATIVES]),
        suggestions=analysis_files("suggestions")(w),
        entanglement=analysis_files("entanglement")(w),
        pvalues="results/stats/pvalues.parquet",
        bounds=analysis_files("bounds")(w),
    )


def embedding_concepts(wildcards):
    # every list's resolution against one embedding, in LISTS order (the codelength job
    # scores them all: one job per embedding and scheme, each list about a second)
    return expand(
        "results/concepts/{embedding}/{list}.parquet",
        embedding=[wildcards.embedding],
        list=list(LISTS),
    )


def analysis_files(name):
    """Input function: an analysis' table of every embedding, for the job's negatives
    scheme; none where the run has the analysis off."""

    def files(wildcards):
        if name not in ANALYSES_ON:
            return []
        output = ANALYSES[name].output
        return expand(output, embedding=EMBEDDINGS, negatives=[wildcards.negatives])

    return files


def list_coefficients(wildcards):
    # every list's split classifiers on one embedding and scheme, in LISTS order
    return learnability_files(
        "coefficients.npy", [wildcards.embedding], [wildcards.negatives]
    )


def analysis_inputs(analysis):
    files = dict(**SPACE, concepts=embedding_concepts)
    if analysis.coefficients:
        files["coef"] = list_coefficients
    return files


def analysis_code(analysis):
    """The code of one analysis (its module, named by the registry as a dispatch target
    that the scripts' own code digests leave out): its jobs and its report's read it."""
    return target_params(target(analysis.name), config["provenance"]["libraries"])


def analysis_params(analysis):
    """Its settings, the lists and, for one that fits, the protocol: in params, so that a
    change reruns exactly its jobs."""
    params = dict(
        analysis=analysis.name,
        # the job's script runs one entry of the registry (its `code` param leaves them
        # out): the code of this one, so that an edit to another reruns none of its jobs
        analysis_code=analysis_code(analysis),
        lists=list(LISTS),
        settings=analysis.from_config(config),
        min_words=config["learnability"]["min_words"],
    )
    if analysis.fits:
        params.update(protocol_params("learnability"))
    if analysis.nulls:
        # the random lists of other sizes are scored and compared as the p-values' are
        rl = config["random_lists"]
        params.update(
            null_lists=rl["lists"],
            null_iterations=rl["iterations"],
            null_seed=rl["seed"],
            pvalue_method=rl["method"],
            list_iterations=config["learnability"]["iterations"],
        )
    if analysis.baseline_bins:
        # the baseline is matched to frequency under either scheme
        params["baseline_n_bins"] = N_BINS
    return params


def report_paths(analysis):
    """Its report's tables (results/tables) and figure (results/plots), by format."""
    name, spec = analysis.name, analysis.report
    out = {e: f"results/tables/{{negatives}}/{name}.{e}" for e in spec.formats}
    if spec.plot:
        out.update({e: f"results/plots/{{negatives}}/{name}.{e}" for e in FIGURE})
    return out


def report_outputs(analysis):
    """report_paths, the shown one (the table in ``shown``, else the figure's PNG) in the
    HTML report with the caption workflow/report/NAME.rst."""
    paths = report_paths(analysis)
    shown = analysis.report.shown or ("png" if analysis.report.plot else None)
    if shown:
        paths[shown] = report(
            paths[shown],
            caption=f"../report/{analysis.name}.rst",
            category=analysis.report.category,
            subcategory="{negatives} non-members",
        )
    return paths


# the scheme the explorer shows: the configured one if the run has it, else its first
EXPLORER_NEGATIVES = (
    config["explorer"]["negatives"]
    if config["explorer"]["negatives"] in NEGATIVES
    else NEGATIVES[0]
)
