"""Redirect stubs are not served (issue 24; CONTRACT X2: what is served is what the site shows).

A page kept only to send readers to another URL shows nothing: served, its "This page
moved" line outranked the page it points to. Balance: a page that *shows* a redirect
script as an example, or a long page that happens to hold one, is a page.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from provider.config import load_config
from provider.wiki.check import check_wiki
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.reasons import withheld_kind
from tests.corpora import require_corpus

STUBS = (
    '<script>\n  window.location.replace("../models/litellm_model/");\n</script>\n\nThis page moved.\n',
    '<script>window.location.href = "/new/";</script>\n',
    '<script type="text/javascript">location = "/new/"</script>\n\nIf you are not redirected, [click here](/new/).\n',
    '<meta http-equiv="refresh" content="0; url=/new/">\n\nMoved to [the new page](/new/).\n',
    "<META HTTP-EQUIV='Refresh' CONTENT='0;URL=/new/'>\n",
)


def _parse(text: str, layout: str = "mkdocs") -> WikiDocument:
    result = parse_document(WikiSettings(root=Path("/x"), layout=layout), "docs/old.md", text.encode("utf-8"),
                            size=len(text), mtime_ns=0)
    assert isinstance(result, WikiDocument)
    return result


@pytest.mark.parametrize("layout", ["mkdocs", "plain", "jekyll", "hugo", "docfx"])
@pytest.mark.parametrize("body", STUBS)
def test_x2_a_page_that_only_redirects_is_withheld_as_a_redirect_stub(body: str, layout: str) -> None:
    doc = _parse(f"---\ntitle: Old page\n---\n# Old page\n\n{body}", layout)
    assert doc.meta.draft
    assert withheld_kind(doc.meta.publication["path"]) == "redirect stubs"


@pytest.mark.parametrize("key", ["redirect_to", "redirect", "redirect_url"])
def test_x2_front_matter_redirect_withholds_the_page(key: str) -> None:
    doc = _parse(f"---\ntitle: Old\n{key}: https://example.com/new/\n---\n# Old\n\nThis moved.\n", "jekyll")
    assert doc.meta.draft and "front matter " + key in doc.meta.publication["path"]


@pytest.mark.parametrize("body", [
    # shown as code: an example of the technique, not a redirect
    "How to redirect:\n\n```html\n<script>window.location.replace('/new/')</script>\n```\n",
    # a long page holding a script
    "<script>location.replace('/x')</script>\n\n" + " ".join(["Words of a real guide page."] * 12) + "\n",
    # a page about redirects
    "Set `redirect_to` in front matter, or add a meta refresh tag to the head of the page.\n",
])
def test_balance_pages_about_redirects_are_served(body: str) -> None:
    doc = _parse(f"---\ntitle: Redirects\nredirect: false\n---\n# Redirects\n\n{body}")
    assert not doc.meta.draft, doc.meta.publication


@pytest.mark.slow
def test_openai_agents_docs_redirect_stub_is_withheld_and_counted() -> None:
    """The operator trial's page: ``docs/ref/extensions/litellm.md`` (a script and a
    "this page moved" line) is withheld; ``check``'s summary counts it by kind."""
    root = require_corpus("openai-agents-docs")
    config = load_config(Path(__file__).resolve().parents[2] / "bench" / "corpora" / "openai-agents-docs.yaml")
    report = check_wiki(dataclasses.replace(config.wiki_settings(), root=root))
    entry = next(e for e in report.files if e.path == "docs/ref/extensions/litellm.md")
    assert entry.resolved is not None and not entry.resolved.served
    by_reason = report.summary()["withheldByReason"]
    assert by_reason["redirect stubs"] >= 1
    assert by_reason["no text to serve (generated or bare title)"] >= 200  # the mkdocstrings stubs
    assert sum(by_reason.values()) == report.summary()["withheld"]
