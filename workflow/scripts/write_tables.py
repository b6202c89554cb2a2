from learnability.logs import logged
from learnability.reports.records import report_rst
from learnability.reports.tables import write_all
from learnability.schemas import read_tables

with logged(snakemake):
    i, p = snakemake.input, snakemake.params
    write_all(
        summary=read_tables(list(i.summaries), "summary"),
        random_rows=read_tables([i.random_rows], "random_rows"),
        pvalues=read_tables([i.pvalues], "pvalues"),
        wilcoxon=read_tables([i.wilcoxon], "wilcoxon"),
        members=read_tables(list(i.members), "members"),
        codelength=read_tables(list(i.codelength), "codelength") if i.codelength else None,
        bounds=read_tables(list(i.bounds), "bounds") if i.bounds else None,
        coverage=read_tables([i.coverage], "coverage"),
        embeddings=list(p.embeddings),
        lists=list(p.lists),
        size=p.table_size,
        negatives=snakemake.wildcards.negatives,
        out=dict(snakemake.output.items()),
        # the report's opening says which versions made these results
        headline_footer=report_rst(list(i.summaries) + [i.pvalues, i.wilcoxon]),
    )
