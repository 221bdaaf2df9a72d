"""Move the contract kit from ``provider/contract/`` to the top-level package
``helpthread_kit/`` and rewrite every reference to it, deterministically (issue 25).

    python scripts/rename_kit.py            # in the repository root, on a clean tree
    python scripts/rename_kit.py --check    # exit 1 if anything is left to rename
    python scripts/rename_kit.py --include-readme   # README.md too

It is meant to be re-run after merging branches that still say ``provider.contract``:
the folder move happens only while ``provider/contract/`` exists (files a merge added
there are moved too, without overwriting), and the rewrites are idempotent. What it
rewrites, in tracked text files (``git ls-files``):

* ``provider.contract`` → ``helpthread_kit`` and ``provider/contract`` →
  ``helpthread_kit`` (imports, docstrings, docs, configuration);
* relative imports of the kit from inside ``provider/`` (``from ..contract.x import``,
  ``from .contract import y``) → absolute ``from helpthread_kit.x import`` (there is no
  ``from . import contract`` in the tree; such a line would be left as it is);
* ``"provider" / "contract"`` path joins → ``"helpthread_kit"``;
* the packaging lines of ``pyproject.toml``, the ``Dockerfile``'s ``COPY`` and the
  lint command of ``.ci/run``, which list top-level packages.

Then it sorts the imports of the rewritten Python files (``ruff check --fix --select I``,
the project's own isort rules: ``helpthread_kit`` sorts as first-party, apart from
``provider``), so the result passes ``ruff check``.

It never touches ``CHANGELOG.md`` (history says what was) nor ``README.md`` (edited at
merge time); ``--include-readme`` rewrites ``README.md`` too.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
OLD, NEW = PurePosixPath("provider/contract"), PurePosixPath("helpthread_kit")
TEXT_SUFFIXES = frozenset({".py", ".md", ".toml", ".yml", ".yaml", ".cfg", ".ini", ".txt", ".conf", ".sh", ""})
SKIPPED = frozenset({"CHANGELOG.md", "README.md", "scripts/rename_kit.py"})

_RELATIVE = re.compile(r"^(\s*from\s+)(\.+)contract((?:\.\w+)*)(\s+import\b)", re.MULTILINE)
_PLAIN = (
    (re.compile(r"\bprovider\.contract\b"), "helpthread_kit"),
    (re.compile(r"\bprovider/contract\b"), "helpthread_kit"),
    (re.compile(r"""(["'])provider\1\s*/\s*(["'])contract\2"""), r'"helpthread_kit"'),
)
#: Lines naming the top-level packages, in files that list them.
_LISTS: dict[str, tuple[tuple[str, str], ...]] = {
    "pyproject.toml": (
        ('include = ["provider*"]', 'include = ["provider*", "helpthread_kit*"]'),
        ('packages = ["provider", ', 'packages = ["provider", "helpthread_kit", '),
    ),
    "Dockerfile": (("COPY provider ./provider\n", "COPY provider ./provider\nCOPY helpthread_kit ./helpthread_kit\n"),),
    ".ci/run": (("ruff check provider tests", "ruff check provider helpthread_kit tests"),),
}


def _tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [name for name in out.decode("utf-8").split("\0") if name]


def _move() -> None:
    """``provider/contract/**`` into ``helpthread_kit/``, with ``git mv`` where tracked."""
    old = ROOT / OLD
    if not old.is_dir():
        return
    tracked = {name for name in _tracked() if name.startswith(f"{OLD}/")}
    for path in sorted(p for p in old.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        relative = path.relative_to(old)
        target = ROOT / NEW / relative
        if target.exists():
            sys.exit(f"{target} exists already; move {path} by hand")
        target.parent.mkdir(parents=True, exist_ok=True)
        name = str(OLD / PurePosixPath(*relative.parts))
        if name in tracked:
            subprocess.run(["git", "mv", name, str(NEW / PurePosixPath(*relative.parts))], cwd=ROOT, check=True)
        else:
            shutil.move(path, target)
    shutil.rmtree(old, ignore_errors=True)


def _absolute_relative(name: str, text: str) -> str:
    """Relative imports that resolve to ``provider.contract…`` made absolute."""
    package = list(PurePosixPath(name).parts[:-1])

    def module(match: re.Match[str]) -> str:
        up = len(match.group(2)) - 1
        if up > len(package) or package[: len(package) - up] != ["provider"]:
            return match.group(0)
        return f"{match.group(1)}helpthread_kit{match.group(3)}{match.group(4)}"

    return _RELATIVE.sub(module, text)


def rewrite(name: str, text: str) -> str:
    """``text`` of the tracked file ``name`` with every reference to the kit renamed."""
    if name.endswith(".py") and name.startswith("provider/"):
        text = _absolute_relative(name, text)
    for pattern, replacement in _PLAIN:
        text = pattern.sub(replacement, text)
    for old, new in _LISTS.get(name, ()):
        if new not in text:
            text = text.replace(old, new)
    return text


def _sort_imports(names: list[str]) -> None:
    python = [name for name in names if name.endswith(".py")]
    if python:
        subprocess.run([sys.executable, "-m", "ruff", "check", "--quiet", "--fix", "--select", "I", *python],
                       cwd=ROOT, check=False)


def main() -> int:
    check = "--check" in sys.argv[1:]
    skipped = SKIPPED - {"README.md"} if "--include-readme" in sys.argv[1:] else SKIPPED
    if not check:
        _move()
    left = []
    for name in _tracked():
        path = ROOT / name
        if name in skipped or PurePosixPath(name).suffix not in TEXT_SUFFIXES or not path.is_file():
            continue
        try:
            text = path.read_text("utf-8")
        except UnicodeDecodeError:
            continue
        new = rewrite(name, text)
        if new != text:
            left.append(name)
            if not check:
                path.write_text(new, "utf-8")
    if check:
        if (ROOT / OLD).exists() or left:
            print("\n".join([str(OLD)] * (ROOT / OLD).exists() + left))
            return 1
        return 0
    _sort_imports(left)
    print(f"renamed the kit to {NEW}/; {len(left)} files rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
