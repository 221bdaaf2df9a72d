"""The plain layout (no docs tool) reads ``.mdx`` files as MDX, and ``check`` accounts for
them (CONTRACT R3: the text a reader sees; R1: nothing the folder holds goes unseen)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from provider.cli import main
from provider.wiki.document import parse_document
from provider.wiki.layouts import PLAIN
from provider.wiki.model import WikiDocument, WikiSettings
from tests.support import write_config

PAGE = """---
title: Install
---
import Tabs from '@theme/Tabs';

# Install

Run the installer{' '}now. {/* TODO: ask the platform team about the staging host */}

<Tabs>

Pick {props.channel} from the list.

</Tabs>
"""


def _parse(relpath: str, source: str) -> WikiDocument:
    data = source.encode()
    result = parse_document(WikiSettings(root=Path("/x")), relpath, data, size=len(data), mtime_ns=0)
    assert isinstance(result, WikiDocument)
    return result


def test_plain_reads_mdx_with_its_expressions_and_comments_blanked() -> None:
    assert ".mdx" in PLAIN.extensions
    doc = _parse("guide/install.mdx", PAGE)
    text = doc.public_body
    assert "Run the installer now." in text and "from the list." in text
    for residue in ("TODO", "staging host", "{", "import Tabs", "<Tabs>", "props.channel"):
        assert residue not in text


def test_the_same_source_as_md_keeps_braces_as_text() -> None:
    # Only an .mdx file is MDX: in a .md file braces are text the reader sees.
    assert "props.channel" in _parse("guide/install.md", PAGE).public_body


def test_an_internal_section_in_an_mdx_page_is_hidden() -> None:
    doc = _parse("a.mdx", "# A\n\nPublic words.\n\n<!-- internal -->\nStaff-only words.\n<!-- /internal -->\n")
    assert "Staff-only" not in doc.public_body and "Public words." in doc.public_body


def test_check_lists_every_mdx_file_and_withholds_the_md_twin(tmp_path: Path) -> None:
    root = tmp_path / "site"
    (root / "guide").mkdir(parents=True)
    (root / "guide" / "install.mdx").write_text(PAGE, "utf-8")
    (root / "guide" / "faq.mdx").write_text("# FAQ\n\nAsk us.\n", "utf-8")
    (root / "guide" / "faq.md").write_text("# FAQ\n\nAsk us.\n", "utf-8")
    config = write_config(tmp_path / "kp.yaml", {"content": "site", "audience_rules": [{"**": "public"}]})
    result = CliRunner().invoke(main, ["check", "--config", str(config), "--json"],
                                env={"KNOWLEDGE_PROVIDER_CONFIG": ""})
    files = {f["path"]: f for f in json.loads(result.stdout)["files"]}
    assert set(files) == {"guide/install.mdx", "guide/faq.mdx", "guide/faq.md"}
    assert files["guide/install.mdx"]["inPublicIndex"] is True
    assert files["guide/faq.mdx"]["inPublicIndex"] is True
    assert files["guide/faq.md"]["status"] == "withheld"
