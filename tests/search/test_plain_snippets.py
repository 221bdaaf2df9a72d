"""What the reference provider serves passes its own black-box checker (CONTRACT R3):
a page whose code and escaped samples read as markup — HTML and JSX samples, template
tags, Python dunders, shell comments, Markdown shown inside code — is served with
look-alike characters there (:func:`helpthread_kit.plaintext.as_plain_text`), and the
words a reader searched for are still in the snippet."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpthread_kit.backend import SearchQuery
from helpthread_kit.capabilities import MINIMUM
from helpthread_kit.plaintext import markup_in
from helpthread_kit.registrations import Exposure
from provider.indexing import Indexer
from provider.search.backend import WhooshBackend
from provider.search.layout import IndexLayout
from provider.wiki.document import WikiSettings

_PAGE = '''---
audience: public
---
# The `<Image />` component

Render it with `<Image src="/a.png" alt="walrus" />` in your layout.

```python
# walrus entry point
if __name__ == "__main__":
    run(Agent[UserContext](name="walrus"), **options)
```

```html
<!-- walrus banner -->
<div class="walrus">Fish &amp; chips</div>
```

```jinja
Dear {{ walrus_name }}, {% if plan %}thanks{% endif %}
```

````markdown
## Walrus heading
Some **walrus** text with a [walrus link](https://x.example) and `walrus code`.
| a | b |
|---|---|
```
````
'''


@pytest.fixture(scope="module")
def backend(tmp_path_factory: pytest.TempPathFactory) -> WhooshBackend:
    root = tmp_path_factory.mktemp("plain")
    content = root / "content"
    content.mkdir()
    (content / "image.md").write_text(_PAGE)
    with Indexer(WikiSettings(root=content), IndexLayout(root / "index")) as indexer:
        indexer.sync()
    return WhooshBackend(root / "index")


@pytest.mark.parametrize("words", ["walrus entry point", "walrus banner", "walrus_name plan", "walrus heading",
                                   "Image component", "walrus link"])
def test_r3_served_titles_and_snippets_of_code_pass_the_black_box_checker(backend: WhooshBackend, words: str) -> None:
    query = SearchQuery(text=words, limit=10, reach=Exposure.CUSTOMER_SAFE, capabilities=MINIMUM)
    results = backend.search(query)
    assert results, words
    for result in results:
        assert markup_in(result.title) == [], result.title
        assert markup_in(result.snippet) == [], result.snippet
        assert "walrus" in result.snippet
    assert results[0].title == "The ‹Image /› component"


_REORDERING = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
_CONTROL = "".join(chr(c) for c in [*range(0, 9), *range(11, 32), *range(127, 160)]) + "\u2028\u2029"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(list(_REORDERING + _CONTROL)), min_size=1, max_size=6),
       st.sampled_from(["title", "body", "both"]))
def test_r3_o3_control_and_bidi_override_characters_never_reach_a_reader(
        tmp_path_factory: pytest.TempPathFactory, inserted: list[str], where: str) -> None:
    """Any mix of C0/C1 controls, line separators and bidirectional overrides an author
    leaves in a title or a passage (the "Trojan Source" class) is not in the served
    title or snippet, and the words around them still are; joiners and direction marks
    that scripts need are kept."""
    noise = "".join(inserted)
    title = f"Refund {noise}policy" if where in ("title", "both") else "Refund policy"
    body = f"Customers get their money back {noise}within 30 days.\u200c\u200f" if where != "title" \
        else "Customers get their money back within 30 days.\u200c\u200f"
    root = tmp_path_factory.mktemp("controls")
    (root / "content").mkdir()
    # Written as bytes: the controls are in the file as an author's editor would leave them.
    (root / "content" / "refund.md").write_bytes(
        f"---\naudience: public\ntitle: \"{title.replace(chr(10), ' ')}\"\n---\n{body}\n".encode())
    with Indexer(WikiSettings(root=root / "content"), IndexLayout(root / "index")) as indexer:
        indexer.sync()
    results = WhooshBackend(root / "index").search(
        SearchQuery(text="money back", limit=10, reach=Exposure.CUSTOMER_SAFE, capabilities=MINIMUM))
    if not results:  # front matter the author broke with a control: withheld, which is also safe
        return
    for shown in (results[0].title, results[0].snippet):
        assert not set(shown) & set(_REORDERING + _CONTROL), repr(shown)
    assert "money back" in results[0].snippet
    assert "\u200c" in results[0].snippet and "\u200f" in results[0].snippet
