from learnability.logs import logged
from learnability.reports import plots
from learnability.reports.diagnostics_tables import (
    suggestions_markdown,
    write_check,
    write_entanglement,
)
from learnability.reports.tables import write_text
from learnability.schemas import read_tables

with logged(snakemake):
    i, p, out = snakemake.input, snakemake.params, snakemake.output
    lists, embeddings = list(p.lists), list(p.embeddings)
    if p.table == "suggestions":
        suggested = read_tables(list(i), "suggestions")
        write_text(f"## Suggested additions\n\n{suggestions_markdown(suggested, lists)}", out.md)
    elif p.table == "suggestion_check":
        write_check(read_tables(list(i), "suggestion_check"), lists, out.md, out.csv, out.tex,
                    "Suggested additions: held-out recall@k")  # fmt: skip
    else:
        table = read_tables(list(i), "entanglement")
        heading = "Entanglement: the share of B's AUC above chance that erasing A removes"
        write_entanglement(table, lists, embeddings, out.md, out.csv, heading)
        fig = plots.entanglement_figure(table, lists, embeddings, p.title)
        plots.save(fig, out.png, out.svg, out.pdf)
