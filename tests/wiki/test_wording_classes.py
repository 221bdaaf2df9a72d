"""Issue 24, third round: "not for customers" read as a reader sees it, in every place a
label stands, in more words, and front matter that keeps a page from search or publishes
it later (CONTRACT X2, X5).

Each property draws many members of one class from :mod:`tests.wiki.wording_variants`
and asserts the canary never reaches ``customer_safe`` and the page is reported (a
finding, an error or a withholding reason ``check`` shows). Balance properties assert the
same shapes saying nothing restrictive hide nothing.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.publication import withheld_reason
from tests.wiki.variants import CANARY
from tests.wiki.wording_variants import (
    decorated_label,
    fourth_balance,
    fourth_wording,
    kept_from_search,
    label_place,
    later_date,
    new_wording,
    order_sentence,
    shown_front_matter,
    wording_balance,
)

EXAMPLES = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _parse(text: str, layout: str) -> WikiDocument:
    wiki = WikiSettings(root=Path("/x"), layout=layout)
    result = parse_document(wiki, "docs/page.md", text.encode("utf-8"), size=len(text), mtime_ns=0)
    assert isinstance(result, WikiDocument)
    return result


def _served_to_customers(doc: WikiDocument) -> bool:
    """What the corpus serves ``customer_safe``: a public page, not withheld, without an
    error that quarantines it, its text outside internal sections."""
    now = dt.datetime.now(dt.UTC)
    return (doc.meta.audience == "public" and not doc.meta.draft and not doc.meta.errors
            and withheld_reason(doc.meta.publication, now) is None and CANARY in doc.public_body)


def _hidden_and_reported(text: str, layout: str) -> None:
    doc = _parse(text, layout)
    assert not _served_to_customers(doc), text
    assert doc.meta.findings or doc.meta.errors, text  # check names the page and why
    assert CANARY in doc.body, text  # agents keep the text


@EXAMPLES
@given(decorated_label())
def test_x2_a_label_split_or_wrapped_by_markup_is_read_as_shown(variant: tuple[str, str, str]) -> None:
    layout, _form, text = variant
    _hidden_and_reported(text, layout)


@EXAMPLES
@given(label_place())
def test_x2_a_label_in_a_table_header_a_lead_in_or_a_heading_suffix_hides_its_text(
        variant: tuple[str, str, str]) -> None:
    layout, _form, text = variant
    _hidden_and_reported(text, layout)


@EXAMPLES
@given(shown_front_matter())
def test_x5_a_title_like_front_matter_value_saying_internal_quarantines_the_page(variant: tuple[str, str]) -> None:
    layout, text = variant
    doc = _parse(text, layout)
    assert not _served_to_customers(doc), text
    assert any("internal-title" in finding for finding in doc.meta.findings), text


@EXAMPLES
@given(new_wording())
def test_x2_the_rounds_vocabulary_hides_its_text(variant: tuple[str, str, str]) -> None:
    layout, _phrase, text = variant
    _hidden_and_reported(text, layout)


@EXAMPLES
@given(order_sentence())
def test_x2_an_order_to_keep_something_from_customers_hides_its_section(variant: tuple[str, str]) -> None:
    layout, text = variant
    _hidden_and_reported(text, layout)


@EXAMPLES
@given(kept_from_search())
def test_x5_a_page_its_site_keeps_out_of_search_is_internal(variant: tuple[str, str]) -> None:
    """Internal (agents keep it), not quarantined: the signal is exact, and the page is
    published, so it is no source of copies (test_findings)."""
    layout, text = variant
    doc = _parse(text, layout)
    assert doc.meta.audience == "internal" or doc.meta.draft, text
    assert CANARY in doc.body


@EXAMPLES
@given(later_date())
def test_x5_a_later_publication_or_past_expiry_under_any_name_withholds_with_its_key(
        variant: tuple[str, str, str]) -> None:
    layout, key, text = variant
    doc = _parse(text, layout)
    reason = withheld_reason(doc.meta.publication, dt.datetime.now(dt.UTC))
    assert reason is not None and key in reason, (reason, text)


@EXAMPLES
@given(wording_balance())
def test_x5_balance_the_same_shapes_saying_nothing_restrictive_hide_nothing(variant: tuple[str, str]) -> None:
    layout, text = variant
    doc = _parse(text, layout)
    assert doc.meta.findings == () and not doc.meta.errors, (doc.meta.findings, text)
    assert _served_to_customers(doc), text


@EXAMPLES
@given(fourth_wording())
def test_x2_the_fourth_rounds_languages_roles_lead_ins_orders_and_signs_hide_their_text(
        variant: tuple[str, str, str]) -> None:
    """Issue 24, fourth round: each member of the class (a language word by word, a
    customer-facing role, a TLP RED or AMBER marking, a lead-in, an order without pointer
    words, a dashed crew, a deny sign after a heading) keeps the canary from customer_safe."""
    layout, _form, text = variant
    _hidden_and_reported(text, layout)


@EXAMPLES
@given(fourth_balance())
def test_x5_balance_the_fourth_rounds_look_alikes_hide_nothing(variant: tuple[str, str]) -> None:
    layout, text = variant
    doc = _parse(text, layout)
    assert doc.meta.findings == () and not doc.meta.errors, (doc.meta.findings, text)
    assert _served_to_customers(doc), text
