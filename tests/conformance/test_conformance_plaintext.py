"""The markup detector behind R3 (the kit's one definition of plain text,
:mod:`helpthread_kit.plaintext`): finds every kind of formatting markup, flags no
ordinary prose, and calls plain text what a page shows literally."""

from __future__ import annotations

import pytest

from helpthread_kit.plaintext import markup_in, without_literal


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Click <b>Save</b>.", "HTML/XML tag"),
        ("Press <kbd>Enter</kbd>", "HTML/XML tag"),
        ("a line<br/>break", "HTML/XML tag"),
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
        # A tag named alone formats nothing: an escaped tag a page shows, a key.
        "Wrap the word in <b> to make it bold.",
        "Press <Enter>, then close the </p> you opened.",
        "Press <kbd>Enter",
    ],
)
def test_plain_prose_is_not_flagged(text: str) -> None:
    assert markup_in(text) == []


@pytest.mark.parametrize(
    ("text", "literal"),
    [
        ('Write <div class="note"> first.', ('<div class="note">',)),
        ("Call f(**kwargs) and g(**opts).", ("f(**kwargs)", "g(**opts)")),
        ("Use {{ user.name }} here.", ("{{ user.name }}",)),
        ("Escape it as &amp;amp; there.", ("&amp;amp;",)),
        # A snippet that starts or ends inside a code block the page shows.
        ('Set it: <input type="text" name="…', ('<input type="text" name="email" required>',)),
        ('…"email" required><br/> and send.', ('<input type="text" name="email" required><br/>',)),
    ],
)
def test_text_a_page_shows_literally_is_plain_text(text: str, literal: tuple[str, ...]) -> None:
    """R3: with the pieces the page shows as written set aside, nothing is left to flag;
    without them, the same text is flagged (a black-box checker cannot know them)."""
    assert markup_in(text, literal) == [] and markup_in(text) != []


def test_literal_pieces_hide_only_themselves() -> None:
    """Setting aside a code piece does not hide markup elsewhere in the text."""
    text = "Run `make` then **stop**."
    assert markup_in(text, ["`make`"]) == ["Markdown bold"]
    assert without_literal("a <b>x</b> b", ["<b>x</b>"]).split() == ["a", "b"]
