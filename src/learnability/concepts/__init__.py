"""The concept stage: word lists and dictionaries are read (:mod:`.lists`: ``.txt``,
LIWC ``.dic``, tables, Empath's layout), matched to a vocabulary by one case policy
(:mod:`.matching`), resolved with every entry's status counted, and measured for
coverage and overlap; :mod:`.empath` and :mod:`.wordnet` build the shipped lists.

``learnability.concepts.NAME`` still gives what the former module
``learnability.concepts`` held (now :mod:`.lists`)."""

_MAIN = "lists"


def __getattr__(name: str):
    # the former module's names, imported on first use
    import importlib

    main = importlib.import_module(f"{__name__}.{_MAIN}")
    try:
        return getattr(main, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
