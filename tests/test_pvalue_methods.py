"""The p-value methods' settings checks (learnability.statistics.pvalue_methods), by hand:
which settings each method is refused at, and the splits a random list is scored with."""

import pytest

from learnability.defaults import schema
from learnability.statistics.pvalue_methods import (
    DEFAULT_PVALUE_METHOD,
    PVALUE_METHODS,
    RESCALING_METHODS,
    check_calibrated,
    random_list_splits,
)


def test_a_random_list_has_the_lists_splits_only_under_matched():
    assert random_list_splits("matched", 200, 10) == 200
    for method in ("auto", "rescaled_skew", "rescaled", "truncated", "unmatched"):
        assert random_list_splits(method, 200, 10) == 10, method


@pytest.mark.parametrize("method", ["auto", "matched", "truncated"])
def test_the_exact_methods_and_auto_are_never_refused(method):
    for kl, kn, lists in ((200, 10, 1000), (200, 2, 20), (5, 10, 50), (10, 10, 1)):
        check_calibrated(method, kn, lists, kl)


def test_equal_splits_refuse_nothing():
    for method in PVALUE_METHODS:
        check_calibrated(method, 7, 20, 7)


@pytest.mark.parametrize(
    ("method", "measured"),
    [("rescaled", "1.7-2x the level at 0.01"), ("unmatched", "a fifth of the level")],
)
def test_rescaled_and_unmatched_are_refused_whenever_the_splits_differ(method, measured):
    with pytest.raises(ValueError) as more:
        check_calibrated(method, 10, 5000, 11)
    assert str(more.value) == (
        f"random_lists.method: {method}'s type-I error is {measured} when lists have more "
        "splits than random lists (11 against 10); use auto (the default: exact where no "
        "approximation is), matched or truncated"
    )
    with pytest.raises(ValueError) as fewer:
        check_calibrated(method, 10, 5000, 9, where="pvalue_method")
    assert str(fewer.value) == (
        f"pvalue_method: {method} is not measured when lists have fewer splits than random "
        "lists (9 against 10); use auto (the default: exact where no approximation is), "
        "matched or truncated"
    )


def test_rescaled_skew_is_refused_outside_the_settings_it_was_measured_at():
    check_calibrated("rescaled_skew", 10, 1000, 200)  # the smallest measured
    check_calibrated("rescaled_skew", 10, 1000, 5)  # fewer list splits: not refused
    for kn, lists in ((9, 1000), (10, 999), (2, 50)):
        with pytest.raises(ValueError) as err:
            check_calibrated("rescaled_skew", kn, lists, 200)
        assert str(err.value) == (
            "random_lists.method: rescaled_skew is measured within its error goal only "
            f"with at least 1000 random lists of 10 splits (these: {lists} of {kn}); use "
            "auto (the default: exact where no approximation is), matched or truncated"
        )


def test_the_names_are_the_config_schemas():
    method = schema()["properties"]["random_lists"]["properties"]["method"]
    assert tuple(method["enum"]) == PVALUE_METHODS
    assert DEFAULT_PVALUE_METHOD == method["default"] == "auto"
    # a variance needs two splits per random list, a third cumulant three
    assert RESCALING_METHODS == {"rescaled": 2, "rescaled_skew": 3}
