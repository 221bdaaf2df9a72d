"""provider.wiki.plaintext: Markdown to the words a reader sees (CONTRACT R3, O3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.plaintext import Block, TextOptions, clean_inline, markdown_to_text
from tests.wiki.markup import assert_no_markup, markup_problems


def text_of(source: str) -> str:
    return markdown_to_text(source).text


def blocks_of(source: str) -> list[tuple[str, str]]:
    return [(b.kind, b.text) for b in markdown_to_text(source).blocks]


def plain(source: str) -> str:
    """The plain text, asserted free of markup."""
    result = markdown_to_text(source)
    for block in result.blocks:
        assert block.text == block.text.strip() and block.text
        assert "\n" not in block.text
        assert_no_markup(block.text)
    return result.text


# --------------------------------------------------------------------------- the helper itself


@pytest.mark.parametrize(
    "bad",
    [
        "<div>",
        "a <span class='x'>b",
        "</p>",
        "x </",
        "&amp;",
        "&#38;",
        "&#x26;",
        "&nbsp;",
        "[a](b)",
        "![alt",
        "{{< note >}}",
        "{{ site.title }}",
        "{% raw %}",
        "```",
        "~~~",
        "# Heading",
        "  ## Heading",
        "**bold**",
        "<!-- c -->",
        "<br/>",
        "<Tabs>",
        "a\n### b",
    ],
)
def test_assert_no_markup_catches(bad: str) -> None:
    with pytest.raises(AssertionError):
        assert_no_markup(bad)


@pytest.mark.parametrize(
    "good",
    [
        "a < b and c > d",
        "C# and F#",
        "Issue #42",
        "x&y",
        "AT&T",
        "1 & 2",
        "[1] [2]",
        "a * b * c",
        "50% off {x}",
        "100 %",
        "#hashtag",
        "ok",
    ],
)
def test_assert_no_markup_accepts_plain_text(good: str) -> None:
    assert_no_markup(good)


def test_assert_no_markup_code_mode() -> None:
    for code in ("# comment", "cat <<EOF", "a[0](b)", "x ``` y", "</>"):
        assert markup_problems(code, code=True) == []
    for bad in ("<div>", "</span>", "&amp;", "{{ x }}", "{% y %}", "<!-- z"):
        assert markup_problems(bad, code=True), bad


# --------------------------------------------------------------------------- kept text (R3)


def test_headings_paragraphs_and_levels() -> None:
    result = markdown_to_text("# Title\n\nFirst paragraph.\n\n## Section\n\nSecond\nparagraph.\n\nSetext\n---\n")
    assert [(b.kind, b.text, b.level) for b in result.blocks] == [
        ("heading", "Title", 1),
        ("text", "First paragraph.", 0),
        ("heading", "Section", 2),
        ("text", "Second paragraph.", 0),
        ("heading", "Setext", 2),
    ]
    assert result.first_h1 == "Title"
    assert result.first_heading == "Title"


def test_first_h1_is_the_first_level_one_heading() -> None:
    result = markdown_to_text("### Deep\n\n# Top\n\n# Second top\n")
    assert result.first_heading == "Deep"
    assert result.first_h1 == "Top"
    assert markdown_to_text("no headings").first_h1 is None


def test_emphasis_and_inline_code_kept_as_words() -> None:
    assert plain("Some *emphasis*, **strong**, ~~gone~~ and `code` here.") == (
        "Some emphasis, strong, gone and code here."
    )


def test_list_items() -> None:
    assert blocks_of("- one\n- two\n  - nested\n\n1. first\n2. second\n") == [
        ("text", "one"),
        ("text", "two"),
        ("text", "nested"),
        ("text", "first"),
        ("text", "second"),
    ]


def test_table_cells() -> None:
    source = "| Plan | Price |\n|---|---:|\n| **Basic** | [5 €](/p) |\n| Pro &amp; more | `10` |\n"
    assert plain(source) == "Plan · Price\nBasic · 5 €\nPro & more · 10"


def test_link_text_kept_url_dropped() -> None:
    assert plain('See [the refund page](https://example.com/refunds "Title") now.') == "See the refund page now."
    assert plain("Ref [link][r].\n\n[r]: https://example.com") == "Ref link."


def test_autolink_text_kept() -> None:
    assert plain("Mail <help@example.com> or <https://example.com>.") == (
        "Mail help@example.com or https://example.com."
    )


def test_image_alt_text_kept() -> None:
    assert plain('Look: ![A diagram of *refunds*](img.png "t")') == "Look: A diagram of refunds"


def test_image_alt_text_is_the_readers_text_not_its_source() -> None:
    text = plain("![Fish &amp; **chips** `menu` [link](x)](img.png)")
    assert text == "Fish & chips menu link"


def test_html_image_alt_text_kept() -> None:
    assert plain('<p><img src="x.png" alt="Screenshot of settings"></p>') == "Screenshot of settings"


def test_code_text_kept() -> None:
    result = markdown_to_text("```bash\nsudo apt install nginx\n```\n\n    indented code\n")
    assert [(b.kind, b.text) for b in result.blocks] == [("code", "sudo apt install nginx"), ("code", "indented code")]


# --------------------------------------------------------------------------- dropped markup (R3)


def test_html_tags_dropped_text_kept() -> None:
    assert plain('Press <kbd>Ctrl</kbd> and <span class="x">go</span>.') == "Press Ctrl and go."
    assert plain('<div class="note">\n<p>Block <b>text</b></p>\n</div>\n') == "Block text"


def test_details_summary_kept() -> None:
    assert plain("<details>\n<summary>More</summary>\n\nHidden body.\n\n</details>\n") == "More\nHidden body."


def test_script_and_style_content_dropped() -> None:
    source = (
        "<script>alert('secret-script')</script>\n\nAfter.\n\n<style>.x { color: red }</style>\n\n"
        "Inline <script>inlineSecret()</script> and <style>p{}</style> done.\n\n"
        '<div>\n<script type="text/javascript">var nested = 1;</script>\nVisible\n</div>\n'
    )
    text = plain(source)
    for hidden in ("secret-script", "color", "inlineSecret", "p{}", "nested"):
        assert hidden not in text
    assert "After." in text
    assert "Inline and done." in text
    assert "Visible" in text


def test_html_comments_dropped_block_and_inline() -> None:
    source = "<!--\nblock secret\n\nstill secret\n-->\n\nShown <!-- inline secret --> text.\n\nEnd <!-- open"
    text = plain(source)
    assert "secret" not in text
    assert "Shown text." in text
    assert "open" not in text


def test_trailing_comment_like_the_real_corpus() -> None:
    source = "Body.\n\n##### License: MIT\n\n<!--\n\nContributor's Certificate of Origin\n\n[x] I agree\n\n-->\n"
    assert plain(source) == "Body.\nLicense: MIT"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("Fish &amp; chips", "Fish & chips"),
        ("a&nbsp;b", "a b"),
        ("1 &lt; 2 &gt; 0", "1 < 2 > 0"),
        ("&copy; 2024 &#169; &#xA9;", "© 2024 © ©"),
        ("&quot;quoted&quot;", '"quoted"'),
    ],
)
def test_entities_decoded(source: str, expected: str) -> None:
    assert plain(source) == expected


def test_escaped_text_reaches_the_reader_as_text() -> None:
    """An entity or a backslash escape is how an author writes angle brackets for
    readers to see: they are text, not a tag (``Ctrl + <Enter>``), and are kept."""
    assert blocks_of("Press Ctrl + &lt;Enter&gt; to send.") == [("text", "Press Ctrl + <Enter> to send.")]
    assert blocks_of("Use &lt;div&gt; for blocks.") == [("text", "Use <div> for blocks.")]
    assert blocks_of(r"Type \<name\> and \*\*stars\*\*.") == [("text", "Type <name> and **stars**.")]
    assert blocks_of("<p>Press &lt;Tab&gt;</p>\n") == [("text", "Press <Tab>")]


def test_hugo_shortcodes_removed_paired_text_kept() -> None:
    source = (
        '{{< figure src="x.png" >}}\n\n{{< note >}}\nInside the note.\n{{< /note >}}\n\n'
        '{{% warning title="Careful" %}}Mind the **gap**.{{% /warning %}}\n\nAfter {{< icon "x" >}} icon.'
    )
    text = plain(source)
    assert "Inside the note." in text
    assert "Mind the gap." in text
    assert "After icon." in text
    assert "figure" not in text and "warning" not in text and "Careful" not in text


def test_liquid_tags_and_outputs_removed() -> None:
    source = (
        "Welcome to {{ site.title }}!\n\n{% if user %}Hello {{ user.name | escape }}.{% endif %}\n\n"
        "{% comment %}secret plan{% endcomment %}Visible.\n\n{%- raw -%}Raw text{%- endraw -%}"
    )
    text = plain(source)
    assert "Welcome to !" in text
    assert "Hello ." in text
    assert "Raw text" in text
    assert "site" not in text and "user" not in text and "secret" not in text


def test_mdx_imports_exports_and_jsx_removed_prose_kept() -> None:
    source = (
        "import Tabs from '@theme/Tabs';\nimport TabItem from \"@theme/TabItem\";\nimport '@site/x.css'\n"
        "export const meta = { title: 'x' };\n\n"
        '# Install\n\n<Tabs>\n<TabItem value="apt" label="APT">\n\nUse apt to install.\n\n</TabItem>\n'
        '<TabItem value="yum">\n\nUse yum instead.\n\n</TabItem>\n</Tabs>\n\n'
        'Inline <Badge type="tip">new</Badge> feature.\n'
    )
    result = markdown_to_text(source)
    text = plain(source)
    assert [b.text for b in result.blocks if b.kind == "heading"] == ["Install"]
    assert "Use apt to install." in text
    assert "Use yum instead." in text
    assert "Inline new feature." in text
    for gone in ("import", "@theme", "export", "meta", "TabItem", "Tabs"):
        assert gone not in text


def test_import_inside_code_fence_is_code() -> None:
    source = "```python\nimport os\nexport X=1\n```\n"
    assert blocks_of(source) == [("code", "import os export X=1")]


def test_import_in_prose_sentence_is_prose() -> None:
    assert plain("import duties apply to some orders.") == "import duties apply to some orders."


def test_code_block_is_kept_exactly_as_written() -> None:
    """Code reaches a snippet as written: tags, entities, comments, dunder names."""
    source = '```html\n<div class="box">Hi &amp; bye</div>\n<!-- note -->\n<br/>\n```\n'
    assert blocks_of(source) == [("code", '<div class="box">Hi &amp; bye</div> <!-- note --> <br/>')]
    source = "```python\nif __name__ == '__main__':\n    import pkg.__init__\n```\n"
    assert blocks_of(source) == [("code", "if __name__ == '__main__': import pkg.__init__")]
    assert blocks_of("```sh\n# Reset defaults\nufw reset\n```") == [("code", "# Reset defaults ufw reset")]
    assert blocks_of('```xml\n<port protocol="tcp" port="<new-ssh-port>"/>\n```\n') == [
        ("code", '<port protocol="tcp" port="<new-ssh-port>"/>')
    ]


def test_a_one_line_triple_backtick_span_is_not_a_fence() -> None:
    """CommonMark: a backtick fence's info string has no backtick, so ```` ```adb shell``` ````
    is inline code and the dialect and template rules go on after it."""
    source = "Run ```adb shell``` first.\n\n```adb shell```\n\nThen {{< note >}}read **this**{{< /note >}}.\n"
    assert blocks_of(source) == [("text", "Run adb shell first."), ("text", "adb shell"), ("text", "Then read this .")]


def test_diagram_source_is_not_text() -> None:
    assert blocks_of("Flow:\n\n```mermaid\ngraph TD; A-->B\n```\n\nDone.") == [("text", "Flow:"), ("text", "Done.")]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (r"Half is \( \frac{1}{2} \) here.", r"Half is \frac{1}{2} here."),
        (r"Inline $$e^{i\pi} + 1 = 0$$ too.", r"Inline e^{i\pi} + 1 = 0 too."),
        (r"Escaped \[1\] brackets stay text.", "Escaped [1] brackets stay text."),
    ],
)
def test_prose_latex_is_kept_as_its_source(source: str, expected: str) -> None:
    assert blocks_of(source) == [("text", expected)]


def test_display_math_is_kept_as_code() -> None:
    assert blocks_of("$$\n\\sum_{i=1}^n i\n$$\n\nAfter.") == [("code", "\\sum_{i=1}^n i"), ("text", "After.")]


def test_liquid_inside_an_autolink_goes_with_the_link() -> None:
    assert blocks_of("Download it from <{{ release.url }}> today.") == [("text", "Download it from today.")]


def test_learn_placeholders_in_prose_are_text() -> None:
    """Microsoft Learn encodes a tag that is not HTML: readers see ``<ServerName>``."""
    learn = TextOptions(unknown_tags_as_text=True)
    text = markdown_to_text("Connect to <ServerName> as <b>admin</b>.", learn).text
    assert text == "Connect to <ServerName> as admin."
    assert markdown_to_text("Connect to <ServerName> now.").text == "Connect to now."


@pytest.mark.parametrize(
    ("mode", "source", "expected"),
    [
        ("literal", '```yml\napi_token: "{{ hcloud_token }}"\n```', 'api_token: "{{ hcloud_token }}"'),
        ("literal", "```jsx\n{/* note */}\n```", "{/* note */}"),
        ("hugo", '```go-html-template\n{{</* callout type="x" */>}}\n```', '{{< callout type="x" >}}'),
        ("hugo", "```\n{{%/* tab */%}}\n```", "{{% tab %}}"),
        ("hugo", "```\n{{< real >}} x\n```", "real x"),
        ("liquid", "```\n{% raw %}{{ page.title }}{% endraw %}\n```", "{{ page.title }}"),
        ("liquid", "```\n{% if x %}{{ site.url }}{% endif %}\n```", "site.url"),
    ],
)
def test_templates_in_code_as_the_tool_shows_them(mode: str, source: str, expected: str) -> None:
    assert [b.text for b in markdown_to_text(source, TextOptions(code_templates=mode)).blocks] == [expected]


def test_code_keeps_ampersands_that_are_not_entities() -> None:
    # html.unescape alone would turn "&region" into "®ion" and "&param" into "¶m".
    url = "https://api.example.com/v1?id=1&region=eu&param=2&copy=3&not=4"
    assert blocks_of(f"```\ncurl '{url}'\n```\n") == [("code", f"curl '{url}'")]
    assert plain(f"Call `{url}` now.") == f"Call {url} now."
    assert plain("Terms&conditions, R&D, AT&T, a&copy b") == "Terms&conditions, R&D, AT&T, a&copy b"


def test_double_escaped_entities_are_decoded_once_as_a_browser_shows_them() -> None:
    # A browser shows ``&amp;lt;b&amp;gt;`` as the text ``&lt;b&gt;``: decoded twice it
    # became the tag <b> and was dropped with its words. Shown with a full-width ampersand
    # (the kit's definition), it reads as no entity (R3).
    assert plain("Fish &amp;amp; chips") == "Fish \uff06amp; chips"
    assert plain("Use &amp;lt;b&amp;gt; to bold.") == "Use \uff06lt;b\uff06gt; to bold."
    assert plain("<p>Use &amp;lt;b&amp;gt; in HTML</p>") == "Use \uff06lt;b\uff06gt; in HTML"
    assert plain("AT&amp;T, &amp;#123;&amp;#123;") == "AT&T, \uff06#123;\uff06#123;"
    assert_no_markup(markdown_to_text("Write &amp;lt;br&amp;gt; here").text)
    # In code an entity is text: CommonMark shows `&amp;lt;` in a code block as written.
    assert blocks_of("```\n&amp;lt;b&amp;gt;\n```") == [("code", "&amp;lt;b&amp;gt;")]


def test_inline_code_is_kept_as_written() -> None:
    # CommonMark does not decode entities in a code span: readers see `&lt;-`.
    assert blocks_of("The arrow `&lt;-` and `__init__.py`.") == [("text", "The arrow &lt;- and __init__.py.")]


def test_inline_code_placeholders_are_kept() -> None:
    text = markdown_to_text("Replace `<MONITORING_SERVER_IP>` and `<your-domain>` with your values.").text
    assert text == "Replace <MONITORING_SERVER_IP> and <your-domain> with your values."


def test_inline_code_nested_tag_is_kept() -> None:
    text = markdown_to_text('Use `<port protocol="tcp" port="<new-ssh-port>"/>` here.').text
    assert text == 'Use <port protocol="tcp" port="<new-ssh-port>"/> here.'


def test_deeply_nested_tags_never_survive_in_prose() -> None:
    nested = "".join(f'<a{i} x="' for i in range(30)) + "<b>" + '">' * 30
    for block in markdown_to_text(f"x {nested} y").blocks:
        assert_no_markup(block.text, code=True)
    # In code the same text is what the reader sees.
    assert blocks_of(f"```\n{nested}\n```\n") == [("code", nested)]


def test_raw_html_block_entities_and_tags() -> None:
    assert plain("<table><tr><td>A &amp; B</td><td>C</td></tr></table>\n") == "A & B C"


@pytest.mark.parametrize(
    "source",
    [
        "#NoSpace is not a heading",
        "\\# escaped hash",
        "\\<div\\> escaped",
        "a \\[not a link\\](x)",
        "\\*not emphasis\\*",
    ],
)
def test_escaped_markdown_is_not_reintroduced_as_markup(source: str) -> None:
    text = text_of(source)
    assert text  # something readable is kept
    assert "\\" not in text or source.startswith("#")


def test_empty_and_whitespace() -> None:
    assert markdown_to_text("").blocks == ()
    assert markdown_to_text("   \n\n\t\n").blocks == ()
    assert markdown_to_text("<!-- only a comment -->\n").blocks == ()
    assert markdown_to_text("{{< only-a-shortcode >}}\n").blocks == ()


def test_whitespace_collapsed_one_line_per_block() -> None:
    result = markdown_to_text("Line one\nline   two\twith tab  \nthree  ")
    assert result.blocks == (Block("text", "Line one line two with tab three"),)


# --------------------------------------------------------------------------- clean_inline (titles)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("Using `curl` &amp; **jq**", "Using curl & jq"),
        ("[Refunds](/x) <em>fast</em>", "Refunds fast"),
        ("Title {{< badge >}} {{ site.name }}", "Title"),
        ("Multi\nline", "Multi line"),
        ("  spaced   out  ", "spaced out"),
        ("<script>x()</script>Safe", "Safe"),
        # R3: text that opens like a Markdown heading would read as one.
        ("# Not a heading marker", "Not a heading marker"),
    ],
)
def test_clean_inline(source: str, expected: str) -> None:
    assert clean_inline(source) == expected


def test_clean_inline_titles_are_plain() -> None:
    for title in ("Using `curl` &amp; **jq**", "A <b>bold</b> [link](x) ![img](y)", "{% x %}T{{ y }}"):
        assert_no_markup(clean_inline(title))


# --------------------------------------------------------------------------- properties

_MARKUP_PIECES = st.sampled_from(
    [
        "<div>",
        "</div>",
        "<span a='1'>",
        "<!-- c -->",
        "&amp;",
        "&lt;",
        "&#169;",
        "[l](u)",
        "![a](i)",
        "**b**",
        "`c`",
        "{{< s >}}",
        "{{% s %}}",
        "{% t %}",
        "{{ v }}",
        "<Tabs>",
        "<script>x</script>",
        "\n",
        "\n\n",
        "\n```\n",
        "\n# ",
        "\n- ",
        "\n| a | b |\n|---|---|\n| c | d |\n",
        " ",
        "word",
        "é",
        "<br/>",
        "\n> ",
    ]
)


@settings(max_examples=300, deadline=None, database=None)
@given(pieces=st.lists(st.one_of(_MARKUP_PIECES, st.text(max_size=8)), max_size=30))
def test_property_never_raises_and_prose_blocks_are_plain(pieces: list[str]) -> None:
    source = "".join(pieces)
    result = markdown_to_text(source)
    # Escapes and inline code are text the author meant readers to see, markup or not.
    escaped = any(mark in source for mark in ("&lt;", "&gt;", "&#", "\\", "`", "$$"))
    for block in result.blocks:
        assert block.text and block.text == block.text.strip()
        assert "\n" not in block.text
        if block.kind == "code":
            # Code is kept as written: each of its words is in the source (a NUL becomes
            # U+FFFD, as CommonMark requires).
            written = source.replace("\x00", "")
            assert all(word.replace("\ufffd", "") in written for word in block.text.split()), block.text
        elif not escaped:
            assert_no_markup(block.text, code=True)


def test_stray_template_delimiters_do_not_survive() -> None:
    """A ``{{`` without its pair (or decoded from entities) still reads as a template tag
    in prose (CONTRACT R3) and is dropped; code keeps it as written."""
    assert [b.text for b in markdown_to_text("Use {{ or &#123;&#123; here, and %} too.").blocks] == [
        "Use or here, and too."
    ]
    assert [b.text for b in markdown_to_text("```\nx = {{{ y\n```").blocks] == ["x = {{{ y"]
