"""provider.wiki.quickcheck: the early withdrawal's look at a changed file (CONTRACT X7).

A file whose header reads as it did when it was last indexed takes a shortcut (its YAML
is not parsed again). The shortcut must answer exactly what the full check answers, so
it can never leave a file in the public index that the full reading would not publish.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.classify import PUBLIC
from provider.wiki.document import DocumentMeta, WikiDocument, WikiSettings, load_document
from provider.wiki.frontmatter import parse_front_matter, same_head
from provider.wiki.publication import withholding
from provider.wiki.quickcheck import may_have_left_public

NOW = dt.datetime(2025, 6, 1, 12, tzinfo=dt.UTC)
HEADER = "title: Refunds\naudience: public\n"
#: Header edits: none, and each way a header can take a page out of the public index.
HEADER_EDITS = [
    "",
    "audience: internal\n",
    "draft: true\n",
    "expiryDate: 2000-01-01\n",
    "publishDate: 2999-01-01\n",
    "publishDate: 2000-01-01\n",
    "audiance: public\n",
    "audience: public\n",  # a duplicate key: unreadable
    "visibility: internal\n",
    "tags: [internal]\n",
    "title: [unclosed\n",
    "x: &a b\ny: *a\n",
    "summary: still public\n",
]
#: Body edits, as (where, text): near the top of the body, or at its end.
BODY_EDITS = [
    "A new paragraph about refunds.\n",
    "audience: internal\n",
    "Audience = internal\n",
    "<!-- internal -->\nSecret refund rules.\n<!-- /internal -->\n",
    "<!-- intern al -->\nSecret.\n",
    "---\naudience: internal\n---\n",
    "<!-- /internal -->\n",
    "",
]
BODY = "Refunds are paid within 14 days.\n\n## Exceptions\n\nAsk the support team.\n"


def _write(root: Path, text: str) -> None:
    (root / "page.md").write_text(text, "utf-8")


def _before(root: Path, text: str) -> DocumentMeta:
    _write(root, text)
    doc = load_document(WikiSettings(root=root), "page.md")
    assert isinstance(doc, WikiDocument)
    return doc.meta


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    original=st.sampled_from(["", "publishDate: 2020-01-01\n", "expiryDate: 2999-01-01\n"]),
    header_edit=st.sampled_from(HEADER_EDITS),
    body_edit=st.sampled_from(BODY_EDITS),
    at_top=st.booleans(),
    padding=st.integers(min_value=0, max_value=60),
)
def test_the_shortcut_answers_what_the_full_check_answers(
    original: str, header_edit: str, body_edit: str, at_top: bool, padding: int
) -> None:
    """X7, as a class: for any edit of the header or the body (near the top or further
    down, with up to 60 lines of text above it), the check with the shortcut answers
    exactly what it answers without (``head`` forgotten), and "still public" only for a
    file whose full reading is public and served at ``NOW``."""
    filler = "".join(f"Line {i} of the refund policy.\n" for i in range(padding))
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        before = _before(root, f"---\n{HEADER}{original}---\n{filler}{BODY}")
        assert before.head, "an error-free public page gets a head key"
        body = f"{body_edit}{filler}{BODY}" if at_top else f"{filler}{BODY}{body_edit}"
        _write(root, f"---\n{HEADER}{original}{header_edit}---\n{body}")
        wiki = WikiSettings(root=root)
        quick = may_have_left_public(wiki, "page.md", NOW, before)
        assert quick == may_have_left_public(wiki, "page.md", NOW, dataclasses.replace(before, head=""))
        if not quick:
            after = load_document(wiki, "page.md")
            assert isinstance(after, WikiDocument)
            meta = after.meta
            assert meta.audience == PUBLIC and not meta.errors and not meta.draft
            assert withholding(meta.publication, NOW) is None
            assert "Secret" not in after.public_body


def test_an_edit_below_the_header_takes_the_shortcut() -> None:
    """The shortcut is taken (the header is not parsed again) when only the body
    changed, and not when the header did or a line near the top sets an audience key."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        before = _before(root, f"---\n{HEADER}---\n{BODY}")
        assert same_head(f"---\n{HEADER}---\n{BODY}More text.\n", before.head) == f"{BODY}More text.\n"
        assert same_head(f"---\n{HEADER}draft: true\n---\n{BODY}", before.head) is None
        assert same_head(f"---\n{HEADER}---\naudience: internal\n{BODY}", before.head) is None
        # CRLF line endings and a BOM read as the same header.
        crlf = f"\ufeff---\n{HEADER}---\n{BODY}".replace("\n", "\r\n")
        assert same_head(crlf, before.head) == BODY
        assert parse_front_matter(crlf).data == parse_front_matter(f"---\n{HEADER}---\n{BODY}").data


def test_pages_the_shortcut_does_not_vouch_for() -> None:
    """No head key without an error-free ``---`` header: no header, an unreadable one."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        assert _before(root, f"# Title\n\n{BODY}").head == ""
        assert _before(root, f"---\n{HEADER}audience: public\n---\n{BODY}").head == ""
