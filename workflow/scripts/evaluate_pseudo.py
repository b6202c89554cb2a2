from pathlib import Path

from learnability.embeddings.store import load_embedding
from learnability.evaluations.pseudo import PseudoConfig, evaluate_corpus
from learnability.io import write_table
from learnability.logs import logged

with logged(snakemake) as log:
    i, p, w = snakemake.input, snakemake.params, snakemake.wildcards
    s = dict(p.settings)
    emb = load_embedding(Path(i.vectors).parent)
    cfg = PseudoConfig(
        window=s.get("window", 5),
        folds=s.get("folds", 10),
        ks=tuple(s.get("ks", (1, 2, 5, 10, 20, 50, 100))),
        n_frequent=s.get("n_frequent", 50),
        min_test_count=s.get("min_test_count", 2),
        seed=s.get("seed", 1999),
    )
    result, info = evaluate_corpus(
        i.corpus,
        emb.words,
        emb.vectors,
        cfg,
        max_tokens=s.get("max_tokens", 2_000_000),
        min_count=s.get("min_count", 5),
        dataset=p.dataset,
        embedding=w.embedding,
    )
    log.info("read %s", info)
    log.info("\n%s", result.groupby(["method", "k"])["error_rate"].agg(["mean", "std"]))
    write_table(result, snakemake.output[0], "pseudo")
