"""provider.indexing.units and provider.search.prepared: entries made in the reader processes equal
those made in process (X2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from provider.indexing.units import prepare, text_units
from provider.search.analysis import schema_languages
from provider.search.prepared import load
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
