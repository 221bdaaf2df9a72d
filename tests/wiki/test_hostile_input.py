"""Hostile wiki input: nothing hangs the indexer, nothing smuggles markup (CONTRACT X7, R3)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from helpthread_kit.conformance.plaintext import markup_in
from provider.wiki.document import WikiSettings, load_document
from provider.wiki.files import Skipped
from provider.wiki.plaintext import markdown_to_text, remove_spans
from provider.wiki.reader import DocumentReader, ReaderClosed

OPEN, CLOSE = re.compile(r"\{\{"), re.compile(r"\}\}")


def test_remove_spans_pairs_each_opener_with_the_next_closer() -> None:
    assert remove_spans("a {{ b }} c {{ d }} e", OPEN, CLOSE) == "a   c   e"
    assert remove_spans("a {{ b", OPEN, CLOSE) == "a {{ b"  # no closer: kept
    assert remove_spans("a {{ b", OPEN, CLOSE, to_end=True) == "a  "
    assert remove_spans("{{" + "x" * 50 + "}}", OPEN, CLOSE, window=10) == "{{" + "x" * 50 + "}}"
    assert remove_spans("{{ {{ x }} }}", OPEN, CLOSE) == "  }}"


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "source",
    [
        "import" + " " * 6000 + "x\n",  # once cubic in the MDX import pattern
        "{% comment %}" * 50_000,  # once a 100k-character rescan per opener
        "{{" * 200_000,
        "<!--" * 50_000,  # html.parser is quadratic on unclosed comments
        "<div " * 50_000,  # ... and on unclosed tags: this took 463 s
        "Text <b " * 50_000,  # the same inside a paragraph (inline HTML)
        "{/*" * 100_000,
        "{{<" * 100_000 + "x",
    ],
)
def test_pathological_sources_finish_and_yield_plain_text(source: str) -> None:
    for block in markdown_to_text(source).blocks:
        assert markup_in(block.text) == []


@pytest.mark.parametrize(
    ("source", "expected", "absent"),
    [
        ("[click](javascript:alert(document.cookie)) here", "click here", "javascript"),
        ("Visible {/* hidden note */} text", "Visible text", "hidden"),
        ("A note[^1].\n\n[^1]: The source.", "A note. The source.", "[^"),
        ("This is ==marked== text.", "This is marked text.", "=="),
        ("- [ ] open item\n- [x] done item", "open item done item", "["),
        ("> [!WARNING]\n> Back up first.", "WARNING: Back up first.", "[!"),
        ("Para {: .note} end.\n\nHeading {#anchor}", "Para end. Heading", "{"),
        ("Gear text\n\n=================\n\nMore gear.", "Gear text More gear.", "==="),
    ],
)
def test_r3_markdown_left_as_text_is_scrubbed(source: str, expected: str, absent: str) -> None:
    text = " ".join(block.text for block in markdown_to_text(source).blocks)
    assert text == expected and absent not in text and markup_in(text) == []


def _write(root: Path, name: str, text: str) -> None:
    (root / name).write_text(text, "utf-8")


def test_x7_a_file_that_takes_too_long_is_skipped_and_the_others_are_read(tmp_path: Path) -> None:
    """X7: one pathological file is skipped when its time runs out; the reader goes on."""
    _write(tmp_path, "fine.md", "---\naudience: public\n---\n# Fine\n\nFine text.\n")
    _write(tmp_path, "slow.md", "[" * 1_500_000)
    _write(tmp_path, "also-fine.md", "---\naudience: internal\n---\n# Also\n\nMore text.\n")
    reader = DocumentReader(WikiSettings(root=tmp_path), timeout_s=2.0)
    try:
        outcomes = dict(reader.read(["fine.md", "slow.md", "also-fine.md"]))
    finally:
        reader.close()
    assert isinstance(outcomes["slow.md"], Skipped) and "longer than 2 s" in outcomes["slow.md"].reason
    assert not isinstance(outcomes["fine.md"], Skipped) and not isinstance(outcomes["also-fine.md"], Skipped)


@pytest.mark.timeout(20)
def test_a_fifo_is_not_opened_for_reading(tmp_path: Path) -> None:
    """A FIFO named like a markdown file (or swapped in after a scan) never blocks."""
    os.mkfifo(tmp_path / "pipe.md")
    result = load_document(WikiSettings(root=tmp_path), "pipe.md")
    assert isinstance(result, Skipped) and "regular file" in result.reason


def test_the_prose_scrub_leaves_code_as_written() -> None:
    """`a == b == c`, `[^0-9]`, `__init__`, `# comment` and `{{ var }}` in code are what a
    reader must see."""
    source = "```\nif a == b == c: m = re.match('[^0-9]', s)  # __init__ {{ hcloud_token }}\n```"
    text = " ".join(b.text for b in markdown_to_text(source).blocks)
    assert text == "if a == b == c: m = re.match('[^0-9]', s) # __init__ {{ hcloud_token }}"


def test_closing_the_reader_during_a_read_raises_and_starts_no_process(tmp_path: Path) -> None:
    """A shutdown while a batch is being read (another thread closes the reader): the
    batch fails instead of looking complete, and no replacement worker outlives us."""
    import threading

    _write(tmp_path, "slow.md", "[" * 1_500_000)
    _write(tmp_path, "fine.md", "Fine text.\n")
    reader = DocumentReader(WikiSettings(root=tmp_path), timeout_s=60.0)
    closer = threading.Timer(1.0, reader.close)
    closer.start()
    with pytest.raises(ReaderClosed):
        dict(reader.read(["slow.md", "fine.md"]))
    closer.join()
    assert not any(w.process.is_alive() for w in reader._workers) and reader._workers == []
