"""Accepting a reviewed heuristic finding, and the corpus rules issue 24 calibrated
(CONTRACT X2, X5).

An acceptance is bound to the file's bytes (an edit re-opens it), never overrides a rule
(front matter ``audience: internal``, drafts, an ``audience`` key in the body), and
``check`` reports accepted findings and stale acceptances.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpthread_kit.registrations import ConfigurationError
from provider.config import config_from_mapping
from provider.wiki.check import check_wiki, heuristic_findings
from provider.wiki.classify import AudienceRule
from provider.wiki.corpus import resolve
from provider.wiki.document import WikiDocument, WikiSettings, git_blob_sha1, parse_document
from provider.wiki.findings import Acceptance
from provider.wiki.reasons import withheld_kind

NOW = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
HIDING = ("---\naudience: public\n---\n# Refunds\n\nPublic words.\n\n## Internal notes\n\n"
          "The notes are public after all.\n")
PUBLIC_RULE = (AudienceRule("**", "public"),)


def _doc(text: str, accepted: tuple[Acceptance, ...] = (), relpath: str = "docs/page.md",
         rules: tuple[AudienceRule, ...] = ()) -> WikiDocument:
    wiki = WikiSettings(root=Path("/x"), accepted_findings=accepted, audience_rules=rules)
    result = parse_document(wiki, relpath, text.encode("utf-8"), size=len(text), mtime_ns=0)
    assert isinstance(result, WikiDocument)
    return result


def _accept(text: str, finding: str, relpath: str = "docs/page.md") -> tuple[Acceptance, ...]:
    return (Acceptance(relpath, finding, git_blob_sha1(text.encode("utf-8"))),)


def test_x2_an_accepted_heading_finding_publishes_its_section_until_the_file_changes() -> None:
    assert "after all" not in _doc(HIDING).public_body
    accepted = _accept(HIDING, "hiding-heading")
    doc = _doc(HIDING, accepted)
    assert "after all" in doc.public_body and doc.meta.accepted == ("hiding-heading",)
    edited = HIDING + "\nOne more line.\n"
    assert "after all" not in _doc(edited, accepted).public_body  # the edit re-opens it


def test_x2_an_acceptance_is_for_one_file_and_one_finding() -> None:
    assert "after all" not in _doc(HIDING, _accept(HIDING, "hiding-label")).public_body
    assert "after all" not in _doc(HIDING, _accept(HIDING, "hiding-heading", "docs/other.md")).public_body


def test_x5_accepting_never_overrides_audience_internal_or_a_draft() -> None:
    internal = HIDING.replace("audience: public", "audience: internal")
    assert _doc(internal, _accept(internal, "hiding-heading")).meta.audience == "internal"
    draft = HIDING.replace("audience: public", "audience: public\ndraft: true")
    assert _doc(draft, _accept(draft, "hiding-heading")).meta.draft
    deep = "---\naudience: public\n---\n# T\n\n" + "Line.\n\n" * 30 + "audience: internal\n"
    assert _doc(deep).meta.audience == "internal"
    with pytest.raises(ConfigurationError, match="cannot be accepted"):
        config_from_mapping({"accepted_findings": [{"path": "a.md", "finding": "audience-in-body",
                                                    "digest": "0" * 40}]}, base=Path("/srv"))


def test_x5_an_accepted_misplaced_header_still_refuses_an_audience_key() -> None:
    text = "# T\n\n---\ntitle: x\n---\n\nBody.\n"
    assert _doc(text, rules=PUBLIC_RULE).meta.errors
    doc = _doc(text, _accept(text, "misplaced-front-matter"), rules=PUBLIC_RULE)
    assert not doc.meta.errors and doc.meta.audience == "public" and not doc.meta.draft
    secret = "# T\n\n---\naudience: internal\n---\n\nBody.\n"
    assert _doc(secret, _accept(secret, "misplaced-front-matter"), rules=PUBLIC_RULE).meta.errors


@pytest.mark.parametrize("entry", [
    {"path": "a.md", "finding": "hiding-heading"},
    {"path": "a.md", "finding": "hiding-heading", "digest": "xyz"},
    {"path": "a.md", "finding": "no-such-code", "digest": "0" * 40},
    {"path": "/abs.md", "finding": "hiding-heading", "digest": "0" * 40},
])
def test_bad_acceptances_name_the_entry(entry: dict[str, str]) -> None:
    with pytest.raises(ConfigurationError, match=r"accepted_findings\[1\]"):
        config_from_mapping({"accepted_findings": [entry]}, base=Path("/srv"))


def _write(root: Path, files: dict[str, str]) -> None:
    for relpath, text in files.items():
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))


def test_check_reports_accepted_findings_stale_acceptances_and_strict_fails_on_open_ones(tmp_path: Path) -> None:
    _write(tmp_path, {"a.md": HIDING, "b.md": HIDING.replace("Refunds", "Billing")})
    digest_a = git_blob_sha1(HIDING.encode("utf-8"))
    accepted = (Acceptance("a.md", "hiding-heading", digest_a),
                Acceptance("b.md", "hiding-heading", "0" * 40),
                Acceptance("gone.md", "hiding-heading", digest_a))
    report = check_wiki(WikiSettings(root=tmp_path, accepted_findings=accepted), now=NOW)
    files = {entry.path: entry for entry in report.files}
    assert heuristic_findings(files["a.md"].resolved)[0]["accepted"]  # type: ignore[arg-type]
    assert files["a.md"].to_json()["digest"] == digest_a
    assert [f["accepted"] for f in files["b.md"].to_json()["findings"]] == [False]
    assert any("b.md: the file changed since it was reviewed" in s for s in report.stale_acceptances)
    assert any("gone.md: no such file" in s for s in report.stale_acceptances)
    failures = report.strict_failures()
    assert any(f.startswith("b.md: heuristic finding hiding-heading") for f in failures)
    assert not any(f.startswith("a.md:") for f in failures)


def _resolve(files: dict[str, str], rules: tuple[AudienceRule, ...], layout: str = "plain",
             noindex: bool = False) -> dict[str, object]:
    wiki = WikiSettings(root=Path("/x"), layout=layout, locales=("en", "de"), audience_rules=rules,
                        withhold_noindex=noindex)
    metas = {}
    for relpath, text in files.items():
        result = parse_document(wiki, relpath, text.encode("utf-8"), size=len(text), mtime_ns=0)
        assert isinstance(result, WikiDocument)
        metas[relpath] = result.meta
    return dict(resolve(metas, default_locale="en", now=NOW, layout=wiki.preset))


@pytest.mark.parametrize("how", ["rule", "front matter"])
def test_x2_a_translation_of_an_internal_source_is_internal_however_it_was_decided(how: str) -> None:
    header = "---\naudience: internal\n---\n" if how == "front matter" else ""
    rules = (AudienceRule("ops/**", "internal"), AudienceRule("**", "public"))
    found = _resolve({"ops/override.md": f"{header}# Override\n\nThe refund override is kept here.\n",
                      "de/ops/override.md": "# Übersteuerung\n\nDie Erstattung wird hier übersteuert.\n"},
                     (AudienceRule("de/**", "public"), *rules))
    assert found["de/ops/override.md"].audience == "internal"  # type: ignore[attr-defined]


def test_x2_a_translation_of_a_cascade_internal_source_is_internal() -> None:
    files = {"content/ops/_index.md": "---\ntitle: Ops\ncascade:\n  audience: internal\n---\nOps.\n",
             "content/ops/override.md": "---\ntitle: Override\n---\nThe refund override is kept here.\n",
             "content/ops/override.de.md": "---\ntitle: Übersteuerung\n---\nDie Erstattung wird hier übersteuert.\n"}
    found = _resolve(files, (AudienceRule("content/ops/*.de.md", "public"),), layout="hugo")
    assert found["content/ops/override.md"].audience == "internal"  # type: ignore[attr-defined]
    assert found["content/ops/override.de.md"].audience == "internal"  # type: ignore[attr-defined]


@pytest.mark.parametrize("header", ["noindex: true", "robots: noindex, nofollow", "sitemap: false", "ROBOTS: NOINDEX"])
def test_x2_a_page_kept_out_of_search_engines_is_internal_unquarantined_and_no_source(header: str) -> None:
    """Issue 24: a page whose own front matter keeps it out of search engines is not for
    our customers' search (internal, agents keep it), but it is published, so its public
    near copies stay public; the signal is exact, so nothing is quarantined."""
    text = " ".join(f"word{n} of the migration guide" for n in range(40))
    files = {"a.md": f"---\naudience: public\n{header}\n---\n# A\n\n{text}\n", "b.md": f"# B\n\n{text} and more\n"}
    found = _resolve(files, PUBLIC_RULE)
    assert found["a.md"].audience == "internal" and not found["a.md"].meta.errors  # type: ignore[attr-defined]
    assert found["b.md"].served and found["b.md"].audience == "public"  # type: ignore[attr-defined]


def test_x2_a_noindex_page_passes_nothing_on_to_its_near_copies() -> None:
    text = " ".join(f"word{n} of the migration guide" for n in range(40))
    files = {"a.md": f"---\nROBOTS: NOINDEX\n---\n# A\n\n{text}\n", "b.md": f"# B\n\n{text} and more\n"}
    found = _resolve(files, PUBLIC_RULE, noindex=True)
    assert not found["a.md"].served  # type: ignore[attr-defined]
    assert found["b.md"].served and found["b.md"].audience == "public"  # type: ignore[attr-defined]
    files["a.md"] = files["a.md"].replace("ROBOTS: NOINDEX", "draft: true")
    assert not _resolve(files, PUBLIC_RULE)["b.md"].served  # type: ignore[attr-defined]  # a draft still does


def test_x5_rules_and_check_compare_names_after_nfc(tmp_path: Path) -> None:
    nfd = unicodedata.normalize("NFD", "équipe")
    _write(tmp_path, {f"{nfd}/page.md": "# Page\n\nPublic words.\n"})
    rules = (AudienceRule("équipe/**", "public"),)  # typed in NFC
    report = check_wiki(WikiSettings(root=tmp_path, audience_rules=rules), now=NOW)
    assert report.unused_rules == []
    [entry] = report.files
    assert entry.resolved is not None and entry.resolved.audience == "public"
    internal = (AudienceRule("équipe/**", "internal"), AudienceRule("**", "public"))
    report = check_wiki(WikiSettings(root=tmp_path, audience_rules=internal), now=NOW)
    assert report.files[0].resolved is not None and report.files[0].resolved.audience == "internal"


def test_summary_names_withholding_reasons_exactly() -> None:
    assert withheld_kind("front matter must start on the very first line …: its publication keys cannot be read "
                         "(withheld)") == "unreadable front matter"
    assert withheld_kind("front matter draft") == "drafts and unpublished"
    assert withheld_kind("a copy of x.md (similarity 0.80), which is not served: draft") == \
        "near-copies of withheld pages"


@pytest.mark.parametrize("link", ["symlink", "hardlink"])
def test_x2_a_file_reached_by_several_paths_gets_the_strictest_status(tmp_path: Path, link: str) -> None:
    import os
    _write(tmp_path, {"content/ops/_index.md": "---\ntitle: Ops\ncascade:\n  audience: internal\n---\nOps.\n",
                      "content/ops/override.md": "---\ntitle: Override\n---\nThe override code.\n",
                      "content/docs/_index.md": "---\ntitle: Docs\ncascade:\n  audience: public\n---\nDocs.\n"})
    target = tmp_path / "content" / "ops" / "override.md"
    alias = tmp_path / "content" / "docs" / "override.md"
    if link == "symlink":
        alias.symlink_to(target)
    else:
        os.link(target, alias)
    report = check_wiki(WikiSettings(root=tmp_path, layout="hugo"), now=NOW)
    files = {entry.path: entry.resolved for entry in report.files}
    alias_item = files["content/docs/override.md"]
    assert alias_item is not None and not alias_item.public, alias_item
    assert alias_item.audience == "internal" and "the same file as" in alias_item.audience_source


def test_cli_check_lists_findings_strict_fails_until_accepted(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from provider.cli import main
    from tests.support import write_config

    _write(tmp_path / "wiki", {"refunds.md": HIDING})
    config = write_config(tmp_path / "kp.yaml", {"content": "wiki", "audience_rules": [{"**": "public"}]})

    def check(*args: str) -> tuple[int, str]:
        result = CliRunner().invoke(main, ["check", "--config", str(config), *args],
                                    env={"KNOWLEDGE_PROVIDER_CONFIG": ""})
        return result.exit_code, result.stdout

    code, out = check()
    assert code == 0 and "Heuristic findings:" in out and "hiding-heading  refunds.md:8  Internal notes" in out
    digest = git_blob_sha1(HIDING.encode("utf-8"))
    assert f"digest {digest}" in out
    code, out = check("--strict")
    assert code == 1 and "refunds.md: heuristic finding hiding-heading at line 8" in out
    write_config(config, {"content": "wiki", "audience_rules": [{"**": "public"}], "accepted_findings": [
        {"path": "refunds.md", "finding": "hiding-heading", "digest": digest}]})
    code, out = check("--strict")
    assert code == 0 and "Accepted findings:" in out, out
    (tmp_path / "wiki" / "refunds.md").write_text(HIDING + "Edited.\n", "utf-8")
    code, out = check("--strict")
    assert code == 1 and "the file changed since it was reviewed" in out


def test_the_index_summary_names_withholding_reasons_by_kind() -> None:
    from collections import Counter

    from provider.cli import format_report
    from provider.indexing import SyncReport

    report = SyncReport(drafts=3, withheld_by=Counter({"unreadable front matter": 2, "drafts and unpublished": 1}))
    line = format_report(report).splitlines()[0]
    assert "3 withheld (2 unreadable front matter, 1 drafts and unpublished)" in line
    assert "drafts, unpublished, copies" not in line


#: Four sections a heading hides, each one finding of the same code (issue 24: accept ONE).
_HEADINGS = {"Internal notes": "Alpha", "Staff only": "Bravo", "Agents only": "Charlie",
             "For support staff": "Delta"}
FOUR = "---\naudience: public\n---\n# Refunds\n\nPublic words.\n" + "".join(
    f"\n## {heading}\n\n{word} section text.\n" for heading, word in _HEADINGS.items())


def _accept_text(text: str, finding: str, snippet: str | None) -> Acceptance:
    return Acceptance("docs/page.md", finding, git_blob_sha1(text.encode("utf-8")), snippet)


class TestAcceptingOneFinding:
    """Issue 24: an ``accepted_findings`` entry with ``text`` accepts only the findings
    whose text holds it; without ``text`` every finding of the code in the file. Bound to
    the digest either way; ``check`` lists broad acceptances apart and stale ones."""

    @settings(max_examples=25, deadline=None)
    @given(chosen=st.sets(st.sampled_from(sorted(_HEADINGS))),
           spell=st.sampled_from(["whole", "part", "spaced"]))
    def test_exactly_the_accepted_sections_are_published(self, chosen: set[str], spell: str) -> None:
        def snippet(heading: str) -> str:
            return {"whole": heading, "part": heading.split()[-1] if heading != "Staff only" else "Staff",
                    "spaced": heading.replace(" ", "  \n ")}[spell]
        accepted = tuple(_accept_text(FOUR, "hiding-heading", snippet(h)) for h in sorted(chosen))
        body = _doc(FOUR, accepted).public_body
        for heading, word in _HEADINGS.items():
            # A part of a heading's wording ("only", "Staff") accepts nothing: it would
            # accept every heading sharing it.
            held = set() if spell == "part" else set(chosen)
            assert (f"{word} section text" in body) == (heading in held), (heading, chosen, spell)
        edited = _doc(FOUR + "\nOne more line.\n", accepted).public_body
        assert "section text" not in edited  # the edit re-opens every one of them

    def test_a_broad_acceptance_publishes_every_finding_of_the_code(self) -> None:
        body = _doc(FOUR, (_accept_text(FOUR, "hiding-heading", None),)).public_body
        assert all(f"{word} section text" in body for word in _HEADINGS.values())

    def test_one_would_be_marker_of_two(self) -> None:
        page = ("---\naudience: public\n---\n# Refunds\n\nPublic words.\n\n<!-- internl -->\n\nFirst.\n\n"
                "<!-- intenral -->\n\nSecond.\n")
        found = [f for f in _doc(page).meta.findings if f.startswith("would-be-marker")]
        assert len(found) == 2, found
        one = _doc(page, (_accept_text(page, "would-be-marker", "internl"),))
        both = _doc(page, (_accept_text(page, "would-be-marker", "internl"),
                           _accept_text(page, "would-be-marker", "intenral")))
        assert _doc(page).meta.audience == "internal" and one.meta.audience == "internal"
        assert both.meta.audience == "public"
        assert one.meta.accepted == ("would-be-marker|internl",)
        assert [f["accepted"] for f in _check_findings(page, one.meta.accepted)] == [True, False]
        assert [f["accepted"] for f in _check_findings(page, both.meta.accepted)] == [True, True]

    @pytest.mark.parametrize("part", ["o", "only", "Staff", "notes", "Internal", "support staff", "ff on"])
    def test_a_part_of_a_findings_text_accepts_nothing(self, part: str) -> None:
        """Issue 24 (attacker): ``text`` is a finding's whole wording; a part of it would
        accept every finding sharing it (one letter accepted two headings)."""
        body = _doc(FOUR, (_accept_text(FOUR, "hiding-heading", part),)).public_body
        assert not any(f"{word} section text" in body for word in _HEADINGS.values()), part

    @pytest.mark.parametrize("spelled", ["staff ONLY", "## Staff only", "Staff  only.", "ｓｔａｆｆ only"])
    def test_the_wording_is_compared_case_and_markup_aside(self, spelled: str) -> None:
        body = _doc(FOUR, (_accept_text(FOUR, "hiding-heading", spelled),)).public_body
        held = {heading for heading, word in _HEADINGS.items() if f"{word} section text" in body}
        assert held == {"Staff only"}, (spelled, held)

    def test_check_json_lists_broad_and_stale_acceptances(self, tmp_path: Path) -> None:
        root = tmp_path / "wiki"
        _write(root, {"docs/page.md": FOUR})
        digest = git_blob_sha1(FOUR.encode("utf-8"))
        entries = [{"path": "docs/page.md", "finding": "hiding-heading", "digest": digest, "text": "Staff only"},
                   {"path": "docs/page.md", "finding": "hiding-heading", "digest": digest},
                   {"path": "docs/page.md", "finding": "hiding-heading", "digest": digest, "text": "Managers only"},
                   {"path": "docs/page.md", "finding": "hiding-heading", "digest": "0" * 40, "text": "Agents"}]
        config = config_from_mapping({"content": str(root), "accepted_findings": entries}, base=root)
        report = check_wiki(config.wiki_settings(), now=NOW).to_json()
        assert report["broadAcceptances"] == [{"path": "docs/page.md", "finding": "hiding-heading",
                                               "digest": digest}]
        stale = report["staleAcceptances"]
        assert len(stale) == 2, stale
        assert "'Managers only'" in stale[0] and "changed since it was reviewed" in stale[1]

    @pytest.mark.parametrize(("entry", "says"), [
        ({"text": ""}, "text must be a snippet"),
        ({"text": 3}, "text must be a snippet"),
        ({"finding": "near-copy", "text": "a"}, "near-copy is accepted for the whole file"),
        ({"note": "x"}, "exactly the keys"),
    ])
    def test_bad_text_entries_name_the_entry(self, entry: dict[str, object], says: str) -> None:
        base = {"path": "a.md", "finding": "hiding-heading", "digest": "a" * 40}
        with pytest.raises(ConfigurationError, match=says):
            config_from_mapping({"accepted_findings": [{**base, **entry}]}, base=Path("/srv"))


def _check_findings(page: str, accepted: tuple[str, ...]) -> list[dict[str, object]]:
    doc = _doc(page)
    meta = replace(doc.meta, accepted=accepted)
    resolved = resolve({meta.relpath: meta}, now=NOW)[meta.relpath]
    return [f for f in heuristic_findings(resolved) if f["finding"] == "would-be-marker"]


def test_x5_a_bold_audience_label_below_a_thematic_break_still_makes_the_page_internal() -> None:
    """The ``*`` exception of the misplaced-header rule (a bold label is not a YAML key)
    leaves the body's audience rule whole: ``**Audience**: internal`` there is internal."""
    for label in ("**Audience**: internal", "**Audience:** internal", "*audience*: internal"):
        doc = _doc(f"# T\n\nIntro\n\n---\n\n{label}\n\n---\n\nBody.\n", rules=PUBLIC_RULE)
        assert doc.meta.audience == "internal", label
    assert _doc("# T\n\n---\n\n**Documentation**: https://x.dev\n\n---\n\nBody.\n",
                rules=PUBLIC_RULE).meta.audience == "public"
