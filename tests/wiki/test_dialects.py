"""provider.wiki.dialects: each docs tool's syntax reduced to the words a reader sees
(CONTRACT R3). Each case is markdown as the tool documents it → the plain-text blocks."""

from __future__ import annotations

import pytest

from provider.wiki.dialects import DIALECTS, apply_dialects
from provider.wiki.layouts import LAYOUTS
from provider.wiki.plaintext import markdown_to_text
from tests.wiki.markup import assert_no_markup


def text(source: str, *dialects: str) -> list[str]:
    blocks = markdown_to_text(apply_dialects(source, dialects)).blocks
    for block in blocks:
        assert_no_markup(block.text, code=block.kind == "code")
    return [block.text for block in blocks]


def test_every_layout_names_known_dialects() -> None:
    for layout in LAYOUTS.values():
        assert set(layout.dialects) <= set(DIALECTS), layout.name


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("## Install {#install}", "Install"),
        ("## Install {: #install .big}", "Install"),
        ("### Tabs { #tabs .wide }", "Tabs"),
        ("# Title {.lead} ##", "Title"),
        ("## Keep {braces} in text", "Keep {braces} in text"),
    ],
)
def test_heading_attributes(line: str, expected: str) -> None:
    assert text(line, "heading_attributes") == [expected]


def test_hugo_block_attributes_and_shortcodes() -> None:
    source = "Paragraph.\n{.lead #intro}\n\n{{< notice warning >}}\nBack up first.\n{{< /notice >}}\n"
    assert text(source, "hugo") == ["Paragraph.", "Back up first."]


def test_docusaurus_admonitions_keep_title_and_text() -> None:
    source = (
        ":::tip[Pro tip]\n\nUse **npm**.\n\n:::\n\n"
        ":::note Old style title\nOld style body.\n:::\n\n"
        "::::info\nOuter.\n:::danger\nInner.\n:::\n::::\n\n"
        ":::caution\n\nNo title here.\n\n:::\n"
    )
    assert text(source, "docusaurus") == [
        "Pro tip", "Use npm.", "Old style title", "Old style body.", "Outer.", "Inner.", "No title here.",
    ]


def test_docusaurus_mdx_comments_and_string_expressions() -> None:
    source = "Hello{' '}world {/* hidden\nacross lines */} end.\n\n```js\nconst x = {' '};\n```"
    assert text(source, "docusaurus") == ["Hello world end.", "const x = {' '};"]


def test_docusaurus_leaves_code_fences_alone() -> None:
    assert text("```\n:::note\n```", "docusaurus") == [":::note"]


def test_kramdown_attribute_lists_extensions_and_toc() -> None:
    source = (
        "* TOC\n{:toc}\n\n"
        "Read the [guide](x){:target=\"_blank\"} first.\n{: .note}\n\n"
        "{::options parse_block_html=\"true\" /}\n"
        "{::comment}\nEditor note.\n{:/comment}\n\n"
        "A `{: literal}` code span stays.\n\n"
        "*[HTML]: Hyper Text Markup Language\n"
    )
    assert text(source, "kramdown") == ["Read the guide first.", "A {: literal} code span stays."]


def test_mkdocs_admonitions_tabs_and_nesting() -> None:
    source = (
        '!!! note "Heads up"\n    First **line**.\n\n    Second paragraph.\n\n'
        "??? tip\n    Collapsed.\n\n        !!! warning\n            Nested.\n\n"
        '=== "Linux"\n\n    Linux text.\n\n=== "macOS"\n\n    Mac text.\n\n'
        "After the blocks.\n"
    )
    assert text(source, "mkdocs") == [
        "Heads up", "First line.", "Second paragraph.", "Collapsed.", "Nested.", "Linux", "Linux text.", "macOS",
        "Mac text.", "After the blocks.",
    ]


def test_mkdocs_admonition_inside_a_list_stays_in_the_item() -> None:
    source = '1. Step one.\n\n    !!! note "Careful"\n        Step note.\n\n2. Step two.\n'
    assert text(source, "mkdocs") == ["Step one.", "Careful", "Step note.", "Step two."]


def test_mkdocs_attr_lists_snippets_keys_and_abbreviations() -> None:
    source = (
        "[Start](x.md){ .md-button .md-button--primary }\n\n"
        "Press ++ctrl+alt+del++ now.\n\n"
        '--8<-- "includes/abbreviations.md"\n\n'
        "{ .annotate }\n\n*[SSO]: Single sign-on\n"
    )
    assert text(source, "mkdocs") == ["Start", "Press ctrl+alt+del now."]


def test_docfx_includes_alerts_images_zones_and_xrefs() -> None:
    source = (
        "[!INCLUDE [intro](../includes/intro.md)]\n\n"
        "> [!NOTE]\n> Note text.\n\n"
        "> [!TIP] Inline tip text.\n\n"
        ':::image type="content" source="a.png" alt-text="Portal screenshot.":::\n\n'
        ':::zone pivot="cli"\n\nCLI text uses <xref:Acme.Client>.\n\n:::zone-end\n\n'
        ':::code language="csharp" source="Program.cs":::\n\n'
        "[!code-csharp[Main](Program.cs)]\n\n"
        '> [!div class="checklist"]\n> * First item\n'
    )
    assert text(source, "docfx") == [
        "Note text.", "Inline tip text.", "Portal screenshot.", "CLI text uses Acme.Client.", "First item",
    ]


def test_docfx_complex_image_keeps_its_long_description() -> None:
    source = ':::image type="complex" source="d.png" alt-text="Diagram.":::\nThe long description.\n:::image-end:::\n'
    assert text(source, "docfx") == ["Diagram. The long description."]


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_cleaners_are_linear_on_hostile_input(name: str) -> None:
    """No catastrophic backtracking: 200 KB of near-miss syntax is cleaned quickly."""
    import time

    hostile = ("{: " * 2000 + ":::" * 2000 + "!!! " * 2000 + "[!INCLUDE [" * 2000 + "{/*" * 2000 + "\n") * 5
    started = time.monotonic()
    apply_dialects(hostile, [name])
    assert time.monotonic() - started < 5


def test_docusaurus_admonition_inside_a_blockquote() -> None:
    assert text("> :::note\n> Quoted note.\n> :::\n\nAfter.", "docusaurus") == ["Quoted note.", "After."]
    assert text("> :::tip[Heads up]\n> Body.\n> :::", "docusaurus") == ["Heads up", "Body."]


def test_mdx_comments_are_text_in_code_and_hide_fences_in_prose() -> None:
    blocks = markdown_to_text(apply_dialects("```jsx\n{/* Status */}\n<Badge />\n```", ("docusaurus",))).blocks
    assert [b.text for b in blocks] == ["{/* Status */} <Badge />"]  # code, as written
    assert text("A {/*\n```\n*/} B", "docusaurus") == ["A B"]


def test_mdx_components_do_not_swallow_markdown_and_indented_fences_are_fences() -> None:
    source = (
        "Run it:\n\n<PackageManagerTabs>\n  <Fragment slot=\"npm\">\n  ```sh\n  npx astro add mdx\n    ```\n"
        "  </Fragment>\n</PackageManagerTabs>\n\n<Steps>\n1. First **step**.\n</Steps>\n"
    )
    blocks = markdown_to_text(apply_dialects(source, ("docusaurus",))).blocks
    assert [(b.kind, b.text) for b in blocks] == [("text", "Run it:"), ("code", "npx astro add mdx"),
                                                  ("text", "First step.")]


def test_jekyll_highlight_blocks_are_code() -> None:
    """A translated `# comment` inside {% highlight %} is code, not a heading."""
    source = "Intro.\n\n{% highlight ruby %}\n# Kommentar\nputs 'hi'\n{% endhighlight %}\n\nAfter."
    blocks = markdown_to_text(apply_dialects(source, ("kramdown",))).blocks
    assert [(b.kind, b.text) for b in blocks] == [("text", "Intro."), ("code", "# Kommentar puts 'hi'"),
                                                  ("text", "After.")]


def test_kramdown_attribute_list_over_two_lines() -> None:
    source = "| a | b |\n|---|---|\n| 1 | 2 |\n{: .table\n   .table-striped}\n\nNext."
    assert text(source, "kramdown") == ["a · b", "1 · 2", "Next."]
