"""scorio_core: the metric core of scorio-dashboard.

Bayes@N (Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265) and the Pass@k
family with credible intervals, ranking with uncertainty, convergence@n, rubric schemas and
eval-dump loaders. Pure numpy/scipy in the numeric modules; never imports Streamlit.

Use the evaluation API as in the reference package::

    from scorio_core import eval
    mu, sigma = eval.bayes(R, w, R0)
"""

__version__ = "0.1.0"
__all__ = ["eval", "__version__"]


def __getattr__(name: str):
    """``scorio_core.eval`` is imported on first use (PEP 562), so the CLI starts without numpy/scipy."""
    if name == "eval":
        import importlib

        module = importlib.import_module("scorio_core.eval")
        globals()["eval"] = module
        return module
    raise AttributeError(f"module 'scorio_core' has no attribute {name!r}")
