"""Snippets never end inside a word without an ellipsis (CONTRACT R3; issue 24) on real
CJK pages: a seeded sample of the Japanese, Chinese and Korean pages of astro-docs,
kaia-docs and openai-agents-docs (../shared/corpora, see their SOURCE.md), read as
indexing reads them. Every passage and every snippet built from it is found in the
page's text and each of its ends is an ellipsis or a word boundary there (no letter or
digit on both sides). No corpus holds Thai; the property test beside this file covers
the scripts without spaces by generation."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from helpthread_kit.plaintext import ELLIPSIS
from provider.config import load_config
from provider.search.snippets import snippet_span
from provider.wiki.dialects import apply_dialects
from provider.wiki.document import WikiDocument, load_document
from provider.wiki.frontmatter import parse_front_matter
from provider.wiki.plaintext import markdown_to_text
from tests.corpora import require_corpus
from tests.support import REPO_ROOT

pytestmark = pytest.mark.slow

#: (corpus, folder of CJK pages, how many sampled).
SAMPLES = [
    ("astro-docs", "src/content/docs/ja", 6), ("astro-docs", "src/content/docs/zh-cn", 6),
    ("astro-docs", "src/content/docs/ko", 4),
    ("kaia-docs", "i18n/ja/docusaurus-plugin-content-docs/current", 6),
    ("kaia-docs", "i18n/zh-CN/docusaurus-plugin-content-docs/current", 4),
    ("kaia-docs", "i18n/ko/docusaurus-plugin-content-docs/current", 4),
    ("openai-agents-docs", "docs/ja", 6), ("openai-agents-docs", "docs/zh", 4), ("openai-agents-docs", "docs/ko", 4),
]


def _flat(text: str) -> str:
    return " ".join(text.split())


def _ends_whole(shown: str, source: str, after: int) -> int | None:
    """Where ``shown`` (its cut marks aside) is in ``source`` from ``after`` on, ``None``
    when it is not there verbatim; asserts that each end is a cut mark or a word boundary."""
    body = shown.strip(ELLIPSIS).strip()
    at = source.find(body, after)
    if at < 0:
        return None
    end = at + len(body)
    if not shown.startswith(ELLIPSIS) and at > 0:
        assert not (source[at - 1].isalnum() and source[at].isalnum()), f"starts mid-word: {shown[:30]!r}"
    if not shown.endswith(ELLIPSIS) and end < len(source):
        assert not (source[end - 1].isalnum() and source[end].isalnum()), f"ends mid-word: {shown[-30:]!r}"
    return at


@pytest.mark.parametrize(("corpus", "folder", "count"), SAMPLES, ids=[f"{c}:{f.split('/')[-1]}" for c, f, _ in
                                                                      SAMPLES])
def test_r3_cjk_snippets_of_real_pages_end_at_a_word_or_an_ellipsis(corpus: str, folder: str, count: int) -> None:
    root = require_corpus(corpus)
    settings = dataclasses.replace(load_config(REPO_ROOT / "bench" / "corpora" / f"{corpus}.yaml").wiki_settings(),
                                   root=root)
    files = sorted(p.relative_to(root).as_posix() for p in (root / folder).rglob("*")
                   if p.suffix in (".md", ".mdx") and p.is_file() and not p.name.startswith("_"))
    checked = located = 0
    for relpath in random.Random(f"{corpus}/{folder}").sample(files, min(count, len(files))):
        document = load_document(settings, relpath)
        if not isinstance(document, WikiDocument) or not document.passages:
            continue
        text = Path(root, relpath).read_text(encoding="utf-8")
        blocks = markdown_to_text(apply_dialects(parse_front_matter(text).body, settings.preset.dialects),
                                  settings.preset.text).blocks
        source = " ".join(_flat(b.text) for b in blocks if b.kind != "heading")
        texts = [_flat(p.text) for p in document.passages]
        after = 0
        for index, passage in enumerate(texts):
            checked += 1
            at = _ends_whole(passage, source, after)
            if at is None:
                continue  # the page's partials or components make text the plain reading lacks
            located += 1
            after = at
            snippet, _ = snippet_span(texts, index)
            _ends_whole(snippet, source, at)
    assert checked and located / checked >= 0.8, f"only {located} of {checked} passages found in the page's text"
