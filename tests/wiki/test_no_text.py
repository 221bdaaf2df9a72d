"""A page with no text beyond its title is not served (issue 24): mkdocstrings stubs
(``# Agents`` then ``::: agents.agent``) render from code the provider does not have, and
served with nothing but their title they outrank real guides. ``check`` names the cause."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.corpus import resolve
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.reasons import withheld_kind

NOW = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)


def _resolve(files: dict[str, str], layout: str = "mkdocs") -> dict[str, tuple[bool, str]]:
    wiki = WikiSettings(root=Path("/x"), layout=layout)
    docs = {}
    for relpath, text in files.items():
        doc = parse_document(wiki, relpath, text.encode("utf-8"), size=len(text), mtime_ns=0)
        assert isinstance(doc, WikiDocument)
        docs[relpath] = doc.meta
    resolved = resolve(docs, default_locale="en", now=NOW, layout=wiki.preset)
    return {p: (r.served, r.withheld or "") for p, r in resolved.items()}


HEAD = "---\naudience: public\n---\n"


@pytest.mark.parametrize(("body", "cause"), [
    ("# `Agents`\n\n::: agents.agent\n", "(::: agents.agent)"),
    ("# Runner\n\n::: agents.run\n    options:\n      members: [Runner]\n", "(::: agents.run)"),
    ("# Tutorial\n\n{* ../../docs_src/tutorial.md *}\n", "included from other files"),
    ('# Changelog\n\n--8<-- "CHANGELOG.md"\n', "included from other files"),
    ("# Just a title\n", "nothing but its title"),
])
def test_a_page_with_nothing_but_its_title_is_not_served(body: str, cause: str) -> None:
    served, why = _resolve({"docs/ref/page.md": HEAD + body})["docs/ref/page.md"]
    assert not served
    assert why.startswith("no text to serve") and cause in why, why
    assert withheld_kind(why) == "no text to serve (generated or bare title)"


@pytest.mark.parametrize("body", [
    "# `Agents`\n\nAgents are the core building block.\n\n::: agents.agent\n",
    "# Runner\n\n## Run options\n",  # a heading beyond the title is text
    "Title-less text, one sentence.\n",
    "Page.\n",  # its title comes from the file name: the text is what it says
    '# Setup\n\n--8<-- "x.md" and then run the installer.\n',  # not an include: text follows the file
])
def test_a_page_with_any_text_beyond_its_title_is_served(body: str) -> None:
    served, why = _resolve({"docs/ref/page.md": HEAD + body})["docs/ref/page.md"]
    assert served, why


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=st.lists(st.sampled_from(["Agent", "Run", "Config", "Types", "MCP", "util"]), min_size=1, max_size=3),
       word=st.sampled_from(["describes", "the", "returns", "Example", "note"]),
       layout=st.sampled_from(["plain", "mkdocs", "docusaurus", "jekyll", "docfx"]))
def test_one_word_beyond_the_title_keeps_the_page(title: list[str], word: str, layout: str) -> None:
    heading = " ".join(title)
    stub = _resolve({"docs/a.md": f"{HEAD}# {heading}\n"}, layout)["docs/a.md"]
    page = _resolve({"docs/a.md": f"{HEAD}# {heading}\n\n{heading} {word}.\n"}, layout)["docs/a.md"]
    assert not stub[0]
    assert page[0] == (word.casefold() not in heading.casefold()), page


@pytest.mark.parametrize("body", [
    "# Realtime Events\n\n## Session Events\n\n::: agents.realtime.events.RealtimeSessionEvent\n\n"
    "## Event Types\n\n### Agent Events\n::: agents.realtime.events.RealtimeAgentStartEvent\n",
    "# Changelog\n\n## 2026\n\n--8<-- \"CHANGELOG.md\"\n",
])
def test_a_page_of_headings_over_generated_text_is_not_served(body: str) -> None:
    """Headings and mkdocstrings (or include) lines, nothing else: the text is what the
    site generates; served, its snippet would be a run of headings (openai-agents-docs'
    docs/ref/realtime/config.md and events.md were)."""
    served, why = _resolve({"docs/ref/page.md": HEAD + body})["docs/ref/page.md"]
    assert not served
    assert why.startswith("no text to serve"), why


def test_a_page_of_headings_alone_or_with_text_over_generated_text_is_served() -> None:
    pages = {"docs/a.md": HEAD + "# Runner\n\n## Run options\n\n## Streaming\n",  # nothing generated
             "docs/b.md": HEAD + "# Events\n\n## Session\n\nSessions emit events.\n\n::: agents.Event\n"}
    assert all(served for served, _ in _resolve(pages).values())
