"""The workflow glue: what Snakemake needs while it builds the DAG (:mod:`.config`:
the config's checks, defaults and input-function helpers), what its jobs call
(:mod:`.jobs`), and the sweeps' grid, shared vocabularies and summaries
(:mod:`.sweeps`). The package never imports Snakemake."""
