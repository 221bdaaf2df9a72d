"""The layers between the packages of ``provider/`` (issue 26): contract ← wiki, contract ←
search, wiki + search ← indexing ← watch/cli. Reading the wiki knows no index; the Whoosh
indexes know no wiki; the indexing pipeline, above both, turns one into the other; only the
application's entry points (``cli``, ``watch``, ``app``, ``config``) stand above it.

Every import statement counts, a lazy one inside a function included (the
``helpthread_kit`` package's own isolation is tested in
``tests/contract/test_import_graph.py``).
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

import provider

PROVIDER_DIR = Path(provider.__file__).resolve().parent

#: What each layer's package may import of ``provider`` (itself always). A package not
#: named here is an entry point or a leaf helper of the application.
MAY_IMPORT: dict[str, set[str]] = {
    "wiki": {"contract", "interrupts"},
    "search": {"contract"},
    "indexing": {"contract", "wiki", "search", "allocator"},  # allocator: a leaf (glibc malloc knobs)
}
#: Packages whose modules must not import each other in a circle.
NO_CIRCLES = ("indexing", "search")


def _module_of(path: Path) -> tuple[str, str]:
    """``(module name, package its relative imports start from)`` of a source file."""
    parts = ("provider", *path.relative_to(PROVIDER_DIR).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
        return ".".join(parts), ".".join(parts)
    return ".".join(parts), ".".join(parts[:-1])


def imported_modules(source: str, package: str) -> list[str]:
    """Every absolute module name ``source`` imports, relative imports resolved against
    ``package`` (``from . import x`` yields ``package.x`` too)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            names.append(module)
            names.extend(f"{module}.{alias.name}" for alias in node.names)
    return names


def _package(module: str) -> str | None:
    """The package of ``provider`` a module name is in (``provider.wiki.x`` → ``wiki``)."""
    parts = module.split(".")
    return parts[1] if parts[0] == "provider" and len(parts) > 1 else None


def layer_violations(package: str, allowed: set[str], sources: dict[str, tuple[str, str]]) -> list[str]:
    """``importer -> imported`` for each import of a module of ``package`` (in
    ``sources``: module name → (source, package of its relative imports)) that reaches a
    package of ``provider`` outside ``allowed``."""
    found = []
    for module, (source, base) in sorted(sources.items()):
        if _package(module) != package:
            continue
        for name in imported_modules(source, base):
            target = _package(name)
            if target is not None and target != package and target not in allowed:
                found.append(f"{module} -> {name}")
    return found


def _sources() -> dict[str, tuple[str, str]]:
    found = {}
    for path in sorted(PROVIDER_DIR.rglob("*.py")):
        module, base = _module_of(path)
        found[module] = (path.read_text("utf-8"), base)
    return found


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (module → modules it imports), first module
    repeated at its end, or ``None``."""
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as exc:
        return list(exc.args[1])
    return None


def _graph_of(package: str, sources: dict[str, tuple[str, str]]) -> dict[str, set[str]]:
    """Module → the modules of the same package it imports (its own parent packages,
    which Python initialises first, and the package's re-exporting face left out)."""
    face = f"provider.{package}"
    modules = {m for m in sources if _package(m) == package and m != face}
    graph: dict[str, set[str]] = {}
    for module in modules:
        source, base = sources[module]
        targets = set()
        for name in imported_modules(source, base):
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


SOURCES = _sources()


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_each_layer_imports_only_the_layers_below_it(package: str) -> None:
    assert layer_violations(package, MAY_IMPORT[package], SOURCES) == []


def test_the_indexing_pipeline_stands_above_wiki_and_search() -> None:
    """It really uses both (else the layer order above says nothing about it); that
    neither uses it is the layers' own test."""
    used = {_package(name) for module, (source, base) in SOURCES.items() if _package(module) == "indexing"
            for name in imported_modules(source, base)}
    assert {"wiki", "search"} <= used


@pytest.mark.parametrize("package", NO_CIRCLES)
def test_no_import_circle_inside_the_package(package: str) -> None:
    graph = _graph_of(package, SOURCES)
    assert graph, f"no modules found in provider.{package}"
    assert circle(graph) is None


@pytest.mark.parametrize("source", [
    "from ..wiki.document import WikiSettings",
    "import provider.wiki.corpus",
    "def f():\n    from ..indexing import Indexer\n",
    "from .. import wiki",
    "from provider.cli import main",
])
def test_a_search_module_importing_the_wiki_or_above_is_caught(source: str) -> None:
    """The check is not vacuous: each form of import reaching a forbidden layer is found."""
    sources = {"provider.search.canary": (source, "provider.search")}
    assert layer_violations("search", MAY_IMPORT["search"], sources) != []


def test_the_circle_finder_finds_a_circle() -> None:
    found = circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    assert found is not None and set(found) == {"a", "b", "c"} and found[0] == found[-1]
    assert circle({"a": {"b"}, "b": set()}) is None
