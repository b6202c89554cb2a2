from pathlib import Path

from learnability.embeddings.gaussian import write_random_embedding
from learnability.logs import logged

with logged(snakemake) as log:
    hp = snakemake.params.hp
    reference = Path(snakemake.input.vocab).parent
    n = write_random_embedding(
        reference,
        Path(snakemake.output.vectors).parent,
        dim=int(hp["dim"]),
        seed=int(hp["seed"]),
        name=snakemake.wildcards.embedding,
    )
    log.info("N(0,1) vectors for %d words of %s, dim %s", n, reference.name, hp["dim"])
