"""What the reference provider serves passes its own black-box checker (CONTRACT R3):
a page whose code and escaped samples read as markup — HTML and JSX samples, template
tags, Python dunders, shell comments, Markdown shown inside code — is served with
look-alike characters there (:func:`helpthread_kit.plaintext.as_plain_text`), and the
words a reader searched for are still in the snippet."""

from __future__ import annotations

import pytest

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
