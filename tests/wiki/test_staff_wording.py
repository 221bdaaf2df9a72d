"""Issue 24's leak classes, tested as classes (CONTRACT X2, X5).

Each property draws many members of one class from :mod:`tests.wiki.staff_variants` —
staff wording in ten languages and three scripts without spaces, hidden inline HTML,
restricting front matter keys — and asserts the canary never reaches the public index
and the page is reported: a finding or an error, so ``check --strict`` exits 1 with a
reason naming the page. Balance properties assert that staff nouns without a restriction
(*Tools for agents*, a pricing table's *Tier 2 only* cell) hide nothing. Admonition titles
are parted from the box's text as the site shows them.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from provider.wiki.check import check_wiki
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.restriction import restricts_readers
from tests.wiki.staff_variants import hidden_html, restricting_front_matter, staff_balance, staff_wording, titled_box
from tests.wiki.variants import CANARY

EXAMPLES = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CHECKED = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _parse(text: str, layout: str) -> WikiDocument:
    wiki = WikiSettings(root=Path("/x"), layout=layout)
    result = parse_document(wiki, "docs/page.md", text.encode("utf-8"), size=len(text), mtime_ns=0)
    assert isinstance(result, WikiDocument)
    return result


def _customer_safe_sees(doc: WikiDocument) -> bool:
    return doc.meta.audience == "public" and not doc.meta.draft and CANARY in doc.public_body


def _strict_failures(text: str, layout: str) -> tuple[int, list[str]]:
    """``check``'s exit code and ``check --strict``'s failures for a one-page wiki."""
    with tempfile.TemporaryDirectory() as root:
        (Path(root) / "docs").mkdir()
        (Path(root) / "docs" / "page.md").write_text(text, encoding="utf-8")
        report = check_wiki(WikiSettings(root=Path(root), layout=layout))
        return report.exit_code, report.strict_failures()


def _reported(text: str, layout: str) -> bool:
    code, failures = _strict_failures(text, layout)
    return code == 1 or any("docs/page.md" in failure for failure in failures)


@EXAMPLES
@given(staff_wording())
def test_x2_staff_wording_in_any_language_never_reaches_customer_safe(variant: tuple[str, str, str]) -> None:
    layout, form, text = variant
    doc = _parse(text, layout)
    assert not _customer_safe_sees(doc), (form, text)
    assert doc.meta.findings or doc.meta.errors, (form, text)  # reported with a reason
    if form != "comment-wrap":  # text inside a comment is shown to nobody
        assert CANARY in doc.body, text  # agents keep the text


@CHECKED
@given(staff_wording())
def test_x2_check_strict_fails_on_staff_wording(variant: tuple[str, str, str]) -> None:
    layout, _form, text = variant
    assert _reported(text, layout), text


@EXAMPLES
@given(staff_balance())
def test_x5_balance_staff_nouns_without_a_restriction_hide_nothing(variant: tuple[str, str]) -> None:
    layout, text = variant
    doc = _parse(text, layout)
    assert doc.meta.findings == () and not doc.meta.errors, text
    assert _customer_safe_sees(doc), text


@EXAMPLES
@given(hidden_html())
def test_x2_text_the_site_hides_never_reaches_customer_safe(variant: tuple[str, str]) -> None:
    layout, text = variant
    doc = _parse(text, layout)
    assert not _customer_safe_sees(doc), text
    assert doc.meta.errors or doc.meta.draft, text


@CHECKED
@given(hidden_html())
def test_x2_check_strict_fails_on_hidden_text(variant: tuple[str, str]) -> None:
    layout, text = variant
    assert _reported(text, layout), text


@EXAMPLES
@given(restricting_front_matter())
def test_x5_a_restricting_key_beside_audience_public_is_the_strictest_reading(variant: tuple[str, str]) -> None:
    layout, text = variant
    doc = _parse(text, layout)
    assert doc.meta.audience == "internal" and doc.meta.errors, text
    assert not _customer_safe_sees(doc), text


@CHECKED
@given(restricting_front_matter())
def test_x5_check_exits_1_on_a_restricting_key(variant: tuple[str, str]) -> None:
    layout, text = variant
    code, _ = _strict_failures(text, layout)
    assert code == 1, text


@EXAMPLES
@given(titled_box())
def test_r3_box_title_is_parted_from_its_text(variant: tuple[str, str, str, str]) -> None:
    layout, text, title, first = variant
    doc = _parse(text, layout)
    shown = " ".join(p.text for p in doc.passages)
    assert f"{title} {first}" not in shown and f"{title}{first}" not in shown, shown
    assert title in shown and first in shown, shown


@pytest.mark.parametrize("text", [
    "Helpdesk only", "Tier 2 agents only", "Moderators only", "For employees", "agents: do not share",
    "Nur für Mitarbeiter", "社内向け", "Только для сотрудников", "Alleen voor medewerkers",
    "Somente para funcionários", "仅限内部", "Réservé aux employés", "Tylko dla pracowników",
    # issue 24, fourth round
    "Slegs vir personeel", "Staff yn unig", "Langileentzat soilik", "Só para o persoal", "Aðeins fyrir starfsmenn",
    "Само за вработени", "Vetëm për stafin", "CSMs only", "Reps only", "Account managers only", "Support crew only",
    "Internal-facing notes", "TLP:RED", "TLP:AMBER", "Off-limits to customers", "Keep this between us",
    "Heads-up for reps", "FYI support crew", "Never paste this into a ticket reply.",
    "Don't let callers know about the override.",
])
def test_restricts_readers_named_examples(text: str) -> None:
    assert restricts_readers(text) is not None


@pytest.mark.parametrize("text", [
    "Tools for agents", "Agents only run tools when asked, and then they stop and wait for the next turn",
    "Only internal links", "Internal DNS", "Support team", "Tier 2", "Tier 2 only", "For personal use only", "内部実装",
    "Benefits for employees", "Configure agents so that they stop",
    "Reports only", "TLP:CLEAR", "TLP:WHITE", "TLP:GREEN", "Internal-facing API",
    "Never paste your API key into a ticket", "Heads-up for developers", "Don't let the cache grow",
    "Callers must not pass a null pointer",
])
def test_restricts_readers_balance(text: str) -> None:
    assert restricts_readers(text) is None


def test_x5_front_matter_key_reason_names_the_restriction() -> None:
    doc = _parse("---\naudience: public\naccess: staff\n---\n# T\n\nText.\n", "plain")
    assert any("may restrict who reads the page" in e for e in doc.meta.errors)
    # Keys of the shared corpora that restrict nothing stay public.
    for key in ("hide_title: true", "search: {exclude: true}", "search_exclude: true", "hero: {actions: [{text: x}]}",
                "unitTitle: x", "tags: [Gaming, OGP, Agent]"):
        assert _parse(f"---\naudience: public\n{key}\n---\n# T\n\nText.\n", "plain").meta.audience == "public", key


def test_x2_meta_refresh_in_code_is_text_and_a_long_refresh_page_is_withheld() -> None:
    words = " ".join(["Public words."] * 40)
    shown = _parse(f"---\naudience: public\n---\n# T\n\nUse a `<meta http-equiv=\"refresh\">` tag. {words}\n", "plain")
    assert not shown.meta.draft
    moved = _parse(f"---\naudience: public\n---\n# T\n\n<meta http-equiv=\"refresh\" content=\"0\">\n\n{words}\n",
                   "plain")
    assert moved.meta.draft and "meta refresh" in moved.meta.sources["draft"] and moved.meta.errors


_UNPUBLISHING_KEYS = ["agent_only: true", "agentsOnly: yes", "hide_from_customers: true", "HideFromCustomers: 1",
                      "not_for_customers: true", "support_only: true", "status: draft", "Status: WIP",
                      "state: pending", "publication_status: unpublished", "status: In Review", "publish: false",
                      "Publish: no", "ｓｔａｔｕｓ: draft"]


@pytest.mark.parametrize("key", _UNPUBLISHING_KEYS)
def test_x5_a_key_naming_a_restriction_or_an_unpublished_status_beside_audience_public(key: str) -> None:
    """The attacker's front matter class beyond RESTRICTING_KEY_PARTS: a restriction as the
    key's own name, a workflow status that is not published, ``publish: false`` — the
    page is internal and quarantined (none occurs in the shared corpora)."""
    doc = _parse(f"---\naudience: public\n{key}\n---\n# T\n\n{CANARY} text.\n", "plain")
    assert doc.meta.audience == "internal" and doc.meta.errors, key
    assert not _customer_safe_sees(doc), key


@pytest.mark.parametrize("key", ["status: published", "state: live", "publish: true", "hide_table_of_contents: true",
                                 "hide_feedback: true", "customer_id_format: uuid", "agent: gpt-4o"])
def test_x5_balance_keys_that_publish_or_name_no_restriction_stay_public(key: str) -> None:
    assert _parse(f"---\naudience: public\n{key}\n---\n# T\n\nText.\n", "plain").meta.audience == "public", key


@pytest.mark.parametrize("shown", ['<span class="hidden md:inline">', '<span class="lg:block hidden text-sm">',
                                   '<div class="d-none d-md-block">', '<div class="invisible sm:visible">'])
def test_x5_balance_a_class_hidden_only_on_narrow_screens_hides_nothing(shown: str) -> None:
    """The attacker's false positive: Tailwind's ``hidden md:inline`` and Bootstrap's
    ``d-none d-md-block`` show the text on wider screens — a reader sees it, the page
    stays public. Without the responsive class the same element still hides (fail closed)."""
    tag = shown[1:].split()[0]
    page = f"---\naudience: public\n---\n# T\n\nSome words.\n\n{shown}Wide screens see this.</{tag}>\n"
    assert _parse(page, "plain").meta.audience == "public", shown
    hidden = page.replace(shown, f'<{tag} class="{"d-none" if "d-none" in shown else "hidden"}">')
    assert _parse(hidden, "plain").meta.audience == "internal", hidden


@pytest.mark.parametrize("label", ["**Staff only:**", "**INTERNAL ONLY:**", "Staff only:", "__Internal notes__"])
@pytest.mark.parametrize("blocks", [1, 2, 4])
def test_x2_a_label_standing_alone_hides_the_rest_of_its_part(label: str, blocks: int) -> None:
    """The attacker's class: a label on its own line means "what follows", not the next
    block only — every block up to the next heading stays out of customer_safe; the next
    part is public again."""
    after = "\n\n".join(f"Step {n}: {CANARY} {n}." for n in range(blocks))
    page = f"---\naudience: public\n---\n# T\n\nPublic intro.\n\n{label}\n\n{after}\n\n## Next\n\nPublic again.\n"
    doc = _parse(page, "plain")
    assert CANARY not in doc.public_body and "Public again" in doc.public_body and "Public intro" in doc.public_body
