"""How a provider shows text its page shows literally (CONTRACT R3; the kit's one
definition of plain text, :mod:`helpthread_kit.plaintext`): :func:`as_plain_text` turns
any text into text the black-box checker (:func:`markup_in`) accepts, changes plain text
not at all, and changes only the characters that made it markup — as a class: any text,
not a list of samples."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpthread_kit.plaintext import LOOK_ALIKES, as_plain_text, markup_in

#: Pieces of markup and of code that look like markup, and prose around them: the
#: class of texts a code block or an escaped sample puts in a snippet.
_PIECES = ["<", ">", "</", "/>", "<!--", "-->", "&amp;", "&#39;", "&", "[", "]", "](", "![", "]:", "**", "__",
           "*", "_", "#", "# ", "\n", "\n# ", "```", "~~~", "`", "|", "---", "| --- |", "{{", "}}", "{%", "%}",
           "{# ", " #}", "{", "}", "%", "=", '"', "(", ")", ":", " ", " ", "b", "div", "a href", " class=",
           "Callout", "name", "main", "kwargs", "x", "1", "Values", "é", "日本"]
_MARKUPISH = st.lists(st.sampled_from(_PIECES), max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_MARKUPISH, st.text(max_size=200)))
def test_r3_any_text_shown_with_look_alikes_is_plain_text(text: str) -> None:
    shown = as_plain_text(text)
    assert markup_in(shown) == [], (text, shown)
    assert len(shown) == len(text)  # one character for one: a clipped snippet stays in bounds
    changed = {(a, b) for a, b in zip(text, shown, strict=True) if a != b}
    assert all(LOOK_ALIKES.get(a) == b for a, b in changed), changed


@settings(max_examples=200, deadline=None)
@given(st.one_of(_MARKUPISH, st.text(max_size=200)))
def test_r3_plain_text_is_shown_unchanged(text: str) -> None:
    if not markup_in(text):
        assert as_plain_text(text) == text


@pytest.mark.parametrize(
    ("code", "shown"),
    [
        # The cases the reference provider failed its own checker on (issue 25).
        ('if __name__ == "__main__":', 'if ＿＿name＿＿ == "＿＿main＿＿":'),
        ("Agent[UserContext](name='x')", "Agent［UserContext］(name='x')"),
        ("Write a poem in {{poem_style}}", "Write a poem in ｛｛poem_style｝｝"),
        ('<div class="note">Hi</div>', '‹div class="note"›Hi‹/div›'),
        ("# install the dependencies", "＃ install the dependencies"),
        ("f(**kwargs, **options)", "f(∗∗kwargs, ∗∗options)"),
        ("echo &amp;", "echo ＆amp;"),
        ("<!-- note -->", "‹!-- note --›"),
        ("```python", "‵‵‵python"),
    ],
)
def test_r3_code_is_shown_with_look_alikes_where_it_reads_as_markup(code: str, shown: str) -> None:
    assert markup_in(code)
    assert as_plain_text(code) == shown


@pytest.mark.parametrize("prose", ["a < b and b > c", "C# and issue #4", "Use snake_case names", "3 * 4 = 12",
                                   "INV-{####}", "Press <Enter> to send", "see [1] and [2]", "x_1 and y_2"])
def test_r3_prose_that_only_looks_like_markup_is_left_alone(prose: str) -> None:
    assert as_plain_text(prose) == prose
