"""provider.indexing.units and provider.search.prepared: entries made in the reader processes equal
those made in process (X2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from whoosh.formats import Frequency

from provider.indexing.units import prepare, text_units
from provider.search.analysis import schema_languages
from provider.search.prepared import load, postings_of
from provider.search.schema import build_schema
from provider.wiki.document import WikiDocument, WikiSettings, load_document

PAGE = """---
title: Refunds
audience: public
---
# Refunds

Customers request a refund from the billing page within thirty days.

<!-- internal -->
Support agents approve refunds above 500 EUR with the finance team.
<!-- /internal -->

```sh
curl https://api.example.invalid/refunds
```
"""


@pytest.mark.parametrize("chunking", [False, True])
def test_x2_prepared_units_and_postings_equal_in_process_analysis(tmp_path: Path, chunking: bool) -> None:
    (tmp_path / "refunds.md").write_text(PAGE, "utf-8")
    settings = WikiSettings(root=tmp_path, chunking=chunking)
    document = load_document(settings, "refunds.md")
    assert isinstance(document, WikiDocument)
    languages = schema_languages(settings.known_locales)
    found = load(prepare(settings, document), languages)
    assert found is not None
    views, postings = found
    schema = build_schema(languages)
    for public_view in (False, True):
        units = text_units(settings, languages, document, public_view=public_view)
        assert views[public_view] == units
        for unit in units:
            for name, value in unit.fields.items():
                if name.startswith(("title_", "body_", "code_")) and value:
                    assert postings[(name, value)] == list(schema[name].index(value))
    public_text = " ".join(str(v) for unit in views[True] for v in unit.fields.values())
    assert "finance" not in public_text  # the public view never holds internal text
    assert load(prepare(settings, document), ("de",)) is None  # other analysis languages: analysed anew


# Words of several scripts (Latin with accents, CJK, Hangul, Arabic), stop words, repeats,
# punctuation: what the analyzers fold, segment, stop and stem differently.
_WORDS = ["the", "Refund", "refunds", "REFUNDS", "Größe", "straße", "déjà", "über", "返金", "払い戻し", "환불",
          "استرداد", "v1.2", "e-mail", "a", "de", "und", "日本語", "的", "—", ",", "x"]


_SCHEMA = build_schema(("de", "en", "fr", "ja", "zh", "ko", "ar", "any"))


@settings(max_examples=25, deadline=None)
@given(words=st.lists(st.sampled_from(_WORDS), max_size=30),
       language=st.sampled_from(["en", "de", "fr", "ja", "zh", "ko", "ar", "any"]),
       prefix=st.sampled_from(["title_", "body_", "code_"]))
def test_issue27_frequency_postings_equal_whoosh_analysis(words: list[str], language: str, prefix: str) -> None:
    """Issue 27: the searched text fields keep frequencies (no positions), and the
    prepared postings of any value are exactly what Whoosh's own analysis of the
    field yields: same terms, order, frequencies, weights (boosts) and encoded values,
    so the writers' postings — and every score — are those Whoosh would write (X2)."""
    field = _SCHEMA[prefix + language]
    assert type(field.format) is Frequency
    value = " ".join(words)
    found = postings_of(field, value)
    expected = list(field.index(value))
    assert found == expected
    assert [type(posting[2]) for posting in found] == [type(posting[2]) for posting in expected]
