"""Assemble the contract layer as a distribution of its own: ``helpthread-provider-contract``.

    python scripts/build_contract_dist.py OUT_DIR        # a source tree in OUT_DIR
    pip install OUT_DIR                                   # or: pip wheel OUT_DIR

The tree holds ``provider/contract/`` exactly as this repository has it (the files the
reference provider itself runs), a two-line ``provider/__init__.py``, and a
``pyproject.toml`` whose dependencies are the ``contract`` extra of the root
``pyproject.toml`` — the one list of what the contract layer needs — plus the extras
``kit`` (pytest, for :mod:`provider.contract.testkit`) and ``redis``.

Install it *instead of* the reference provider, never beside it: both carry
``provider/__init__.py``.
"""

from __future__ import annotations

import shutil
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAME = "helpthread-provider-contract"
DESCRIPTION = ("The contract layer of the Helpthread knowledge provider: signatures, replay stores, the ASGI app, "
               "the hardened server, the conformance checker and the test kit")

_INIT = '''"""Helpthread Knowledge Provider Interface v1: the contract layer only ({name}).
See provider.contract."""
'''


def _toml_list(values: list[str]) -> str:
    return "[" + ", ".join(f'"{value}"' for value in values) + "]"


def build(out: Path) -> Path:
    """Write the source tree into ``out`` (emptied first) and return it.

    Raises:
        KeyError: the root pyproject.toml has no ``contract`` extra.
    """
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    extras = project["optional-dependencies"]
    if out.exists():
        shutil.rmtree(out)
    (out / "provider").mkdir(parents=True)
    shutil.copytree(ROOT / "provider" / "contract", out / "provider" / "contract",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (out / "provider" / "__init__.py").write_text(_INIT.format(name=NAME), "utf-8")
    kit = [dep for dep in extras["test"] if dep.split(">")[0].split("=")[0].strip() == "pytest"]
    redis = [dep for dep in project["dependencies"] if dep.startswith("redis")]
    (out / "pyproject.toml").write_text(f'''[build-system]
requires = ["setuptools>=65"]
build-backend = "setuptools.build_meta"

[project]
name = "{NAME}"
version = "{project["version"]}"
description = "{DESCRIPTION}"
requires-python = "{project["requires-python"]}"
dependencies = {_toml_list(extras["contract"])}

[project.optional-dependencies]
kit = {_toml_list(kit)}
redis = {_toml_list(redis)}

[tool.setuptools.packages.find]
include = ["provider*"]

[tool.setuptools.package-data]
"provider.contract.schemas" = ["*.json"]
''', "utf-8")
    (out / "README.md").write_text(f"# {NAME}\n\nBuilt by scripts/build_contract_dist.py; see the repository's "
                                   "docs/adapter.md (\"Write an adapter\").\n", "utf-8")
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: build_contract_dist.py OUT_DIR")
    print(build(Path(sys.argv[1])))
