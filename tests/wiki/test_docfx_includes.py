"""DocFX ``[!INCLUDE [name](path)]`` (issue 27): the provider does not inline the included
text, and ``check`` says so on each page that includes one (``not-inlined``) instead of only
listing ``includes/`` as skipped, which a trial operator read as "included"."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support import write_files

PAGE = ("---\ntitle: Printers cannot send mail\naudience: ITPro\n---\n# Printers cannot send mail\n\n"
        "Check the connector settings of the multifunction device first.\n\n"
        "[!INCLUDE [Third-party disclaimer](../includes/third-party-disclaimer.md)]\n")


def run_check(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "provider", "check", "--config", str(root / "kp.yaml"), *args],
                          capture_output=True, text=True, timeout=300, check=False, cwd=root)


def test_issue27_a_page_with_an_include_is_warned_that_its_text_is_not_inlined(tmp_path: Path) -> None:
    root = write_files(tmp_path / "repo", {
        "kp.yaml": "content: site\nlayout: docfx\naudience_values: {ITPro: public}\n",
        "site/Exchange/docfx.json": '{"build": {"content": [{"files": ["**/*.md"]}]}}',
        "site/Exchange/mail/printers.md": PAGE,
        "site/Exchange/mail/plain.md": PAGE.replace("[!INCLUDE", "See").replace("Printers", "Scanners"),
        "site/Exchange/includes/third-party-disclaimer.md": "The third-party products are not ours.\n",
    })
    result = run_check(root, "--json")
    assert result.returncode == 0, result.stderr
    files = {f["path"]: f for f in json.loads(result.stdout)["files"]}
    warned = files["Exchange/mail/printers.md"]["warnings"]
    assert any(w.startswith("included text not inlined: [!INCLUDE] of ../includes/third-party-disclaimer.md")
               for w in warned), warned
    assert not any("not inlined" in w for w in files["Exchange/mail/plain.md"]["warnings"])
    strict = run_check(root, "--strict", "--fail-on", "not-inlined")
    assert strict.returncode == 1, strict.stdout
