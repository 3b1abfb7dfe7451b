"""Import layering (docs/ARCHITECTURE.md): pages -> dashboard -> scorio_core, never back.

Inside ``dashboard``: figures never import Streamlit or another dashboard package; state, data,
compute and tables never import panels, share or pages; share never imports panels; nothing in
``dashboard`` imports a page.

``scorio_core`` never imports Streamlit (nor the app's packages), and its numeric modules
import only the standard library, numpy, scipy and other numeric modules of the core.
Checked on the source with ``ast`` (every import statement, including function-local ones)
and once at run time in a fresh interpreter.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "scorio_core"
NUMERIC = [
    *sorted((CORE / "eval").glob("*.py")),
    CORE / "eval" / "geo_spectrum" / "__init__.py",
    *(CORE / "ranking" / name for name in ("rank.py", "kendall.py", "posterior_ranks.py", "rank_batch.py",
                                           "separation.py", "projection_hyper.py", "paired_sd.py", "rank_words.py")),
    *(CORE / "dynamics" / name for name in ("trajectory_kernel.py", "simulate/__init__.py", "simulate/__main__.py")),
    CORE / "uncertainty" / "priors.py",
    CORE / "arrays" / "order.py",
    CORE / "uncertainty" / "fallback_draws.py",
    *(CORE / "rubric" / name for name in ("kernel.py", "logic.py", "expr.py", "nodes.py")),
]
NUMERIC_THIRD_PARTY = {"numpy", "scipy"}


def imported_modules(path: Path) -> set[str]:
    """Absolute module names imported anywhere in ``path`` (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                names.add(f"{base}.{node.module}" if node.module else base)
            else:
                names.add(node.module)
    return names


def test_numeric_module_list_is_current():
    assert all(p.exists() for p in NUMERIC), [str(p) for p in NUMERIC if not p.exists()]


@pytest.mark.parametrize("path", sorted(CORE.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_core_never_imports_the_app(path):
    roots = {name.split(".")[0] for name in imported_modules(path)}
    assert not roots & {"streamlit", "dashboard", "pages", "app"}, roots


@pytest.mark.parametrize("path", NUMERIC, ids=lambda p: str(p.relative_to(ROOT)))
def test_numeric_modules_use_numpy_scipy_only(path):
    numeric_names = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__") for p in NUMERIC}
    numeric_names |= {"scorio_core.eval", "scorio_core.errors", "scorio_core.choices"}  # eval's init; leaves: stdlib only
    bad = set()
    for name in imported_modules(path):
        root = name.split(".")[0]
        if root in sys.stdlib_module_names or root in NUMERIC_THIRD_PARTY:
            continue
        if root == "scorio_core" and (name in numeric_names or name.removesuffix(".__init__") in numeric_names):
            continue
        bad.add(name)
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_importing_the_core_and_cli_does_not_load_streamlit():
    code = (
        "import importlib, pkgutil, sys, scorio_core\n"
        "for m in pkgutil.walk_packages(scorio_core.__path__, 'scorio_core.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        "print(sorted(k for k in sys.modules if k.split('.')[0] in ('streamlit', 'dashboard')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


DASHBOARD = ROOT / "dashboard"
#: dashboard subpackage -> dashboard subpackages (and pages) it must not import.
FORBIDDEN = {
    "figures": {"state", "data", "compute", "tables", "panels", "share", "guard", "pages"},
    "tables": {"state", "data", "compute", "panels", "share", "pages"},
    "state": {"compute", "panels", "share", "figures", "pages"},
    "data": {"compute", "panels", "share", "figures", "tables", "pages"},
    "compute": {"panels", "share", "tables", "figures", "pages"},
    "share": {"panels", "pages"},
    "panels": {"pages"},
}


def _dashboard_part(name: str) -> str | None:
    parts = name.split(".")
    if parts[0] == "pages":
        return "pages"
    if parts[0] == "dashboard" and len(parts) > 1:
        return parts[1]
    return None


@pytest.mark.parametrize("path", sorted(DASHBOARD.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_dashboard_layers(path):
    part = path.relative_to(DASHBOARD).parts[0].removesuffix(".py")
    imported = imported_modules(path)
    if part == "figures":
        assert "streamlit" not in {n.split(".")[0] for n in imported}, "figures are pure Plotly functions"
    bad = {n for n in imported if _dashboard_part(n) in FORBIDDEN.get(part, set()) | {"pages"}}
    assert not bad, f"dashboard.{part} must not import {sorted(bad)}"


def test_every_dashboard_subpackage_states_its_rules():
    for package in sorted(p.parent for p in DASHBOARD.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8"))) or ""
        assert "Streamlit" in doc and "import" in doc.lower(), f"{package.name}/__init__.py: say what it may import"
