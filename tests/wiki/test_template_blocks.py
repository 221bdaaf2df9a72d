"""Issue 24 (publication): text inside template logic the provider cannot evaluate is
not proof of publication (provider.wiki.template_blocks; attack a6 jek2, mk1, hb).

Liquid/Jinja conditionals and captures are internal sections of the page (agents keep
them, ``customer_safe`` does not get them, the rest of the page stays public); Liquid
``comment``, Jinja ``{# #}`` and Hugo's ``comment`` shortcode are dropped for everyone.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.audience import AudienceRule
from provider.wiki.document import WikiDocument, WikiSettings, load_document
from provider.wiki.template_blocks import mark_template_blocks, outputs_inner, shown_through_parent

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
    coded = layout != "hugo" and draw(st.booleans())
    if coded:
        # Shown as code: Liquid and the macros plugin render before Markdown, so the tags
        # run; no marker can stand in code, so the construct is dropped whole.
        opener, closer = draw(st.sampled_from([(f"`{opener}`", f"`{closer}`"),
                                               (f"```\n{opener}\n```\n", f"\n```\n{closer}\n```"),
                                               (f"~~~md\n{opener}\n", f"\n{closer}\n~~~"),
                                               (f"<code>{opener}</code>", f"<code>{closer}</code>")]))
    elif layout != "hugo" and draw(st.booleans()):
        # In an HTML comment the tags run too (``<!--  -->`` is what the site keeps);
        # the page stays public, its interior internal.
        opener, closer = f"<!-- {opener} -->", f"<!-- {closer} -->"
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
    assert doc.meta.audience == "public" and not doc.meta.errors, body  # never quarantined


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


@st.composite
def _raw_in_code(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, body)``: a construct of any hidden form written as code inside
    ``{% raw %}`` (around the code or inside it), how a page documents the syntax."""
    layout = draw(st.sampled_from(sorted(_HIDDEN)))
    opener, closer = _construct(draw, _HIDDEN, layout)
    a, b = draw(st.sampled_from(_CONTROL[layout])), draw(st.sampled_from(_CONTROL[layout]))
    raw, endraw = f"{{%{a} raw {b}%}}", f"{{%{a} endraw {b}%}}"
    shape = draw(st.sampled_from(["span", "fence", "around"]))
    if shape == "span":
        shown = f"Write `{raw}{opener}{endraw}` then `{raw}{closer}{endraw}`; {SECRET}"
    elif shape == "fence":
        shown = f"```liquid\n{raw}\n{opener}\n{SECRET}\n{closer}\n{endraw}\n```"
    else:
        shown = f"{raw}\n```\n{opener}\n{SECRET}\n{closer}\n```\n{endraw}"
    return layout, f"{LEAD}\n\n{shown}\n\n{TAIL}\n"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=_raw_in_code())
def test_balance_constructs_shown_as_code_inside_raw_are_text(tmp_path: Path, case: tuple[str, str]) -> None:
    """Issue 24 balance: ``{% raw %}`` is the documented way to show Liquid or Jinja tags
    as written; inside it (in a code span or a fence) they are text, the page whole."""
    layout, body = case
    doc = _load(tmp_path, layout, body)
    assert "Quokkasecret" in _texts(doc.public_passages), body
    assert "sign in" in _texts(doc.public_passages) and doc.meta.audience == "public", body


@pytest.mark.parametrize("layout", ["jekyll", "mkdocs"])
@pytest.mark.parametrize("shown", ["`{o}` {s} `{c}`", "```\n{o}\n{s}\n{c}\n```", "`{o}`\n\n{s}\n\n`{c}`",
                                   "<!-- {o} -->{s}<!-- {c} -->", "<!-- {o} -->\n{s}\n<!-- {c} -->"])
def test_tags_in_code_and_html_comments_run(tmp_path: Path, layout: str, shown: str) -> None:
    """Issue 24 (the second attacker): Liquid and the macros plugin render before
    Markdown, so ``{% if false %}`` in a code span, a fence or an HTML comment still
    removes the text on the site: it is not public; the page is not quarantined."""
    body = f"{LEAD}\n\n{shown.format(o='{% if false %}', c='{% endif %}', s=SECRET)}\n\n{TAIL}\n"
    doc = _load(tmp_path, layout, body)
    assert "Quokkasecret" not in _texts(doc.public_passages)
    assert "sign in" in _texts(doc.public_passages)
    assert doc.meta.audience == "public" and not doc.meta.errors and not doc.meta.findings


def _mkdocs(tmp_path: Path, config: str, front: str, body: str):  # type: ignore[no-untyped-def]
    root = tmp_path / f"m{next(_SITES)}"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "page.md").write_text(f"---\ntitle: Setup\n{front}---\n{body}", "utf-8")
    (root / "mkdocs.yml").write_text(f"site_name: x\nplugins:\n  - search\n{config}", "utf-8")
    return load_document(WikiSettings(root=root, layout="mkdocs", audience_rules=(AudienceRule("**", "public"),)),
                         "docs/page.md")


_IF = f"{LEAD}\n\n{{% if x %}}\n{SECRET}\n{{% endif %}}\n"


@pytest.mark.parametrize(("config", "front", "rendered"), [
    ("  - macros\n", "", True),
    ("  - macros\n", "render_macros: false\n", False),
    ("  - macros:\n      render_by_default: false\n", "", False),
    ("  - macros:\n      render_by_default: false\n", "render_macros: true\n", True),
    ("  - macros:\n      render_by_default: true\n", "render_macros: true\n", True),
    # The plugin reads the key with Python's truth: any non-empty string renders (attacker).
    ("  - macros\n", 'render_macros: "false"\n', True),
    ("  - macros\n", "render_macros: 'no'\n", True),
    ("  - macros\n", "render_macros: ''\n", False),
])
def test_the_macros_plugin_renders_the_pages_it_is_told_to(tmp_path: Path, config: str, front: str,
                                                          rendered: bool) -> None:
    """Issue 24: ``render_by_default: false`` renders only pages with ``render_macros:
    true``; ``render_macros: false`` leaves a page as written (its text public)."""
    doc = _mkdocs(tmp_path, config, front, _IF)
    assert ("Quokkasecret" in _texts(doc.public_passages)) is not rendered


def test_jekyll_render_with_liquid_false_shows_tags_as_written(tmp_path: Path) -> None:
    """Issue 24: Jekyll ≥ 4 leaves a page with ``render_with_liquid: false`` as written."""
    doc = _load(tmp_path, "jekyll", _IF.replace("---", ""))
    assert "Quokkasecret" not in _texts(doc.public_passages)
    root = tmp_path / "off"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "page.md").write_text(f"---\ntitle: Setup\nrender_with_liquid: false\n---\n{_IF}", "utf-8")
    off = load_document(WikiSettings(root=root, layout="jekyll", audience_rules=(AudienceRule("**", "public"),)),
                        "docs/page.md")
    assert "Quokkasecret" in _texts(off.public_passages)


@pytest.mark.parametrize("value", ['"false"', "'no'", "'off'", "0", '""', "null"])
def test_jekyll_renders_liquid_unless_render_with_liquid_is_the_boolean_false(tmp_path: Path, value: str) -> None:
    """Issue 24 (attacker): Jekyll skips Liquid only when ``render_with_liquid`` is the
    boolean ``false`` (YAML 1.1's ``off`` and ``no`` are that boolean, for Psych as for
    us); the string "false" still renders, so ``{% if x %}`` text stays out of the public view."""
    root = tmp_path / "s"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "page.md").write_text(f"---\ntitle: Setup\nrender_with_liquid: {value}\n---\n{_IF}", "utf-8")
    doc = load_document(WikiSettings(root=root, layout="jekyll", audience_rules=(AudienceRule("**", "public"),)),
                        "docs/page.md")
    assert "Quokkasecret" not in _texts(doc.public_passages)


@given(shown=st.sampled_from(["{o}\n{s}\n{c}", "`{o}` {s} `{c}`", "```\n{o}\n{s}\n{c}\n```"]),
       form=st.sampled_from([("[% if x %]", "[% endif %]"), ("[%- for x in [] -%]", "[%- endfor -%]"),
                             ("[# ", " #]")]))
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_macros_plugins_own_delimiters_are_honoured(tmp_path: Path, shown: str, form: tuple[str, str]) -> None:
    """Issue 24: with ``j2_block_start_string: '[%'`` (and the comment's), ``[% if %]``
    runs and ``{% if %}`` is text."""
    config = ("  - macros:\n      j2_block_start_string: '[%'\n      j2_block_end_string: '%]'\n"
              "      j2_comment_start_string: '[#'\n      j2_comment_end_string: '#]'\n")
    body = f"{LEAD}\n\n{shown.format(o=form[0], c=form[1], s=SECRET)}\n\n{TAIL}\n"
    doc = _mkdocs(tmp_path, config, "", body)
    assert "Quokkasecret" not in _texts(doc.public_passages) and "sign in" in _texts(doc.public_passages)
    curly = _mkdocs(tmp_path, config, "", _IF)
    assert "Quokkasecret" in _texts(curly.public_passages)



_BRACKETS = "  - macros:\n      j2_variable_start_string: '[['\n      j2_variable_end_string: ']]'\n"


@given(expression=st.sampled_from(['{o} "{s}" if false {c}', "{o} '{s}' | lower {c}", '{o} m("{s}") {c}',
                                   '{o}- "{s}" if config.extra.x else "" -{c}', '{o} "{s}"\n  if false {c}']),
       shown=st.sampled_from(["{e}", "`{e}`", "```\n{e}\n```", "    {e}", "<code>{e}</code>", "<!-- {e} -->"]),
       site=st.sampled_from(["jekyll", "mkdocs", "brackets"]))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_template_expressions_are_no_text_in_code_either(tmp_path: Path, expression: str, shown: str,
                                                         site: str) -> None:
    """Issue 24 (attacker): Liquid and the macros plugin evaluate ``{{ … }}`` before
    Markdown, in code spans and fences too (they were served as written there); with
    ``j2_variable_start_string: '[['`` it is ``[[ … ]]`` (served as written everywhere).
    Their value is not known here: no text. ``{% raw %}`` keeps them as text."""
    o, c = ("[[", "]]") if site == "brackets" else ("{{", "}}")
    body = f"{LEAD}\n\n{shown.format(e=expression.format(o=o, c=c, s=SECRET))}\n\n{TAIL}\n"
    doc = _load(tmp_path, site, body) if site == "jekyll" else _mkdocs(tmp_path, _BRACKETS if site == "brackets"
                                                                      else "  - macros\n", "", body)
    assert "Quokkasecret" not in _texts(doc.public_passages) and "sign in" in _texts(doc.public_passages), body
    assert doc.meta.audience == "public" and not doc.meta.errors


def test_a_custom_expression_never_closed_hides_the_rest_and_raw_keeps_it(tmp_path: Path) -> None:
    """Issue 24: Jinja refuses an expression never closed (fail closed); inside
    ``{% raw %}`` the delimiters are text."""
    unclosed = _mkdocs(tmp_path, _BRACKETS, "", f"{LEAD}\n\n[[ 'x' if false\n{SECRET}\n")
    assert "Quokkasecret" not in _texts(unclosed.public_passages) and LEAD in _texts(unclosed.public_passages)
    raw = _mkdocs(tmp_path, _BRACKETS, "", f"{LEAD}\n\n{{% raw %}}[[ x ]] {SECRET}{{% endraw %}}\n")
    assert "Quokkasecret" in _texts(raw.public_passages)


@pytest.mark.parametrize("form", ["{% block b %}", "{% with x = 1 %}"])
def test_balance_jinja_block_and_with_show_their_interior(tmp_path: Path, form: str) -> None:
    """A Jinja ``block`` (no ``extends``) or ``with`` renders its interior in place: public."""
    name = form.split()[1]
    doc = _load(tmp_path, "mkdocs", f"{LEAD}\n\n{form}\n{SECRET}\n{{% end{name} %}}\n\n{TAIL}\n")
    assert "Quokkasecret" in _texts(doc.public_passages)


def _hugo(tmp_path: Path, body: str, templates: dict[str, str]):  # type: ignore[no-untyped-def]
    root = tmp_path / f"h{next(_SITES)}"
    (root / "content" / "docs").mkdir(parents=True)
    (root / "content" / "docs" / "page.md").write_text(f"---\ntitle: Setup\n---\n{body}", "utf-8")
    for path, text in templates.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, "utf-8")
    return load_document(WikiSettings(root=root, layout="hugo", audience_rules=(AudienceRule("**", "public"),)),
                         "content/docs/page.md")


_SILENT = '<span class="badge">{{ .Get 0 }}</span>\n'
_SHOWN = '<div class="note">{{ .Inner | markdownify }}</div>\n'


@given(where=st.sampled_from(["layouts/shortcodes/{}.html", "layouts/_shortcodes/{}.html",
                              "themes/t/layouts/shortcodes/{}.html", "layouts/shortcodes/{}.en.html"]),
       delim=st.sampled_from([("<", ">"), ("%", "%")]),
       name=st.sampled_from(["badge", "Note-x", "docs/aside"]),
       inner=st.sampled_from([SECRET, f"\n{SECRET}\n", f"\n\n{SECRET}\n\n"]))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_hugo_shortcode_that_never_renders_inner_drops_it(tmp_path: Path, where: str, delim: tuple[str, str],
                                                            name: str, inner: str) -> None:
    """Issue 24: a paired shortcode whose template never uses ``.Inner`` shows nothing of
    its interior; with ``.Inner`` (or no template: unknown, common) it shows it."""
    o, c = delim
    body = f"{LEAD}\n\n{{{{{o} {name} \"x\" {c}}}}}{inner}{{{{{o} /{name} {c}}}}}\n\n{TAIL}\n"
    silent = _hugo(tmp_path, body, {where.format(name.lower()): _SILENT})
    assert "Quokkasecret" not in _texts(silent.public_passages) and "sign in" in _texts(silent.public_passages)
    shown = _hugo(tmp_path, body, {where.format(name.lower()): _SHOWN})
    unknown = _hugo(tmp_path, body, {})
    assert "Quokkasecret" in _texts(shown.public_passages) and "Quokkasecret" in _texts(unknown.public_passages)


#: Actions that output the shortcode's interior, and ones that only mention it (attacker, issue 24).
_OUTPUTS = ("{{ .Inner }}", "{{- .Inner -}}", "{{ .Inner | markdownify }}", "{{ .InnerDeindent | safeHTML }}",
            "{{ .Inner | htmlUnescape | safeHTML }}", "{{ $.Page.RenderString .Inner }}", "{{ markdownify .Inner }}",
            '{{ .Inner | .Page.RenderString (dict "display" "block") }}', "{{ $in := .Inner }}{{ $in }}")
_MENTIONS = ("{{/* .Inner */}}", "{{- /* .Inner */ -}}", "<!-- {{ .Inner }} -->", "{{ $x := .Inner }}",
             "{{ .Inner | len }}", "{{ len .Inner }}", '{{ .Inner | replaceRE "." "" }}', "{{ .Get 0 }}",
             '<span class="x">Inner</span>', '{{ $x := .Inner }}{{ $x = "" }}{{ $x }}',
             '{{ define "d" }}{{ .Inner }}{{ end }}', '{{ $x := "}}{{ .Inner }}" }}')

_THE_INNER = re.compile(r"(?<![\w$])\.Inner(?:Deindent)?\b")


#: Filters that print a value as raw HTML: an argument printed so may open an element
#: (``<div hidden>``) that swallows what follows, so a later ``.Inner`` is not shown.
_RAW_FILTERS = re.compile(r"\b(?:safeHTML|htmlUnescape)\b")


def _prints_raw(template: str) -> bool:
    """Whether an action of ``template`` prints raw HTML other than the shortcode's own
    ``$.Inner`` — what a ``with`` or ``range`` body prints of its dot."""
    return any(_RAW_FILTERS.search(action) and "$.Inner" not in action
               for action in re.findall(r"\{\{.*?\}\}", template, re.S))


@st.composite
def _go_templates(draw: st.DrawFn, depth: int = 2) -> tuple[str, bool, bool]:
    """A shortcode template, whether every path through it outputs ``.Inner``, and
    whether some path prints raw HTML from elsewhere (an argument through ``safeHTML``)."""
    kind = draw(st.sampled_from(["leaf", "leaf", "sequence", "if", "if-else", "with", "with-else", "range",
                                 "with-inner"] if depth else ["leaf"]))
    if kind == "leaf":
        shown = draw(st.booleans())
        return draw(st.sampled_from(_OUTPUTS if shown else _MENTIONS)), shown, False
    a, shown_a, raw_a = draw(_go_templates(depth - 1))
    b, shown_b, raw_b = draw(_go_templates(depth - 1))
    condition = draw(st.sampled_from(['.Get "show"', "false", "true", "eq 1 1", ".Site.Params.x"]))
    if kind == "sequence":  # what a prints raw may hide b's interior
        return f"<div>{a}</div>\n{b}", shown_a or (shown_b and not raw_a), raw_a or raw_b
    if kind == "if":  # not taken, nothing is output
        return f"{{{{ if {condition} }}}}{a}{{{{ end }}}}", False, raw_a
    if kind == "if-else":  # Docsy's: both branches output it, public
        more = draw(st.sampled_from(["", f"{{{{ else if .Get 1 }}}}{b}"]))
        return f"{{{{ if {condition} }}}}{a}{more}{{{{ else }}}}{b}{{{{- end }}}}", shown_a and shown_b, raw_a or raw_b
    if kind == "range":  # may run no time
        return f"{{{{ range .Params }}}}{a}{{{{ end }}}}", False, raw_a or _prints_raw(a)
    if kind == "with-inner":  # without an interior there is nothing to hide
        return f"{{{{ with .Inner }}}}{_THE_INNER.sub('.', a)}{{{{ end }}}}", shown_a, raw_a
    # Inside ``with``, ``.Inner`` is not the shortcode's: only ``$.Inner`` is.
    # Rewriting a nested with's ``.Inner`` (its dot's, not shown) to ``$.Inner`` would show it;
    # the dot's printed through safeHTML is an argument's raw HTML.
    dollar = draw(st.booleans()) and "{{ with" not in a and "{{ range" not in a
    if dollar:
        a = a.replace(" .Inner", " $.Inner")
    else:
        a = a.replace("$.Inner", ".Inner")
        shown_a, raw_a = False, raw_a or _prints_raw(a)
    if kind == "with":
        return f"{{{{ with .Get 0 }}}}{a}{{{{ end }}}}", False, raw_a
    return f"{{{{ with .Get 0 }}}}{a}{{{{ else }}}}{b}{{{{ end }}}}", shown_a and shown_b, raw_a or raw_b


def _go_template() -> st.SearchStrategy[tuple[str, bool]]:
    """:func:`_go_templates` without the raw flag: ``(template, shown)``."""
    return _go_templates().map(lambda case: case[:2])


@settings(max_examples=50, deadline=None)
@given(case=_go_template())
def test_a_shortcodes_interior_is_public_only_if_every_path_outputs_it(case: tuple[str, bool]) -> None:
    """Issue 24 (attacker): a template that mentions ``.Inner`` but may not output it (a
    condition without ``else``, a comment, an assignment, ``len``, a loop, ``define``)
    can hide the interior; an ``if``/``else`` outputting it in both branches cannot."""
    template, shown = case
    assert outputs_inner(template) is shown, template


@pytest.mark.parametrize(("template", "shown"), [
    ('{{ if .Get "show" }}{{ .Inner }}{{ end }}', False), ("{{/* .Inner */}}", False),
    ("{{ $x := .Inner }}", False), ("{{ .Inner | len }}", False), ("{{ with .Inner }}<b>x</b>{{ end }}", False),
    ("{{ if false }}{{ .Inner }}{{ end }}", False),
    # Not taken where there is no parent shortcode.
    ("{{ with $.Parent }}{{ $.Inner }}{{ end }}", False),
    ('{{ if eq .Page.File.Ext "md" }}{{ .Inner | markdownify }}{{ else }}{{ .Inner | htmlUnescape | safeHTML }}'
     "{{ end }}", True),
])
def test_a_shortcode_that_may_not_output_inner_drops_it(tmp_path: Path, template: str, shown: bool) -> None:
    body = f"{LEAD}\n\n{{{{< note >}}}}{SECRET}{{{{< /note >}}}}\n\n{TAIL}\n"
    doc = _hugo(tmp_path, body, {"layouts/shortcodes/note.html": template})
    assert ("Quokkasecret" in _texts(doc.public_passages)) is shown and "sign in" in _texts(doc.public_passages)


def test_a_sites_own_shortcode_overrides_its_themes(tmp_path: Path) -> None:
    body = f"{LEAD}\n\n{{{{< note >}}}}{SECRET}{{{{< /note >}}}}\n\n{TAIL}\n"
    doc = _hugo(tmp_path, body, {"layouts/shortcodes/note.html": _SHOWN,
                                 "themes/t/layouts/shortcodes/note.html": _SILENT})
    assert "Quokkasecret" in _texts(doc.public_passages)


@given(block=st.sampled_from(["<div>\n{s}\n</div>", '<div class="note">{s}</div>', "<p>{s}</p>",
                              "<table><tr><td>{s}</td></tr></table>",
                              "<details>\n<summary>More</summary>\n{s}\n</details>"]),
       config=st.sampled_from([("hugo.toml", "[markup.goldmark.renderer]\nunsafe = {v}\n"),
                               ("config.yaml", "markup:\n  goldmark:\n    renderer:\n      unsafe: {v}\n"),
                               ("config/_default/markup.toml", "[goldmark.renderer]\nunsafe = {v}\n"),
                               ("hugo.json", '{{"markup": {{"goldmark": {{"renderer": {{"unsafe": {v}}}}}}}}}')]))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_hugo_raw_html_is_text_only_with_goldmark_unsafe(tmp_path: Path, block: str, config: tuple[str, str]) -> None:
    """Issue 24: Hugo's Goldmark replaces raw HTML by ``<!-- raw HTML omitted -->`` unless
    ``markup.goldmark.renderer.unsafe`` is true: its text is shown to no reader (not
    public); with ``unsafe = true`` it is. Markdown around it stays public either way."""
    body = f"{LEAD}\n\n{block.format(s=SECRET)}\n\n{TAIL}\n"
    path, text = config
    default = _hugo(tmp_path, body, {"hugo.toml": 'title = "x"\n'})
    safe = _hugo(tmp_path, body, {path: text.format(v="false")})
    unsafe = _hugo(tmp_path, body, {path: text.format(v="true")})
    for doc in (default, safe):
        assert "Quokkasecret" not in _texts(doc.public_passages) and "sign in" in _texts(doc.public_passages)
    assert "Quokkasecret" in _texts(unsafe.public_passages)


@pytest.mark.parametrize(("value", "shown"), [('"true"', True), ('"True"', True), ('"1"', True), ('"false"', False),
                                              ('"yes"', False), ('"on"', False)])
def test_hugo_reads_unsafe_written_as_a_string_as_go_does(tmp_path: Path, value: str, shown: bool) -> None:
    """Issue 24 (attacker's false positive): Hugo decodes its configuration weakly typed,
    so ``unsafe = "true"`` shows raw HTML; only Go's ParseBool spellings are booleans
    (``"yes"`` is no boolean to Go: the HTML stays omitted, its text not public)."""
    body = f"{LEAD}\n\n<div>{SECRET}</div>\n\n{TAIL}\n"
    doc = _hugo(tmp_path, body, {"hugo.toml": f"[markup.goldmark.renderer]\nunsafe = {value}\n"})
    assert ("Quokkasecret" in _texts(doc.public_passages)) is shown


@pytest.mark.parametrize("layout", ["jekyll", "mkdocs"])
@pytest.mark.parametrize("shown", ["Use `<!--` to open one.\n\n{o}\n{s}\n{c}\n\nClose it with `-->`.",
                                   "`<!--` {o} {s} `-->` {c}", "<!-- {o} {s} {c} -->",
                                   "<!-- {o} -->\n{s}\n<!-- x -->\n{c}",
                                   "```\n<!--\n```\n{o}\n{s}\n{c}\n```\n-->\n```"])
def test_comment_syntax_shown_as_code_widens_no_tag(tmp_path: Path, layout: str, shown: str) -> None:
    """Issue 24 (leak): only a real HTML comment moves a tag's marker out of it; comment
    delimiters shown as code, or both tags in one comment, never let the interior out."""
    body = f"{LEAD}\n\n{shown.format(o='{% if false %}', c='{% endif %}', s=SECRET)}\n\n{TAIL}\n"
    doc = _load(tmp_path, layout, body)
    assert "Quokkasecret" not in _texts(doc.public_passages), body


# Docsy-shaped tab/tabpane (written for these tests from what Docsy's do): the tab prints
# nothing and leaves its interior in the parent's scratchpad; the tabpane prints each
# stored tab's content, as code or as text (issue 24, the tab false positive).
_DOCSY_TAB = """{{- /* One tab: it prints nothing, its parent tabpane draws it from what it leaves there. */ -}}
{{ with $.Parent -}}
  {{ if ne $.Parent.Name "tabpane" -}}
    {{ errorf "%q belongs inside a tabpane, not %q: %s" $.Name $.Parent.Name $.Position -}}
  {{ end -}}
{{ else -}}
  {{ errorf "%q needs a tabpane around it: %s" $.Name $.Position -}}
{{ end -}}
{{ $title := .Get "header" | default (printf "Tab %v" .Ordinal) -}}
{{ if not .IsNamedParams -}}
  {{ $title = .Get 0 | default $title -}}
{{ end -}}
{{ $entry := dict "header" $title -}}
{{ with $.Get "lang" -}}
  {{ $entry = merge $entry (dict "language" .) -}}
{{ end -}}
{{ with $.Inner -}}
  {{ $entry = merge $entry (dict "content" $.Inner) -}}
{{ end -}}
{{ with .Parent -}}
  {{ $.Parent.Scratch.SetInMap "tabs" (printf "%03v" $.Ordinal) $entry -}}
{{ end -}}
"""
_DOCSY_TABPANE = """{{- $code := not (.Get "text") -}}
{{- $langAll := .Get "lang" | default "" -}}
{{- /* The tabs fill the scratchpad while the inner text is rendered. */ -}}
{{- .Inner -}}
<ul class="nav nav-tabs" role="tablist">
{{- range $n, $entry := $.Scratch.Get "tabs" }}
  <li class="nav-item"><a href="#tab-{{ $.Ordinal }}-{{ $n }}">{{ index . "header" | markdownify }}</a></li>
{{- end }}
</ul>
<div class="tab-content">
{{- range $n, $entry := $.Scratch.Get "tabs" }}
  {{ $lang := $langAll -}}
  {{ with $entry.language }}{{ $lang = . }}{{ end -}}
  <div class="tab-body tab-pane fade{{ if eq $n "000" }} show active{{ end }}" id="tab-{{ $.Ordinal }}-{{ $n }}"
       role="tabpanel">
  {{ if $code -}}
    {{ highlight (trim (index . "content") "\n") $lang "" -}}
  {{ else -}}
    {{ index . "content" -}}
  {{ end }}
  </div>
{{- end }}
</div>
"""
_TABS = (f"{LEAD}\n\n{{{{< tabpane text=true >}}}}\n{{{{% tab header=\"Linux\" %}}}}\n{SECRET}\n{{{{% /tab %}}}}\n"
         "{{% tab header=\"macOS\" %}}\nWombat lives on the mac.\n{{% /tab %}}\n{{< /tabpane >}}\n\n" + f"{TAIL}\n")


@pytest.mark.parametrize(("templates", "body", "shown"), [
    ({"tab": _DOCSY_TAB, "tabpane": _DOCSY_TABPANE}, _TABS, True),
    # The parent unknown, not a shortcode the provider reads: the tab stays internal.
    ({"tab": _DOCSY_TAB}, _TABS, False),
    # A tab outside any parent hands its interior to nobody.
    ({"tab": _DOCSY_TAB, "tabpane": _DOCSY_TABPANE},
     f"{LEAD}\n\n{{{{% tab %}}}}\n{SECRET}\n{{{{% /tab %}}}}\n\n{TAIL}\n", False),
    # A parent that prints only the headers, or reads another key, or prints only in one branch.
    ({"tab": _DOCSY_TAB, "tabpane": _DOCSY_TABPANE.replace('index . "content"', 'index . "header"')},
     _TABS, False),
    ({"tab": _DOCSY_TAB, "tabpane": _DOCSY_TABPANE.replace('"tabs"', '"panes"')}, _TABS, False),
    ({"tab": _DOCSY_TAB,
      "tabpane": _DOCSY_TABPANE.replace("{{ if $code -}}", "{{ if $code -}}{{ else if .Get \"x\" }}")},
     _TABS, False),
    # A parent that never asks for its interior may never run its children.
    ({"tab": _DOCSY_TAB, "tabpane": _DOCSY_TABPANE.replace("{{- .Inner -}}", "")}, _TABS, False),
])
def test_a_docsy_tab_is_shown_by_the_tabpane_that_prints_it(tmp_path: Path, templates: dict[str, str], body: str,
                                                             shown: bool) -> None:
    """Issue 24 (the tab false positive): a child shortcode storing ``.Inner`` in its
    parent's scratchpad is public when the parent prints what it stored on every path;
    with the parent unknown, absent or not printing it, the interior is dropped as before."""
    doc = _hugo(tmp_path, body, {f"layouts/shortcodes/{name}.html": text for name, text in templates.items()})
    public = _texts(doc.public_passages)
    assert ("Quokkasecret" in public) is shown and "sign in" in public and LEAD.split()[0] in public


def test_text_a_silent_tabpane_does_not_print_goes_and_its_printed_tabs_stay(tmp_path: Path) -> None:
    pane = _DOCSY_TABPANE.replace("{{- .Inner -}}", "{{- $rendered := .Inner -}}")
    body = _TABS.replace("{{< tabpane text=true >}}\n", "{{< tabpane text=true >}}\nBilbysecret between tabs.\n")
    public = _texts(_hugo(tmp_path, body, {"layouts/shortcodes/tab.html": _DOCSY_TAB,
                                           "layouts/shortcodes/tabpane.html": pane}).public_passages)
    assert "Quokkasecret" in public and "Wombat" in public and "Bilbysecret" not in public


@st.composite
def _handoff_pair(draw: st.DrawFn) -> tuple[str, str, bool, bool]:
    """A child template handing its interior to its parent's Store/Scratch, a parent
    template reading it back, whether the child is the parent's last, and whether the
    parent prints the interior on every path."""
    store, field = draw(st.sampled_from(["Store", "Scratch"])), draw(st.sampled_from(["content", "body"]))
    kind = draw(st.sampled_from(["each", "each", "text"]))
    holds = True
    overwrites = False
    if kind == "text":
        value = draw(st.sampled_from(["$.Inner", "($.Inner | markdownify)", "(markdownify $.Inner)"]))
        method = draw(st.sampled_from(["Add", "Set"]))
        overwrites = method == "Set"
        define, call = "", f'{method} "tabs" {value}'
    else:
        define, element = draw(st.sampled_from([
            (f'{{{{ $t := dict "title" "x" "{field}" $.Inner }}}}', "$t"),
            (f'{{{{ $t := dict "title" "x" }}}}{{{{ with $.Inner }}}}{{{{ $t = merge $t (dict "{field}" $.Inner) }}}}'
             "{{ end }}", "$t"),
            ("", f'(dict "{field}" ($.Inner | safeHTML))'),
            # Assigned again with something else: holds nothing known.
            (f'{{{{ $t := dict "{field}" $.Inner }}}}{{{{ $t = dict "{field}" "" }}}}', "$t"),
            (f'{{{{ $t := dict "{field}" $.Inner }}}}{{{{ if .Get "x" }}}}{{{{ $t = dict "a" 1 }}}}'
             "{{ end }}", "$t"),
        ]))
        holds = "$t = dict" not in define
        call = draw(st.sampled_from([f'Add "tabs" (slice {element})',
                                     f'SetInMap "tabs" (printf "%02v" $.Ordinal) {element}',
                                     f'SetInMap "tabs" "one" {element}']))
        overwrites = '"one"' in call
    receiver = draw(st.sampled_from(["plain", "with", "with-dollar"]))
    if receiver == "plain":
        action = f"{{{{ $.Parent.{store}.{call} }}}}"
    else:
        action = (f"{{{{ with {'$' if receiver == 'with-dollar' else ''}.Parent }}}}{{{{ .{store}.{call} }}}}"
                  "{{ end }}")
    guard = draw(st.sampled_from(["", "if", "if-else"]))
    child_always = guard != "if"
    if guard == "if":
        action = f'{{{{ if .Get "x" }}}}{action}{{{{ end }}}}'
    elif guard == "if-else":
        action = f'{{{{ if .Get "x" }}}}{action}{{{{ else }}}}{action}{{{{ end }}}}'
    child = f"{{{{/* hands its interior to the parent */}}}}\n{define}\n{action}\n"
    # The parent.
    read_store = draw(st.sampled_from([store, store, "Scratch" if store == "Store" else "Store"]))
    read_key = draw(st.sampled_from(["tabs", "tabs", "panes"]))
    read_field = draw(st.sampled_from([field, field, "title"]))
    get = f'{draw(st.sampled_from(["$", ""]))}.{read_store}.Get "{read_key}"'
    if kind == "text":
        shows = draw(st.sampled_from([f"{{{{ {get} | markdownify }}}}", f"{{{{ with {get} }}}}{{{{ . }}}}{{{{ end }}}}",
                                      f"{{{{ $all := {get} }}}}{{{{ $all | safeHTML }}}}"]))
        read_field = field
    else:
        shows = draw(st.sampled_from([
            f"{{{{ range $i, $tab := {get} }}}}<div>{{{{ $tab.{read_field} | markdownify }}}}</div>{{{{ end }}}}",
            f'{{{{ range {get} }}}}{{{{ index . "{read_field}" }}}}{{{{ end }}}}',
            f"{{{{ $tabs := {get} }}}}{{{{ range $tab := $tabs }}}}{{{{ with $tab.{read_field} }}}}{{{{ . }}}}"
            "{{ end }}{{ end }}",
            f'{{{{ range $n, $e := {get} }}}}{{{{ highlight (trim (index $e "{read_field}") "\\n") "go" "" }}}}'
            "{{ end }}",
        ]))
    pane_guard = draw(st.sampled_from(["", "if", "if-else", "writes", "no-inner"]))
    inner = "{{ .Inner }}" if pane_guard != "no-inner" else "{{/* .Inner */}}"
    if pane_guard == "if":
        shows = f"{{{{ if .Get \"code\" }}}}{shows}{{{{ end }}}}"
    elif pane_guard == "if-else":
        shows = f"{{{{ if .Get \"code\" }}}}{shows}{{{{ else }}}}<p>{shows}</p>{{{{ end }}}}"
    elif pane_guard == "writes":
        inner += f'{{{{ .{read_store}.Delete "{read_key}" }}}}'
    parent = f"{inner}\n<div class=\"tabs\">{shows}</div>\n"
    last = draw(st.booleans())
    shown = (holds and child_always and read_store == store and read_key == "tabs"
             and read_field == field and pane_guard in ("", "if-else") and (last or not overwrites))
    return child, parent, last, shown


@settings(max_examples=50, deadline=None)
@given(case=_handoff_pair())
def test_a_child_handing_inner_to_its_parent_is_shown_only_if_the_parent_prints_it(
        case: tuple[str, str, bool, bool]) -> None:
    """Issue 24: Store/Scratch ``Add``/``Set``/``SetInMap`` hand-offs of ``.Inner`` (bare,
    through output functions, in a ``slice``/``dict``/``merge``) count as output only where
    the parent prints what it reads back from the same key and field on every path (range,
    ``index``, fields, ``with``, ``highlight``); a conditional hand-off or print, another
    key, store or field, a parent writing the key, a ``Set`` a later sibling may replace,
    or a parent never asking for its ``.Inner``: internal."""
    child, parent, last, shown = case
    assert shown_through_parent((child,), (parent,), last) is shown, (child, parent, last)
    assert not outputs_inner(child)  # alone, the child prints nothing


_LEFT = ("{{", "{{ ", "{{- ", "{{\t", "{{-\n", "{{\r\n")
_RIGHT = ("}}", " }}", " -}}", "\n}}", "\t-}}")
_CONDITIONS = ("false", "(eq 1 2)", ".Site.Params.x", '(.Get "show")')


@st.composite
def _keyword_forms(draw: st.DrawFn) -> tuple[str, bool]:
    """A shortcode template whose keywords (``if``, ``with``, ``range``, ``else``, ``end``,
    ``define``, ``block``, ``template``, ``break``, ``continue``) are written as Go's lexer
    reads them — a keyword ends at any non-identifier character: a tab, a newline, ``(``,
    ``.``, a trim marker — and whether every path outputs ``.Inner``."""

    def act(word: str, rest: str = "") -> str:
        if rest:
            gap = draw(st.sampled_from([" ", "\t", "\n", "\r\n", " \t "] + (["", ""] if rest[0] in "(." else [])))
            word = f"{word}{gap}{rest}"
        return f"{draw(st.sampled_from(_LEFT))}{word}{draw(st.sampled_from(_RIGHT))}"

    cond = draw(st.sampled_from(_CONDITIONS))
    inner = act("$.Inner")
    kind = draw(st.sampled_from(["if", "with", "range", "if-else", "if-else-if", "define", "block", "template",
                                 "range-break", "range-if-break", "range-else"]))
    if kind in ("if", "with", "range"):
        return act(kind, cond) + inner + act("end"), False
    if kind == "if-else":
        return act("if", cond) + inner + act("else") + inner + act("end"), True
    if kind == "if-else-if":
        return act("if", cond) + inner + act("else", act("if", cond)[2:-2].strip("- \t\r\n")) + inner + \
            act("end"), False
    if kind == "define":
        return act("define", '"d"') + inner + act("end"), False
    if kind == "block":  # defined and run in place, the shortcode its dot (false positive 3)
        return act("block", '"b" .') + inner + act("end"), True
    if kind == "template":
        return act("template", '"d" .Inner'), False
    stop = act(draw(st.sampled_from(["break", "continue"])))
    if kind == "range-break":  # ends the path: what follows in the loop does not print
        return act("range", "seq 1") + stop + inner + act("else") + inner + act("end"), False
    if kind == "range-if-break":
        return (act("range", "seq 1") + act("if", cond) + stop + act("end") + inner + act("else") + inner
                + act("end"), False)
    return act("range", "seq 1") + inner + act("else") + inner + act("end"), True


@settings(max_examples=50, deadline=None)
@given(case=_keyword_forms())
def test_go_keywords_are_read_as_gos_lexer_reads_them(case: tuple[str, bool]) -> None:
    """Issue 24 (attacker): ``{{ if<TAB>false }}``, ``{{if(eq 1 2)}}``, a newline after the
    keyword, trim markers: the keyword is still a keyword; ``break``/``continue`` end the
    path through a loop body (fail closed)."""
    template, shown = case
    assert outputs_inner(template) is shown, template


_CANDIDATES = ("layouts/shortcodes/note.html", "layouts/_shortcodes/note.html", "themes/a/layouts/shortcodes/note.html",
               "themes/b/layouts/_shortcodes/note.html")


@pytest.mark.parametrize(("first", "second"), [(a, b) for a in _CANDIDATES for b in _CANDIDATES
                                               if a < b and not (a.startswith("layouts") and b.startswith("themes"))])
@pytest.mark.parametrize("silent_first", [True, False])
def test_a_shortcode_with_several_candidate_templates_shows_inner_only_if_each_does(
        tmp_path: Path, first: str, second: str, silent_first: bool) -> None:
    """Issue 24 (attacker): the same shortcode in ``layouts/shortcodes`` and
    ``layouts/_shortcodes`` (or in two themes): which Hugo picks is not established, so
    the interior is public only if every candidate outputs it (the site's own still
    overrides a theme's)."""
    body = f"{LEAD}\n\n{{{{< note >}}}}{SECRET}{{{{< /note >}}}}\n\n{TAIL}\n"
    one, other = (_SILENT, _SHOWN) if silent_first else (_SHOWN, _SILENT)
    mixed = _hugo(tmp_path, body, {first: one, second: other})
    assert "Quokkasecret" not in _texts(mixed.public_passages) and "sign in" in _texts(mixed.public_passages)
    both = _hugo(tmp_path, body, {first: _SHOWN, second: _SHOWN})
    assert "Quokkasecret" in _texts(both.public_passages)


@given(name=st.sampled_from(["s.inline", "Time.inline", "docs/x.inline"]),
       delim=st.sampled_from([("<", ">"), ("%", "%")]),
       logic=st.sampled_from(["{{{{ if false }}}}{s}{{{{ end }}}}", "{{{{ with .Get 9 }}}}{s}{{{{ end }}}}",
                              "{{{{/* {s} */}}}}", '{{{{ define "d" }}}}{s}{{{{ end }}}}', "{s}"]))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_an_inline_shortcodes_body_is_a_template_and_not_public(tmp_path: Path, name: str, delim: tuple[str, str],
                                                               logic: str) -> None:
    """Issue 24 (attacker): ``{{< s.inline >}}{{ if false }}TEXT{{ end }}{{< /s.inline >}}``:
    the body of an inline shortcode is a template whose logic is not evaluated here, and
    Hugo renders none of it without ``enableInlineShortcodes``: not public."""
    o, c = delim
    body = f"{LEAD}\n\n{{{{{o} {name} {c}}}}}{logic.format(s=SECRET)}{{{{{o} /{name} {c}}}}}\n\n{TAIL}\n"
    doc = _hugo(tmp_path, body, {"layouts/shortcodes/other.html": _SHOWN})
    assert "Quokkasecret" not in _texts(doc.public_passages) and "sign in" in _texts(doc.public_passages)


@pytest.mark.parametrize(("template", "shown"), [
    ('<div class="note" hidden>{{ .Inner | markdownify }}</div>', False),
    ('<div data-text="{{ .Inner }}"></div>', False),
    ("<script>const note = {{ .Inner }};</script>", False),
    ('<div class="note">{{ .Inner | markdownify }}</div>', True),
])
def test_a_page_shows_a_shortcodes_interior_only_where_the_template_shows_it(tmp_path: Path, template: str,
                                                                            shown: bool) -> None:
    """Issue 24 (leak): ``.Inner`` printed into a hidden element, an attribute or a
    script is no text of the page (more forms: tests/wiki/test_template_html.py)."""
    body = f"{LEAD}\n\n{{{{< note >}}}}{SECRET}{{{{< /note >}}}}\n"
    public = _texts(_hugo(tmp_path, body, {"layouts/shortcodes/note.html": template}).public_passages)
    assert ("Quokkasecret" in public) is shown and "Install" in public


@settings(max_examples=40, deadline=None)
@given(case=_go_template(), call=st.sampled_from(['{{{{ block "b" . }}}}{}{{{{ end }}}}', '{{{{ partial "p" . }}}}',
                                                   '{{{{ partial "docs/p.html" $ }}}}',
                                                   '{{{{- partialCached "p" . "key" -}}}}']))
def test_a_block_or_partial_given_the_shortcode_shows_what_its_body_shows(case: tuple[str, bool], call: str) -> None:
    """Issue 24 (false positive): ``{{ block "b" . }}…{{ end }}`` runs its body in place,
    and ``{{ partial "p" . }}`` runs the partial with the shortcode as its dot: the
    interior is shown exactly when that body shows it on every path."""
    body, shown = case
    partials = {"p": (body,), "docs/p": (body,)}
    assert outputs_inner(call.format(body), partials=partials) is shown, (call, body)


@pytest.mark.parametrize(("template", "partials", "shown"), [
    ('{{ partial "note" . }}', {"layouts/partials/note.html": _SHOWN}, True),
    ('{{ partial "note.html" . }}', {"layouts/_partials/note.html": _SHOWN}, True),
    ('{{ partial "note" . }}', {"themes/t/layouts/partials/note.html": _SHOWN}, True),
    # The site's partial overrides its theme's; an unknown partial, one given another dot,
    # one printing only in a branch, and a block whose name the file defines again: dropped.
    ('{{ partial "note" . }}', {"layouts/partials/note.html": _SILENT,
                                "themes/t/layouts/partials/note.html": _SHOWN}, False),
    ('{{ partial "missing" . }}', {"layouts/partials/note.html": _SHOWN}, False),
    ('{{ partial "note" .Page }}', {"layouts/partials/note.html": _SHOWN}, False),
    ('{{ partial "note" . }}', {"layouts/partials/note.html": "{{ if .Get 0 }}{{ .Inner }}{{ end }}"}, False),
    ('{{ block "b" . }}{{ .Inner }}{{ end }}', {}, True),
    ('{{ block "b" . }}{{ .Inner }}{{ end }}{{ define "b" }}{{ end }}', {}, False),
])
def test_a_shortcode_showing_inner_through_a_partial_or_block_keeps_it(tmp_path: Path, template: str,
                                                                       partials: dict[str, str], shown: bool) -> None:
    body = f"{LEAD}\n\n{{{{< note >}}}}{SECRET}{{{{< /note >}}}}\n\n{TAIL}\n"
    doc = _hugo(tmp_path, body, {"layouts/shortcodes/note.html": template, **partials})
    assert ("Quokkasecret" in _texts(doc.public_passages)) is shown and "sign in" in _texts(doc.public_passages)


_KEYED_CHILD = '{{ $.Parent.Store.SetInMap "tabs" "first" (dict "content" .Inner) }}'
_ALIAS_CHILD = '{{ $p := .Parent }}{{ $p.Store.Add "tabs" (slice (dict "content" .Inner)) }}'
_RANGE_PARENT = '{{ .Inner }}{{ range .Store.Get "tabs" }}{{ .content }}{{ end }}'


@pytest.mark.parametrize(("child", "parent", "last", "shown"), [
    # A map written under a literal key, read back by that key (index, a variable, a field).
    (_KEYED_CHILD, '{{ .Inner }}{{ index (index (.Store.Get "tabs") "first") "content" }}', True, True),
    (_KEYED_CHILD, '{{ .Inner }}{{ $m := .Store.Get "tabs" }}{{ index (index $m "first") "content" }}', True, True),
    (_KEYED_CHILD, _RANGE_PARENT, True, True),
    # Another key read, or a later sibling that may write the same key: dropped.
    (_KEYED_CHILD, '{{ .Inner }}{{ index (index (.Store.Get "tabs") "second") "content" }}', True, False),
    (_KEYED_CHILD, '{{ .Inner }}{{ index (index (.Store.Get "tabs") "first") "content" }}', False, False),
    # ``$p := .Parent`` then ``$p.Store``; ``$self := .`` then ``$self.Store.Get`` in the parent.
    (_ALIAS_CHILD, _RANGE_PARENT, True, True),
    ('{{ $p := $.Parent }}{{ with .Get 0 }}{{ end }}{{ $p.Store.Add "tabs" (slice (dict "content" $.Inner)) }}',
     _RANGE_PARENT, True, True),
    (_ALIAS_CHILD, '{{ $self := . }}{{ .Inner }}{{ range $self.Store.Get "tabs" }}{{ .content }}{{ end }}', True,
     True),
    # Not the parent (any more): reassigned, shadowed, or another value.
    (_ALIAS_CHILD.replace("}}{{ $p.Store", "}}{{ $p = .Page }}{{ $p.Store"), _RANGE_PARENT, True, False),
    ('{{ $p := .Page }}{{ if true }}{{ $p := .Parent }}{{ end }}'
     '{{ $p.Store.Add "tabs" (slice (dict "content" .Inner)) }}', _RANGE_PARENT, True, False),
    (_ALIAS_CHILD.replace(":= .Parent", ":= .Page"), _RANGE_PARENT, True, False),
    (_ALIAS_CHILD, '{{ $self := .Page }}{{ .Inner }}{{ range $self.Store.Get "tabs" }}{{ .content }}{{ end }}',
     True, False),
])
def test_store_hand_offs_by_literal_key_or_through_a_parent_variable(child: str, parent: str, last: bool,
                                                                     shown: bool) -> None:
    """Issue 24 (false positive 4, Docsy-like scratchpads): followed where simple, else closed."""
    assert shown_through_parent((child,), (parent,), last) is shown


# -- partials that leave an element open; markdown of an argument under Goldmark unsafe (issue 24) --

_OPENING = ["<div hidden>", "<details>", '<div style="display:none">', "<template>", "<noscript>",
            "<div hidden>{{ .Get 0 }}", '{{ if .Get "x" }}<details>{{ end }}', "<section>\n<div hidden>\n</section>",
            '{{ .Get "title" | safeHTML }}', '{{ partial "other" . }}']
_CLOSED = ["<div hidden>x</div>", "<details><summary>x</summary>y</details>", "<p>{{ .Get 0 }}", "<hr><br>",
           '<span class="badge">{{ .Get 0 }}</span>', "<ul><li>a<li>b</ul>"]


@given(partial=st.sampled_from(_OPENING + _CLOSED),
       call=st.sampled_from(['{{{{ partial "{}" . }}}}', '{{{{- partialCached "{}" . "k" -}}}}',
                             '{{{{ partial "{}.html" $ }}}}']),
       name=st.sampled_from(["open", "docs/box"]))
@settings(max_examples=40, deadline=None)
def test_issue24_inner_after_a_partial_that_leaves_an_element_open_is_not_shown(partial: str, call: str,
                                                                               name: str) -> None:
    """Class: a shortcode that calls a partial and then prints ``.Inner`` shows it only
    when the partial closes every element it opens (a ``<p>``/``<li>`` a parser closes by
    itself counts as closed) and prints no markup it was given; ``<div hidden>``,
    ``<details>``, ``<template>`` left open (on any path), a raw argument, another partial
    (not followed) or an unknown partial hide what follows. The same template with the
    call after ``.Inner`` shows it."""
    before = call.format(name) + "{{ .Inner }}"
    partials = {name: (partial,)}
    assert outputs_inner(before, partials=partials) is (partial in _CLOSED), (partial, before)
    assert outputs_inner("{{ .Inner }}" + call.format(name), partials=partials)
    assert not outputs_inner(call.format("missing") + "{{ .Inner }}", partials=partials)


@pytest.mark.parametrize(("config", "shown"), [
    ("title = 'x'\n", True),                                                     # Goldmark's default: safe
    ("[markup.goldmark.renderer]\n  unsafe = false\n", True),
    ("[markup.goldmark.renderer]\n  unsafe = true\n", False),
    ("[languages.de.markup.goldmark.renderer]\n  unsafe = true\n", False),
    ("[markup.goldmark.renderer\n", False),                                      # unreadable: fail closed
])
@pytest.mark.parametrize("render", ['{{ .Get "title" | markdownify }}', '{{ .Page.RenderString (.Get "title") }}',
                                    '{{ markdownify (.Get 0) }}'])
def test_issue24_markdown_of_an_argument_is_raw_html_only_under_goldmark_unsafe(
    tmp_path: Path, config: str, shown: bool, render: str,
) -> None:
    """Issue 24: ``markdownify`` / ``.RenderString`` of an argument writes its raw HTML
    (``<div hidden>`` left open) only when ``markup.goldmark.renderer.unsafe`` is on;
    otherwise Hugo omits it and a later ``.Inner`` is shown."""
    body = f"{LEAD}\n\n{{{{< note title=\"x\" >}}}}{SECRET}{{{{< /note >}}}}\n\n{TAIL}\n"
    doc = _hugo(tmp_path, body, {"hugo.toml": config,
                                 "layouts/shortcodes/note.html": f"<aside>{render}{{{{ .Inner }}}}</aside>\n"})
    assert ("Quokkasecret" in _texts(doc.public_passages)) is shown and "sign in" in _texts(doc.public_passages)
    assert outputs_inner(f"{render}{{{{ .Inner }}}}", unsafe=False)
    assert not outputs_inner(f"{render}{{{{ .Inner }}}}", unsafe=True)


@pytest.mark.parametrize("name", ["INDEX.md", "Index.md", "index.MD", "INDEX.de.md"])
def test_issue24_hugo_bundle_index_name_is_read_without_letter_case(tmp_path: Path, name: str) -> None:
    """Hugo lower-cases content paths before it tells a bundle (``paths.Parse``):
    ``INDEX.md`` is a leaf bundle's index as ``index.md`` is, its siblings resources."""
    from provider.wiki.hugo_site import hugo_leaf_bundle, is_bundle_index

    (tmp_path / "content" / "trip").mkdir(parents=True)
    (tmp_path / "content" / "trip" / name).write_text("---\ntitle: Trip\n---\nTrip.\n", "utf-8")
    (tmp_path / "content" / "trip" / "notes.md").write_text("---\ntitle: Notes\n---\nNotes.\n", "utf-8")
    assert is_bundle_index(name)
    assert hugo_leaf_bundle(tmp_path / "content", "trip/notes.md") == "trip"
    assert hugo_leaf_bundle(tmp_path / "content", f"trip/{name}") is None
