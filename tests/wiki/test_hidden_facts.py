"""Short facts a hidden block holds — a code, a person's name, an extension — stay hidden
when copied (CONTRACT X2, X5; issue 24).

The class: a table row (or a paragraph, a definition, a footnote) that only a doubtful
label hides (``(agents only)`` in a cell: :data:`provider.wiki.body_markers.LABEL_CODES`)
holds ``The supervisor override code is 4471.``, ``Dana Whitfield`` or ``ext. 4471``, and
a public page repeats it in its own sentence or in a table of its own. Rule 6d looked for
label-hidden text only as a long verbatim run, and built no code unit for a block of 6
words or more (a table row always is one), so the copy reached ``customer_safe``. Now
every hidden block's codes are units and its names are looked for as exactly as a
secret's value (:func:`provider.wiki.containment.block_shingles`, ``hidden``), whatever
hides it. Generated: tables of 2 to 5 columns and 1 to 4 other rows, the label in any
cell, the fact in any other cell (or after the label), copied into prose or into another
table. The balance: a page holding the same number beside other words, or only the
first name, stays public, as does the labelled page's own public text (label-hidden
*prose* still amplifies nothing: ``tests/wiki/test_label_amplification.py``).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.secret_forms import is_placeholder
from tests.support import write_files
from tests.wiki.test_contained_text import FILLER, _filler, _page, _public

FIRST = ("Dana", "Priya", "Tomasz", "Ingrid", "Kwame", "Lucia", "Mateo", "Yara")
LAST = ("Whitfield", "Raman", "Kowalczyk", "Halvorsen", "Mensah", "Ferreira", "Okafor", "Lindqvist")
#: Words the balance page puts beside the code: none of them is near it in the source.
ELSEWHERE = ("apples", "kilometres", "pixels", "seconds", "bytes", "pages")  # none in FILLER
#: Doubtful labels as a cell's whole text, and as a cell's opening.
LABELS = ("Agents only", "Staff only", "Internal only", "(agents only)")


def _fact(rng: random.Random, kind: str) -> tuple[str, str, str]:
    """``(the fact as the hidden cell says it, a public sentence repeating it, a public
    table cell repeating it)``."""
    number = str(rng.randint(1000, 9999))
    name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
    if kind == "code":
        return (f"The supervisor override code is {number}.", f"The supervisor override code is {number}.",
                f"override code {number}")
    if kind == "extension":
        return f"ext. {number}", f"Billing questions go to ext. {number} on weekdays.", f"ext. {number}"
    return name, f"Ask {name} about refunds over the limit.", name


@st.composite
def hidden_rows(draw: st.DrawFn) -> tuple[dict[str, str], str, str]:
    """A wiki whose settings page hides one table row by a label in one of its cells,
    a leak page repeating the row's fact, and a balance page; ``(files, kind, how)``."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    kind = draw(st.sampled_from(["code", "name", "extension"]))
    how = draw(st.sampled_from(["prose", "table"]))
    columns = draw(st.integers(2, 5))
    label_at = draw(st.integers(0, columns - 1))
    fact_at = draw(st.integers(0, columns - 1))
    label = draw(st.sampled_from(LABELS))
    fact, sentence, cell = _fact(rng, kind)
    hidden = [_filler(rng, 2) for _ in range(columns)]
    if fact_at == label_at:
        hidden[label_at] = f"{label}: {fact}" if not label.startswith("(") else f"{fact} {label}"
    else:
        hidden[label_at], hidden[fact_at] = label, fact
    rows = [[_filler(rng, 2) for _ in range(columns)] for _ in range(draw(st.integers(1, 4)))]
    rows.insert(draw(st.integers(0, len(rows))), hidden)
    header = "| " + " | ".join(f"Column {n}" for n in range(columns)) + " |"
    table = "\n".join([header, "|" + "---|" * columns, *("| " + " | ".join(r) + " |" for r in rows)])
    files = {"settings.md": _page("Settings", "public", [_filler(rng, 14) + ".", table]),
             "other.md": _page("Other", "public", [_filler(rng, 20) + "."])}
    if how == "prose":
        files["leak.md"] = _page("Leak", "public", [f"{_filler(rng, 12)}. {sentence} {_filler(rng, 6)}."])
    else:
        files["leak.md"] = _page("Leak", "public", [_filler(rng, 12) + ".",
                                                    f"| Topic | Detail |\n|---|---|\n| {_filler(rng, 2)} | {cell} |"])
    number = next((w for w in fact.split() if w.strip(".").isdigit()), "")
    around = " ".join(ELSEWHERE[:5])  # more than CODE_WINDOW words on each side
    balance = f"{_filler(rng, 10)}. {around} {number.strip('.')} {around}" if number else \
        f"{_filler(rng, 10)} {fact.split()[0]}"
    files["balance.md"] = _page("Balance", "public", [balance + "."])
    return files, kind, how


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hidden_rows())
def test_x2_a_fact_of_a_label_hidden_table_row_stays_hidden_where_copied(tmp_path_factory, case) -> None:  # type: ignore[no-untyped-def]
    """X2: a code, a name or an extension of a table row a doubtful label hides, copied
    into a public page's prose or table, keeps that page out of ``customer_safe``; X5: the
    settings page (its other rows public), a page with the same extension number beside
    other words or only the first name, and an unrelated page stay public; a page with the
    override code's digits alone is withheld (issue 24, third round: a labelled PIN)."""
    files, kind, _ = case
    site = tmp_path_factory.mktemp("site")
    write_files(site, files)
    public = _public(site)
    assert "leak.md" not in public
    assert {"settings.md", "other.md"} <= public
    # Issue 24, third round: a code a secret's sentence gives (``The supervisor override
    # code is 7311.``) is a PIN, withheld as its digits anywhere; an extension is no secret.
    # A PIN that reads as a year (1900–2099) or a placeholder (two digits repeated: 2266)
    # is not looked for alone: the documented floor.
    floor = kind == "code" and any(1900 <= int(n) <= 2099 or is_placeholder(n)
                                   for n in re.findall(r"\b\d{4}\b", files["balance.md"]))
    assert ("balance.md" in public) == (kind != "code" or floor)


#: The other places a label or a heading hides a block in, around ``{fact}``.
PLACES = {
    "opening": "**Agents only:** {fact}",
    "term": "Agents only\n: {fact}",
    "footnote": "See the queue rules.[^1]\n\n[^1]: Agents only: {fact}",
    "heading": "## Internal notes\n\n{fact}",
    "note": "> Note for agents (do not share)\n>\n> {fact}",
}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 10**6), st.sampled_from(sorted(PLACES)), st.sampled_from(["code", "name", "extension"]))
def test_x2_a_fact_of_any_hidden_block_stays_hidden_where_copied(tmp_path_factory, seed, place, kind) -> None:  # type: ignore[no-untyped-def]
    """X2: the same facts hidden by a paragraph's label, a definition term, a footnote, a
    heading or a note (a block of 6 words or more: ``Call {name} on ext. {n} after six``)
    keep a public page repeating them out of ``customer_safe``."""
    rng = random.Random(seed)
    fact, sentence, _ = _fact(rng, kind)
    if kind != "code":  # a longer block: only its code and its name are the copy
        fact = f"Escalations after six in the evening go to {fact} directly."
    site = tmp_path_factory.mktemp("site")
    write_files(site, {"queue.md": _page("Queue", "public", [_filler(rng, 14) + ".", PLACES[place].format(fact=fact)]),
                       "leak.md": _page("Leak", "public", [f"{_filler(rng, 12)}. {sentence} {_filler(rng, 6)}."]),
                       "other.md": _page("Other", "public", [_filler(rng, 20) + "."])})
    public = _public(site)
    assert "leak.md" not in public
    assert {"queue.md", "other.md"} <= public


def test_x2_the_supervisor_override_code_in_an_agents_only_row(tmp_path: Path) -> None:
    """X2, the issue's example: ``| Override | The supervisor override code is 4471.
    (agents only) |`` copied into a public page's prose is internal, and ``check`` names
    the source and the code."""
    from provider.wiki.check import check_wiki
    from provider.wiki.document import WikiSettings

    site = tmp_path / "site"
    write_files(site, {
        "queue.md": _page("Phone queue", "public", ["Our phone queue works as follows for every caller.",
                                                    "| Item | Notes |\n|---|---|\n| Override | The supervisor override "
                                                    "code is 4471. (agents only) |\n| Colour | The theme colour. |"]),
        "leak.md": _page("Leak", "public", ["Callers wait in the queue until someone answers. The supervisor override "
                                            "code is 4471."]),
    })
    entry = next(e for e in check_wiki(WikiSettings(root=site)).files if e.path == "leak.md")
    assert entry.resolved is not None and not entry.resolved.public
    assert list(entry.resolved.quarantine) == ["holds the text of the internal queue.md (its internal section) (a code "
                                         "beside one of its words); served as internal"]


FOOTER = ("Need more help? Contact the support desk by chat or by email, any weekday between nine and five. "
          "Read the release notes for what changed, and follow our status page for outages.")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 10**6), st.integers(3, 8))
def test_x5_a_footer_many_public_pages_share_makes_no_copy(tmp_path_factory, seed, holders) -> None:  # type: ignore[no-untyped-def]
    """X5 (issue 24, the small wiki): a footer block that 3 or more public pages hold
    whole, and an internal page too, is the site's own wording (rules 6c, 6d:
    :data:`provider.wiki.containment.BOILERPLATE_DOCS`): every public page stays public;
    the internal page's own text still makes a page that copies it internal."""
    rng = random.Random(seed)
    own = " ".join(f"{w}{seed % 97}" for w in rng.sample(FILLER, 12))
    # Pages of an article's length, each on its own topic (words of its own: FILLER's 31
    # words on every page are the words path's "0 distinctive triples" of issue 24, left
    # open); a page mostly made of the footer is rule 6's near-copy (Jaccard over the
    # whole text), which this balance does not change.

    def topic(page: int, count: int) -> str:
        return " ".join(f"{word}{page}x{seed % 89}" for word in rng.choices(FILLER, k=count))

    files = {"ops/runbook.md": _page("Runbook", "internal", [f"The refund ledger {own} closes at noon.",
                                                             topic(99, 60) + ".", FOOTER])}
    for number in range(holders):
        files[f"p{number}.md"] = _page(f"P{number}", "public", [f"{topic(number, 80)}.", FOOTER])
    files["leak.md"] = _page("Leak", "public", [f"{_filler(rng, 10)}. The refund ledger {own} closes at noon."])
    site = tmp_path_factory.mktemp("site")
    write_files(site, files)
    public = _public(site)
    assert {f"p{n}.md" for n in range(holders)} <= public
    assert "leak.md" not in public


def test_x2_a_paragraph_pasted_whole_into_two_public_pages_is_still_a_copy(tmp_path: Path) -> None:
    """X2 (the bound of the balance above): an internal paragraph pasted as a paragraph
    of its own into 2 public pages is no boilerplate — both pages are internal."""
    rng = random.Random(3)
    note = "Refunds above nine hundred euros skip the ledger review when the finance lead approves them by chat."
    files = {"ops/refunds.md": _page("Refunds", "internal", [_filler(rng, 20) + ".", note])}
    for number in range(2):
        files[f"p{number}.md"] = _page(f"P{number}", "public", [_filler(rng, 30) + ".", note])
    site = tmp_path / "site"
    write_files(site, files)
    assert not {"p0.md", "p1.md"} & _public(site)
