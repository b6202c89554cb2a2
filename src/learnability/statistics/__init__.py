"""The statistics: empirical p-values against random lists by the methods whose error
was measured, and their Monte Carlo error (:mod:`.significance`); the Wilcoxon
comparisons between embeddings over lists and disjoint units (:mod:`.comparison`); the
adjustments both share (:mod:`.adjust`); each method's expected size under a
two-level model, by quadrature over null draws (:mod:`.twolevel`); truly null lists
fitted under every method (:mod:`.calibration`); rankings with resolution
(:mod:`.ranking`)."""
