"""Citation URLs against Docusaurus' own derivation: prints figures, asserts nothing.

    python bench/docusaurus_urls.py --check check.json --node-modules /tmp/dz/node_modules \\
        --site ../shared/corpora/kaia-docs --base-url https://docs.kaia.io \\
        --route-base-path / --trailing-slash true

``check.json`` is ``knowledge-provider check --json --urls`` of a Docusaurus site (from
this tree or another: the baseline's output measures the baseline). ``--node-modules``
is a folder where ``npm install @docusaurus/plugin-content-docs`` was run: for every
served doc of the docs plugin (``docs/`` and ``i18n/<locale>/docusaurus-plugin-content-docs/current/``),
Docusaurus' own code — ``getSlug`` of the plugin, the default front matter parser and
number prefix parser, ``normalizeUrl`` and ``applyTrailingSlash`` — gives the permalink
from the file's bytes, as ``doProcessDocMetadata`` does; the page's citation URL (its
fragment dropped) is compared with it. ``--route-base-path`` and ``--trailing-slash`` are
what the site's ``docusaurus.config.js`` says (the script does not read it: that is
what is measured). Prints the counts of agreeing, differing and URL-less docs, and every
difference.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote, urldefrag

_NODE = r"""
const path = require('path');
const fs = require('fs');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
// The plugin's package exports hide lib/: its files are required by their paths.
const lib = path.join(input.node_modules, '@docusaurus/plugin-content-docs/lib');
const getSlug = require(path.join(lib, 'slug.js')).default;
const {DefaultNumberPrefixParser} = require(path.join(lib, 'numberPrefix.js'));
const {normalizeUrl, DEFAULT_PARSE_FRONT_MATTER} = require(path.join(input.node_modules, '@docusaurus/utils'));
const {applyTrailingSlash} = require(path.join(input.node_modules, '@docusaurus/utils-common'));
(async () => {
  const out = {};
  for (const item of input.items) {
    try {
      const content = fs.readFileSync(path.join(input.site, item.relpath), 'utf8');
      const {frontMatter} = await DEFAULT_PARSE_FRONT_MATTER({filePath: item.relpath, fileContent: content});
      const source = item.source;
      const sourceDirName = path.dirname(source);
      const parse = frontMatter.parse_number_prefixes ?? true;
      const name = path.basename(source, path.extname(source));
      const unprefixed = parse ? DefaultNumberPrefixParser(name).filename : name;
      const baseID = frontMatter.id ?? unprefixed;
      const slug = getSlug({baseID, source, sourceDirName, frontMatterSlug: frontMatter.slug,
                            stripDirNumberPrefixes: parse, numberPrefixParser: DefaultNumberPrefixParser});
      const baseUrl = item.locale_prefix ? `/${item.locale_prefix}/` : '/';
      const versionPath = normalizeUrl([baseUrl, input.route_base_path]);
      const permalink = normalizeUrl([versionPath, slug]);
      out[item.relpath] = applyTrailingSlash(permalink, {trailingSlash: input.trailing_slash, baseUrl});
    } catch (e) {
      out[item.relpath] = 'ERROR ' + String(e.message || e).split('\n')[0];
    }
  }
  process.stdout.write(JSON.stringify(out));
})();
"""

_I18N = "docusaurus-plugin-content-docs/current/"


def _source(relpath: str) -> tuple[str, str] | None:
    """``(path inside the docs content folder, locale folder or "")`` of a docs-plugin file."""
    if relpath.startswith("docs/"):
        return relpath.removeprefix("docs/"), ""
    parts = relpath.split("/", 2)
    if len(parts) == 3 and parts[0] == "i18n" and parts[2].startswith(_I18N):
        return parts[2].removeprefix(_I18N), parts[1]
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", type=Path, required=True, help="check --json --urls output")
    parser.add_argument("--node-modules", type=Path, required=True)
    parser.add_argument("--site", type=Path, required=True, help="the Docusaurus site root")
    parser.add_argument("--base-url", required=True, help="the site's url (https://docs.kaia.io)")
    parser.add_argument("--route-base-path", default="docs")
    parser.add_argument("--trailing-slash", choices=["true", "false", "undefined"], default="undefined")
    args = parser.parse_args()
    report = json.loads(args.check.read_text("utf-8"))
    items, cited = [], {}
    for entry in report["files"]:
        if entry.get("status") != "served":
            continue
        found = _source(entry["path"])
        if found is None:
            continue
        items.append({"relpath": entry["path"], "source": found[0], "locale_prefix": found[1]})
        cited[entry["path"]] = urldefrag(entry["url"])[0] if entry.get("url") else None
    payload = {"site": str(args.site.resolve()), "node_modules": str(args.node_modules.resolve()), "items": items,
               "route_base_path": args.route_base_path,
               "trailing_slash": {"true": True, "false": False}.get(args.trailing_slash)}
    done = subprocess.run(["node", "-e", _NODE], input=json.dumps(payload), capture_output=True, text=True,
                          cwd=args.node_modules.parent, check=True)
    theirs = json.loads(done.stdout)
    agree, differ, missing = 0, [], []
    for relpath, url in sorted(cited.items()):
        expected = theirs[relpath]
        expected_url = (None if expected.startswith("ERROR") else
                        args.base_url.rstrip("/") + quote(expected, safe="/-._~!$&'()*+,;=:@%"))
        if url is None:
            missing.append((relpath, expected))
        elif url == expected_url:
            agree += 1
        else:
            differ.append((relpath, url, expected_url or expected))
    print(f"{args.check}: {len(cited)} served docs; agree with Docusaurus {agree}, differ {len(differ)}, "
          f"no URL {len(missing)}")
    for relpath, url, expected in differ:
        print(f"  differ {relpath}\n    cited      {url}\n    docusaurus {expected}")
    for relpath, expected in missing:
        print(f"  no URL {relpath} (docusaurus {expected})")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
