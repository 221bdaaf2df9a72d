"""What a repository's front matter means, said by the operator: the audience key and an
exact value map, withhold/skip rules, Learn's ``ROBOTS: NOINDEX`` (CONTRACT X5: fail
closed — nothing unmapped or unknown is ever public)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from helpthread_kit.registrations import ConfigurationError
from provider.config import config_from_mapping
from provider.wiki.audience_map import AudienceMap, apply_audience_map
from provider.wiki.check import check_wiki
from provider.wiki.classify import INTERNAL, PUBLIC, AudienceRule
from provider.wiki.corpus import resolve
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.files import Skipped
from tests.corpora import corpus_path, require_corpus

LEARN = AudienceMap(values=(("ITPro", PUBLIC), ("Admin", INTERNAL)))
LEARN_CORPUS = corpus_path("ms-officedocs-support")
NOW = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def parse(text: str, **kw: object) -> WikiDocument | Skipped:
    settings = WikiSettings(root=Path("/nonexistent"), **kw)  # type: ignore[arg-type]
    data = text.encode("utf-8")
    return parse_document(settings, "a/page.md", data, size=len(data), mtime_ns=0)


def doc(text: str, **kw: object) -> WikiDocument:
    result = parse(text, **kw)
    assert isinstance(result, WikiDocument), result
    return result


def page(front: dict[str, object]) -> str:
    return "---\n" + yaml.safe_dump(front, allow_unicode=True) + "---\n# Title\n\nBody text.\n"


def test_x5_mapped_values_mean_what_the_operator_says() -> None:
    assert doc(page({"audience": "ITPro"}), audience_map=LEARN).meta.audience == PUBLIC
    assert doc(page({"audience": "Admin"}), audience_map=LEARN).meta.audience == INTERNAL
    # public/internal keep their meaning unless the map names them.
    assert doc(page({"audience": "public"}), audience_map=LEARN).meta.audience == PUBLIC


@settings(max_examples=150, deadline=None)
@given(value=st.one_of(
    st.text(max_size=20).filter(lambda v: v not in ("ITPro", "Admin", "public", "internal")),
    st.sampled_from(["ITPro ", " ITPro", "itpro", "ITPRO", "Admin|ITPro|Developer", "ＩＴＰｒｏ"]),
    st.lists(st.sampled_from(["ITPro", "public"]), min_size=1, max_size=3),
    st.integers(), st.booleans(), st.none(),
))
def test_x5_an_unmapped_value_is_internal_and_reported(value: object) -> None:
    """Every value not exactly a key of the map (or public/internal) is internal, and the
    file is quarantined with a message naming the value — with a public rule too."""
    result = doc(page({"audience": value}), audience_map=LEARN, audience_rules=(AudienceRule("**", PUBLIC),))
    assert result.meta.audience == INTERNAL
    assert any("not one of audience_values" in e for e in result.meta.errors), result.meta.errors


def test_another_key_carries_the_audience() -> None:
    mapping = AudienceMap(key="ms.audience", values=(("ITPro", PUBLIC),))
    assert doc(page({"ms.audience": "ITPro"}), audience_map=mapping).meta.audience == PUBLIC
    # The file's own audience key still counts, strictly: a conflict is internal.
    mixed = doc(page({"ms.audience": "ITPro", "audience": "internal"}), audience_map=mapping)
    assert mixed.meta.audience == INTERNAL
    agree = doc(page({"ms.audience": "ITPro", "audience": "public"}), audience_map=mapping)
    assert agree.meta.audience == PUBLIC


@given(value=st.sampled_from(["public", "internal", "ITPro", "Public", None]))
@settings(max_examples=20, deadline=None)
def test_no_key_carries_the_audience_then_rules_decide(value: object) -> None:
    none = AudienceMap(key=None)
    rules = (AudienceRule("a/**", PUBLIC),)
    assert doc(page({"audience": value, "Audience": value}), audience_map=none,
               audience_rules=rules).meta.audience == PUBLIC
    assert doc(page({"audience": value}), audience_map=none).meta.audience == INTERNAL  # no rule: fail closed


def test_the_map_applies_to_cascade_entries() -> None:
    data, errors = apply_audience_map({"cascade": [{"audience": "ITPro"}, {"params": {"audience": "x"}}]}, LEARN)
    assert data["cascade"][0]["audience"] == PUBLIC
    assert data["cascade"][1]["params"]["audience"] not in (PUBLIC, INTERNAL) and errors


@settings(max_examples=60, deadline=None)
@given(front=st.fixed_dictionaries({}, optional={"audience": st.sampled_from(["public", "internal", "ITPro"]),
                                                 "draft": st.booleans()}),
       before=st.booleans())
def test_x5_a_withhold_rule_withholds_whatever_the_order_and_the_file(front: dict[str, object], before: bool) -> None:
    withhold = AudienceRule("a/**", "withhold")
    public = AudienceRule("**", PUBLIC)
    rules = (withhold, public) if before else (public, withhold)
    result = doc(page(front), audience_rules=rules, audience_map=LEARN)
    resolved = resolve({result.meta.relpath: result.meta}, now=NOW)[result.meta.relpath]
    assert not resolved.served
    assert resolved.withheld and ("withheld by rule 'a/**'" in resolved.withheld or front.get("draft"))


def test_skip_rules_and_unused_rules_in_check(tmp_path: Path) -> None:
    (tmp_path / "_includes").mkdir()
    (tmp_path / "_includes" / "part.md").write_text("Fragment text.\n")
    (tmp_path / "guide.md").write_text("# Guide\n\nText.\n")
    settings_ = WikiSettings(root=tmp_path, audience_rules=(
        AudienceRule("_includes/**", "skip"), AudienceRule("**", PUBLIC), AudienceRule("contnet/**", PUBLIC)))
    report = check_wiki(settings_, now=NOW)
    entries = {f.path: f for f in report.files}
    assert entries["_includes/"].status == "skipped" and not entries["_includes/"].quarantined
    assert entries["guide.md"].status == "served" and entries["guide.md"].resolved.audience == PUBLIC  # type: ignore[union-attr]
    assert report.unused_rules == ["contnet/**"]


def test_robots_noindex_is_withheld_only_when_asked() -> None:
    text = page({"audience": "public", "ROBOTS": "NOINDEX, NOFOLLOW"})
    assert not doc(text).meta.draft
    asked = doc(text, withhold_noindex=True)
    assert asked.meta.draft and "NOINDEX" in asked.meta.sources["draft"]


def test_configuration_keys() -> None:
    config = config_from_mapping({"audience_key": "none", "audience_values": {"ITPro": "public"},
                                  "withhold_noindex": True, "audience_rules": [{"x/**": "withhold"}]},
                                 base=Path("."))
    settings_ = config.wiki_settings()
    assert settings_.audience_map == AudienceMap(key=None, values=(("ITPro", PUBLIC),))
    assert settings_.withhold_noindex and settings_.audience_rules[0].audience == "withhold"
    for bad in ({"audience_values": {"ITPro": "yes"}}, {"audience_values": []}, {"audience_rules": [{"x": "hide"}]}):
        with pytest.raises(ConfigurationError):
            config_from_mapping(bad, base=Path("."))


@pytest.mark.slow
def test_real_learn_docset_is_published_as_learn_does() -> None:
    """Microsoft Learn's own ``audience`` values, mapped: the Teams and Viva articles
    (ITPro/Admin) are public; the pipe list stays internal and is reported."""
    require_corpus("ms-officedocs-support")
    settings_ = WikiSettings(root=LEARN_CORPUS, layout="docfx", default_locale="en-US", locales=("en-US",),
                             audience_map=AudienceMap(values=(("ITPro", PUBLIC), ("Admin", PUBLIC))))
    audiences: dict[str, int] = {}
    for path in sorted([*LEARN_CORPUS.glob("Teams/**/*.md"), *LEARN_CORPUS.glob("Viva/**/*.md")]):
        rel = path.relative_to(LEARN_CORPUS).as_posix()
        data = path.read_bytes()
        result = parse_document(settings_, rel, data, size=len(data), mtime_ns=0)
        assert isinstance(result, WikiDocument), rel
        audiences[result.meta.audience] = audiences.get(result.meta.audience, 0) + 1
        if rel == "Teams/teams-administration/admin-self-help-diagnostics.md":  # Admin|ITPro|Developer
            assert result.meta.audience == INTERNAL and result.meta.errors
        elif rel == "Viva/Connections/cant-find-app-in-teams-admin-center.md":  # "ITPro " (YAML drops the space)
            assert result.meta.audience == PUBLIC
    assert audiences[PUBLIC] >= 140 and audiences[INTERNAL] == 1, audiences
