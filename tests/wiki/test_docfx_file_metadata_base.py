"""Issue 24: which folder a DocFX ``fileMetadata`` glob is relative to depends on the
DocFX version and the content groups (the docset folder, or the ``src`` of the entry
holding the file). Where a ``src`` is not the docset folder both readings apply, and an
internal audience or ``NOINDEX`` from either one wins."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.sites import load_site_policy

_SITES = itertools.count()


def _policy(tmp_path: Path, docfx: dict):  # type: ignore[no-untyped-def, type-arg]
    root = tmp_path / f"dfx{next(_SITES)}"
    root.mkdir()
    (root / "docfx.json").write_text(json.dumps({"build": docfx}), "utf-8")
    return load_site_policy(root, "docfx")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(srcs=st.sampled_from([["docs"], ["docs", "more"], ["", "docs"], ["./docs/"]]),
       relative_to=st.sampled_from(["docset", "src"]),
       key_value=st.sampled_from([("audience", "internal"), ("ROBOTS", "NOINDEX"), ("ms.audience", "partner"),
                                  ("published", False)]),
       public_after=st.booleans())
def test_issue24_a_restricting_file_metadata_glob_applies_under_either_base(
        tmp_path: Path, srcs: list[str], relative_to: str, key_value: tuple[str, object],
        public_after: bool) -> None:
    """The class: whichever folder the author meant the glob relative to, the pages it
    names get the restricting value, even when a later glob read the other way says
    ``public``; pages no reading names do not."""
    key, value = key_value
    src = srcs[0] if srcs[0].strip("./") else srcs[1]
    glob = "docs/team/**" if relative_to == "docset" else "team/**"
    by_glob: dict[str, object] = {glob: value}
    if public_after and key == "audience":
        by_glob["team/**" if relative_to == "docset" else "docs/team/**"] = "public"
    policy = _policy(tmp_path, {"content": [{"files": ["**/*.md"], "src": s} for s in srcs],
                                "fileMetadata": {key: by_glob}})
    assert src.strip("./") == "docs"
    values, _ = policy.defaults_for("docs/team/a.md")
    assert values.get(key) == value, (srcs, glob, values)
    other, _ = policy.defaults_for("docs/guide/b.md")
    assert key not in other


def test_issue24_a_public_value_only_one_reading_gives_is_not_taken(tmp_path: Path) -> None:
    """``audience: public`` that only the src-relative reading gives a page is dropped
    (the page's own keys and the audience rules decide); one both readings give stays."""
    policy = _policy(tmp_path, {"content": [{"files": ["**/*.md"], "src": "docs"}],
                                "fileMetadata": {"audience": {"guide/**": "public", "**/*.md": "public"},
                                                 "author": {"guide/**": "me"}}})
    values, _ = policy.defaults_for("docs/guide/a.md")
    assert values == {"audience": "public", "author": "me"}
    lone = _policy(tmp_path, {"content": [{"files": ["**/*.md"], "src": "docs"}],
                              "fileMetadata": {"audience": {"guide/**": "public"}}})
    assert "audience" not in lone.defaults_for("docs/guide/a.md")[0]


def test_issue24_without_a_src_folder_there_is_one_reading(tmp_path: Path) -> None:
    policy = _policy(tmp_path, {"content": [{"files": ["**/*.md"]}],
                                "fileMetadata": {"audience": {"**": "internal", "guide/**": "public"}}})
    assert policy.defaults_for("guide/a.md")[0] == {"audience": "public"}
