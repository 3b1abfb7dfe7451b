"""Dynamics: how rankings evolve with the number of trials.

- :mod:`scorio_core.dynamics.trajectory` and :mod:`scorio_core.dynamics.trajectory_kernel`: rank trajectories.
- :mod:`scorio_core.dynamics.convergence`: bootstrap convergence@n; :mod:`scorio_core.dynamics.bootstrap`: its
  reproducible replicates of trial indices.
- :mod:`scorio_core.dynamics.prefix`: trajectories from prefix-count histograms (no attempt tensor).
- :mod:`scorio_core.dynamics.simulate`: synthetic LLM mimics (paper Appendix D).
"""
