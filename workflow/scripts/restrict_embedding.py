from pathlib import Path

import pandas as pd

from learnability.embeddings.shared import restrict_embedding
from learnability.logs import logged

with logged(snakemake) as log:
    meta = restrict_embedding(
        Path(snakemake.input.vectors).parent,
        pd.read_parquet(snakemake.input.shared),
        Path(snakemake.output.vectors).parent,
        name=snakemake.wildcards.embedding,
    )
    log.info("%s", meta)
