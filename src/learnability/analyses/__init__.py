"""The analyses run over a set of lists on one embedding (codelength, suggestions, their
held-out check, entanglement), each one module behind one registry
(:mod:`learnability.analyses.registry`). The workflow's rules, the steps of
:func:`learnability.score`, the ``learnability evaluate`` flags and the reference docs
are generated from it."""
