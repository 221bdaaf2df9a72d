"""provider.wiki.frontmatter: guarded YAML headers. Any error here makes a file
internal (CONTRACT X5), so every refusal is tested as an *error*, not a crash."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.frontmatter import (
    MAX_ALIAS_NODES,
    MAX_ALIASES,
    MAX_HEADER_BYTES,
    parse_front_matter,
    split_front_matter,
)


def ok(text: str) -> dict:
    front = parse_front_matter(text)
    assert front.error is None, front.error
    assert front.present
    return front.data


def refused(text: str) -> str:
    front = parse_front_matter(text)
    assert front.present
    assert front.error is not None
    assert front.data == {}, "an unreadable header must not leak any value"
    return front.error


def test_plain_header_and_body() -> None:
    front = parse_front_matter("---\ntitle: Hello\naudience: public\n---\n# Body\n\ntext\n")
    assert front.error is None
    assert front.present
    assert front.data == {"title": "Hello", "audience": "public"}
    assert front.body == "# Body\n\ntext\n"


def test_no_header() -> None:
    front = parse_front_matter("# Just markdown\n\nSome text.\n")
    assert front == parse_front_matter("# Just markdown\n\nSome text.\n")
    assert not front.present
    assert front.error is None
    assert front.data == {}
    assert front.body == "# Just markdown\n\nSome text.\n"


def test_audience_key_in_the_body_is_unreadable() -> None:
    """X5: ``audience: internal`` written below the top is what its author meant as a
    header; read as body text, a path rule could publish it."""
    front = parse_front_matter("# Just markdown\n\naudience: internal\n")
    assert front.error is not None and "audience" in front.error


def test_bom_tolerated() -> None:
    front = parse_front_matter("\ufeff---\naudience: public\n---\nBody\n")
    assert front.data == {"audience": "public"}
    assert front.body == "Body\n"


def test_crlf_tolerated_and_body_normalised() -> None:
    front = parse_front_matter("---\r\naudience: public\r\ntitle: T\r\n---\r\nLine 1\r\nLine 2\r\n")
    assert front.error is None
    assert front.data == {"audience": "public", "title": "T"}
    assert front.body == "Line 1\nLine 2\n"
    assert "\r" not in front.body


def test_bom_and_crlf_together() -> None:
    assert ok("\ufeff---\r\naudience: public\r\n---\r\nx") == {"audience": "public"}


def test_fence_lines_may_have_trailing_spaces() -> None:
    assert ok("---  \naudience: public\n---\t \nBody") == {"audience": "public"}


@pytest.mark.parametrize(
    "text",
    [
        "\n---\naudience: internal\n---\nBody",  # blank line first
        " ---\naudience: internal\n---\nBody",  # indented fence
        "\u200b---\naudience: internal\n---\nBody",  # behind a zero-width space
        "----\naudience: internal\n----\nBody",  # four dashes
        ";;;\naudience: internal\n;;;\nBody",  # another fence
        "<!-- lint -->\n---\ntitle: x\n---\nBody",  # after a comment
        "Intro\n\n+++\ntitle = 'x'\n+++\nBody",  # a TOML header below text
        '\n{"title": "x"}\nBody',  # a one-line JSON header after a blank line
    ],
)
def test_x5_a_misplaced_header_is_an_error_not_body_text(text: str) -> None:
    """X5: a header that is not exactly on the first line is unreadable front matter
    (the page becomes internal), never body text a path rule could make public."""
    front = parse_front_matter(text)
    assert front.present and front.error is not None and "first line" in front.error
    assert front.data == {}


def test_x5_an_audience_line_near_the_top_is_an_error_not_body_text() -> None:
    front = parse_front_matter("Intro\n---\naudience: public\n---\nBody")
    assert front.error is not None and front.data == {}


def test_a_thematic_break_and_prose_near_the_top_are_just_text() -> None:
    front = parse_front_matter("Intro\n\n---\n\nMore prose: with a colon.\n")
    assert not front.present and front.error is None


_LABELS = st.from_regex(r"[A-Z][a-z]{2,12}( [A-Z][a-z]{2,10})?", fullmatch=True).filter(
    lambda label: "aud" not in label.lower())


@settings(max_examples=60)
@given(label=_LABELS, emphasis=st.sampled_from(["**", "*"]), colon_inside=st.booleans())
def test_a_bold_label_below_a_thematic_break_is_text_but_the_same_key_plain_is_a_header(
        label: str, emphasis: str, colon_inside: bool) -> None:
    """FastAPI-style index pages (Starlette's) put ``---`` then ``**Documentation**: <a …>``
    under their logo: ``*`` starts no YAML or TOML key (in YAML it is an alias), so that is
    a Markdown label, not a misplaced header. The same key written plain stays one (X5)."""
    shown = f"{emphasis}{label}:{emphasis}" if colon_inside else f"{emphasis}{label}{emphasis}:"
    front = parse_front_matter(f"<p>logo</p>\n\n---\n\n{shown} https://example.dev\n\n---\n\n# Intro\n")
    assert not front.present and front.error is None
    plain = parse_front_matter(f"<p>logo</p>\n\n---\n{label.replace(' ', '_')}: https://example.dev\n---\n")
    assert plain.error is not None and "first line" in plain.error and plain.data == {}


@pytest.mark.parametrize(
    "text",
    ["--- yaml\naudience: internal\n---\nBody", "---yaml\naudience: internal\n---\nBody",
     "---toml\naudience = 'internal'\n---\nBody", '---json\n{"audience": "internal"}\n---\nBody'],
)
def test_x5_gray_matter_language_fences_are_read(text: str) -> None:
    """gray-matter (Docusaurus, Astro) reads ``---<language>``: so do we."""
    front = parse_front_matter(text)
    assert front.error is None and front.data == {"audience": "internal"}


def test_x5_executable_front_matter_is_unreadable() -> None:
    front = parse_front_matter("---js\n{audience: 'public'}\n---\nBody")
    assert front.error is not None and front.data == {}


@pytest.mark.parametrize(
    "text",
    ['{"audience": "internal"}\nBody', '{"audience": "internal"} Body', '{"audience":\n "internal"}\nBody',
     '{\n"audience": "internal"\n}\nBody'],
)
def test_x5_json_headers_in_every_form_hugo_accepts(text: str) -> None:
    front = parse_front_matter(text)
    assert front.error is None and front.data == {"audience": "internal"}
    assert "audience" not in front.body


def test_x5_json_header_with_duplicate_keys_is_unreadable() -> None:
    front = parse_front_matter('{"audience": "internal", "audience": "public"}\nBody')
    assert front.error is not None and "twice" in front.error


def test_jekyll_reads_a_yaml_end_marker_as_the_closing_fence() -> None:
    front = parse_front_matter("---\naudience: internal\n...\nBody\n", yaml_end_marker=True)
    assert front.data == {"audience": "internal"} and front.body.startswith("Body")


@pytest.mark.parametrize(
    ("text", "data"),
    [("+++\naudience = 'internal'\n+++\nBody", {"audience": "internal"}),
     ('{\n "audience": "internal"\n}\nBody', {"audience": "internal"})],
)
def test_x5_toml_and_json_headers_are_read_in_every_layout(text: str, data: dict[str, str]) -> None:
    """X5: a TOML or JSON header is never mistaken for body text."""
    front = parse_front_matter(text)
    assert front.present and front.error is None and front.data == data


@pytest.mark.parametrize(
    "closing",
    ["--- x", "----", " ---", "-- -", "...", "---x"],
)
def test_closing_line_must_be_exactly_three_dashes(closing: str) -> None:
    error = refused(f"---\naudience: public\n{closing}\nBody\n")
    assert "closing" in error


def test_closing_line_found_after_near_misses() -> None:
    # The YAML block contains a near-miss line inside a string; the real closing fence follows.
    data = ok("---\ntitle: |\n  --- not a fence\naudience: public\n---\nBody")
    assert data == {"title": "--- not a fence\n", "audience": "public"}


def test_no_closing_line_is_an_error() -> None:
    front = parse_front_matter("---\naudience: public\ntitle: Never closed\n\n# Body\n")
    assert front.present
    assert front.data == {}
    assert front.error is not None
    assert "closing" in front.error


def test_header_over_64_kib_is_an_error() -> None:
    big = "x" * (MAX_HEADER_BYTES + 10)
    error = refused(f"---\naudience: public\ntitle: {big}\n---\nBody")
    assert str(MAX_HEADER_BYTES) in error


def test_header_over_64_kib_multibyte_is_an_error() -> None:
    # Under the limit in characters, over it in UTF-8 bytes.
    big = "é" * (MAX_HEADER_BYTES // 2 + 100)
    assert len(big) < MAX_HEADER_BYTES
    refused(f"---\naudience: public\ntitle: {big}\n---\nBody")


def test_unclosed_huge_header_is_an_error_without_scanning_forever() -> None:
    lines = "\n".join(f"k{i}: v" for i in range(20000))
    error = refused(f"---\naudience: public\n{lines}\n")
    assert "larger than" in error or "closing" in error


def test_header_just_under_the_limit_is_fine() -> None:
    value = "x" * (MAX_HEADER_BYTES - 100)
    assert ok(f"---\naudience: public\nt: {value}\n---\nBody")["audience"] == "public"


def test_anchors_and_aliases_are_read() -> None:
    """Hugo sites share values with anchors: their draft and expiryDate must be read."""
    data = ok("---\nbase: &b {draft: true, expiryDate: 2020-01-01}\npage:\n  <<: *b\n  title: x\n"
              "again: *b\n---\nBody")
    assert data["page"]["draft"] is True and data["again"]["draft"] is True
    assert ok("---\nbase: &b public\naudience: *b\n---\nBody")["audience"] == "public"


@settings(max_examples=40, deadline=None)
@given(width=st.integers(min_value=1, max_value=12), depth=st.integers(min_value=1, max_value=8))
def test_x7_alias_expansion_is_bounded(width: int, depth: int) -> None:
    """Every nesting of aliases is read while it stands for at most MAX_ALIAS_NODES nodes
    (and MAX_ALIASES uses), and refused beyond: the class of alias bombs, not one bomb."""
    lines = ["l0: &l0 [" + ",".join(["x"] * width) + "]"]
    for level in range(1, depth):
        lines.append(f"l{level}: &l{level} [" + ",".join([f"*l{level - 1}"] * width) + "]")
    front = parse_front_matter("---\n" + "\n".join(lines) + "\naudience: public\n---\nBody")
    # What the aliases stand for: level k (k >= 1) is used `width` times, each use
    # standing for the whole of level k-1.
    sizes = [1 + width]
    for _ in range(1, depth):
        sizes.append(1 + width * sizes[-1])
    expanded = sum(width * sizes[k - 1] for k in range(1, depth))
    uses = width * (depth - 1)
    if expanded > MAX_ALIAS_NODES or uses > MAX_ALIASES:
        assert front.error is not None and "alias" in front.error and front.data == {}
    else:
        assert front.error is None and front.data["audience"] == "public"


def test_billion_laughs_refused_quickly() -> None:
    laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        laughs.append(f"{cur}: &{cur} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]")
    error = refused("---\n" + "\n".join(laughs) + "\naudience: public\n---\nBody")
    assert "anchor" in error or "alias" in error


def test_merge_keys_are_read_and_two_of_them_refused() -> None:
    assert ok("---\nbase: &base {audience: public}\npage:\n  <<: *base\n---\nBody")["page"] == {"audience": "public"}
    assert "twice" in refused("---\n<<: {audience: public}\n<<: {audience: internal}\n---\nBody")


def test_duplicate_keys_refused() -> None:
    error = refused("---\naudience: internal\naudience: public\n---\nBody")
    assert "twice" in error
    assert "audience" in error


def test_duplicate_keys_in_nested_mapping_refused() -> None:
    refused("---\naudience: public\nmeta:\n  a: 1\n  a: 2\n---\nBody")


def test_unhashable_key_refused() -> None:
    refused("---\n? [a, b]\n: 1\naudience: public\n---\nBody")


@pytest.mark.parametrize(
    "header",
    ["- audience: public", "- a\n- b", "public", "42", "'audience: public'", "true"],
)
def test_list_or_scalar_at_top_level_refused(header: str) -> None:
    error = refused(f"---\n{header}\n---\nBody")
    assert "mapping" in error


def test_yaml_syntax_error_mentions_the_line() -> None:
    # File line 1 is '---'; the bad line is file line 4.
    text = "---\ntitle: fine\nlist: [a, b\naudience: public\n---\nBody"
    error = refused(text)
    assert "not valid YAML" in error
    assert "line" in error


def test_yaml_syntax_error_line_number_counts_the_fence() -> None:
    text = "---\na: 1\nb: 2\n  c: 3\n---\nBody"  # line 4 of the file is wrong
    error = refused(text)
    assert error.endswith("line 4"), error


@pytest.mark.parametrize(
    "tag",
    [
        "!!python/object/apply:os.system ['echo pwned']",
        "!!python/object:builtins.dict {}",
        "!!python/name:os.system",
        "!!python/tuple [1, 2]",
        "!custom 1",
    ],
)
def test_python_and_unknown_tags_refused(tag: str) -> None:
    refused(f"---\naudience: public\nx: {tag}\n---\nBody")


def test_empty_header_ok() -> None:
    front = parse_front_matter("---\n---\nBody\n")
    assert front.present
    assert front.error is None
    assert front.data == {}
    assert front.body == "Body\n"


def test_comment_only_header_ok() -> None:
    front = parse_front_matter("---\n# nothing here\n---\nBody\n")
    assert front.error is None
    assert front.data == {}


@pytest.mark.parametrize(
    "nested",
    [
        "[" * 5000 + "]" * 5000,
        "{a: " * 3000 + "1" + "}" * 3000,
        "".join(f"\n{'  ' * i}k:" for i in range(1, 200)) + " 1",  # stays under 64 KiB
    ],
)
def test_deep_nesting_does_not_crash(nested: str) -> None:
    front = parse_front_matter(f"---\naudience: internal\nx: {nested}\n---\nBody")
    assert front.present
    assert front.body == "Body"
    # Either it parsed (then it says what it says) or it is an error; never an exception.
    if front.error is None:
        assert front.data["audience"] == "internal"
    else:
        assert front.data == {}


def test_invalid_date_is_an_error_not_a_crash() -> None:
    refused("---\naudience: public\ndate: 2024-13-45\n---\nBody")


def test_values_keep_their_yaml_types() -> None:
    data = ok("---\ndraft: true\ncount: 3\nwhen: 2024-05-01\ntags: [a, b]\nnone:\n---\nBody")
    assert data == {"draft": True, "count": 3, "when": dt.date(2024, 5, 1), "tags": ["a", "b"], "none": None}


def test_body_keeps_later_fence_lines() -> None:
    front = parse_front_matter("---\na: 1\n---\nabove\n\n---\n\nbelow\n")
    assert front.data == {"a": 1}
    assert front.body == "above\n\n---\n\nbelow\n"


def test_split_front_matter_shapes() -> None:
    assert split_front_matter("no header") == (None, "no header", None)
    assert split_front_matter("---\na: 1\n---\nb") == ("a: 1", "b", None)
    _, _, error = split_front_matter("---\na: 1\n")
    assert error is not None
