import pandas as pd

from learnability import evaluations as ev
from learnability.logs import logged
from learnability.reports.evaluation_reports import REPORTS
from learnability.reports.tables import write_evaluation_tables
from learnability.schemas import read_tables, write_table

with logged(snakemake) as log:
    i, p, o = snakemake.input, snakemake.params, snakemake.output
    # every table of every evaluation kind the run has (common.smk: evaluation_outputs)
    tables = {
        name: read_tables(list(i[name]), name)
        for kind in ev.KINDS.values()
        for name in kind.tables
        if name in i.keys()
    }
    scores = ev.scores(tables)
    summary = read_tables(list(i.summaries), "summary")
    tests = ev.compare_evaluations(
        tables, list(p.embeddings), p.alternative, p.bootstrap, p.seed, p.confidence
    )
    wide = pd.concat([ev.learnability_columns(summary), ev.headline(scores)], axis=1)
    correlation = ev.rank_correlations(wide.loc[wide.index.isin(p.embeddings)])
    write_table(scores, o.scores, "scores")
    write_table(tests, o.tests, "evaluation_tests")
    write_table(correlation, o.correlation, "rank_correlation")
    table = ev.comparison_table(scores, summary)
    # each kind's own report (the registry's `report` flag)
    reports = {name: REPORTS[name](tables) for name, k in ev.KINDS.items() if k.report}
    write_evaluation_tables(table, tests, correlation, o, reports)
    log.info("\n%s", table.to_string(index=False))
