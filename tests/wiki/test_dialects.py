"""provider.wiki.dialects: each docs tool's syntax reduced to the words a reader sees
(CONTRACT R3). Each case is markdown as the tool documents it → the plain-text blocks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.dialects import DIALECTS, apply_dialects
from provider.wiki.layouts import LAYOUTS
from provider.wiki.plaintext import markdown_to_text
from provider.wiki.residue import dialect_residue
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
        "Pro tip:", "Use npm.", "Old style title:", "Old style body.", "Outer.", "Inner.", "No title here.",
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
        "Heads up:", "First line.", "Second paragraph.", "Collapsed.", "Nested.", "Linux:", "Linux text.", "macOS:",
        "Mac text.", "After the blocks.",
    ]


def test_mkdocs_admonition_inside_a_list_stays_in_the_item() -> None:
    source = '1. Step one.\n\n    !!! note "Careful"\n        Step note.\n\n2. Step two.\n'
    assert text(source, "mkdocs") == ["Step one.", "Careful:", "Step note.", "Step two."]


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
    assert text("> :::tip[Heads up]\n> Body.\n> :::", "docusaurus") == ["Heads up:", "Body."]


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


# --------------------------------------------------------------------------- MkDocs / pymdown (CONTRACT R3)

MKDOCS = ("mkdocs", "heading_attributes")


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # pymdownx.blocks: the title and the body, never the fence lines.
        ("/// note | Technical Details\n\nBody text.\n\n///\n", ["Technical Details:", "Body text."]),
        ("/// tip\n\nNo title.\n\n///\n", ["No title."]),
        ("/// admonition | Careful\n    type: warning\n\nBody.\n///\n", ["Careful:", "Body."]),
        ("/// details | Click to expand\n    open: true\n\nHidden.\n///\n", ["Click to expand:", "Hidden."]),
        ("/// html | div.grid\n\nGrid text.\n\n///\n", ["Grid text."]),  # a selector, not a title
        ("//// tab | Python 3.10+\n\n/// note\n\nInner.\n\n///\n\n////\n", ["Python 3.10+:", "Inner."]),
        ("Before.\n/// warning | Title\nRight after.\n///\nAfter.\n", ["Before.", "Title:", "Right after.", "After."]),
        ("/// note | Never closed\n\nRest of the page.\n", ["Never closed:", "Rest of the page."]),
        # classic admonitions
        ('!!! note "Title"\n    Indented body.\n', ["Title:", "Indented body."]),
        ("!!!note\n    No space after the marker.\n", ["No space after the marker."]),
        ('!!! 참고 "제목"\n    한국어 본문\n', ["제목：", "한국어 본문"]),
        ('??? note "Expand to see output"\n    Output.\n', ["Expand to see output:", "Output."]),
        ('???+ tip\n    Open by default.\n', ["Open by default."]),
        # content tabs
        ('=== "Python"\n\n    Use pip.\n\n=== "Node"\n\n    Use npm.\n', ["Python:", "Use pip.", "Node:", "Use npm."]),
        # includes: another file's text, gone (in code too: they run before Markdown)
        ("Intro.\n\n{* ../../docs_src/x.py hl[6:7] *}\n\nAfter.\n", ["Intro.", "After."]),
        ("{!> ../../docs_src/x.md !}\n\nText.\n", ["Text."]),
        ("{!../../docs/missing-translation.md!}\n\nText.\n", ["Text."]),
        ("```Python hl_lines=\"2\"\n{!> ../../../docs_src/body/tutorial001.py!}\n```\n\nText.\n", ["Text."]),
        ('--8<-- "includes/abbreviations.md"\n\nText.\n', ["Text."]),
        ("--8<--\nfile-a.md\nfile-b.md\n--8<--\n\nText.\n", ["Text."]),
        ('```\n--8<-- "snippet.py"\n```\n\nText.\n', ["Text."]),
        # mkdocstrings and autorefs
        ("# `Agents`\n\n::: agents.agent\n", ["Agents"]),
        ("::: agents\n\n    options:\n        members:\n            - Agent\n\nAfter.\n", ["After."]),
        ("Use [`Agent`][agents.Agent] or [agents.Runner][].\n", ["Use Agent or agents.Runner."]),
        # Han, Kana and Hangul touch the bracket (no space in those scripts): the trial's zh page
        ("通过[VoicePipelineConfig][agents.voice.pipeline_config.VoicePipelineConfig]配置。\n",
         ["通过VoicePipelineConfig配置。"]),
        ("を[Session][agents.memory.session.Session]で使います。\n", ["をSessionで使います。"]),
        # attribute lists, icons, keys, TOC marker
        ("[Go](x.md){ .md-button .md-button--primary }\n", ["Go"]),
        ("See [x](y.md){.internal-link target=_blank} and [z](w){target=_blank}.\n", ["See x and z."]),
        ("Done :material-check: and :octicons-git-branch-16: here.\n", ["Done and here."]),
        ("Press ++ctrl+alt+del++ now.\n", ["Press ctrl+alt+del now."]),
        ("[TOC]\n\nText.\n", ["Text."]),
        ("| name | type |\n|---|---|\n| `retries` | `int | None` |\n", ["name · type", "retries · int | None"]),
    ],
)
def test_mkdocs_constructs_leave_their_text(source: str, expected: list[str]) -> None:
    assert text(source, *MKDOCS) == expected


def test_mkdocs_code_keeps_what_looks_like_syntax() -> None:
    # In fenced code, what the reader sees is kept as written (only include lines go).
    source = '```text\n/// note | x\n!!! note\n::: agents.agent\n=== "Tab"\n```\n'
    blocks = markdown_to_text(apply_dialects(source, MKDOCS)).blocks
    assert [b.text for b in blocks] == ['/// note | x !!! note ::: agents.agent === "Tab"']


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("![Protezione DNS \\*mobile_border](https://cdn.example/a.png)", "Protezione DNS"),
        ("![Hauptbildschirm und Standorte *mobile_border](https://cdn.example/b.png)", "Hauptbildschirm und Standorte"),
        ("![WFP driver *border](https://cdn.example/c.png)", "WFP driver"),
        ("![a *b* c](x.png)", "a b c"),  # emphasis, not a marker
    ],
)
@pytest.mark.parametrize("layout", ["docusaurus", "mkdocs", "plain"])
def test_image_style_markers_are_not_text(source: str, expected: str, layout: str) -> None:
    dialects = {"docusaurus": ("docusaurus", "heading_attributes"), "mkdocs": MKDOCS, "plain": ()}[layout]
    assert text(f"Look: {source} done.", *dialects) == [f"Look: {expected} done."]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (":::image type=\"content\" source=\"media/x.png\" alt-text=\"The sign-in page.\":::", ["The sign-in page."]),
        ("> [!NOTE]\n> Restart Outlook.", ["Restart Outlook."]),
        ("> [!WARNING]\n> Back up first.", ["Back up first."]),
        ("[!INCLUDE [Applies to](../includes/applies.md)]\n\nText.", ["Text."]),
    ],
)
def test_learn_constructs_already_handled(source: str, expected: list[str]) -> None:
    assert text(source, "docfx", "heading_attributes") == expected


# Property tests: every generated construct leaves no syntax of its own in the text.

_WORD = st.text(alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzäöü日本語한국어"), min_size=1, max_size=10)
_PHRASE = st.lists(_WORD, min_size=1, max_size=6).map(" ".join)
_TYPES = st.sampled_from(["note", "tip", "warning", "info", "details", "tab", "admonition", "html", "danger"])


@st.composite
def _pymdown_block(draw: st.DrawFn, depth: int = 0) -> str:
    slashes = "/" * draw(st.integers(3, 5))
    kind = draw(_TYPES)
    title = draw(st.one_of(st.none(), _PHRASE))
    header = f"{slashes} {kind}" + (f" | {title}" if title is not None else "")
    options = draw(st.sampled_from(["", "    type: warning\n", "    open: true\n    attrs: {class: x}\n"]))
    body = draw(st.lists(_PHRASE, min_size=1, max_size=3))
    inner = draw(_pymdown_block(depth + 1)) if depth < 1 and draw(st.booleans()) else ""
    blank = draw(st.sampled_from(["", "\n"]))
    return f"{header}\n{options}{blank}" + "\n\n".join(body) + f"\n\n{inner}{slashes}\n"


@st.composite
def _admonition(draw: st.DrawFn) -> str:
    marker = draw(st.sampled_from(["!!!", "!!! ", "??? ", "???+ "]))
    kind = draw(st.sampled_from(["note", "warning", "tip", "참고"]))
    title = draw(st.one_of(st.none(), _PHRASE))
    head = f"{marker}{kind}" + (f' "{title}"' if title is not None else "")
    body = draw(st.lists(_PHRASE, min_size=1, max_size=3))
    return head + "\n" + "\n\n".join(f"    {b}" for b in body) + "\n"


_INCLUDE = st.sampled_from([
    "{* ../../docs_src/a/tutorial001.py hl[6:7] *}",
    "{* ../../docs_src/b.py ln[1:10] hl[2] title[\"app/main.py\"] *}",
    "{!> ../../docs_src/c.md !}",
    "{!../../docs/missing-translation.md!}",
    '--8<-- "includes/x.md"',
    "--8<-- \"a.md:section\"",
    "::: package.module",
    "::: package.module.Object\n    options:\n        show_source: false",
    '=== "Tab title"\n\n    Tab body.',
    "{ .annotate }",
    "[TOC]",
])


@settings(max_examples=200, deadline=None, database=None)
@given(parts=st.lists(st.one_of(_pymdown_block(), _admonition(), _INCLUDE, _PHRASE), min_size=1, max_size=6))
def test_property_mkdocs_constructs_leave_no_syntax(parts: list[str]) -> None:
    """CONTRACT R3: pymdown blocks, admonitions, tabs, includes and mkdocstrings lines
    never leave their syntax in the plain text, whatever their mix and nesting."""
    source = "\n\n".join(parts)
    for block in markdown_to_text(apply_dialects(source, MKDOCS)).blocks:
        assert not dialect_residue(block.text), (source, block.text)
        assert_no_markup(block.text, code=block.kind == "code")


@pytest.mark.parametrize("dialects", [(), ("docusaurus", "heading_attributes"), MKDOCS])
def test_undefined_reference_link_shows_its_text(dialects: tuple[str, ...]) -> None:
    """R3: ``[text][ref]`` without a definition (a translation dropped it) is its text;
    ``[][]byte`` and ``m[0][1]`` are text as written, and so is inline code."""
    source = "Refer to [Kaia's JSON-RPC API][Kaia-API] now. Go has [][]byte and m[0][1].\n"
    assert text(source, *dialects) == ["Refer to Kaia's JSON-RPC API now. Go has [][]byte and m[0][1]."]
    blocks = markdown_to_text(apply_dialects("Write `[a][b]` here.", dialects)).blocks
    assert [b.text for b in blocks] == ["Write [a][b] here."]
