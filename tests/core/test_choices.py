"""The option names of scorio_core.choices: one source, and a CLI start-up that needs neither pandas nor SciPy."""

from __future__ import annotations

import subprocess
import sys

import pytest

from scorio_core import choices


def test_metric_names_are_the_registry_keys():
    from scorio_core.leaderboard.metrics import METRICS

    assert tuple(METRICS) == choices.METRIC_NAMES


def test_implementing_modules_re_export_the_same_objects():
    from scorio_core import io, uncertainty
    from scorio_core.leaderboard import checks
    from scorio_core.ranking import rank

    assert uncertainty.PRIORS is choices.PRIORS and uncertainty.PRIOR_HELP is choices.PRIOR_HELP
    assert uncertainty.SCOPES is choices.SCOPES and uncertainty.SCOPE_HELP is choices.SCOPE_HELP
    assert uncertainty.DEFAULT_PRIOR == "empirical-bayes" and uncertainty.DEFAULT_SCOPE == "questions-fixed"
    assert rank.TIE_RULES is choices.TIE_RULES and rank.DEFAULT_TIE_RULE == "pairwise"
    assert checks.QUESTION_SETS is choices.QUESTION_SETS
    assert io.DUPLICATE_POLICIES is choices.DUPLICATE_POLICIES and io.MISSING_POLICIES is choices.MISSING_POLICIES


def test_io_names_resolve_lazily_and_unknown_names_raise():
    from scorio_core import io

    for name in io.__all__:
        assert getattr(io, name) is not None
    with pytest.raises(AttributeError, match="no_such_name"):
        io.no_such_name  # noqa: B018


@pytest.mark.parametrize("argv", [["--help"], ["leaderboard", "--help"], ["export", "--help"], ["questions", "--help"], ["plan", "--help"], ["schemas", "--help"]])
def test_help_imports_neither_pandas_nor_scipy(argv):
    code = (
        "import contextlib, io, sys\n"
        "from scorio_core.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main({argv!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(sorted(m for m in ('pandas', 'scipy', 'pyarrow', 'duckdb') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"


@pytest.mark.parametrize("argv", [["questions", "{path}", "--output", "json"],
                                  ["leaderboard", "{path}", "--method", "irt_ability", "--output", "json"]])
def test_irt_commands_do_not_import_scipy_stats_or_the_method_registry(argv, tmp_path):
    """The IRT fit needs scipy.special/linalg only: scipy.stats and the ranking-method registry (scorio_core.rank)
    cost ~1-1.5 s of import on 2 cores and are left to the commands that use them."""
    path = tmp_path / "d.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},{t},{int((q + t + i) % 3 == 0)}\n" for i, m in enumerate("abc") for q in range(6) for t in range(2)))
    assert _imported_after([a.format(path=path) for a in argv], ("scipy.stats", "scorio_core.rank")) == "[]"


def _imported_after(argv, modules) -> str:
    """Which of ``modules`` a fresh interpreter has imported after ``main(argv)`` succeeded (printed list)."""
    code = (
        "import contextlib, io, sys\n"
        "from scorio_core.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main({list(argv)!r}) == 0\n"
        f"print(sorted(m for m in {tuple(modules)!r} if m in sys.modules))\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.parametrize("command", ["leaderboard", "tasks", "ranks"])
def test_one_trial_data_do_not_import_scipy_stats(command, tmp_path):
    """N = 1: no model's empirical-Bayes prior is identified, so every row is an exact-binomial fallback drawn as a
    skewed Beta (uncertainty.fallback.beta_sides); its quantiles came from scipy.stats (1-4 s of import on 2 cores:
    leaderboard 7.5 -> 2.5 s, tasks 9.9 -> 1.6 s on 250 models x 300 questions), now from scipy.special."""
    path = tmp_path / "d.csv"
    path.write_text("model,question_id,is_correct\n" + "".join(
        f"m{i},q{q},{int((q * (i + 2)) % 5 < 2 + i % 2)}\n" for i in range(4) for q in range(12)))
    assert _imported_after([command, str(path), "--output", "json"], ("scipy.stats",)) == "[]"
