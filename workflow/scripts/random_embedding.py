from pathlib import Path

from learnability.embeddings.gaussian import random_embedding
from learnability.embeddings.store import load_embedding, save_embedding
from learnability.logs import logged

with logged(snakemake) as log:
    hp = snakemake.params.hp
    reference = load_embedding(Path(snakemake.input.vocab).parent, mmap=True)
    emb = random_embedding(reference, dim=int(hp["dim"]), seed=int(hp["seed"]))
    emb.name = snakemake.wildcards.embedding
    save_embedding(emb, Path(snakemake.output.vectors).parent)
    log.info("N(0,1) vectors for %d words of %s, dim %d", len(emb), reference.name, emb.dim)
