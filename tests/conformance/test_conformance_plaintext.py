"""The markup detector behind R3: finds every kind of markup, flags no ordinary prose."""

from __future__ import annotations

import pytest

from provider.contract.conformance.plaintext import markup_in


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Click <b>Save</b>.", "HTML/XML tag"),
        ("Press <kbd>Enter", "HTML/XML tag"),
        ("See <a href='/x'>this</a>", "HTML/XML tag"),
        ("cut off by the snippet: <a href=\"/kb/pub-reset", "HTML/XML tag"),
        ("A <Callout type='warn'/> box", "HTML/XML tag"),
        ("text <!-- hidden --> more", "HTML comment"),
        ("Fish &amp; chips", "HTML entity"),
        ("quote &#39;x&#39;", "HTML entity"),
        ("arrow &#x2192;", "HTML entity"),
        ("Read [the guide](https://x.example/guide).", "Markdown link"),
        ("![diagram](img.png)", "Markdown image"),
        ("[1]: https://x.example/ref", "Markdown link definition"),
        ("This is **important**.", "Markdown bold"),
        ("This is __important__.", "Markdown bold"),
        ("## Steps\nDo it.", "Markdown heading"),
        ("Intro\n# Title", "Markdown heading"),
        ("```\ncode\n```", "Markdown code fence"),
        ("Run `make test` first.", "Markdown inline code"),
        ("| a | b |\n|---|---|", "Markdown table rule"),
        ("Hello {{ user.name }}", "template tag"),
        ("{% if plan %}Pro{% endif %}", "template tag"),
        ("{{< note >}}Careful{{< /note >}}", "template tag"),
        ("{# internal comment #}", "template tag"),
    ],
)
def test_markup_is_found(text: str, kind: str) -> None:
    assert kind in markup_in(text)


@pytest.mark.parametrize(
    "text",
    [
        "If a < b and b > c, then a < c.",
        "Written in C# since issue #4.",
        "Numbering: INV-{YYYY}-{####} → INV-2026-0001",
        "See footnote [1] and section [2].",
        "5 * 3 = 15, and 2*2 = 4.",
        "Email help@example.com or visit https://help.example.com/reset.",
        "Use snake_case names like user_id and api_key.",
        "R&D and Q&A teams; AT&T.",
        "Passwort zurücksetzen — Schritt für Schritt.",
    ],
)
def test_plain_prose_is_not_flagged(text: str) -> None:
    assert markup_in(text) == []
