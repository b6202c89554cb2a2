"""The protocol: random half-splits and non-members (:mod:`.sampling`), one L2
logistic regression per split fitted to its optimum (:mod:`.classify` dispatches,
:mod:`.lbfgs` is the compiled L-BFGS and holds its settings, :mod:`.lbfgs_stacked` the
same on stacked numpy/torch arrays, :mod:`.threads` the thread control), the five
metrics (:mod:`.metrics`), the per-list loop and the random lists' null
(:mod:`.evaluate`), the nulls kept between calls (:mod:`.nullcache`), and the online
codelength (:mod:`.codelength`)."""
