"""Residue scan: is the text a reader gets the text the site shows? Prints figures,
asserts nothing.

    python bench/residue.py bench/corpora/kaia-docs.yaml            # one corpus
    python bench/residue.py bench/corpora/*.yaml --sample 10        # all, 10 findings each
    python bench/residue.py bench/corpora/*.yaml --snippets 100     # also 100 queries' top-3 snippets
    python bench/residue.py bench/corpora/*.yaml --corpora /path/to/shared/corpora
    python bench/residue.py bench/corpora/*.yaml --passages      # every passage, by the kit's R3 rule

``--corpora`` says where the shared corpora are when the configurations' relative
``content`` does not reach them (a worktree elsewhere than beside ``shared/``).

For every file the layout reads (as ``check`` finds them), the body goes through the
same pipeline as indexing (dialects, then markdown → blocks) and is checked two ways:

* **prose residue** — a heading or text block that, once its verbatim pieces (inline
  code, escaped characters, Learn placeholders: kept as written on purpose) are left
  out, still contains markup by the conformance kit's R3 detector
  (:func:`helpthread_kit.plaintext.markup_in`);
* **code changed** — a fenced or indented code block of the source (parsed on its own
  by a plain CommonMark parser; for MDX layouts, whose JSX holds Markdown and which have
  no indented code, the fences found line by line) whose text, whitespace collapsed, is
  not exactly the text of a code block we produce. Code with templates the layout's tool runs (Hugo
  shortcodes, Jekyll Liquid) is counted apart, as "rendered by the tool"; diagram
  sources (``mermaid``) are dropped on purpose and counted apart.

Figures: files, blocks, prose blocks with residue (by kind of markup), code blocks
unchanged / changed / rendered by the tool / diagrams, and a sample of findings.

With ``--passages``, every page is read as indexing reads it (``load_document``) and its
title and every passage are judged by the kit's definition of plain text
(:func:`helpthread_kit.plaintext.markup_in`) twice: with the pieces the page shows
literally (its code and escaped characters) set aside — the provider's own judgement —
and as a black-box checker sees them, with nothing set aside; those it flags are also
judged as the provider shows them (:func:`helpthread_kit.plaintext.as_plain_text`, code
with look-alike characters). Figures: pages, passages, passages with markup each way (by
kind), passages shown with look-alikes and the characters swapped, and a sample.

With ``--snippets N``, the corpus is also indexed (a temporary index) and N queries are
asked with ``agent_only`` reach (everything servable): each query is three to five
consecutive words (for CJK text, six characters) of a random passage of a random
document (seeded). Each of the top three snippets is checked for markup — the R3
detector and the docs tools' own syntax (:data:`provider.wiki.residue.DIALECT_RESIDUE`) —
after the document's code and verbatim pieces are cut out of it (code is shown as
written on purpose). The figure is the share of snippets carrying markup; the goal is
at most 1 % on every corpus.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from msgspec.structs import replace  # noqa: E402

from helpthread_kit.backend import SearchQuery  # noqa: E402
from helpthread_kit.plaintext import as_plain_text, markup_in, without_literal  # noqa: E402
from helpthread_kit.registrations import Exposure  # noqa: E402
from provider.config import ProviderConfig, load_config  # noqa: E402
from provider.indexing import Indexer  # noqa: E402
from provider.search.backend import WhooshBackend  # noqa: E402
from provider.search.layout import IndexLayout  # noqa: E402
from provider.wiki.dialects import apply_dialects  # noqa: E402
from provider.wiki.document import (  # noqa: E402
    WikiDocument,
    WikiSettings,
    load_document,
)
from provider.wiki.files import discover  # noqa: E402
from provider.wiki.frontmatter import parse_front_matter  # noqa: E402
from provider.wiki.plaintext import DIAGRAM_LANGUAGES, closes_fence, fence_opener, markdown_to_text  # noqa: E402
from provider.wiki.residue import dialect_residue  # noqa: E402

_SPACES = re.compile(r"\s+")
_TEMPLATE = re.compile(r"\{\{|\{%")
_commonmark = MarkdownIt("commonmark")


def _squash(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _mdx_fences(body: str) -> list[tuple[str, str]]:
    """``(info, content)`` of every fence, as MDX reads them: anywhere, at any indentation."""
    found: list[tuple[str, str]] = []
    fence: str | None = None
    info, lines = "", []
    for line in body.split("\n"):
        if fence is None:
            fence = fence_opener(line)
            if fence is not None:
                info, lines = line.strip().lstrip("`~").strip(), []
            continue
        if closes_fence(line, fence):
            found.append((info, "\n".join(lines)))
            fence = None
        else:
            lines.append(line)
    return found


def _source_code(body: str, mdx: bool) -> list[tuple[str, str]]:
    if mdx:
        return _mdx_fences(body)
    return [(t.info, t.content) for t in _commonmark.parse(body) if t.type in ("fence", "code_block")]


def scan(settings: WikiSettings) -> tuple[Counter[str], list[str]]:
    """``(figures, findings)`` for one wiki."""
    layout = settings.preset
    found = discover(settings.root, extensions=settings.file_extensions, max_file_bytes=settings.max_file_bytes,
                     ignore=settings.ignore_rules)
    figures: Counter[str] = Counter()
    findings: list[str] = []
    for relpath in sorted(found.files):
        try:
            text = (settings.root / relpath).read_bytes().decode("utf-8", errors="replace")
        except OSError:
            continue
        body = parse_front_matter(text).body
        figures["files"] += 1
        blocks = markdown_to_text(apply_dialects(body, layout.dialects), layout.text).blocks
        code_out = Counter(block.text for block in blocks if block.kind == "code")
        for block in blocks:
            figures["blocks"] += 1
            if block.kind == "code":
                continue
            figures["prose blocks"] += 1
            prose = without_literal(block.text, block.verbatim)
            kinds = markup_in(prose) + dialect_residue(prose)
            if kinds:
                figures["prose blocks with residue"] += 1
                for kind in kinds:
                    figures[f"  residue: {kind}"] += 1
                findings.append(f"PROSE {relpath}: {kinds} {block.text[:160]!r}")
        # The source's own code blocks, parsed apart from our pipeline.
        for info, content in _source_code(body, "docusaurus" in layout.dialects):
            figures["code blocks in source"] += 1
            language = info.split(None, 1)[0].lower() if info.strip() else ""
            expected = _squash(content)
            if language in DIAGRAM_LANGUAGES:
                figures["  diagram sources dropped"] += 1
            elif not expected:
                figures["  empty"] += 1
            elif code_out[expected] > 0:
                code_out[expected] -= 1
                figures["  code unchanged"] += 1
            elif layout.text.code_templates != "literal" and _TEMPLATE.search(expected):
                figures["  code rendered by the tool (templates)"] += 1
            else:
                figures["  code changed"] += 1
                findings.append(f"CODE {relpath}: {expected[:160]!r}")
    return figures, findings


_NO_SPACE_SCRIPT = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")


def _query_from(passage: str, rng: random.Random) -> str | None:
    if _NO_SPACE_SCRIPT.search(passage):
        runs = [run for run in re.findall(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]{6,}", passage)]
        if not runs:
            return None
        run = rng.choice(runs)
        at = rng.randrange(0, len(run) - 5)
        return run[at : at + 6]
    words = [w for w in re.findall(r"\w[\w'-]*", passage) if len(w) > 2]
    if len(words) < 3:
        return None
    size = rng.randint(3, min(5, len(words)))
    at = rng.randrange(0, len(words) - size + 1)
    return " ".join(words[at : at + size])


def _verbatim(settings: WikiSettings, relpath: str, document: WikiDocument) -> tuple[str, ...]:
    """A document's code texts and verbatim pieces (shown as written on purpose), also
    as its passages hold them (a long code block is cut into pieces)."""
    text = (settings.root / relpath).read_bytes().decode("utf-8", errors="replace")
    blocks = markdown_to_text(apply_dialects(parse_front_matter(text).body, settings.preset.dialects),
                              settings.preset.text).blocks
    pieces = [b.text for b in blocks if b.kind == "code"]
    pieces += [_squash(v) for b in blocks for v in b.verbatim]
    pieces += [piece for passage in document.passages for piece in passage.code]
    return tuple(sorted({p for p in pieces if p.strip()}, key=len, reverse=True))


def passage_scan(settings: WikiSettings) -> tuple[Counter[str], list[str]]:
    """``(figures, findings)`` of every title and passage of one wiki, judged with and
    without the pieces its pages show literally (module docstring)."""
    found = discover(settings.root, extensions=settings.file_extensions, max_file_bytes=settings.max_file_bytes,
                     ignore=settings.ignore_rules)
    figures: Counter[str] = Counter()
    findings: list[str] = []
    for relpath in sorted(found.files):
        document = load_document(settings, relpath)
        if not isinstance(document, WikiDocument):
            continue
        figures["pages"] += 1
        literal = _verbatim(settings, relpath, document)
        texts = [("title", document.meta.title)] + [("passage", p.text) for p in document.passages]
        for kind, text in texts:
            figures[f"{kind}s"] += 1
            own, blind = markup_in(text, literal), markup_in(text)
            if own:
                figures[f"{kind}s with markup (literal pieces set aside)"] += 1
                findings.append(f"MARKUP {relpath}: {own} {text[:160]!r}")
            for markup in blind:
                figures[f"  as a black-box checker sees them: {markup}"] += 1
            if blind:
                figures[f"{kind}s a black-box checker flags"] += 1
                shown = as_plain_text(text)
                if markup_in(shown):
                    figures[f"{kind}s a black-box checker flags as shown (as_plain_text)"] += 1
                figures[f"{kind}s shown with look-alikes"] += 1
                figures[f"  characters written as look-alikes in {kind}s"] += sum(
                    a != b for a, b in zip(text, shown, strict=True))
    return figures, findings


def snippet_residue(config: ProviderConfig, queries: int, seed: int) -> tuple[Counter[str], list[str]]:
    """``(figures, findings)`` of the top-3 snippets of ``queries`` sampled queries."""
    settings = config.wiki_settings()
    found = discover(settings.root, extensions=settings.file_extensions, max_file_bytes=settings.max_file_bytes,
                     ignore=settings.ignore_rules)
    documents: dict[str, tuple[str, WikiDocument]] = {}
    for relpath in sorted(found.files):
        document = load_document(settings, relpath)
        if isinstance(document, WikiDocument) and document.passages and not document.meta.draft:
            documents[document.meta.doc_id] = (relpath, document)
    rng = random.Random(seed)
    figures: Counter[str] = Counter()
    findings: list[str] = []
    verbatim: dict[str, tuple[str, ...]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        with Indexer(settings, IndexLayout(Path(tmp))) as indexer:
            indexer.sync()
        backend = WhooshBackend(Path(tmp), cache_entries=0, fallback_locales=config.fallback_chain)
        ids = sorted(documents)
        asked = 0
        while asked < queries and ids:
            _, document = documents[rng.choice(ids)]
            text = _query_from(rng.choice(document.passages).text, rng)
            if text is None:
                continue
            asked += 1
            search = SearchQuery(text=text, limit=3, reach=Exposure.AGENT_ONLY, capabilities=frozenset({"retrieve"}))
            for result in backend.search(search)[:3]:
                figures["snippets"] += 1
                relpath, owner = documents.get(result.document_id, ("", document))
                if relpath and relpath not in verbatim:
                    verbatim[relpath] = _verbatim(settings, relpath, owner)
                prose = without_literal(result.snippet, verbatim.get(relpath, ()))
                kinds = markup_in(prose) + dialect_residue(prose)
                if kinds:
                    figures["snippets with markup"] += 1
                    findings.append(f"SNIPPET {relpath} for {text!r}: {kinds} {result.snippet[:200]!r}")
                if markup_in(result.snippet) or markup_in(result.title):
                    figures["snippets or titles a black-box checker flags"] += 1
                    findings.append(f"BLACK-BOX {relpath} for {text!r}: {result.title!r} {result.snippet[:200]!r}")
        figures["queries"] = asked
    return figures, findings


def _config(path: Path, corpora: Path | None) -> ProviderConfig:
    config = load_config(path)
    if corpora is not None and not config.content.is_dir() and "corpora" in config.content.parts:
        parts = config.content.parts
        config = replace(config, content=corpora.joinpath(*parts[len(parts) - parts[::-1].index("corpora"):]))
    return config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("configs", nargs="+", type=Path, help="knowledge-provider.yaml files")
    parser.add_argument("--sample", type=int, default=5, help="findings shown per corpus (default 5)")
    parser.add_argument("--seed", type=int, default=20260901)
    parser.add_argument("--snippets", type=int, default=0, metavar="N",
                        help="also ask N sampled queries and check their top-3 snippets")
    parser.add_argument("--corpora", type=Path, help="where the shared corpora are (see above)")
    parser.add_argument("--passages", action="store_true",
                        help="judge every title and passage by the kit's definition of plain text instead")
    args = parser.parse_args()
    for path in args.configs:
        config = _config(path, args.corpora)
        settings = config.wiki_settings()
        if args.passages:
            figures, findings = passage_scan(settings)
            print(f"== {path} (layout {settings.layout}, {settings.root})")
            for key in sorted(figures, key=lambda k: (k.startswith("  "), k)):
                print(f"{key:70} {figures[key]:>8}")
            for line in findings[: args.sample]:
                print("   ", line)
            continue
        figures, findings = scan(settings)
        print(f"== {path} (layout {settings.layout}, {settings.root})")
        order = ["files", "blocks", "prose blocks", "prose blocks with residue"]
        for key in order + sorted(k for k in figures if k not in order and k.startswith("  residue")):
            print(f"{key:45} {figures[key]:>8}")
        for key in ("code blocks in source", "  code unchanged", "  code changed",
                    "  code rendered by the tool (templates)", "  diagram sources dropped", "  empty"):
            print(f"{key:45} {figures[key]:>8}")
        sample = random.Random(args.seed).sample(findings, min(args.sample, len(findings)))
        for line in sample:
            print("   ", line)
        if args.snippets:
            shown, found = snippet_residue(config, args.snippets, args.seed)
            share = shown["snippets with markup"] / shown["snippets"] if shown["snippets"] else 0.0
            print(f"{'queries':45} {shown['queries']:>8}")
            print(f"{'top-3 snippets':45} {shown['snippets']:>8}")
            print(f"{'top-3 snippets with markup':45} {shown['snippets with markup']:>8}  ({share:.1%})")
            flagged = shown["snippets or titles a black-box checker flags"]
            print(f"{'  a black-box checker flags (title/snippet)':45} {flagged:>8}")
            for line in found[: args.sample]:
                print("   ", line)


if __name__ == "__main__":
    main()
