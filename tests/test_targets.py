"""The one registry shape (learnability.targets): every family names its members' code as
"module:attribute", each string resolves to that code, and a malformed one is refused."""

import importlib.util

import pytest

from learnability.targets import load, module_of


def test_a_target_is_the_attribute_its_string_names():
    from learnability.corpus import tables

    assert load("learnability.corpus.tables:read_csv") is tables.read_csv
    assert module_of("learnability.corpus.tables:read_csv") == "learnability.corpus.tables"
    for bad in ("learnability.corpus.tables", ":read_csv", "learnability.corpus.tables:"):
        with pytest.raises(ValueError) as refused:
            load(bad)
        assert str(refused.value) == f"{bad!r}: a registry names its code as 'module:attribute'"
    with pytest.raises(AttributeError):
        load("learnability.corpus.tables:no_such_reader")


def test_every_registry_names_its_members_code_by_a_string_that_resolves():
    from learnability.analyses.registry import ENTRIES, target
    from learnability.corpus.sources import SOURCES
    from learnability.embeddings.registry import METHODS
    from learnability.evaluations.registry import KINDS

    for source in SOURCES.values():
        assert callable(load(source.reader)), source.name
    for method in METHODS.values():
        if method.trainer is None:
            continue
        if method.package and importlib.util.find_spec(method.package[0]) is None:
            continue  # an optional extra not installed here: its module imports it
        assert callable(load(method.trainer)), method.name
    for kind in KINDS.values():
        job = load(kind.target)
        assert callable(job) and callable(kind.load().scores), kind.name
    names = [load(entry).name for entry in ENTRIES]
    assert len(set(names)) == len(ENTRIES), names  # an analysis named once
    for name, entry in zip(names, ENTRIES, strict=True):
        assert target(name) == entry and callable(load(entry).run), entry
