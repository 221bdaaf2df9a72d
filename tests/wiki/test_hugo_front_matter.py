"""provider.wiki.hugo_front_matter and the format dispatch in provider.wiki.frontmatter:
TOML (+++) and JSON headers, guarded like YAML — any error makes the file internal
(CONTRACT X5), never a crash or a partial read."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.frontmatter import MAX_HEADER_BYTES, parse_front_matter

HUGO = ("yaml", "toml", "json")


def test_toml_header_is_read_with_native_dates() -> None:
    front = parse_front_matter(
        "+++\ntitle = 'Hello'\naudience = \"public\"\ndate = 2024-01-31T10:00:00+01:00\n"
        "[params]\n  tags = ['a']\n+++\nBody\n", HUGO
    )
    assert front.error is None and front.present
    assert front.data["title"] == "Hello" and front.data["audience"] == "public"
    assert front.data["date"] == dt.datetime(2024, 1, 31, 9, tzinfo=dt.UTC)
    assert front.body == "Body\n"


def test_json_header_is_read() -> None:
    front = parse_front_matter('{\n  "title": "Hi",\n  "params": {\n    "audience": "public"\n  }\n}\nBody', HUGO)
    assert front.error is None and front.data == {"title": "Hi", "params": {"audience": "public"}}
    assert front.body == "Body"


def test_crlf_and_bom_are_fine_for_toml() -> None:
    front = parse_front_matter("\ufeff+++\r\ntitle = 'x'\r\n+++\r\nBody\r\n", HUGO)
    assert front.data == {"title": "x"} and front.body == "Body\n"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("+++\ntitle = 'a'\ntitle = 'b'\n+++\nBody", "not valid TOML"),
        ("+++\ntitle = \n+++\nBody", "not valid TOML"),
        ("+++\ntitle = 'a'\nBody without closing", "no closing +++"),
        ('{\n"title": "a", "title": "b"\n}\nBody', "twice"),
        ('{\n"title": "a",\n}\nBody', "not valid JSON"),
        ('{\n"title": "a"\nBody', "not valid JSON"),
        ("+++\n" + "x = '" + "y" * MAX_HEADER_BYTES + "'\n+++\nBody", "larger than"),
        ("+++\na = " + "[" * 5000 + "]" * 5000 + "\n+++\nBody", "cannot be read"),  # nesting too deep
    ],
)
def test_unreadable_headers_are_errors_and_leak_nothing(text: str, reason: str) -> None:
    front = parse_front_matter(text, HUGO)
    assert front.present and front.data == {}
    assert front.error is not None and reason in front.error, front.error


def test_unreadable_toml_makes_the_file_internal_even_under_a_public_cascade_or_rule() -> None:
    from provider.wiki.classify import AudienceRule

    settings = WikiSettings(root=Path("/x"), layout="hugo", audience_rules=(AudienceRule("**", "public"),))
    data = b"+++\naudience = 'public'\naudience = 'internal'\n+++\nText."
    result = parse_document(settings, "content/a.md", data, size=len(data), mtime_ns=0)
    assert isinstance(result, WikiDocument)
    assert result.meta.audience == "internal" and result.meta.audience_own
    assert result.meta.errors and "TOML" in result.meta.errors[0]
