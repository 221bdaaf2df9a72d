"""Issue 24: docs-tool patterns matched with each tool's own semantics, as classes.

* DocFX globs (``build.content`` ``files``/``exclude``, ``fileMetadata``) ignore case
  unless a file mapping says ``"case": true``; Hugo's mount ``includeFiles``/
  ``excludeFiles`` ignore case.
* Hugo ``ignoreFiles`` are Go (RE2) regular expressions: POSIX classes such as
  ``[[:digit:]]`` mean what they mean in Go.
"""

from __future__ import annotations

import itertools
import json
import string
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.sites import load_site_policy
from provider.wiki.sites.policy import PathRule, rule_matches
from tests.support import write_files

_SITES = itertools.count()
_SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
_WORD = st.text(string.ascii_lowercase, min_size=2, max_size=8)




def _variant(word: str, flips: list[bool]) -> str:
    """``word`` with the letters ``flips`` marks in upper case (at least one changed)."""
    out = "".join(c.upper() if flip else c for c, flip in zip(word, itertools.cycle(flips), strict=False))
    return out if out != word else word.capitalize()


@_SLOW
@given(folder=_WORD, name=_WORD, flips=st.lists(st.booleans(), min_size=1, max_size=8),
       pattern_side=st.booleans())
def test_docfx_exclude_ignores_case_like_docfx(tmp_path: Path, folder: str, name: str, flips: list[bool],
                                               pattern_side: bool) -> None:
    """``exclude: ["internal/**"]`` excludes ``Internal/a.md`` (and ``exclude:
    ["Internal/**"]`` excludes ``internal/a.md``): DocFX's default glob options ignore
    case, so the provider does too (a leak otherwise: the page is not on the site)."""
    other = _variant(folder, flips)
    written, on_disk = (other, folder) if pattern_side else (folder, other)
    site = write_files(tmp_path / f"d{next(_SITES)}", {
        "docfx.json": json.dumps({"build": {"content": [{"files": ["**/*.md"], "exclude": [f"{written}/**"]}]}}),
    })
    policy = load_site_policy(site, "docfx")
    assert not policy.findings
    assert policy.excluded_reason(f"{on_disk}/{name}.md") is not None
    assert policy.excluded_reason(f"x{folder}/{name}.md") is None


@_SLOW
@given(folder=_WORD, name=_WORD, flips=st.lists(st.booleans(), min_size=1, max_size=8))
def test_docfx_case_true_compares_case(tmp_path: Path, folder: str, name: str, flips: list[bool]) -> None:
    """A file mapping with ``"case": true`` compares case, as DocFX does then: the other
    spelling is built (its ``files`` glob matches regardless of case)."""
    site = write_files(tmp_path / f"c{next(_SITES)}", {
        "docfx.json": json.dumps({"build": {"content": [
            {"files": ["**/*.md"], "exclude": [f"{folder}/**"], "case": True}]}}),
    })
    policy = load_site_policy(site, "docfx")
    assert policy.excluded_reason(f"{folder}/{name}.md") is not None
    assert policy.excluded_reason(f"{_variant(folder, flips)}/{name}.md") is None


@_SLOW
@given(folder=_WORD, name=_WORD, flips=st.lists(st.booleans(), min_size=1, max_size=8),
       key=st.sampled_from(["ROBOTS", "audience"]))
def test_docfx_file_metadata_globs_ignore_case(tmp_path: Path, folder: str, name: str, flips: list[bool],
                                               key: str) -> None:
    """``fileMetadata: {ROBOTS: {"Archive/**.md": NOINDEX}}`` applies to
    ``archive/old.md``."""
    value = "NOINDEX" if key == "ROBOTS" else "internal"
    site = write_files(tmp_path / f"m{next(_SITES)}", {
        "docfx.json": json.dumps({"build": {"content": [{"files": ["**/*.md"]}],
                                            "fileMetadata": {key: {f"{_variant(folder, flips)}/**.md": value}}}}),
    })
    policy = load_site_policy(site, "docfx")
    assert policy.defaults_for(f"{folder}/{name}.md")[0].get(key) == value
    assert key not in policy.defaults_for(f"{name}.md")[0]


@_SLOW
@given(folder=_WORD, name=_WORD, flips=st.lists(st.booleans(), min_size=1, max_size=8))
def test_hugo_mount_exclude_files_ignore_case(tmp_path: Path, folder: str, name: str, flips: list[bool]) -> None:
    """Hugo's mount filters ignore case: ``excludeFiles = ["internal/**"]`` excludes
    ``Internal/a.md``."""
    site = write_files(tmp_path / f"h{next(_SITES)}", {
        "hugo.toml": (f'[[module.mounts]]\nsource = "content"\ntarget = "content"\n'
                      f'excludeFiles = ["{folder}/**"]\n'),
    })
    policy = load_site_policy(site / "content", "hugo")
    assert policy.excluded_reason(f"{_variant(folder, flips)}/{name}.md") is not None
    assert policy.excluded_reason(f"{name}.md") is None


#: POSIX classes as Go's regexp reads them, with members and non-members.
_CLASSES = {
    "digit": (string.digits, "ab-"),
    "alpha": (string.ascii_letters, "09_-"),
    "upper": (string.ascii_uppercase, "ab09"),
    "lower": (string.ascii_lowercase, "AB09"),
    "xdigit": (string.hexdigits, "gxz-"),
    "alnum": (string.ascii_letters + string.digits, "_-"),
}


@_SLOW
@given(data=st.data(), cls=st.sampled_from(sorted(_CLASSES)), stem=_WORD)
def test_hugo_ignore_files_posix_classes_are_go_classes(tmp_path: Path, data: st.DataObject, cls: str,
                                                        stem: str) -> None:
    """``ignoreFiles = ['notes[[:digit:]]+\\.md$']`` ignores ``notes2024.md``: Python's
    ``re`` reads ``[[:digit:]]`` as a class of ``[:digt`` and a literal ``]``, so the
    page was served; the pattern is compiled by RE2, as Go does."""
    members, others = _CLASSES[cls]
    word = data.draw(st.text(members, min_size=1, max_size=6))
    stranger = data.draw(st.sampled_from(others))
    site = write_files(tmp_path / f"r{next(_SITES)}", {"hugo.toml": f"ignoreFiles = ['{stem}[[:{cls}:]]+\\.md$']\n"})
    policy = load_site_policy(site / "content", "hugo")
    assert not policy.findings
    assert policy.excluded_reason(f"docs/{stem}{word}.md") is not None
    assert policy.excluded_reason(f"docs/{stem}{stranger}.md") is None


def test_hugo_ignore_files_go_only_syntax_and_case_flag() -> None:
    """Go's ``\\z`` and ``(?i)`` are read as Go reads them; a pattern Go rejects
    (``\\Z``, a backreference) matches nothing and is a finding (tested in test_sites)."""
    assert rule_matches("goregex", (r"\.secret\.md\z",), "/s/content/a.secret.md")
    assert rule_matches("goregex", (r"(?i)wip-",), "/s/content/WIP-plan.md")
    assert not rule_matches("goregex", (r"(a)\1",), "aa")
    assert PathRule("goregex", (r"notes[[:digit:]]+\.md$",), "r").excludes("docs/notes2024.md")


def test_hugo_ignore_files_re2_rejects_what_go_rejects(tmp_path: Path) -> None:
    """A backreference is not Go syntax: Hugo fails to build, so the provider reports a
    finding over the whole content root (fail closed)."""
    site = write_files(tmp_path / "bad", {"hugo.toml": "ignoreFiles = ['(a)\\1']\n"})
    policy = load_site_policy(site / "content", "hugo")
    assert policy.findings and "RE2" in policy.findings[0].message
