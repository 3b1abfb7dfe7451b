"""Ranking methods fitted by likelihood: paired-comparison models, item response models and Bayesian samplers.

The reference package's ``scorio.rank`` functions whose scores come from a fitted probability model:
:mod:`.paired` (Bradley-Terry, Davidson, Rao-Kupper and their ``_map`` variants, fitting machinery in
:mod:`.fitting`), :mod:`.luce` (Plackett-Luce, Davidson-Luce, Bradley-Terry-Luce and their
``_map`` variants; objectives in :mod:`.luce_fit`, event-relabelling symmetries in :mod:`.orbits`),
:mod:`.priors` (the prior classes of every ``_map`` function), :mod:`.irt` and
:mod:`.irt_xpl` (Rasch, 2PL and 3PL by joint maximum likelihood or MAP; checks and driver in
:mod:`.irt_fit`), :mod:`.irt_dynamic` (dynamic IRT: Rasch, growth and state-space variants),
:mod:`.irt_mirt` (multidimensional IRT by MML-EM; these small fits run on one BLAS thread,
:func:`scorio_core.limits.single_threaded_blas`), :mod:`.irt_mml` (Rasch by marginal maximum likelihood)
and :mod:`.bayesian` (Thompson sampling, Bayesian MCMC). Re-exported by :mod:`scorio_core.rank`; this
``__init__`` imports nothing.
"""
