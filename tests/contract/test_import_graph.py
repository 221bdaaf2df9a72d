"""helpthread_kit/ is backend-independent: no Whoosh, no Markdown parsing, no file watcher, no
wiki or search code. It is built on Litestar, which may bring PyYAML (issue 25 withdrew issue 14's
exclusion of PyYAML): those two are allowed, and the contract extra lists Litestar.

(DESIGN "Layout", STYLE "What this means here"; the seam adapter authors copy — CONTRACT X2
relies on the backend, not the contract layer, owning reach.)
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import helpthread_kit
from tests.support import REPO_ROOT

CONTRACT_DIR = Path(helpthread_kit.__file__).resolve().parent
FORBIDDEN_LIBRARIES = ("whoosh", "markdown_it", "watchfiles")
FORBIDDEN_PROJECT_PACKAGES = ("provider.wiki", "provider.search")
#: What a relative import reaching above the top-level package names (once the kit is
#: ``helpthread_kit``, ``from ..wiki import x`` there leaves the package).
BEYOND = "<above the package>"
SOURCES = sorted(CONTRACT_DIR.rglob("*.py"))


def _is_under(name: str, roots: tuple[str, ...]) -> bool:
    return any(name == root or name.startswith(root + ".") for root in roots)


def _run(code: str) -> dict[str, Any]:
    completed = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=REPO_ROOT,
    )
    assert completed.returncode == 0, completed.stderr
    result: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    return result


# Imports helpthread_kit and every submodule in a fresh interpreter. builtins.__import__
# is wrapped first so that every import *statement* naming a forbidden library is recorded
# with the module that executed it — even when the library is already in sys.modules
# because a third-party dependency loaded it earlier.
_PROBE = r"""
import builtins, importlib, json, pkgutil, sys

FORBIDDEN = ("whoosh", "markdown_it", "watchfiles")
importers = []
_real_import = builtins.__import__

def _recording_import(name, globals=None, locals=None, fromlist=(), level=0):
    if level == 0 and name.split(".")[0] in FORBIDDEN:
        importers.append([(globals or {}).get("__name__", "?"), name])
    return _real_import(name, globals, locals, fromlist, level)

builtins.__import__ = _recording_import

import helpthread_kit

from tests.support import REPO_ROOT
loaded = ["helpthread_kit"]
for info in pkgutil.walk_packages(helpthread_kit.__path__, "helpthread_kit."):
    importlib.import_module(info.name)
    loaded.append(info.name)

print(json.dumps({"modules": sorted(sys.modules), "loaded": loaded, "importers": importers}))
"""


@pytest.fixture(scope="module")
def probe() -> dict[str, Any]:
    return _run(_PROBE)


def _module_name(path: Path) -> str:
    parts = path.relative_to(CONTRACT_DIR).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([*helpthread_kit.__name__.split("."), *parts])


def test_every_contract_submodule_was_imported(probe: dict[str, Any]) -> None:
    """The probe really imported the whole package (otherwise the checks below prove nothing)."""
    expected = {_module_name(p) for p in SOURCES}
    assert {"helpthread_kit", "helpthread_kit.app", "helpthread_kit.schemas"} <= expected
    assert expected <= set(probe["loaded"])


def test_importing_the_contract_loads_no_whoosh_markdown_or_watcher(probe: dict[str, Any]) -> None:
    """Importing helpthread_kit and all its submodules loads no whoosh*, markdown_it* or
    watchfiles* module, not even indirectly (through Litestar)."""
    offending = [m for m in probe["modules"] if m.startswith(("whoosh", "markdown_it", "watchfiles"))]
    assert offending == []


def test_importing_the_contract_loads_no_wiki_or_search_code(probe: dict[str, Any]) -> None:
    """The contract layer never pulls in the markdown/Whoosh backend of this project."""
    offending = [m for m in probe["modules"] if _is_under(m, FORBIDDEN_PROJECT_PACKAGES)]
    assert offending == []


def test_no_contract_module_imports_whoosh_markdown_or_watchfiles_at_runtime(probe: dict[str, Any]) -> None:
    """No module under provider/ executes an import of whoosh, markdown_it or watchfiles."""
    ours = [pair for pair in probe["importers"] if _is_under(pair[0], ("provider",))]
    assert ours == []


def test_the_contract_is_a_litestar_building_block(probe: dict[str, Any]) -> None:
    """Issue 25: the application is Litestar's (no hand-made ASGI router), and nothing in
    the package reaches into a server's private classes."""
    assert "litestar" in probe["modules"]
    private = [f"{path.relative_to(CONTRACT_DIR)} line {line}: {name}" for path in SOURCES
               for line, name in _file_imports(path)
               if _is_under(name, ("uvicorn.protocols", "uvicorn.supervisors", "h11"))]
    assert private == []


def test_the_probe_detects_a_forbidden_import() -> None:
    """The runtime probe is not vacuous: an import of watchfiles from a provider module is recorded."""
    code = _PROBE.replace(
        "import helpthread_kit\n",
        "import types\n"
        "m = types.ModuleType('helpthread_kit._canary')\n"
        "exec('import watchfiles', m.__dict__)\n"
        "import helpthread_kit\n",
    )
    result = _run(code)
    assert ["helpthread_kit._canary", "watchfiles"] in result["importers"]


# --------------------------------------------------------------------------------------
# Static check: the source itself
# --------------------------------------------------------------------------------------


def _imported_names(source: str, package: str) -> list[tuple[int, str]]:
    """Absolute module names imported by a source file of ``package`` (relative imports
    resolved), with line numbers."""
    package_parts = package.split(".")
    names: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level > len(package_parts):
                # Above the top-level package: outside the kit, whatever it names.
                module = ".".join([BEYOND, node.module] if node.module else [BEYOND])
            elif node.level:
                base = package_parts[: len(package_parts) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            names.append((node.lineno, module))
            names.extend((node.lineno, f"{module}.{alias.name}") for alias in node.names)
        elif isinstance(node, ast.Call):
            # importlib.import_module("yaml") / __import__("yaml")
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__") and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    names.append((node.lineno, first.value))
    return names


def _file_imports(path: Path) -> list[tuple[int, str]]:
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return _imported_names(path.read_text("utf-8"), package)


def _forbidden(names: list[tuple[int, str]]) -> list[str]:
    return [
        f"line {line}: {name}"
        for line, name in names
        if _is_under(name, FORBIDDEN_LIBRARIES) or _is_under(name, (*FORBIDDEN_PROJECT_PACKAGES, BEYOND))
    ]


def test_sources_found() -> None:
    """The static check covers the package (a moved directory would make it vacuous)."""
    names = {p.name for p in SOURCES}
    assert {"__init__.py", "signature.py", "replay.py", "request.py", "results.py", "app.py"} <= names


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(CONTRACT_DIR)))
def test_source_imports_no_forbidden_module(path: Path) -> None:
    """No .py file under helpthread_kit imports whoosh, markdown_it, watchfiles, provider.wiki or provider.search."""
    assert _forbidden(_file_imports(path)) == []


@pytest.mark.parametrize(
    "source",
    [
        "import watchfiles",
        "import whoosh.index as wi",
        "from markdown_it import MarkdownIt",
        "from watchfiles import watch",
        "def f():\n    import whoosh\n",
        "from ..wiki import classify",
        "from ..search.backend import WhooshBackend",
        "from .. import search",
        "from provider.wiki.document import Document",
        "import importlib\nimportlib.import_module('watchfiles')",
        "__import__('markdown_it')",
    ],
)
def test_static_check_catches_every_import_form(source: str) -> None:
    """The static check is not vacuous: each way of importing a forbidden module is caught."""
    assert _forbidden(_imported_names(source, "helpthread_kit")) != []


def test_static_check_allows_the_contracts_own_imports() -> None:
    """Relative imports inside the package resolve to helpthread_kit.*, which is allowed."""
    names = [name for _, name in _file_imports(CONTRACT_DIR / "signature.py")]
    assert "helpthread_kit.errors" in names
    assert "helpthread_kit.replay.ReplayStore" in names
    assert _forbidden(_imported_names("from .errors import InvalidRequest\nimport json", "helpthread_kit")) == []


# --------------------------------------------------------------------------------------
# One unit: no import cycle, nothing from outside the package but libraries (issue 14)
# --------------------------------------------------------------------------------------


def _runtime_imports(path: Path) -> list[tuple[int, str]]:
    """Like _file_imports, without ``if TYPE_CHECKING:`` blocks (never executed)."""
    tree = ast.parse(path.read_text("utf-8"))
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                setattr(node, field, [n for n in block if not (
                    isinstance(n, ast.If) and isinstance(n.test, ast.Name) and n.test.id == "TYPE_CHECKING")])
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return _imported_names(ast.unparse(tree), package)


def _internal_graph() -> dict[str, set[str]]:
    """Module -> the helpthread_kit modules it imports at run time (lazy imports
    inside functions included; ``if TYPE_CHECKING:`` left out)."""
    modules = {_module_name(p): p for p in SOURCES}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for _, imported in _runtime_imports(path):
            # "from .x import y" yields both "helpthread_kit.x" and "helpthread_kit.x.y".
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            # A module's own parent packages are initialised before it by Python itself
            # ("from . import auth" names the package too): not an edge of a cycle.
            if imported and imported != name and not name.startswith(imported + "."):
                targets.add(imported)
        graph[name] = targets
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*stack[stack.index(target):], target]
            if target not in state and (found := visit(target)):
                return found
        state[node] = 2
        stack.pop()
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_contract_package_has_no_import_cycle() -> None:
    """Between its own modules (the package's __init__, which re-exports, left out):
    the test kit no longer imports a checker that imports back."""
    assert _cycle(_internal_graph()) is None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_nothing_outside_the_package_is_imported_but_libraries() -> None:
    """No module imports provider.<anything but contract>: copying helpthread_kit
    alone is the whole of it (the checker and the kit included)."""
    outside = [
        f"{path.relative_to(CONTRACT_DIR)} line {line}: {name}"
        for path in SOURCES
        for line, name in _file_imports(path)
        if _is_under(name, ("provider",)) and not _is_under(name, ("helpthread_kit",))
    ]
    assert outside == []


def test_every_library_the_package_imports_is_in_the_kit_distribution() -> None:
    """kit/pyproject.toml (the helpthread-kit distribution's own dependency list) names
    every third-party library the package imports; the optional ones (redis, pytest for
    the test kit) are its extras."""
    import tomllib

    project = tomllib.loads((REPO_ROOT / "kit" / "pyproject.toml").read_text("utf-8"))["project"]
    listed = {dep.split(">")[0].split("<")[0].split("=")[0].strip().lower().replace("-", "_")
              for dep in project["dependencies"]}
    optional = {dep.split(">")[0].strip() for deps in project["optional-dependencies"].values() for dep in deps}
    assert optional == {"redis", "pytest"}
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    used = {name.split(".")[0] for path in SOURCES for _, name in _file_imports(path)}
    own = helpthread_kit.__name__.split(".")[0]
    third_party = {n for n in used if n and n not in stdlib and n != own}
    assert third_party - listed - {"redis", "pytest"} == set(), third_party - listed
