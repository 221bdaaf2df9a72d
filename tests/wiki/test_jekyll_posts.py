"""Issue 24: Jekyll builds posts, drafts and collection documents by its own rules, read
as Jekyll 4 reads them (``PostReader``, ``Reader#retrieve_posts``, ``Collection``,
``Publisher#hidden_in_the_future?``)."""

from __future__ import annotations

import itertools
import re
import string
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.check import check_wiki
from provider.wiki.document import WikiSettings
from provider.wiki.sites import load_site_policy

#: Jekyll 4.3 ``Document::DATE_FILENAME_MATCHER``, as written in Ruby (Python 3.11 has
#: atomic groups): a post file Jekyll reads, by its path below ``_posts``.
JEKYLL_DATE_FILENAME = re.compile(r"^(?>.+/)*?(\d{2,4}-\d{1,2}-\d{1,2})-([^/]*)(\.[^.]+)$")

_SITES = itertools.count()
_CHARS = string.ascii_lowercase + string.digits + "-."


def _site(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / f"jk{next(_SITES)}"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    return root


_DATE = st.builds(lambda y, m, d: f"{y}-{m}-{d}", st.sampled_from(["2024", "999", "20"]),
                  st.sampled_from(["1", "01", "12"]), st.sampled_from(["5", "05", "31"]))
_NAME = st.one_of(
    st.builds(lambda d, s, e: f"{d}-{s}{e}", _DATE, st.text(_CHARS, max_size=8),
              st.sampled_from([".md", ".markdown", ""])),
    st.builds(lambda d, s, e: f"{d}{s}{e}", _DATE, st.text(_CHARS, max_size=8), st.sampled_from([".md", ""])),
    st.text(_CHARS, min_size=1, max_size=12).filter(lambda n: n not in (".", "..") and not n.startswith(".")),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=_NAME, sub=st.sampled_from(["", "news/", "a/b/"]), above=st.sampled_from(["", "blog/"]))
def test_issue24_a_posts_file_is_a_page_only_when_jekyll_reads_it(tmp_path: Path, name: str, sub: str,
                                                                   above: str) -> None:
    """X2/issue 24: a file in ``_posts`` whose name lacks ``YYYY-MM-DD-`` (or an
    extension) is not read by Jekyll's PostReader, so it is never a page; one it reads
    is not excluded for it."""
    root = _site(tmp_path, {"_config.yml": "title: x\n"})
    policy = load_site_policy(root, "jekyll")
    reason = policy.excluded_reason(f"{above}_posts/{sub}{name}")
    reads = JEKYLL_DATE_FILENAME.match(sub + name) is not None
    assert (reason is None) == reads, (sub + name, reason)


def test_issue24_collections_dir_is_where_jekyll_reads_collections_and_posts(tmp_path: Path) -> None:
    """``collections_dir: coll``: posts, drafts and collections are read below ``coll/``
    only; a ``_docs`` or ``_posts`` folder elsewhere is not read, so not pages; a
    collection folder is read at the top of the collections folder only."""
    root = _site(tmp_path, {"_config.yml": "collections_dir: coll\ncollections:\n  docs: {output: true}\n"})
    policy = load_site_policy(root, "jekyll")
    assert policy.excluded_reason("coll/_docs/a.md") is None
    assert policy.excluded_reason("coll/_posts/2024-01-05-x.md") is None
    assert policy.excluded_reason("coll/news/_posts/2024-01-05-x.md") is None
    for outside in ("_docs/a.md", "_posts/2024-01-05-x.md", "news/_posts/2024-01-05-x.md", "coll/sub/_docs/a.md"):
        assert policy.excluded_reason(outside) is not None, outside
    assert policy.page_type("coll/_docs/a.md") == "docs"
    plain = load_site_policy(_site(tmp_path, {"_config.yml": "collections:\n  docs: {output: true}\n"}), "jekyll")
    assert plain.excluded_reason("_docs/a.md") is None
    assert plain.excluded_reason("guide/_docs/a.md") is not None  # a collection is at the top only
    assert plain.excluded_reason("_docs-old/a.md") is not None


def test_issue24_collections_dir_outside_the_site_fails_closed(tmp_path: Path) -> None:
    root = _site(tmp_path, {"_config.yml": "collections_dir: ../elsewhere\n"})
    assert load_site_policy(root, "jekyll").findings


_PAGE = "---\ntitle: {t}\naudience: public\n{extra}---\n# {t}\n\nWords of {t} alone: {t}x {t}y {t}z.\n"


def test_issue24_a_future_date_withholds_posts_and_documents_not_pages(tmp_path: Path) -> None:
    """Jekyll hides posts and collection documents dated in the future (``future:
    false``, its default), never pages (a page has no date to Jekyll); with ``future:
    true`` it builds them all."""
    files = {
        "page.md": _PAGE.format(t="pagea", extra="date: 2999-01-01\n"),
        "_posts/2999-1-5-soon.md": _PAGE.format(t="posta", extra=""),
        "_posts/2020-01-05-dated.md": _PAGE.format(t="postb", extra="date: 2999-01-01\n"),
        "_docs/d.md": _PAGE.format(t="docsa", extra="date: 2999-01-01\n"),
        "_docs/2999-01-01-named.md": _PAGE.format(t="docsb", extra=""),
        "_docs/old.md": _PAGE.format(t="docsc", extra="date: 2001-01-01\n"),
    }
    config = "collections:\n  docs: {output: true}\n"
    for future, held in ((False, {"_posts/2999-1-5-soon.md", "_posts/2020-01-05-dated.md", "_docs/d.md",
                                  "_docs/2999-01-01-named.md"}),
                         (True, set())):
        root = _site(tmp_path, {"_config.yml": config + ("future: true\n" if future else ""), **files})
        report = check_wiki(WikiSettings(root=root, layout="jekyll"))
        withheld = {f.path for f in report.files if f.resolved is not None and f.resolved.withheld}
        assert withheld == held, (future, withheld)
