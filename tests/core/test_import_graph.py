"""Architecture (docs/ARCHITECTURE.md): no import cycles, one obvious place for each thing.

The import graph of the project's own modules (``scorio_core``, ``dashboard``, ``pages``,
``app.py``) is built from the source with ``ast``: every import statement, including the ones
inside functions (a deferred import still couples two modules both ways). An edge goes to the
module named (``from a.b import c`` goes to ``a.b.c`` when that is a module, else to ``a.b``); the
implicit import of parent packages is not an edge. Any strongly connected component of more
than one module is a cycle, and the test names it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("scorio_core", "dashboard", "pages")


def module_files(root: Path, packages=PACKAGES, scripts=("app.py",)) -> dict[str, Path]:
    """Dotted module name -> file, for every .py under ``packages`` plus top-level ``scripts``."""
    files = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join(parts)] = path
    for script in scripts:
        if (root / script).exists():
            files[Path(script).stem] = root / script
    return files


def _targets(module: str, path: Path, node, known: set[str]) -> list[str]:
    def owner(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    if isinstance(node, ast.Import):
        return [t for alias in node.names if (t := owner(alias.name))]
    base = node.module or ""
    if node.level:
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join(package + ([base] if base else []))
    out = []
    for alias in node.names:
        full = f"{base}.{alias.name}"
        target = full if full in known else owner(base)
        if target:
            out.append(target)
    return out


def import_graph(files: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the project modules it imports anywhere in its source."""
    known = set(files)
    graph = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[module] = {t for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                         for t in _targets(module, path, node, known) if t != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycles():
    found = cycles(import_graph(module_files(ROOT)))
    assert not found, "import cycles (move the shared piece into a module both can import):\n" + "\n".join(
        " <-> ".join(c) for c in found)


def test_the_cycle_test_finds_a_cycle(tmp_path):
    """A two-module fixture: a deferred import back is still a cycle; removing it clears the cycle."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text('"""A package whose initialiser imports nothing."""\n')
    (package / "a.py").write_text("from pkg.b import helper\n")
    (package / "b.py").write_text("def helper():\n    from pkg import a  # deferred, still a cycle\n    return a\n")
    (package / "c.py").write_text("from . import b\n")
    files = module_files(tmp_path, packages=("pkg",), scripts=())
    graph = import_graph(files)
    assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.b"] == {"pkg.a"} and graph["pkg.c"] == {"pkg.b"}
    assert cycles(graph) == [["pkg.a", "pkg.b"]]
    (package / "b.py").write_text("def helper():\n    return 1\n")
    assert cycles(import_graph(module_files(tmp_path, packages=("pkg",), scripts=()))) == []


def test_a_longer_cycle_is_one_component():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]


def test_scorio_core_top_level_holds_only_packages_and_five_modules():
    # besides the entry points: errors, limits and choices, leaves every package may import (no imports of their own
    # beyond the standard library, so the CLI's option parsers start without pandas or SciPy)
    loose = sorted(p.name for p in (ROOT / "scorio_core").glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "choices.py", "errors.py", "limits.py"], loose


def test_no_package_folder_holds_more_than_15_modules():
    folders = [ROOT / "scorio_core", *(ROOT / "scorio_core").rglob("*"), ROOT / "dashboard", *(ROOT / "dashboard").rglob("*")]
    crowded = {str(d.relative_to(ROOT)): n for d in folders if d.is_dir() and (n := len(list(d.glob("*.py")))) > 15}
    assert not crowded, crowded


def test_dashboard_top_level_holds_at_most_five_modules():
    loose = sorted(p.name for p in (ROOT / "dashboard").glob("*.py"))
    assert len(loose) <= 5, loose
