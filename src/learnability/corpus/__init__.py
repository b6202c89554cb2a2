"""The corpus stage: a Wikipedia dump (one file or numbered parts, downloaded and
verified: :mod:`.download`, :mod:`.dumps`) becomes one tokenised text (:mod:`.wikitext`
strips the markup, :mod:`.tokenize` applies the one tokenisation rule, :mod:`.extract`
runs the passes over the parts, :mod:`.parallel` their worker pool); :mod:`.cooccur`
counts co-occurrences for GloVe; :mod:`.synthdump` writes synthetic dumps for rehearsing
the full scale."""
