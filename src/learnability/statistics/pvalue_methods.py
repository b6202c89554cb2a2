"""The p-value methods by name, and the settings each is measured for: what the config
and ``score()`` check before anything is computed. The methods themselves are in
:mod:`learnability.statistics.significance`.

Kept apart from it because the workflow's planning asks these when the Snakefile is
parsed, which then does not load SciPy's statistics and optimisation (about 0.5 s of
every Snakemake start, each cluster job's included)."""

from __future__ import annotations

from learnability.defaults import default

# How a list's mean over K_L splits is compared with random lists' means over K_N splits
# (docs/explanation/statistics.md has the reasoning and the calibration measurements):
# - auto (the default): rescaled_skew for a null inside the region where its expected
#   size was measured within the goal, else truncated (choose_method);
# - rescaled_skew: each random list's deviation from the null mean is mapped, by a
#   monotone quadratic, to what it would be with K_L splits: the variance and the third
#   cumulant of K_L-split means, both estimated from the null's own splits;
# - rescaled: the deviations are only scaled (the variance; the shape is kept);
# - matched: the random lists were scored with K_L splits themselves (exact; K_L / K_N
#   times the null's cost);
# - truncated: the list's first K_N splits against the K_N-split null (exact, but uses
#   K_N of the list's K_L splits);
# - unmatched: the K_L-split mean against the K_N-split null as it is (conservative when
#   K_L > K_N; kept to reproduce results before this choice existed).
PVALUE_METHODS = ("auto", "rescaled_skew", "rescaled", "matched", "truncated", "unmatched")
DEFAULT_PVALUE_METHOD: str = default("random_lists.method")
# the methods that transform the null's values from its own split statistics, and the
# fewest splits per random list each needs (a variance needs 2, a third cumulant 3)
RESCALING_METHODS = {"rescaled": 2, "rescaled_skew": 3}
# method: auto uses rescaled_skew only inside the region where twolevel.expected_size
# measured its size within the goal (10 % of the level at 0.01-0.10, 25 % at 0.001), and
# the exact truncated elsewhere
AUTO_MIN_ITERATIONS = 10
AUTO_MIN_LISTS = 1000


def random_list_splits(method: str, list_iterations: int, null_iterations: int) -> int:
    """Splits per random list: the lists' own number under ``matched`` (that is what
    makes it exact), else ``random_lists.iterations``; the workflow and the API both ask
    here."""
    return int(list_iterations) if method == "matched" else int(null_iterations)


def check_calibrated(method: str, null_iterations: int, null_lists: int, list_iterations: int,
                     where: str = "random_lists.method") -> None:  # fmt: skip
    """Refuse a method whose measured size misses the goal at these settings (the table
    in docs/explanation/statistics.md): ``rescaled`` and ``unmatched`` whenever the lists
    have more splits than the random lists, and where they have fewer, which was not
    measured (``unmatched`` then compares a noisier mean with the random lists' means);
    ``rescaled_skew`` outside the settings it was measured at. ``auto``, ``matched`` and
    ``truncated`` are exact where they are not measured."""
    if null_iterations == list_iterations or method in ("auto", "matched", "truncated"):
        return
    fix = "use auto (the default: exact where no approximation is), matched or truncated"
    if method in ("rescaled", "unmatched") and list_iterations < null_iterations:
        raise ValueError(
            f"{where}: {method} is not measured when lists have fewer splits than random "
            f"lists ({list_iterations} against {null_iterations}); {fix}"
        )
    if method in ("rescaled", "unmatched"):
        what = {"rescaled": "1.7-2x the level at 0.01", "unmatched": "a fifth of the level"}
        raise ValueError(
            f"{where}: {method}'s type-I error is {what[method]} when lists have more splits "
            f"than random lists ({list_iterations} against {null_iterations}); {fix}"
        )
    if null_iterations < AUTO_MIN_ITERATIONS or null_lists < AUTO_MIN_LISTS:
        raise ValueError(
            f"{where}: {method} is measured within its error goal only with at least "
            f"{AUTO_MIN_LISTS} random lists of {AUTO_MIN_ITERATIONS} splits (these: "
            f"{null_lists} of {null_iterations}); {fix}"
        )
