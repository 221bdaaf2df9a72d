"""The README stays a front door (issue 26): at most 150 lines, its links resolve, and its
test command is the one .ci/run runs; every page of docs/ is reachable from the site's
navigation (mkdocs.yml), which ``mkdocs build --strict`` in .ci/run also enforces."""

from __future__ import annotations

import re

import yaml

from tests.support import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text("utf-8")


def test_readme_is_at_most_150_lines() -> None:
    assert len(README.splitlines()) <= 150


def test_readme_links_resolve() -> None:
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    assert targets
    for target in targets:
        if not target.startswith(("http://", "https://")):
            assert (REPO_ROOT / target).exists(), target


def test_readme_test_command_is_what_ci_runs() -> None:
    readme_runs = re.findall(r"\.venv/bin/python -m pytest([^\n`]*)", README)
    ci_runs = re.findall(r"^\.venv/bin/python -m pytest(.*)$", (REPO_ROOT / ".ci" / "run").read_text("utf-8"),
                         re.MULTILINE)
    assert ci_runs == [" --full"], ci_runs
    assert readme_runs and readme_runs[0] == ci_runs[0], readme_runs


def _nav_pages(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [page for item in node for page in _nav_pages(item)]
    if isinstance(node, dict):
        return [page for value in node.values() for page in _nav_pages(value)]
    return []


def test_every_docs_page_is_in_the_navigation() -> None:
    config = yaml.safe_load((REPO_ROOT / "mkdocs.yml").read_text("utf-8"))
    nav = set(_nav_pages(config["nav"]))
    pages = {path.relative_to(REPO_ROOT / "docs").as_posix() for path in (REPO_ROOT / "docs").rglob("*.md")}
    assert pages == nav, {"not in nav": sorted(pages - nav), "missing page": sorted(nav - pages)}
