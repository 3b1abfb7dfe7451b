"""scorio_core: the metric core of scorio-dashboard.

Bayes@N (Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265) and the Pass@k
family with credible intervals, ranking with uncertainty, convergence@n, rubric schemas and
eval-dump loaders. Pure numpy/scipy in the numeric modules; never imports Streamlit.

Use the evaluation API as in the reference package::

    from scorio_core import eval
    mu, sigma = eval.bayes(R, w, R0)

Every subpackage (``scorio_core.io``, ``scorio_core.rubric``, ``scorio_core.leaderboard``, ...)
is also reachable as an attribute after a bare ``import scorio_core``.
"""

__version__ = "0.1.0"
__all__ = ["eval", "__version__"]

#: Subpackages and modules imported on first attribute access (PEP 562), so ``import scorio_core``
#: (and the CLI's start) loads neither numpy nor pandas.
_LAZY = frozenset({
    "arrays", "choices", "cli", "dynamics", "engines", "errors", "eval", "io", "items", "leaderboard",
    "limits", "plan", "rank", "ranking", "report", "rubric", "sensitivity", "store", "tasks", "uncertainty",
})


def __getattr__(name: str):
    """Import a subpackage such as ``scorio_core.io`` on first use (PEP 562)."""
    if name in _LAZY:
        import importlib

        module = importlib.import_module(f"scorio_core.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'scorio_core' has no attribute {name!r}")


def __dir__():
    """The module's names plus the lazily imported subpackages."""
    return sorted(set(globals()) | _LAZY)
