"""Material for MkDocs code and text annotations (CONTRACT R3: a snippet is the text a
reader sees): the site turns ``# (1)!`` in code and ``(1)`` in an ``{ .annotate }`` block
into a (+) button and hides the numbered list after the block (its items are the
buttons' texts), so no passage shows a marker or a list number that points at nothing;
the items' words stay searchable. A real-corpus test reads openai-agents-docs."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.dialects import apply_dialects
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.mkdocs_annotations import without_annotations
from provider.wiki.plaintext import markdown_to_text
from tests.support import REPO_ROOT

CORPUS = Path(os.environ.get("SHARED_CORPORA", REPO_ROOT.parent / "shared" / "corpora")) / "openai-agents-docs"
#: What a reader never sees of an annotation: a marker in code or prose, the list's numbers.
MARKER = re.compile(r"\(\d{1,3}\)!|(?:#|//|--|/\*|<!--) ?\(\d{1,3}\)|\{ ?\.annotate ?\}")


def text(source: str) -> list[str]:
    return [block.text for block in markdown_to_text(apply_dialects(source, ("mkdocs", "heading_attributes"))).blocks]


def test_code_annotations_lose_their_markers_and_the_list_its_numbers() -> None:
    source = ("Create a handoff:\n\n```python\nbilling = Agent(name=\"Billing\")\n\n# (1)!\n"
              "triage = Agent(handoffs=[billing])  # (2)!\n```\n\n"
              "1. You can use the agent directly.\n2.  Or the `handoff()` function,\n    with options.\n\nNext.\n")
    assert text(source) == ["Create a handoff:", 'billing = Agent(name="Billing") triage = Agent(handoffs=[billing])',
                            "You can use the agent directly.", "Or the handoff() function, with options.", "Next."]


@pytest.mark.parametrize(("line", "shown"), [
    ("x = 1  # (1)!", "x = 1"),                       # "!": the whole comment goes
    ("x = 1  # set x (1)", "x = 1 # set x"),          # without: the comment's words stay
    ("let y = 2; // (2)", "let y = 2;"),              # a comment of nothing but the marker goes too
    ("int z = 3; /* (3) */", "int z = 3;"),
    ("<p>Hi</p> <!-- (4) -->", "<p>Hi</p>"),
    ("<p>Hi</p> <!-- greeting (5) -->", "<p>Hi</p> <!-- greeting -->"),
    ("SELECT 1 -- (6)", "SELECT 1"),
    ('s = "a # b"  # (7)!', 's = "a # b"'),          # a "#" in a string before the comment is code
])
def test_each_comment_syntax(line: str, shown: str) -> None:
    assert text(f"```\n{line}\n```\n\n1. Note.\n")[0] == shown


def test_markers_without_a_list_after_the_block_are_code_as_written() -> None:
    # Material annotates only when the list follows; otherwise "# (1)" is what the page shows.
    assert text("```python\nx = 1  # (1)\n```\n\nText.\n") == ["x = 1 # (1)", "Text."]


def test_text_annotations_and_annotated_admonitions() -> None:
    source = ("Lorem ipsum (1) dolor, `code (2)` stays.\n{ .annotate }\n\n1.  I'm an annotation!\n\nAfter.\n\n"
              '!!! note annotate "Heads up"\n\n    Body (1) text.\n\n1.  Inside the note.\n')
    assert text(source) == ["Lorem ipsum dolor, code (2) stays.", "I'm an annotation!", "After.", "Heads up:",
                            "Body text.", "Inside the note."]


def test_an_annotated_block_in_a_content_tab_keeps_its_indentation() -> None:
    source = '=== "Python"\n\n    ```python\n    run()  # (1)!\n    ```\n\n    1. Runs it.\n\nOut.\n'
    assert text(source) == ["Python:", "run()", "Runs it.", "Out."]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["```", "```python", "x = 1  # (1)!", "# (2)!", "1. Note (1).", "2.", "    more",
                                 "{ .annotate }", "!!! note annotate", "    body (1)", "", "Text (1) here.",
                                 "<!-- (3) -->", "// (4)"]), max_size=40))
def test_any_mix_is_cleaned_without_error_and_without_markers_in_prose(lines: list[str]) -> None:
    out = without_annotations(lines)
    assert len(out) <= len(lines) + lines.count("") + len(lines)  # items become paragraphs, nothing multiplies
    for block in markdown_to_text(apply_dialects("\n".join(lines), ("mkdocs",))).blocks:
        assert block.text


def test_linear_on_hostile_input() -> None:
    for hostile in ("{ .annotate }\n" * 20000, "a (1)\n{ .annotate }\n" * 20000,
                    "```\n" + ("#" * 3000 + " (1)!\n") * 100 + "```\n\n1. x\n",
                    "!!! note annotate\n    x (1)\n" * 10000):
        started = time.monotonic()
        without_annotations(hostile.split("\n"))
        assert time.monotonic() - started < 5


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared openai-agents-docs corpus is not beside the checkout")
def test_openai_agents_docs_passages_show_no_annotation_markers() -> None:
    """The corpus annotates code on context, guardrails, handoffs, models, tools and
    tracing pages (and their translations): no served passage shows a marker, and the
    annotations' words are still there."""
    wiki = WikiSettings(root=CORPUS, layout="mkdocs", locales=("en", "ja", "ko", "zh"))
    marked, texts = [], {}
    for path in sorted((CORPUS / "docs").rglob("*.md")):
        relpath = str(path.relative_to(CORPUS))
        data = path.read_bytes()
        if b"(1)" not in data:  # every annotated page numbers from 1
            continue
        document = parse_document(wiki, relpath, data, size=len(data), mtime_ns=0)
        if not isinstance(document, WikiDocument):
            continue
        texts[relpath] = " ".join(p.text for p in document.passages)
        marked += [relpath for p in document.passages if MARKER.search(p.text)]
    assert not marked, sorted(set(marked))
    assert "You can use the agent directly (as in billing_agent)" in texts["docs/handoffs.md"]
    assert "You can pass the decorated functions to the list of tools." in texts["docs/tools.md"]
    assert "@tool async def fetch_weather" in texts["docs/tools.md"]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared openai-agents-docs corpus is not beside the checkout")
def test_openai_agents_docs_headings_only_reference_pages_are_not_served() -> None:
    """docs/ref/realtime/config.md and events.md are headings over mkdocstrings lines: their
    only passage was a run of headings; they are now withheld as "no text to serve"."""
    from provider.wiki.corpus import resolve

    wiki = WikiSettings(root=CORPUS, layout="mkdocs", locales=("en", "ja", "ko", "zh"))
    metas = {}
    for relpath in ("docs/ref/realtime/config.md", "docs/ref/realtime/events.md", "docs/handoffs.md"):
        data = (CORPUS / relpath).read_bytes()
        document = parse_document(wiki, relpath, data, size=len(data), mtime_ns=0)
        assert isinstance(document, WikiDocument)
        metas[relpath] = document.meta
    resolved = resolve(metas, default_locale="en", layout=wiki.preset)
    assert resolved["docs/handoffs.md"].served
    for relpath in ("docs/ref/realtime/config.md", "docs/ref/realtime/events.md"):
        assert not resolved[relpath].served
        assert (resolved[relpath].withheld or "").startswith("no text to serve"), resolved[relpath].withheld
