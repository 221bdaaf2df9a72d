"""Authoring variants that mean "internal" (issue 11), as hypothesis strategies.

Each strategy builds a small wiki — ``{relpath: text}`` — in which an author clearly
meant the word :data:`CANARY` to stay internal, written in one of the many ways docs
tools accept or a person might type: header forms × key spellings and cases × Unicode
variants of keys, values and markers × layouts × rules × cascades × copies. Whatever
the variant, the canary must never reach ``customer_safe`` (CONTRACT X2, X5).
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

CANARY = "zqxcanary"

LAYOUTS = ("plain", "hugo", "docusaurus", "jekyll", "mkdocs", "docfx")

#: Invisible or look-alike ways to spell a letter sequence.
_INVISIBLE = ("\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u034f", "\u180e")
_LOOKALIKE = {"a": "\u0430", "e": "\u0435", "i": "\u0456", "o": "\u043e", "c": "\u0441", "p": "\u0440",
              "l": "\u04cf", "n": "\u0578", "u": "\u057d"}


@st.composite
def spelling(draw: st.DrawFn, word: str, *, exact_allowed: bool = True) -> str:
    """``word`` as written: exact, other case, full-width, with an invisible character
    inside, with a look-alike letter, with a combining mark, with spaces around."""
    kinds = ["upper", "title", "fullwidth", "invisible", "lookalike", "combining", "spaced"]
    if exact_allowed:
        kinds.append("exact")
    kind = draw(st.sampled_from(kinds))
    if kind == "exact":
        return word
    if kind == "upper":
        return word.upper()
    if kind == "title":
        return word.title()
    if kind == "fullwidth":
        return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in word)
    at = draw(st.integers(1, len(word) - 1))
    if kind == "invisible":
        return word[:at] + draw(st.sampled_from(_INVISIBLE)) + word[at:]
    if kind == "lookalike":
        swappable = [i for i, ch in enumerate(word) if ch in _LOOKALIKE]
        i = draw(st.sampled_from(swappable))
        return word[:i] + _LOOKALIKE[word[i]] + word[i + 1 :]
    if kind == "combining":
        return word[:at] + "\u0307" + word[at:]
    return f" {word} "


def _yaml_value(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


@st.composite
def internal_header(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, text)``: a file whose header says it is not public, in some form,
    followed by a body holding the canary. An operator rule says ``**: public``."""
    layout = draw(st.sampled_from(LAYOUTS))
    key = draw(spelling("audience"))
    value: object = draw(st.one_of(
        spelling("internal"), st.sampled_from(["private", "agents", "", "no", "Public", "publ\u0456c"]),
        st.just(["internal"]), st.just({"value": "internal"}), st.just(None), st.just(False),
    ))
    where = draw(st.sampled_from(["top", "params", "nested"]))
    pairs: dict[str, object] = {key: value}
    if where == "params":
        pairs = {draw(st.sampled_from(["params", "Params"])): pairs}
    elif where == "nested":
        pairs = {"meta": pairs}
    body = f"Some public-looking words and the {CANARY} the author meant to hide.\n"
    form = draw(st.sampled_from([
        "yaml", "yaml-lang", "toml", "json", "json-one-line", "json-text-after", "json-lang",
        "blank-first", "invisible-first", "comment-first", "indented", "four-dashes", "jekyll-end",
        "second-header", "audience-line",
    ]))
    yaml_lines = "\n".join(f"{_yaml_value(k)}: {_yaml_value(v)}" for k, v in pairs.items())
    if form == "yaml":
        text = f"---\ntitle: T\n{yaml_lines}\n---\n{body}"
    elif form == "yaml-lang":
        text = f"---yaml\n{yaml_lines}\n---\n{body}"
    elif form == "toml":
        toml = "\n".join(f"{json.dumps(k)} = {json.dumps(v) if isinstance(v, str) else json.dumps(str(v))}"
                         for k, v in pairs.items() if not isinstance(v, dict))
        if not toml:
            toml = f'[meta]\n{json.dumps(key)} = "internal"'
        text = f"+++\n{toml}\n+++\n{body}"
    elif form == "json":
        text = json.dumps(pairs, indent=1, ensure_ascii=False) + "\n" + body
    elif form == "json-one-line":
        text = json.dumps(pairs, ensure_ascii=False) + "\n" + body
    elif form == "json-text-after":
        text = json.dumps(pairs, ensure_ascii=False) + " " + body
    elif form == "json-lang":
        text = "---json\n" + json.dumps(pairs, ensure_ascii=False) + "\n---\n" + body
    elif form == "blank-first":
        text = f"\n---\n{yaml_lines}\n---\n{body}"
    elif form == "invisible-first":
        text = f"{draw(st.sampled_from(_INVISIBLE))}---\n{yaml_lines}\n---\n{body}"
    elif form == "comment-first":
        text = f"<!-- markdownlint-disable -->\n---\n{yaml_lines}\n---\n{body}"
    elif form == "indented":
        text = f" ---\n{yaml_lines}\n ---\n{body}"
    elif form == "four-dashes":
        text = f"----\n{yaml_lines}\n----\n{body}"
    elif form == "jekyll-end":
        text = f"---\n{yaml_lines}\n...\n{body}"
    elif form == "second-header":
        text = f"---\ntitle: T\n---\n---\n{yaml_lines}\n---\n{body}"
    else:
        text = f"# Title\n\n{key}: {value if isinstance(value, str) else 'internal'}\n\n{body}"
    return layout, text


#: Ways to open and close a block meant for agents only.
_OPENERS = [
    ("<!-- {w} -->", "<!-- /{w} -->"),
    ("<!--{w}-->", "<!--/{w}-->"),
    ("<!-- BEGIN {W} -->", "<!-- END {W} -->"),
    ("<!--- {w} --->", "<!--- /{w} --->"),
    ("<!-- {w}-only -->", "<!-- /{w}-only -->"),
    ("{{/* {w} */}}", "{{/* /{w} */}}"),
    ("{/* {w} */}", "{/* /{w} */}"),
    ("{{< {w} >}}", "{{< /{w} >}}"),
    ("{{% {w} %}}", "{{% /{w} %}}"),
    ("{% {w} %}", "{% end{w} %}"),
    ("::: {w}", ":::"),
    (":::note {W}", ":::"),
    (":::{.{w}}", ":::"),
    ("!!! {w}", ""),
    ("> [!{W}]\n>", ""),
    ("<{W}>", "</{W}>"),
    ('<div class="{w}">', "</div>"),
    ("{::comment} {w}", "{:/comment}"),
    ("{% comment %} {w}", "{% endcomment %}"),
    ("{# {w} #}", ""),
]


@st.composite
def internal_section(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, text)``: a page whose header says ``audience: public`` and whose body
    holds the canary in a block meant for agents only, marked in some syntax and
    spelling. Exact markers hide the block; anything else must make the page internal."""
    layout = draw(st.sampled_from(LAYOUTS))
    opener, closer = draw(st.sampled_from(_OPENERS))
    word = draw(st.sampled_from(["internal", "internal", "internal", "confidential", "agent-only", "private"]))
    written = draw(spelling(word))
    inline = draw(st.booleans())
    upper = written.upper() if written.isascii() else written
    open_marker = opener.replace("{w}", written).replace("{W}", upper)
    close_marker = closer.replace("{w}", written).replace("{W}", upper)
    indent = "    " if opener.startswith("!!!") else ""
    hidden = f"{indent}Agents may use the override {CANARY} here."
    if inline and not opener.startswith((":::", "!!!", ">")):
        block = f"Public words {open_marker} {hidden.strip()} {close_marker} more public words."
    else:
        block = f"Public words.\n\n{open_marker}\n{hidden}\n{close_marker}\n\nMore public words."
    return layout, f"---\naudience: public\ntitle: Page\n---\n{block}\n"


_FILLER = ("the billing console lets an operator review every invoice line, change the payment method "
           "and download receipts for the last twelve months, while refunds follow the usual rules")


@st.composite
def copied_text(draw: st.DrawFn) -> dict[str, str]:
    """A wiki: an internal page (or a draft, or a public page's internal section) with
    the canary, and a copy of that text — verbatim or lightly edited — under another
    path that a rule makes public."""
    words = (_FILLER + f" and {CANARY} is the override code agents use " + _FILLER).split()
    source_kind = draw(st.sampled_from(["internal", "draft", "section", "no-key"]))
    edits = draw(st.integers(0, max(1, len(words) // 20)))  # up to 5 % of the words
    copy = list(words)
    for _ in range(edits):
        i = draw(st.integers(0, len(copy) - 1))
        if copy[i] != CANARY:
            copy[i] = draw(st.sampled_from(["a", "the", "an", "some", "invoice", "receipt"]))
    copy_text = " ".join(copy)
    text = " ".join(words)
    if source_kind == "internal":
        source = f"---\naudience: internal\n---\n# Override\n\n{text}\n"
    elif source_kind == "draft":
        source = f"---\naudience: public\ndraft: true\n---\n# Override\n\n{text}\n"
    elif source_kind == "no-key":
        source = f"# Override\n\n{text}\n"
    else:
        source = ("---\naudience: public\n---\n# Billing\n\nPublic intro.\n\n"
                  f"<!-- internal -->\n{text}\n<!-- /internal -->\n")
    where = draw(st.sampled_from(["ops/override.md", "ops/deep/override.md"]))
    copy_path = draw(st.sampled_from(["public/copy.md", "public/de/copy.md", "public/other.md"]))
    copy_header = draw(st.sampled_from(["", "---\naudience: public\n---\n", "---\ntitle: Copy\n---\n"]))
    return {where: source, copy_path: f"{copy_header}# Copy\n\n{copy_text}\n"}


@st.composite
def cascaded_internal(draw: st.DrawFn) -> dict[str, str]:
    """A Hugo site: a section page whose cascade says the section is not public — in
    some header form, key spelling and value — and a page below holding the canary, which
    an operator rule would otherwise make public."""
    key = draw(spelling("audience"))
    value = draw(st.one_of(spelling("internal"), st.sampled_from(["private", "Public", ""])))
    nest = draw(st.sampled_from(["top", "params"]))
    entry: dict[str, object] = {key: value} if nest == "top" else {"params": {key: value}}
    form = draw(st.sampled_from(["yaml", "json", "json-one-line", "toml"]))
    if form == "yaml":
        section = "---\ntitle: Section\ncascade:\n" + "".join(
            f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}\n" for k, v in entry.items()) + "---\nSection.\n"
    elif form == "json":
        section = json.dumps({"title": "Section", "cascade": entry}, indent=2, ensure_ascii=False) + "\nSection.\n"
    elif form == "json-one-line":
        section = json.dumps({"title": "Section", "cascade": entry}, ensure_ascii=False) + "\nSection.\n"
    else:
        inner = entry if nest == "top" else entry["params"]
        table = "[cascade]" if nest == "top" else "[cascade.params]"
        section = ("+++\ntitle = 'Section'\n" + table + "\n"
                   + "".join(f"{json.dumps(k)} = {json.dumps(v)}\n" for k, v in inner.items())  # type: ignore[union-attr]
                   + "+++\nSection.\n")
    page = f"---\ntitle: Page\n---\nThe {CANARY} lives in this section.\n"
    return {"content/docs/_index.md": section, "content/docs/page.md": page}


#: Phrases that say "not for customers" (issue 24), whole or as parts a generator joins.
NOTICE_PHRASES = ("Internal notes", "Internal note", "For support staff only", "Support staff only", "Staff only",
                  "Agents only", "For agents only", "Notes for agents", "Note for agents", "Confidential",
                  "Do not share", "Not for customers", "Internal use only", "For internal use", "Internal only",
                  "Not for publication", "Not for the public", "Employees only", "Do not publish",
                  "Not yet published", "Strictly confidential", "Agent notes", "Don't share")
_NOTICE_TAILS = ("", " – do not share", " - not yet published", " (do not share)", ": not for customers", " only")
_NOTICE_HEADS = ("", "DRAFT - ", "DRAFT: ", "🔒 ")


@st.composite
def notice_phrase(draw: st.DrawFn) -> str:
    """A phrase saying "not for customers": a known phrase with one word respelt (case,
    full-width, invisible characters, look-alike letters, combining marks), and an
    optional lead and tail."""
    phrase = draw(st.sampled_from(NOTICE_PHRASES))
    words = phrase.split(" ")
    at = draw(st.integers(0, len(words) - 1))
    if len(words[at]) > 2 and words[at].isalpha():
        words[at] = draw(spelling(words[at].lower())).strip()
    written = " ".join(words)
    if draw(st.booleans()):
        written = written.upper()
    return draw(st.sampled_from(_NOTICE_HEADS)) + written + draw(st.sampled_from(_NOTICE_TAILS))


@st.composite
def body_notice(draw: st.DrawFn) -> tuple[str, str, str]:
    """``(layout, form, text)``: a page whose front matter says ``audience: public`` and
    whose body keeps :data:`CANARY` from customers in words — a heading, a label, a
    TODO, a note or an ``audience`` key deep in the body — never with a section marker."""
    layout = draw(st.sampled_from(LAYOUTS))
    form = draw(st.sampled_from(["heading", "label", "label-alone", "todo", "note", "audience"]))
    secret = f"Agents may use the override {CANARY} here."
    intro = "# Page\n\nPublic words about refunds.\n\n"
    if form == "heading":
        level = draw(st.integers(2, 5))
        anchor = draw(st.sampled_from(["", " {#notes}", " #"]))
        below = draw(st.sampled_from(["", f"\n{'#' * (level + 1)} Details\n\nMore {CANARY} detail.\n",
                                      "\n```text\n# not a heading\n```\n"]))
        body = (f"{intro}{'#' * level} {draw(notice_phrase())}{anchor}\n\n{secret}\n{below}\n"
                f"{'#' * max(2, level - draw(st.integers(0, 1)))} Public again\n\nMore public words.\n")
    elif form == "label":
        phrase = draw(notice_phrase())
        label = draw(st.sampled_from([f"**{phrase}:**", f"__{phrase}__:", f"**{phrase}**:", f"{phrase.upper()}:",
                                      f"*{phrase}:*"]))
        body = f"{intro}{label} {secret}\nIt goes on.\n\nMore public words.\n"
    elif form == "label-alone":
        phrase = draw(notice_phrase())
        after = draw(st.sampled_from([f"- {secret}\n- a second step\n", f"{secret}\n", f"1. {secret}\n"]))
        body = f"{intro}**{phrase}:**\n\n{after}\nMore public words.\n"
    elif form == "todo":
        tag = draw(st.sampled_from(["TODO", "todo", "FIXME", "XXX"]))
        who = draw(st.sampled_from(["internal", "Internal", "staff", "agents", "support"]))
        where = draw(st.sampled_from(["paragraph", "item"]))
        line = f"{tag}({who}): {secret}"
        body = f"{intro}{line}\n\nMore public words.\n" if where == "paragraph" else \
            f"{intro}- a public step\n- {line}\n- another public step\n\nMore public words.\n"
    elif form == "note":
        first = draw(st.sampled_from(["Note for agents (do not share)", "**Internal only:**", "Staff only",
                                      "Agents only – do not share", "[!NOTE] Internal notes"]))
        body = f"{intro}> {first}\n> {secret}\n\nMore public words.\n"
    else:
        filler = "".join(f"Public line {n} of the article.\n\n" for n in range(draw(st.integers(21, 40))))
        key = draw(spelling("audience"))
        value = draw(st.sampled_from(["internal", "Internal", "INTERNAL", "\"internal\""]))
        body = f"{intro}{filler}{key}: {value}\n\n{secret}\n"
    return layout, form, f"---\naudience: public\ntitle: Page\n---\n{body}"


#: Headings in which "internal" and the like are technical terms (issue 24: OpenTelemetry
#: span kinds, networking, link checkers): they must hide nothing.
TECHNICAL_HEADINGS = ("Internal", "Internal {#internal}", "Internal DNS", "Internal links", "Internal networking",
                      "Internal server error", "Internal span kind", "Private networks", "Private", "Tools for agents",
                      "Agents", "Confidential computing", "Draft mode", "Drafts", "Publishing drafts",
                      "Support", "Team settings", "Sharing a link", "Restricted access policies", "Staffing API",
                      "Internal and external load balancers", "Notes", "Publish your site", "Unpublishing a page")


@st.composite
def technical_heading(draw: st.DrawFn) -> tuple[str, str]:
    """``(layout, text)``: a public page with a heading from :data:`TECHNICAL_HEADINGS`
    (any level, any case) over plain public text."""
    layout = draw(st.sampled_from(LAYOUTS))
    heading = draw(st.sampled_from(TECHNICAL_HEADINGS))
    if draw(st.booleans()):
        heading = heading.lower() if draw(st.booleans()) else heading.title()
    level = draw(st.integers(2, 4))
    label = draw(st.sampled_from(["", "**Internal**: the span is internal.\n\n",
                                  "Note: internal DNS resolves it.\n\n"]))
    return layout, (f"---\naudience: public\ntitle: Spans\n---\n# Spans\n\n{'#' * level} {heading}\n\n"
                    f"{label}Every {CANARY} word here is public.\n")


@st.composite
def short_or_shuffled_copy(draw: st.DrawFn) -> dict[str, str]:
    """A wiki: an internal page, draft or internal section holding :data:`CANARY` —
    short (under the shingle floor) or long — and a public page with the same words,
    verbatim or with the words of each sentence (or the sentences) in another order."""
    short = draw(st.booleans())
    sentences = ([f"The override is {CANARY} for agents."] if short else
                 [f"Agents use {CANARY} to override a refund.", "The billing console shows every invoice line.",
                  "Receipts for the last twelve months can be downloaded there.",
                  "Refunds otherwise follow the usual rules and limits."])
    order = draw(st.sampled_from(["verbatim", "words", "sentences", "both"]))
    copied = list(sentences)
    if order in ("sentences", "both"):
        copied = draw(st.permutations(copied))
    if order in ("words", "both"):
        copied = [" ".join(draw(st.permutations(s.rstrip(".").split(" ")))) + "." for s in copied]
    text, copy_text = " ".join(sentences), " ".join(copied)
    kind = draw(st.sampled_from(["internal", "draft", "section"]))
    if kind == "internal":
        source = f"---\naudience: internal\n---\n# Override\n\n{text}\n"
    elif kind == "draft":
        source = f"---\naudience: public\ndraft: true\n---\n# Override\n\n{text}\n"
    else:
        source = ("---\naudience: public\n---\n# Billing\n\nPublic intro.\n\n"
                  f"<!-- internal -->\n{text}\n<!-- /internal -->\n")
    copy_path = draw(st.sampled_from(["public/copy.md", "public/deep/other.md"]))
    return {"ops/override.md": source, copy_path: f"---\ntitle: Copy\n---\n# Copy\n\n{copy_text}\n"}
