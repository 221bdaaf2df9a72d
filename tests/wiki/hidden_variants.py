"""Generators of text the site hides (S1, X2) and of harmless look-alikes (X5).

:func:`hidden_page` draws a page holding :data:`tests.wiki.variants.CANARY` in text no
reader of the site sees: a hiding mechanism (inline CSS, an attribute, what the element
is, a class, a rule of the page's ``<style>``, a Markdown attribute list, MDX) × an
encoding of it (HTML character references, CSS escapes and comments, case, spacing,
``!important``) × an element × where the secret sits (inline, its own block, a list
item, a blockquote, a table cell). :func:`lookalike_page` draws pages that look like
them and hide nothing: the same markup shown as code, prose about CSS,
``<details>``/``<summary>``, print-only rules, responsive classes, ``aria-hidden``.
"""

from __future__ import annotations

from hypothesis import strategies as st

from tests.wiki.variants import CANARY, LAYOUTS

#: Declarations that hide an element's text, as an author writes them.
HIDING_DECLARATIONS = (
    "display:none", "visibility:hidden", "visibility: collapse", "opacity:0", "opacity: 0.0", "font-size:0",
    "font-size: 0.5px", "color:transparent", "color:#fff", "color: rgb(255,255,255)", "color: hsl(0, 0%, 100%)",
    "text-indent:-9999px", "transform:scale(0)", "clip-path: inset(100%)", "clip-path: circle(0)",
    "height:0;overflow:hidden", "width: 1px; height: 1px; overflow: hidden", "clip: rect(0 0 0 0); position:absolute",
    "position:absolute; left:-10000px", "margin-left: -200em", "transform: translateX(-9999px)",
    "color: #123456; background: #123456", "content-visibility: hidden", "filter: opacity(0)",
    # Issue 24, second round (their classes: tests/wiki/hidden_css_variants.py).
    "position:absolute; right:-9999px", "position:absolute; inset: auto -9999px auto auto", "zoom:0", "font:0/0 a",
    "transform:rotateX(90deg)", "transform: matrix(0,0,0,0,0,0)", "clip-path: polygon(0 0,0 0,0 0)",
    "-webkit-mask: linear-gradient(transparent, transparent)", "filter: blur(20px)",
    "-webkit-text-fill-color:transparent", "color: rgb(0 0 0 / 0)", "color:#0000", "display:none; display: blahblah",
    "left: calc(-100vw - 20px); position: absolute", "left: var(--x, -9999px); position: absolute",
)
#: JSX style objects (MDX) that hide.
JSX_STYLES = ('{{display: "none"}}', "{{ visibility: 'hidden' }}", "{{fontSize: 0}}", "{{opacity: 0}}",
              "{{position: 'absolute', left: -9999}}", '{{ color: "transparent" }}', '{{"display": "none"}}')
#: Framework classes that hide on every screen.
HIDING_CLASS_NAMES = ("sr-only", "visually-hidden", "d-none", "hidden", "invisible", "screen-reader-text",
                      "show-for-sr", "visually-hidden-focusable", "is-hidden", "govuk-visually-hidden")
ELEMENTS = ("span", "div", "p", "section", "small", "strong", "em", "aside", "mark")
#: Hex digits of a letter, as a CSS escape writes it (``\70 `` for ``p``).
_CSS_ESCAPE = {"p": "\\70 ", "n": "\\6e ", "d": "\\64 ", "s": "\\73 ", "o": "\\6f "}


def _html_reference(draw: st.DrawFn, char: str) -> str:
    """One character as a character reference a browser decodes."""
    named = {":": "&colon;", ";": "&semi;", "(": "&lpar;", ")": "&rpar;", ".": "&period;"}
    forms = [f"&#{ord(char)};", f"&#x{ord(char):x};", f"&#X{ord(char):X};", f"&#0{ord(char)};"]
    if char in named:
        forms.append(named[char])
    return draw(st.sampled_from(forms))


@st.composite
def encoded_css(draw: st.DrawFn, css: str, *, references: bool = True) -> str:
    """``css`` as written by someone hiding it from patterns: character references
    (decoded by the HTML parser in an attribute; ``references`` false for a ``<style>``
    element, whose text a browser does not decode), CSS escapes and comments, case,
    spacing."""
    forms = ["plain", "escape", "comment", "case", "spacing", "important"]
    form = draw(st.sampled_from([*forms, "reference"] if references else forms))
    if form == "reference":
        chars = [i for i, c in enumerate(css) if c in ":;()." or c.isalpha()]
        at = draw(st.sampled_from(chars))
        return css[:at] + _html_reference(draw, css[at]) + css[at + 1:]
    if form == "escape":
        chars = [i for i, c in enumerate(css) if c in _CSS_ESCAPE]
        if chars:
            at = draw(st.sampled_from(chars))
            return css[:at] + _CSS_ESCAPE[css[at]] + css[at + 1:]
    if form == "comment":
        return css.replace(":", draw(st.sampled_from([":/**/", "/* x */:", ":/* hide */ "])), 1)
    if form == "case":
        return css.upper()
    if form == "spacing":
        return css.replace(":", draw(st.sampled_from([" : ", ":\t", " :\n  "]))).replace(";", " ;  ")
    if form == "important":
        return ";".join(f"{part} !important" for part in css.split(";"))
    return css


@st.composite
def hiding_markup(draw: st.DrawFn) -> tuple[str, str, str]:
    """``(before, after, mechanism)``: markup around the secret that hides it."""
    tag = draw(st.sampled_from(ELEMENTS))
    quote = draw(st.sampled_from(['"', "'"]))
    mechanism = draw(st.sampled_from(["style", "attribute", "semantic", "class", "rule", "attr-list", "mdx", "svg"]))
    if mechanism == "style":
        css = draw(encoded_css(draw(st.sampled_from(HIDING_DECLARATIONS))))
        return f"<{tag} style={quote}{css}{quote}>", f"</{tag}>", mechanism
    if mechanism == "attribute":
        attribute = draw(st.sampled_from(["hidden", "HIDDEN", 'hidden="hidden"', "hidden=until-found", "popover",
                                          'popover="auto" id="tip"']))
        return f"<{tag} {attribute}>", f"</{tag}>", mechanism
    if mechanism == "semantic":
        element = draw(st.sampled_from(["dialog", "template", "noscript", "noembed", "noframes", "video", "audio",
                                        "iframe"]))
        # Within the element's Markdown block its text is left out of the index; a blank
        # line carries it out into the page's text.
        gap = draw(st.sampled_from(["", "\n", "\n\n", "\n  \n"]))
        return f"<{element}>{gap}", f"{gap}</{element}>", mechanism
    if mechanism == "class":
        name = draw(st.sampled_from(HIDING_CLASS_NAMES))
        attribute = draw(st.sampled_from(["class", "className", "CLASS"]))
        return f'<{tag} {attribute}="note {name}">', f"</{tag}>", mechanism
    if mechanism == "rule":
        name = draw(st.sampled_from(["x", "secret-box", "note2"]))
        css = draw(encoded_css(draw(st.sampled_from(HIDING_DECLARATIONS)), references=False))
        selector, attribute = draw(st.sampled_from([
            (f".{name}", f'class="{name}"'), (f"#{name}", f'id="{name}"'), (f"{tag}.{name}", f'class="a {name}"'),
            (f".other, .{name}", f'class="{name}"'), (f'[data-k="{name}"]', f'data-k="{name}"'),
            (f"[data-k^={name[:2]}]", f'data-k="{name}"'), (f"div > .{name}:first-child", f'class="{name}"'),
        ]))
        media = draw(st.sampled_from(["{}", "@media screen {{{}}}", "@media (min-width: 1px) {{{}}}",
                                      "@supports (display: grid) {{{}}}"]))
        sheet = "<style>\n" + media.format(f"{selector} {{ {css} }}") + "\n</style>\n\nPublic words.\n\n"
        return sheet + f"<{tag} {attribute}>", f"</{tag}>", mechanism
    if mechanism == "attr-list":
        attributes = draw(st.sampled_from(['style="display:none"', ".hidden", ".sr-only", "style='visibility:hidden'",
                                           '.note style="font-size:0"', ".visually-hidden #x"]))
        form = draw(st.sampled_from(["kramdown", "pandoc-div", "pandoc-span"]))
        if form == "kramdown":
            return "", f"\n{{: {attributes}}}", mechanism
        if form == "pandoc-div":
            return f"::: {{{attributes}}}\n", "\n:::", mechanism
        return "[", f"]{{{attributes}}}", mechanism
    if mechanism == "mdx":
        if draw(st.booleans()):
            return f"<{tag} style={draw(st.sampled_from(JSX_STYLES))}>", f"</{tag}>", mechanism
        return f'<{tag} className="{draw(st.sampled_from(HIDING_CLASS_NAMES))}">', f"</{tag}>", mechanism
    attribute = draw(st.sampled_from(['display="none"', 'visibility="hidden"', 'opacity="0"', 'font-size="0"']))
    return f'<svg><text x="0" y="10" {attribute}>', "</text></svg>", mechanism


@st.composite
def hidden_page(draw: st.DrawFn) -> tuple[str, str, str]:
    """``(layout, text, mechanism)``: a public page whose :data:`CANARY` sits in text the
    site hides."""
    layout = draw(st.sampled_from(LAYOUTS))
    before, after, mechanism = draw(hiding_markup())
    secret = f"The {CANARY} override."
    hidden = f"{before}{secret}{after}"
    where = draw(st.sampled_from(["inline", "block", "list", "quote", "table"]))
    if mechanism in ("rule", "semantic") or before.startswith(":::") or after.startswith("\n{:"):
        where = "block"  # block-level syntax
    if where == "inline":
        body = f"Public words before {hidden} and after.\n"
    elif where == "list":
        body = f"- Public item.\n- {hidden}\n- Another item.\n"
    elif where == "quote":
        body = f"> Public quote.\n>\n> {hidden}\n"
    elif where == "table":
        body = f"| Name | Value |\n|---|---|\n| public | {hidden} |\n"
    else:
        body = f"Public words.\n\n{hidden}\n\nMore public words.\n"
    return layout, f"---\naudience: public\ntitle: Page\n---\n# Page\n\n{body}", mechanism


@st.composite
def lookalike_page(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, text)``: a public page holding :data:`CANARY` in text every reader sees,
    near markup that looks like hiding but hides nothing."""
    layout = draw(st.sampled_from(LAYOUTS))
    before, after, _mechanism = draw(hiding_markup())
    example = f"{before}example{after}".replace("\n", " ")
    kind = draw(st.sampled_from(["fence", "code-span", "indented", "prose", "details", "comment", "print",
                                 "responsive", "aria", "open", "embed"]))
    shown = f"The {CANARY} words every reader sees."
    if kind == "fence":
        fence = draw(st.sampled_from(["```", "~~~", "````"]))
        body = f"{shown}\n\n{fence}html\n{before}example{after}\n{fence}\n"
    elif kind == "code-span":
        body = f"{shown} Write ``{example.strip()}`` to hide a note.\n"
    elif kind == "indented" and layout != "docusaurus":  # MDX has no indented code blocks
        body = f"{shown}\n\n    {example.strip()}\n"
    elif kind == "indented":
        body = f"{shown}\n\n```\n{example.strip()}\n```\n"
    elif kind == "prose":
        css = draw(st.sampled_from(HIDING_DECLARATIONS))
        body = f"{shown} Setting {css} in a stylesheet hides an element; the hidden attribute does too.\n"
    elif kind == "details":
        label = draw(st.sampled_from(["Private networks", "More", "Show the hidden files", "Details", "Private keys",
                                      "Visually hidden labels"]))
        body = f"<details>\n<summary>{label}</summary>\n\n{shown}\n\n</details>\n"
    elif kind == "comment":
        comment = draw(st.sampled_from(["<!-- hide toc -->", "<!-- hide: navigation -->", "<!-- HIDE SIDEBAR -->",
                                        "<!-- hide footer -->"]))
        body = f"{comment}\n\n{shown}\n"
    elif kind == "print":
        body = (f"<style>\n@media print {{ .screen-only {{ display: none }} }}\n</style>\n\n"
                f'<div class="screen-only">{shown}</div>\n')
    elif kind == "responsive":
        classes = draw(st.sampled_from(["hidden md:inline", "d-none d-md-block", "invisible sm:visible",
                                        "lg:block hidden", "print:hidden", "hidden-xs", "d-print-none"]))
        body = f'<span class="{classes}">{shown}</span>\n'
    elif kind == "aria":
        body = f'<span aria-hidden="true">{shown}</span>\n'
    elif kind == "open":
        body = draw(st.sampled_from([f"<dialog open>{shown}</dialog>\n", f"<p hidden={{false}}>{shown}</p>\n",
                                     f'<button popovertarget="tip">Tip</button><div popover id="tip">{shown}</div>\n']))
    else:
        body = (f"{shown}\n\n<div style=\"position:relative;padding-bottom:56.25%;height:0;overflow:hidden\">"
                f"<iframe src=\"https://example.com/v\"></iframe></div>\n\n<video controls>\n  <source src=a.mp4>\n"
                f"  Your browser does not support the video tag.\n</video>\n")
    return layout, f"---\naudience: public\ntitle: Page\n---\n# Page\n\n{body}"
