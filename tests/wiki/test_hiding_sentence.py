"""A sentence of any length saying its text is not for customers (issue 24, CONTRACT X2):
the class the attacker's long sentences belong to ("This article is for support agents
and must not be shared with customers."), and a sign alone as a heading (🔒). Sentences
are drawn from parts — subject, negation, verb, customer noun, pointer at the text — in
several wordings; the section holding the sentence never reaches customer_safe and the
page is reported. Ordinary sentences about customers sharing, seeing or being told
things hide nothing."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from tests.wiki.test_staff_wording import CHECKED, EXAMPLES, _customer_safe_sees, _parse, _reported
from tests.wiki.variants import CANARY

_POINTERS = ("This article", "This page", "The following section", "The steps below", "This section",
             "The information below", "These notes")
_VERBS = ("must not be shared with", "should never be shown to", "must not be forwarded to", "is not to be shown to",
          "should not be given to", "must never be disclosed to")
_CUSTOMERS = ("customers", "end users", "the customer", "clients", "external users", "outsiders",
              "anyone outside the company")
_NEGATED_ORDERS = ("Please don't show this section to", "Never share the steps below with",
                   "Do not read the following aloud to")


@st.composite
def restricting_sentences(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        pointer, verb = draw(st.sampled_from(_POINTERS)), draw(st.sampled_from(_VERBS))
        sentence = f"{pointer} {verb} {draw(st.sampled_from(_CUSTOMERS))}."
    else:
        sentence = f"{draw(st.sampled_from(_NEGATED_ORDERS))} {draw(st.sampled_from(_CUSTOMERS))}."
    if draw(st.booleans()):
        sentence = f"Read this first. {sentence} It explains the override."
    return sentence


@st.composite
def pages_with_a_sentence(draw: st.DrawFn) -> str:
    sentence = draw(restricting_sentences())
    headed = draw(st.booleans())
    intro = "# Refund tools\n\nHow refunds are handled for everyone.\n\n"
    section = "## Overrides\n\n" if headed else ""
    after = draw(st.sampled_from((f"{CANARY} is the override code.\n", f"1. Open the console.\n2. Enter {CANARY}.\n")))
    return f"---\naudience: public\ntitle: Refunds\n---\n{intro}{section}{sentence}\n\n{after}"


@EXAMPLES
@given(pages_with_a_sentence())
@example("---\naudience: public\ntitle: R\n---\n# R\n\nIntro for all.\n\n## Notes\n\nThis article is for support "
         f"agents and must not be shared with customers.\n\n{CANARY} is the code.\n")
@example("---\naudience: public\ntitle: R\n---\nCustomers should never see the following steps.\n\n"
         f"1. Enter {CANARY}.\n")
def test_x2_a_restricting_sentence_hides_its_section(text: str) -> None:
    doc = _parse(text, "plain")
    assert not _customer_safe_sees(doc), text
    assert any("hiding-sentence" in f for f in doc.meta.findings), (doc.meta.findings, text)
    assert CANARY in doc.body  # agents keep it


@CHECKED
@given(pages_with_a_sentence())
def test_x2_check_strict_fails_on_a_restricting_sentence(text: str) -> None:
    assert _reported(text, "plain"), text


_ORDINARY = (
    "Customers can share a link to this article with their team.",
    "Don't share your passwords with anyone, including our support agents.",
    "This page shows how customers see their invoices in the portal.",
    "If you do not want customers to see a draft invoice, keep it unsent until it is ready.",
    "Agents can share a saved reply with customers in one click.",
    "You should never share the API key of your account with other users of the workspace.",
    "The following section shows how to hide a field from customers in the ticket form.",
)


@given(st.sampled_from(_ORDINARY))
def test_x5_ordinary_sentences_about_customers_hide_nothing(sentence: str) -> None:
    text = f"---\naudience: public\ntitle: T\n---\n# T\n\n{sentence} {CANARY} stays public here.\n"
    doc = _parse(text, "plain")
    assert _customer_safe_sees(doc), (doc.meta.findings, text)


def test_x2_a_lock_sign_alone_as_a_heading_hides_its_section() -> None:
    text = f"---\naudience: public\ntitle: T\n---\n# T\n\nPublic intro.\n\n## 🔒\n\n{CANARY} is the code.\n"
    doc = _parse(text, "plain")
    assert not _customer_safe_sees(doc) and "Public intro" in doc.public_body


_INTRO = "---\naudience: public\ntitle: T\n---\n# T\n\nPublic intro.\n\n"


@given(st.sampled_from((
    # A heading a reader does not see ends no hidden section.
    "## Staff only\n\nA.\n\n## <!-- -->\n\n{c} secret.\n",
    "## Staff only\n\nA.\n\n## \u200b\n\n{c} secret.\n",
    "## Staff only\n\nA.\n\n#\n\n{c} secret.\n",
    # A label whose text points forward reaches to the next heading.
    "Staff only: the steps below.\n\n1. {c} one\n2. two\n",
    "**Staff only** — the following table:\n\n| a | b |\n|---|---|\n| {c} | 1 |\n",
    "Internal only:\n\n- {c}\n",
    # A note's sentence pointing at "this" speaks of what follows the note too.
    "> **Note:** This must not be shared with customers.\n\n{c} secret.\n",
)))
def test_x2_what_a_label_or_note_points_at_is_hidden_with_it(body: str) -> None:
    """The attacker's reach leaks: an empty heading closed a hidden section; a label with
    words after it hid only its own paragraph, not the steps it announced."""
    doc = _parse(_INTRO + body.format(c=CANARY), "plain")
    assert not _customer_safe_sees(doc), body
