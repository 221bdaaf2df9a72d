"""Rules 6c and 6d's sources (CONTRACT X2): a redirect stub's "this page has moved" text is
built under its URL and is no internal text — a public page sharing its link text stays
public (openai-agents-docs: 4 Japanese, Korean and Chinese pages held the 10-character
link text of a stub) — while a stub that is internal by its own front matter still is a
source."""

from __future__ import annotations

import random
from pathlib import Path

from tests.support import write_files
from tests.wiki.test_contained_text import _filler, _public

STUB = ("---\ntitle: Moved\n{extra}---\n# Moved\n\n<script>\n  window.location.replace(\"../#adapters\");\n"
        "</script>\n\n{text}\n")
MOVED = "このページはモデルのサードパーティアダプターの節へ移動しました。"
#: The public page: its own text, then the stub's sentence.
TRACING = ("---\ntitle: Tracing\naudience: public\n---\n# Tracing\n\n" + _filler(random.Random(1), 80)
           + ".\n\n説明です。" + MOVED + "以上です。\n")


def test_a_redirect_stubs_text_taints_no_public_page(tmp_path: Path) -> None:
    """A public page holding a redirect stub's sentence stays public."""
    site = tmp_path / "site"
    write_files(site, {"models/litellm.md": STUB.format(extra="audience: public\n", text=MOVED),
                       "tracing.md": TRACING})
    assert "tracing.md" in _public(site)


def test_x2_an_internal_redirect_stub_still_taints_a_page_holding_its_text(tmp_path: Path) -> None:
    """X2: a stub that is internal by its front matter stays a source."""
    site = tmp_path / "site"
    write_files(site, {"models/litellm.md": STUB.format(extra="audience: internal\n", text=MOVED),
                       "tracing.md": TRACING})
    assert "tracing.md" not in _public(site)
