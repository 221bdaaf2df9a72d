"""Residue scan: is the text a reader gets the text the site shows? Prints figures,
asserts nothing.

    python bench/residue.py bench/corpora/kaia-docs.yaml            # one corpus
    python bench/residue.py bench/corpora/*.yaml --sample 10        # all, 10 findings each

For every file the layout reads (as ``check`` finds them), the body goes through the
same pipeline as indexing (dialects, then markdown → blocks) and is checked two ways:

* **prose residue** — a heading or text block that, once its verbatim pieces (inline
  code, escaped characters, Learn placeholders: kept as written on purpose) are left
  out, still contains markup by the conformance kit's R3 detector
  (:func:`provider.conformance.plaintext.markup_in`);
* **code changed** — a fenced or indented code block of the source (parsed on its own
  by a plain CommonMark parser; for MDX layouts, whose JSX holds Markdown and which have
  no indented code, the fences found line by line) whose text, whitespace collapsed, is
  not exactly the text of a code block we produce. Code with templates the layout's tool runs (Hugo
  shortcodes, Jekyll Liquid) is counted apart, as "rendered by the tool"; diagram
  sources (``mermaid``) are dropped on purpose and counted apart.

Figures: files, blocks, prose blocks with residue (by kind of markup), code blocks
unchanged / changed / rendered by the tool / diagrams, and a sample of findings.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from pathlib import Path

from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from provider.conformance.plaintext import markup_in  # noqa: E402

from provider.config import load_config  # noqa: E402
from provider.wiki.dialects import apply_dialects  # noqa: E402
from provider.wiki.document import WikiSettings  # noqa: E402
from provider.wiki.files import discover  # noqa: E402
from provider.wiki.frontmatter import parse_front_matter  # noqa: E402
from provider.wiki.plaintext import DIAGRAM_LANGUAGES, closes_fence, fence_opener, markdown_to_text  # noqa: E402

_SPACES = re.compile(r"\s+")
_TEMPLATE = re.compile(r"\{\{|\{%")
_commonmark = MarkdownIt("commonmark")


def _squash(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _without(text: str, pieces: tuple[str, ...]) -> str:
    for piece in sorted(pieces, key=len, reverse=True):
        text = text.replace(_squash(piece), " ")
    return text


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
                     ignore=layout.ignore)
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
            kinds = markup_in(_without(block.text, block.verbatim))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("configs", nargs="+", type=Path, help="knowledge-provider.yaml files")
    parser.add_argument("--sample", type=int, default=5, help="findings shown per corpus (default 5)")
    parser.add_argument("--seed", type=int, default=20260901)
    args = parser.parse_args()
    for path in args.configs:
        settings = load_config(path).wiki_settings()
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


if __name__ == "__main__":
    main()
