"""The corpus stage: a Wikipedia dump (one file or numbered parts, downloaded and
verified: :mod:`.download`, :mod:`.dumps`) or a corpus of your own (:mod:`.sources`, the
registry of what a corpus can be read from: :mod:`.plaintext`, :mod:`.tables`, the dump's
reader in :mod:`.extract`; :mod:`.documents` what they share) becomes one tokenised text
(:mod:`.wikitext` strips a dump's markup, :mod:`.tokenize` applies the one tokenisation
rule, :mod:`.extract` runs the passes over the parts, :mod:`.parallel` their worker
pool); :mod:`.sample` draws a corpus down to a token budget; :mod:`.cooccur` counts
co-occurrences for GloVe; :mod:`.synthdump` writes synthetic dumps for rehearsing the
full scale."""
