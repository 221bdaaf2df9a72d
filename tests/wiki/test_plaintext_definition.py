"""The converter's output is plain text by the kit's one definition (CONTRACT R3;
:mod:`helpthread_kit.plaintext`): what a page shows literally — code, escaped tags and
characters — is kept as the page shows it and counts as plain text; formatting markup
never reaches a block. Judged the way the provider knows its text: each block with its
literal pieces (:attr:`Block.verbatim`, a code block's whole text)."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpthread_kit.plaintext import HTML_ELEMENTS, is_plain_text, markup_in
from provider.wiki.plaintext import PLAIN_TEXT, Block, TextOptions, markdown_to_text


def _literal(block: Block) -> tuple[str, ...]:
    return (block.text,) if block.kind == "code" else block.verbatim


def _assert_plain(source: str, options: TextOptions = PLAIN_TEXT) -> str:
    blocks = markdown_to_text(source, options).blocks
    for block in blocks:
        assert is_plain_text(block.text, _literal(block)), (source, block, markup_in(block.text, _literal(block)))
    return " ".join(block.text for block in blocks)


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        # The case that made the checker fail the provider: prose showing an escaped tag.
        ("Wrap it in &lt;b&gt; for bold.", "Wrap it in <b> for bold."),
        ("Wrap it in \\<b\\> for bold.", "Wrap it in <b> for bold."),
        # An escaped pair would read as a tag that formats: its brackets are shown as ‹ ›.
        ("Press &lt;kbd&gt;Enter&lt;/kbd&gt; to send.", "Press ‹kbd›Enter‹/kbd› to send."),
        ("Write `<div class=\"note\">` first.", 'Write <div class="note"> first.'),
        ("Use `{{ user.name }}` in the template.", "Use {{ user.name }} in the template."),
        ("Call `f(**kwargs)` and `g(**opts)`.", "Call f(**kwargs) and g(**opts)."),
        ("Escape it as `&amp;amp;`.", "Escape it as &amp;amp;."),
        ("A literal \\*star\\* and \\[link\\](x).", "A literal *star* and [link](x)."),
        ("```html\n<p class=\"x\">Hi &amp; bye</p>\n```", '<p class="x">Hi &amp; bye</p>'),
    ],
)
def test_r3_text_a_page_shows_literally_is_kept_and_is_plain_text(source: str, shown: str) -> None:
    """R3: literal text reaches the reader as the page shows it, and the kit's
    definition calls it plain text — the converter and the checker agree."""
    assert _assert_plain(source) == shown


@pytest.mark.parametrize(
    ("source", "absent"),
    [
        ("Click <b>Save</b> now.", "<b>"),
        ('See <a href="/kb/reset">the guide</a>.', "href"),
        ("Read [the guide](https://x.example/guide).", "]("),
        ("This is **important**.", "**"),
        ("Fish &amp; chips &#x2192; done", "&amp;"),
        ("Hello {{< note >}}careful{{< /note >}} there", "{{"),
        ("Visible <!-- hidden --> text", "<!--"),
        ('<div class="box">\n\nInside a box.\n\n</div>', "<div"),
    ],
)
def test_r3_formatting_markup_never_reaches_a_block(source: str, absent: str) -> None:
    """R3: formatting markup is removed, whatever the definition sets aside."""
    text = _assert_plain(source)
    assert absent not in text and markup_in(text) == []


_NAMES = st.sampled_from([*sorted(HTML_ELEMENTS), "Callout", "Enter", "ServerName", "really"])
_WORD = st.sampled_from(["refund", "invoice", "Konto", "café", "請求書", "a < b", "C#", "issue #4", "x > y"])
_CODE = st.sampled_from(['<div class="x">', "{{ x }}", "{% if a %}", "f(**kw) or g(**kw)", "&amp;", "[a](b)",
                         "<!-- c -->", "# comment", "`", "a__b__c", "| --- |"])


def _fragment(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 12))
    name, word = draw(_NAMES), draw(_WORD)
    return [
        f"&lt;{name}&gt;", f"&lt;/{name}&gt;", f"\\<{name}\\>", f"&amp;lt;{name}&amp;gt;",
        f"`{draw(_CODE)}`" if "`" not in (code := draw(_CODE)) else f"`` {code} ``",
        f"<{name}>{word}</{name}>", f'<{name} class="k">{word}</{name}>', f"[{word}](https://x.example/{name})",
        f"**{word}**", f"&#60;{name}&#62;", f"{{{{< {name} >}}}}{word}{{{{< /{name} >}}}}", f"<!-- {word} -->",
        f"\n\n```\n{draw(_CODE)}\n```\n\n",
    ][kind]


@st.composite
def _pages(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.one_of(_WORD, st.composite(_fragment)()), min_size=1, max_size=14))
    heading = draw(st.sampled_from(["", "# ", "## "]))
    return heading + " ".join(parts)


@settings(max_examples=300, deadline=None)
@given(_pages(), st.booleans())
# An HTML block (a line opening with a comment or a tag) shows Markdown literally.
@example("<!-- refund --> `a__b__c`", False)
@example("<div>**bold** and [x](y) and {{ x }}</div>", True)
def test_r3_every_block_of_a_hostile_page_is_plain_text(source: str, learn: bool) -> None:
    """R3, as a class: pages mixing escaped tags, entities, code spans and fences holding
    markup-like text, real tags, links, emphasis, shortcodes and comments — every block
    is plain text by the kit's definition (literal pieces set aside)."""
    _assert_plain(source, TextOptions(unknown_tags_as_text=learn))


@settings(max_examples=200, deadline=None)
@given(_NAMES, _WORD)
def test_r3_an_escaped_tag_in_prose_passes_the_black_box_checker(name: str, word: str) -> None:
    """An escaped tag shown in prose passes even the checker that knows no literal
    pieces (the conformance suite): a tag named alone formats nothing."""
    text = _assert_plain(f"Use &lt;{name}&gt; around {word}.")
    assert f"<{name}>" in text and markup_in(text) == []


@settings(max_examples=200, deadline=None)
@given(_NAMES, _WORD, st.booleans())
def test_r3_an_escaped_pair_of_tags_in_prose_passes_the_black_box_checker(name: str, word: str, slash: bool) -> None:
    """An escaped opening and closing tag around words (``&lt;b&gt;x&lt;/b&gt;``) would read
    as formatting to a checker that knows no literal pieces: the converter shows their
    brackets as ‹ ›, so that checker agrees too."""
    escape = "\\<{}\\>" if slash else "&lt;{}&gt;"
    text = _assert_plain(f"Write {escape.format(name)}{word}{escape.format('/' + name)} like this.")
    formats = name.lower() in HTML_ELEMENTS or name[0].isupper()  # else a word in brackets, left as it is
    assert markup_in(text) == [] and (f"‹{name}›" if formats else f"<{name}>") in text


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("Open the \\<Folder type> folder.", "Open the ‹Folder type› folder."),
        ("Below Shared *\\<Folder type>*, such as Inbox.", "Below Shared ‹Folder type›, such as Inbox."),
        ("Open the \\<Folder type\\> folder.", "Open the ‹Folder type› folder."),
    ],
)
def test_issue27_a_placeholder_escaped_on_one_side_shows_one_kind_of_bracket(source: str, shown: str) -> None:
    """Learn writes ``\\<Folder type>``: the kit's definition reads ``<Folder type>`` as a
    tag (R3), so the pair is shown as ‹ › — both brackets, not ``‹Folder type>``."""
    assert _assert_plain(source) == shown
