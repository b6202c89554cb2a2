"""The corpus stage: a Wikipedia dump (one file or numbered parts, downloaded and
verified: :mod:`.download`, :mod:`.dumps`) becomes one tokenised text (:mod:`.wikitext`
strips the markup, :mod:`.tokenize` applies the one tokenisation rule, :mod:`.extract`
runs the passes over the parts, :mod:`.parallel` their worker pool); :mod:`.cooccur`
counts co-occurrences for GloVe; :mod:`.synthdump` writes synthetic dumps for rehearsing
the full scale.

``learnability.corpus.NAME`` still gives what the former module ``learnability.corpus``
held (now :mod:`.extract`)."""

_MAIN = "extract"


def __getattr__(name: str):
    # the former module's names, imported on first use
    import importlib

    main = importlib.import_module(f"{__name__}.{_MAIN}")
    try:
        return getattr(main, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
