"""provider.wiki.plaintext: Markdown to the words a reader sees (CONTRACT R3, O3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.plaintext import Block, clean_inline, markdown_to_text
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


def test_entity_written_as_a_tag_is_not_a_tag() -> None:
    # The reader sees "<div>" as text; a snippet must not carry it as a tag.
    text = plain("Use &lt;div&gt; for blocks.")
    assert "Use" in text and "for blocks." in text


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


def test_code_block_markup_is_neutralised() -> None:
    source = '```html\n<div class="box">Hi &amp; bye</div>\n<!-- note -->\n<br/>\n```\n'
    result = markdown_to_text(source)
    assert len(result.blocks) == 1
    code = result.blocks[0]
    assert code.kind == "code"
    assert_no_markup(code.text)
    assert "div" in code.text and "Hi & bye" in code.text
    assert "note" not in code.text


def test_code_block_nested_tag_attribute_is_neutralised() -> None:
    # A real corpus line: a placeholder tag inside an attribute of another tag.
    source = '```xml\n<port protocol="tcp" port="<new-ssh-port>"/>\n```\n'
    code = markdown_to_text(source).blocks[0].text
    assert_no_markup(code)
    assert "new-ssh-port" in code and "port" in code


def test_code_keeps_ampersands_that_are_not_entities() -> None:
    # html.unescape alone would turn "&region" into "®ion" and "&param" into "¶m".
    url = "https://api.example.com/v1?id=1&region=eu&param=2&copy=3&not=4"
    assert blocks_of(f"```\ncurl '{url}'\n```\n") == [("code", f"curl '{url}'")]
    assert plain(f"Call `{url}` now.") == f"Call {url} now."
    assert plain("Terms&conditions, R&D, AT&T, a&copy b") == "Terms&conditions, R&D, AT&T, a&copy b"


def test_double_escaped_entities_leave_no_entity_text() -> None:
    assert plain("Fish &amp;amp; chips") == "Fish & chips"
    assert_no_markup(markdown_to_text("```\n&amp;lt;b&amp;gt;bold&amp;lt;/b&amp;gt;\n```").text)
    assert_no_markup(markdown_to_text("Write &amp;lt;br&amp;gt; here").text)


def test_inline_code_entities_decoded() -> None:
    # A real corpus sentence: `&lt;-` in a code span.
    text = plain("The arrow syntax `&lt;-` sends on a channel: `ch &lt;- v`.")
    assert text == "The arrow syntax <- sends on a channel: ch <- v."


def test_inline_code_placeholders_keep_their_words() -> None:
    text = plain("Replace `<MONITORING_SERVER_IP>` and `<your-domain>` with your values.")
    assert "MONITORING_SERVER_IP" in text
    assert "your-domain" in text
    assert text.endswith("with your values.")


def test_inline_code_nested_tag_is_neutralised() -> None:
    text = plain('Use `<port protocol="tcp" port="<new-ssh-port>"/>` here.')
    assert "new-ssh-port" in text


def test_deeply_nested_tags_never_survive() -> None:
    nested = "".join(f'<a{i} x="' for i in range(30)) + "<b>" + '">' * 30
    for source in (f"```\n{nested}\n```\n", f"`{nested}`", f"x {nested} y"):
        for block in markdown_to_text(source).blocks:
            assert_no_markup(block.text, code=True)


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
    result = markdown_to_text("".join(pieces))
    for block in result.blocks:
        assert block.text and block.text == block.text.strip()
        assert "\n" not in block.text
        # Nothing that is markup in any context, in any block.
        assert_no_markup(block.text, code=True)


def test_stray_template_delimiters_do_not_survive() -> None:
    """A ``{{`` without its pair (or decoded from entities) still reads as a template tag
    (CONTRACT R3): prose drops it, code keeps its characters apart."""
    assert [b.text for b in markdown_to_text("Use {{ or &#123;&#123; here, and %} too.").blocks] == [
        "Use or here, and too."
    ]
    assert [b.text for b in markdown_to_text("```\nx = {{{ y\n```").blocks] == ["x = { { { y"]
