"""Issue 24, second attack round (lane body24): body text saying "not for customers" in
forms the rules missed, an internal paragraph glued by zero-width spaces, and two copy
rule false positives. Each class is drawn by a generator; each has its balance (what
must stay public).

* an alert (``> [!CAUTION]``) whose first body line says so: the blockquote is internal;
* a sentence naming the page's own text (*This workaround*, *Everything below*) and a
  state that keeps it from customers (*is not public yet*, *is confidential*, *must stay
  inside the company*): its section is internal;
* a short sentence that is a label on its own ending a paragraph (*Not to be shared
  externally.*): the section is internal;
* a heading *For our team*, or a lock before a heading's words that are no security
  topic (``## 🔒 Refund override``; ``## 🔒 Security`` stays public);
* words glued by invisible format characters instead of spaces are the words they glue
  for the copy rules (:func:`provider.wiki.copies.words`);
* a page whose status came from copying another passes nothing back to it, and text two
  public pages hold is not a withheld draft's because the draft quotes it.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from provider.wiki.check import check_wiki
from provider.wiki.copies import words
from provider.wiki.document import WikiSettings
from tests.support import write_files
from tests.wiki.test_staff_wording import CHECKED, EXAMPLES, _customer_safe_sees, _parse
from tests.wiki.variants import CANARY

_INTRO = "---\naudience: public\ntitle: Refunds\n---\n# Refunds\n\nHow refunds are handled for everyone.\n\n"
_AFTER = f"{CANARY} is the override code for goodwill refunds above the usual limit.\n"

_POINTERS = ("This workaround", "This article", "Everything below", "The following section", "This page",
             "All of the following", "The steps below")
_STATES = ("is not public yet", "is confidential", "must stay inside the company", "is still confidential",
           "is not yet public", "remains within the company", "is internal", "is internal and may change",
           "is strictly confidential and must stay inside the company", "is not public yet; do not mention it")
_TAILS = ("Not to be shared externally.", "Do not share with customers.", "Staff only.", "Internal only.",
          "Not for customers.")
_ALERTS = ("[!CAUTION]", "[!NOTE]", "[!WARNING]", "[!IMPORTANT]", "[!TIP]")
_ALERT_LINES = ("Do not share with customers.", "Internal only.", "Staff only", "Not for customers.",
                "Do not share this with customers.",
                # A label opening a long first line (the re-attack's B04).
                "Internal only - do not share with customers. Open the billing console and choose the override.")
_HEADINGS = ("For our team", "For our support team", "🔒 Refund override", "🔐 Goodwill refunds",
             "Refund override 🔒", "For our staff")


@st.composite
def hiding_pages(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(("state", "tail", "alert", "heading")))
    headed = draw(st.booleans()) and kind != "heading"
    section = "## Overrides\n\n" if headed else ""
    if kind == "state":
        sentence = f"{draw(st.sampled_from(_POINTERS))} {draw(st.sampled_from(_STATES))}."
        body = f"{sentence}\n\n{_AFTER}" if draw(st.booleans()) else f"{sentence} {_AFTER}"
    elif kind == "tail":
        body = f"{_AFTER.rstrip()} {draw(st.sampled_from(_TAILS))}\n"
    elif kind == "alert":
        body = f"> {draw(st.sampled_from(_ALERTS))}\n> {draw(st.sampled_from(_ALERT_LINES))}\n> {_AFTER}"
    else:
        body = f"## {draw(st.sampled_from(_HEADINGS))}\n\n{_AFTER}"
    return f"{_INTRO}{section}{body}\n## Contact\n\nWrite to us any time.\n"


@EXAMPLES
@given(hiding_pages())
def test_x2_body24_forms_hide_their_text(text: str) -> None:
    doc = _parse(text, "plain")
    assert not _customer_safe_sees(doc), text
    assert CANARY in doc.body  # agents keep it


_PUBLIC = ("This API is not public yet.", "Internal DNS resolves names for private networks.",
           "## 🔒 Security\n\nUse two-factor sign-in.", "## 🔐 Authentication\n\nTokens expire daily.",
           "## ⛔ Deprecated APIs\n\nThese calls go away in May.", "## Internal links\n\nLink pages by path.",
           "## Internal\n\nThe span kind for in-process work.", "This feature is private to your workspace.",
           "> [!NOTE]\n> Exports run at night.", "Share the report with your team. It is not public.",
           "## For teams\n\nInvite your colleagues.",
           # ms-officedocs-support alerts whose first line is prose (measured: 2 pages)
           "> [!IMPORTANT]\n> Outlook 2013 and later versions support only OAB version 4.",
           "> [!IMPORTANT]\n> This method has potential security risks because internal messages bypass antispam "
           "filtering. You must trust the service.")


@CHECKED
@given(st.sampled_from(_PUBLIC))
def test_x2_body24_balance_technical_words_stay_public(snippet: str) -> None:
    text = f"{_INTRO}{snippet}\n\n{_AFTER}"
    doc = _parse(text, "plain")
    assert _customer_safe_sees(doc), (doc.meta.findings, text)


_INVISIBLES = ("\u200b", "\u2060", "\ufeff", "\u200c", "\u200d", "\u00ad", "\u200e", "\u2063")


@EXAMPLES
@given(st.sampled_from(_INVISIBLES), st.integers(min_value=0, max_value=3))
def test_x2_words_glued_by_invisibles_are_the_words_they_glue(invisible: str, inside: int) -> None:
    """Words joined by an invisible format character instead of spaces read as the words
    (the copy rules compare them); an invisible inside a word of ordinary length is
    dropped, as folding drops it."""
    plain = "to grant a goodwill refund above the usual limit open the billing console"
    glued = invisible.join(plain.split())
    assert words(glued) == plain.split()
    hidden = plain.replace("refund", "re" + invisible * (inside + 1) + "fund")
    assert words(hidden) == plain.split()


_P = ("To grant a goodwill refund above the usual limit, open the billing console, choose the Lantern "
      "override, enter the ticket number and the amount, and confirm with your team lead before saving.")
_PUB = ("Invoices can be exported as PDF or CSV from the Documents page. Choose a date range, pick the format "
        "and press Export; the file is ready within a minute.",
        "If a payment fails, the customer receives an email with a link to update the card. The subscription "
        "stays active for seven days while we retry the charge.",
        "Tax settings live under Account, Billing profile. Enter your VAT number to have it printed on every "
        "invoice issued after the change.",
        "You can invite colleagues from the Team page. Each invitation expires after fourteen days and can be "
        "sent again at any time.",
        "Reports are emailed every Monday morning to the account owner, with the totals of the previous week "
        "and a link to the full breakdown.")


def _page(title: str, paragraphs: list[str], extra: str = "") -> str:
    audience = "" if "audience:" in extra else "audience: public\n"
    return f"---\ntitle: {title}\n{audience}{extra}---\n\n" + "\n\n".join(paragraphs) + "\n"


def _statuses(root: Path) -> dict[str, bool]:
    return {e.path: bool(e.resolved is not None and e.resolved.public)
            for e in check_wiki(WikiSettings(root=root)).files}


def test_x2_a_copy_passes_no_status_back_to_the_page_it_copies(tmp_path: Path) -> None:
    """b.md quotes a.md's public paragraph and two under a.md's ``## Internal notes``
    (to the page's end): b.md is internal; a.md keeps its public part — b.md's paragraph
    is a.md's own (it was made wholly internal as "holding b.md's paragraph")."""
    a = _page("A", [*_PUB[:3], "## Internal notes", _P, *_PUB[3:]])
    site = write_files(tmp_path / "site", {"docs/a.md": a, "docs/b.md": _page("B", list(_PUB[2:]))})
    statuses = _statuses(site)
    assert statuses["docs/a.md"] and not statuses["docs/b.md"]


def test_x2_text_of_two_public_pages_is_not_a_drafts(tmp_path: Path) -> None:
    """A draft quoting two public pages' paragraphs demotes neither; a draft whose own
    metadata makes it internal, or one public page holding the draft's text, still does."""
    quote = _PUB[0] + " " + _PUB[1] + " Coming soon: a new export format."
    files = {"docs/a.md": _page("A", list(_PUB[:3])), "docs/b.md": _page("B", [*_PUB[:2], _PUB[3]])}
    site = write_files(tmp_path / "one", {**files, "docs/draft.md": _page("Export", [quote], "draft: true\n")})
    statuses = _statuses(site)
    assert statuses["docs/a.md"] and statuses["docs/b.md"] and not statuses["docs/draft.md"]
    site = write_files(tmp_path / "two", {**files, "docs/draft.md": _page(
        "Export", [quote], "draft: true\naudience: internal\n")})
    statuses = _statuses(site)
    assert not statuses["docs/a.md"] and not statuses["docs/b.md"]
    site = write_files(tmp_path / "three", {"docs/a.md": files["docs/a.md"], "docs/b.md": _page("B", [_PUB[4]]),
                                            "docs/draft.md": _page("Export", [quote], "draft: true\n")})
    assert not _statuses(site)["docs/a.md"]
