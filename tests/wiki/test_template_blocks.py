"""Issue 24 (publication): text inside template logic the provider cannot evaluate is
not proof of publication (provider.wiki.template_blocks; attack a6 jek2, mk1, hb).

Liquid/Jinja conditionals and captures are internal sections of the page (agents keep
them, ``customer_safe`` does not get them, the rest of the page stays public); Liquid
``comment``, Jinja ``{# #}`` and Hugo's ``comment`` shortcode are dropped for everyone.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.audience import AudienceRule
from provider.wiki.document import WikiDocument, WikiSettings, load_document
from provider.wiki.template_blocks import mark_template_blocks

_SITES = itertools.count()
SECRET = "Quokkasecret datacenter closes in May."
LEAD = "Install the agent with the package manager."
TAIL = "Then start the service and sign in."

_HIDDEN = {
    "jekyll": [("{%{a} if site.flag {b}%}", "{%{a} endif {b}%}"), ("{%{a} if false {b}%}", "{%{a} endif {b}%}"),
               ("{%{a} unless true {b}%}", "{%{a} endunless {b}%}"),
               ("{%{a} capture x {b}%}", "{%{a} endcapture {b}%}"),
               ("{%{a} case site.x {b}%}{%{a} when 1 {b}%}", "{%{a} endcase {b}%}"),
               # a loop over nothing shows nothing (the second attacker)
               ("{%{a} for x in site.nothing {b}%}", "{%{a} endfor {b}%}"),
               ("{%{a} for x in (1..0) {b}%}", "{%{a} endfor {b}%}"),
               ("{%{a} tablerow x in site.nothing {b}%}", "{%{a} endtablerow {b}%}")],
    "mkdocs": [("{%{a} if config.extra.flag {b}%}", "{%{a} endif {b}%}"),
               ("{%{a} macro m() {b}%}", "{%{a} endmacro {b}%}"),
               ("{%{a} set x {b}%}", "{%{a} endset {b}%}"),
               ("{%{a} for x in [] {b}%}", "{%{a} endfor {b}%}")],
}
#: Whitespace control each dialect accepts after ``{%`` and before ``%}``.
_CONTROL = {"jekyll": ["", "-"], "mkdocs": ["", "-", "+"], "hugo": [""]}
_DROPPED = {
    "jekyll": [("{%{a} comment {b}%}", "{%{a} endcomment {b}%}")],  # dropped by plaintext
    "mkdocs": [("{# ", " #}"), ("{#- ", " -#}"), ("{#-\n", "\n-#}"), ("{#+ ", " #}")],
    "hugo": [("{{% comment %}}", "{{% /comment %}}"), ("{{< comment >}}", "{{< /comment >}}"),
             ("{{<comment>}}", "{{</comment>}}"), ('{{< comment "why" >}}', "{{< /comment >}}")],
}


def _load(tmp_path: Path, layout: str, body: str):  # type: ignore[no-untyped-def]
    root = tmp_path / f"s{next(_SITES)}"
    rel = "content/docs/page.md" if layout == "hugo" else "docs/page.md"
    (root / rel).parent.mkdir(parents=True)
    (root / rel).write_text(f"---\ntitle: Setup\n---\n{body}", "utf-8")
    if layout == "mkdocs":  # Jinja runs only with the macros plugin
        (root / "mkdocs.yml").write_text("site_name: x\nplugins:\n  - search\n  - macros\n", "utf-8")
    wiki = WikiSettings(root=root, layout=layout, audience_rules=(AudienceRule("**", "public"),))
    return load_document(wiki, rel)


def _texts(passages) -> str:  # type: ignore[no-untyped-def]
    return " ".join(p.text for p in passages or ())


def _construct(draw: st.DrawFn, forms: dict[str, list[tuple[str, str]]], layout: str) -> tuple[str, str]:
    opener, closer = draw(st.sampled_from(forms[layout]))
    a, b = draw(st.sampled_from(_CONTROL[layout])), draw(st.sampled_from(_CONTROL[layout]))
    return opener.replace("{a}", a).replace("{b}", b), closer.replace("{a}", a).replace("{b}", b)


@st.composite
def _page(draw: st.DrawFn, forms: dict[str, list[tuple[str, str]]]) -> tuple[str, str, bool, bool]:
    layout = draw(st.sampled_from(sorted(forms)))
    opener, closer = _construct(draw, forms, layout)
    inner = SECRET
    if draw(st.booleans()) and layout in _HIDDEN:
        # Nested: the outermost construct decides, whatever is inside.
        o2, c2 = _construct(draw, _HIDDEN, layout)
        inner = f"{o2}\n{SECRET}\n{c2}" if draw(st.booleans()) else f"Plain words.\n{o2}{SECRET}{c2}"
    sep = draw(st.sampled_from(["\n", "\n\n", " "]))
    closed = draw(st.booleans())
    coded = False  # tags shown as code are left as written (test_code_shown; a known gap)
    body = f"{LEAD}\n\n{opener}{sep}{inner}{sep}{closer if closed else ''}\n\n{TAIL}\n"
    return layout, body, closed, coded


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=_page(_HIDDEN))
def test_conditional_and_captured_text_is_internal_text_of_a_public_page(tmp_path: Path,
                                                                          case: tuple[str, str, bool, bool]) -> None:
    layout, body, closed, coded = case
    doc = _load(tmp_path, layout, body)
    assert "Quokkasecret" not in _texts(doc.public_passages)
    if not coded:
        assert "Quokkasecret" in _texts(doc.passages)  # agents keep it
    assert LEAD in _texts(doc.public_passages)
    if closed:  # an unclosed construct hides everything after it (fail closed)
        assert "sign in" in _texts(doc.public_passages)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=_page(_DROPPED))
def test_a_comment_construct_is_dropped_for_everyone(tmp_path: Path, case: tuple[str, str, bool, bool]) -> None:
    layout, body, closed, _ = case
    doc = _load(tmp_path, layout, body)
    assert "Quokkasecret" not in _texts(doc.public_passages)
    if closed:  # an unclosed one hides the rest: dropped, or internal (a Jinja comment)
        assert "Quokkasecret" not in _texts(doc.passages)
    assert LEAD in _texts(doc.public_passages)


@given(body=st.text(st.sampled_from("{}%#<>/ \nifendcomment-x"), max_size=80),
       dialect=st.sampled_from(["liquid", "jinja", "hugo"]))
def test_line_structure_is_kept(body: str, dialect: str) -> None:
    assert mark_template_blocks(body, dialect).count("\n") == body.count("\n")


def test_heading_ids_and_assignments_are_not_template_blocks() -> None:
    """MkDocs heading ids ``{#id}`` (openai-agents-docs) are not Jinja comments; an
    assignment ``{% set x = … %}`` opens no block."""
    body = "## Why {#why}\n\nText.\n\n## How {#how}\n\n{% set x = 1 %}\nMore.\n"
    assert mark_template_blocks(body, "jinja") == body


def test_without_the_macros_plugin_mkdocs_shows_jinja_as_written(tmp_path: Path) -> None:
    doc = _load(tmp_path, "mkdocs", f"{LEAD}\n\n{{% if x %}}\n{SECRET}\n{{% endif %}}\n")
    (tmp_path / "plain").mkdir()
    root = tmp_path / "plain"
    (root / "docs").mkdir()
    (root / "docs" / "page.md").write_text(f"{LEAD}\n\n{{% if x %}}\n{SECRET}\n{{% endif %}}\n", "utf-8")
    (root / "mkdocs.yml").write_text("site_name: x\n", "utf-8")
    plain = load_document(WikiSettings(root=root, layout="mkdocs", audience_rules=(AudienceRule("**", "public"),)),
                          "docs/page.md")
    assert "Quokkasecret" not in _texts(doc.public_passages)
    assert isinstance(plain, WikiDocument)
    assert "Quokkasecret" in _texts(plain.public_passages)


@pytest.mark.parametrize("layout", ["jekyll", "mkdocs"])
def test_balance_tags_inside_raw_are_text(tmp_path: Path, layout: str) -> None:
    """A page documents template syntax inside ``{% raw %}``: the site shows it as written,
    so it stays public (the tags there are text, not constructs)."""
    body = (f"{LEAD}\n\n{{% raw %}}\n```\n{{% if site.flag %}}\nShown as written.\n{{% endif %}}\n```\n"
            f"{{% endraw %}}\n\n{TAIL}\n")
    doc = _load(tmp_path, layout, body)
    assert "Shown as written" in _texts(doc.public_passages)
