"""The statistics: empirical p-values against random lists by the methods whose
error was measured, their Monte Carlo error, the Wilcoxon comparisons over lists and
disjoint units (:mod:`.stats`); each method's exact expected size under a two-level
model (:mod:`.twolevel`); truly null lists fitted under every method
(:mod:`.calibration`)."""
