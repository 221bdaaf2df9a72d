"""Assemble the contract kit as a distribution of its own: ``helpthread-kit``, import
package ``helpthread_kit``, console command ``conformance``.

    python scripts/build_contract_dist.py OUT_DIR        # a source tree in OUT_DIR
    pip wheel --no-deps -w WHEELS OUT_DIR                 # a wheel: helpthread_kit-….whl
    pip install 'WHEELS/helpthread_kit-….whl[kit]'       # into an adapter's environment

The tree holds ``helpthread_kit/`` exactly as this repository has it (the files the
reference provider itself imports) and a ``pyproject.toml`` whose dependencies are the
``contract`` extra of the root ``pyproject.toml`` — the one list of what the kit needs:
Litestar and what it brings, no Whoosh, no Markdown parser, no file watcher — plus the
extras ``kit`` (pytest, for :mod:`helpthread_kit.testkit`) and ``redis``.

Its top-level package is its own: it installs beside the reference provider.

Raises ``FileNotFoundError`` (exit status 1) when the kit folder is missing.
"""

from __future__ import annotations

import shutil
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAME = "helpthread-kit"
PACKAGE = "helpthread_kit"
DESCRIPTION = ("The Helpthread Knowledge Provider Interface v1 kit: signatures, replay stores, the Litestar app and "
               "plugin, serve(), the conformance checker and the adapter test kit")
#: The black-box checker's console command.
COMMAND = f'conformance = "{PACKAGE}.conformance_cli:run"'


def _toml_list(values: list[str]) -> str:
    return "[" + ", ".join(f'"{value}"' for value in values) + "]"


def build(out: Path) -> Path:
    """Write the source tree into ``out`` (emptied first) and return it.

    Raises:
        FileNotFoundError: the kit folder ``helpthread_kit/`` is missing.
        KeyError: the root pyproject.toml has no ``contract`` extra.
    """
    source = ROOT / PACKAGE
    if not (source / "__init__.py").is_file():
        raise FileNotFoundError(f"{source} is not a package (run scripts/rename_kit.py first?)")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    extras = project["optional-dependencies"]
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copytree(source, out / PACKAGE, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    kit = [dep for dep in extras["test"] if dep.split(">")[0].split("=")[0].strip() == "pytest"]
    redis = [dep for dep in project["dependencies"] if dep.startswith("redis")]
    (out / "pyproject.toml").write_text(f'''[build-system]
requires = ["setuptools>=65"]
build-backend = "setuptools.build_meta"

[project]
name = "{NAME}"
version = "{project["version"]}"
description = "{DESCRIPTION}"
readme = "README.md"
requires-python = "{project["requires-python"]}"
dependencies = {_toml_list(extras["contract"])}

[project.optional-dependencies]
kit = {_toml_list(kit)}
redis = {_toml_list(redis)}

[project.scripts]
{COMMAND}

[tool.setuptools.packages.find]
include = ["{PACKAGE}*"]

[tool.setuptools.package-data]
"{PACKAGE}.schemas" = ["*.json"]
''', "utf-8")
    (out / "README.md").write_text(f"# {NAME}\n\nThe contract kit of the Helpthread reference knowledge provider "
                                   f"(import `{PACKAGE}`; command `conformance`). Built by "
                                   "scripts/build_contract_dist.py; see the repository's docs/adapter.md "
                                   "(\"Write an adapter\").\n", "utf-8")
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: build_contract_dist.py OUT_DIR")
    try:
        print(build(Path(sys.argv[1])))
    except FileNotFoundError as exc:
        sys.exit(str(exc))
