import json
from pathlib import Path

from learnability.corpus.sample import draw_budget, sample_documents
from learnability.logs import logged

with logged(snakemake) as log:
    i, o, p = snakemake.input, snakemake.output, snakemake.params
    sizes = [json.loads(Path(path).read_text(encoding="utf-8"))["tokens"] for path in i.compared]
    tokens = draw_budget(sizes, p.tokens)
    stats = sample_documents(i.text, o.text, o.stats, tokens, int(snakemake.wildcards.seed))
    log.info("draw: %s", stats)
