"""Query cost against the number of configured locales: prints figures, asserts nothing.

    python bench/locales.py                    # 1, 5 and 31 locales, 40 articles each
    python bench/locales.py --articles 80 --queries 300
    python bench/locales.py --shared 0        # every word translated (no sharing)

Builds one wiki per locale count from the Hetzner tutorials corpus: the same ``--articles``
English tutorials in every locale (a translation group each), the words of each locale
made its own by a fixed letter substitution in that locale's script (Latin, Cyrillic,
Greek, Arabic, Hebrew, Devanagari, Thai, kana, Hangul, Han), so every language has a
vocabulary of its own with English's statistics — except what real translations share
across languages: code blocks stay as they are, and a share of the words (``--shared``,
the same words in every locale, as product names and terms are) stays English. Then, in
process, through the real backend with the result cache off, it times English queries
(two or three words of a tutorial's title) without a request locale (the minimum
configuration) and with ``locale: en``, and prints p50 and p99 in milliseconds — also
without a locale with every language of the query's script searched at once (the query
path before :func:`~provider.search.querylang.searched_first`), interleaved query by query
with the others so the comparison holds on a loaded machine.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
import time
import zlib
from pathlib import Path

from msgspec.structs import replace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import percentile  # noqa: E402 - after the path set-up above

from helpthread_kit.backend import SearchQuery  # noqa: E402
from helpthread_kit.registrations import Exposure  # noqa: E402
from provider.config import load_config  # noqa: E402
from provider.indexing import Indexer  # noqa: E402
from provider.search import backend as backend_module  # noqa: E402
from provider.search.backend import WhooshBackend  # noqa: E402
from provider.search.layout import IndexLayout  # noqa: E402
from provider.search.querylang import searched_first  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "hetzner-tutorials" / "tutorials"
#: 31 locales: the first 1 and 5 are the smaller runs.
LOCALES = ("en", "de", "ja", "zh-TW", "ru", "fr", "es", "it", "pt-BR", "nl", "sv", "da", "fi", "nb", "pl", "cs",
           "tr", "hu", "ro", "uk", "el", "ar", "he", "hi", "th", "ko", "zh-CN", "vi", "id", "bg", "ca")
#: The first letter of each script's alphabet used for the substitution (26 letters on).
_SCRIPT_START = {"Cyrl": 0x0430, "Grek": 0x03B1, "Arab": 0x0628, "Hebr": 0x05D0, "Deva": 0x0915, "Thai": 0x0E01,
                 "Kana": 0x30A2, "Hang": 0xAC00, "Hani": 0x4E00}
_LOCALE_SCRIPT = {"ru": "Cyrl", "uk": "Cyrl", "bg": "Cyrl", "el": "Grek", "ar": "Arab", "he": "Hebr", "hi": "Deva",
                  "th": "Thai", "ja": "Kana", "ko": "Hang", "zh-CN": "Hani", "zh-TW": "Hani"}
_WORD = re.compile(r"[A-Za-z]+")
_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)


def _cipher(locale: str, index: int) -> dict[int, str]:
    """A letter substitution for one locale: a shifted Latin alphabet, or letters of its script."""
    script = _LOCALE_SCRIPT.get(locale)
    letters = "abcdefghijklmnopqrstuvwxyz"
    if script is None:
        shift = index % 25 + 1
        out = {ord(c): letters[(i + shift) % 26] for i, c in enumerate(letters)}
    else:
        base = _SCRIPT_START[script] + (30 * (index % 2) if script == "Hani" else 0)  # zh-CN ≠ zh-TW
        out = {ord(c): chr(base + i) for i, c in enumerate(letters)}
    return out


def _kept(word: str, shared: float) -> bool:
    """Whether ``word`` stays untranslated: the same words in every locale (a stable
    digest of the word, not of the locale), about ``shared`` of the distinct words."""
    digest = zlib.crc32(word.lower().encode("utf-8"))
    return digest % 1000 < shared * 1000


def _translate(text: str, table: dict[int, str], shared: float) -> str:
    def word(m: re.Match[str]) -> str:
        w = m.group(0)
        return w if _kept(w, shared) else w.lower().translate(table)

    def prose(part: str) -> str:
        return _WORD.sub(word, part)

    # Code blocks are never translated; front matter keys must stay readable.
    head, sep, body = text.partition("\n---\n\n")
    out, last = [], 0
    for fence in _FENCE.finditer(body):
        out += [prose(body[last:fence.start()]), fence.group(0)]
        last = fence.end()
    out.append(prose(body[last:]))
    title = re.sub(r"^(title: )(.+)$", lambda m: m.group(1) + prose(m.group(2)), head, flags=re.M)
    return title + sep + "".join(out)


def build_wiki(root: Path, locales: tuple[str, ...], articles: list[tuple[str, str]], shared: float) -> None:
    for index, locale in enumerate(locales):
        table = _cipher(locale, index)
        for slug, text in articles:
            path = root / locale / f"{slug}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text if locale == "en" else _translate(text, table, shared), "utf-8")


def _articles(count: int) -> list[tuple[str, str]]:
    files = sorted(CORPUS.glob("*/01.en.md"))[:count]
    out = []
    for path in files:
        text = path.read_text("utf-8", errors="replace")
        body = re.sub(r"\A---.*?\n---\n", "", text, flags=re.S)
        title = re.search(r"^title:\s*\"?(.+?)\"?\s*$", text, re.M)
        page = f"---\naudience: public\ntitle: {title.group(1) if title else path.parent.name}\n---\n\n{body}"
        out.append((path.parent.name, page))
    return out


def _queries(articles: list[tuple[str, str]], n: int, rng: random.Random) -> list[str]:
    titles = [re.findall(r"[A-Za-z]{4,}", re.search(r"^title: (.+)$", text, re.M).group(1))  # type: ignore[union-attr]
              for _, text in articles]
    titles = [words for words in titles if len(words) >= 2]
    return [" ".join(rng.sample(words, min(len(words), rng.choice((2, 3))))) for words in
            (rng.choice(titles) for _ in range(n))]


def measure(count: int, articles: list[tuple[str, str]], queries: list[str], shared: float
            ) -> dict[str, tuple[float, float]]:
    locales = LOCALES[:count]
    config = load_config(ROOT / "knowledge-provider.yaml")
    with tempfile.TemporaryDirectory() as tmp:
        wiki, index = Path(tmp) / "wiki", Path(tmp) / "index"
        build_wiki(wiki, locales, articles, shared)
        config = replace(config, content=wiki, locales=locales, default_locale="en", capabilities="all",
                         locale_pattern_pairs=None)
        started = time.monotonic()
        with Indexer(config.wiki_settings(), IndexLayout(index)) as indexer:
            report = indexer.sync()
        print(f"  {count} locales: {sum(report.by_locale.values())} documents indexed in "
              f"{time.monotonic() - started:.0f} s", flush=True)
        backend = WhooshBackend(index, cache_entries=0, fallback_locales=("en",))
        declared = config.declared_capabilities(WhooshBackend.implemented_capabilities)
        every_language = (lambda words, written, default: (dict(words), {}))  # noqa: E731
        variants = {"no locale": (None, searched_first), "locale en": ("en", searched_first),
                    "no locale, every language": (None, every_language)}
        times: dict[str, list[float]] = {label: [] for label in variants}
        # Interleaved, query by query, so the machine's load falls on every variant alike.
        for text in [*queries[:20], *queries]:  # the first 20 warm up
            for label, (locale, split) in variants.items():
                backend_module.searched_first = split
                query = SearchQuery(text=text, limit=10, reach=Exposure.CUSTOMER_SAFE, capabilities=declared,
                                    locale=locale)
                t0 = time.perf_counter()
                backend.search(query)
                times[label].append((time.perf_counter() - t0) * 1000)
        backend_module.searched_first = searched_first
        return {label: (percentile(t[20:], 0.5), percentile(t[20:], 0.99)) for label, t in times.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--articles", type=int, default=40)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--counts", default="1,5,31")
    parser.add_argument("--shared", type=float, default=0.3,
                        help="share of the distinct words left untranslated in every locale (0-1)")
    args = parser.parse_args(argv)
    rng = random.Random(12)
    articles = _articles(args.articles)
    queries = _queries(articles, args.queries, rng)
    rows = []
    for count in (int(c) for c in args.counts.split(",")):
        figures = measure(count, articles, queries, args.shared)
        rows.append((count, figures))
    print(f"\n{len(queries)} English queries, limit 10, cache off, {args.shared:.0%} of the words shared; "
          "in-process search time (ms)")
    print("(every language: without a locale, all languages of the query's script searched at once, "
          "as before issue 12's second round)")
    print(f"{'locales':>8}  {'no locale p50':>14}{'p99':>8}  {'locale en p50':>14}{'p99':>8}"
          f"  {'every language p50':>19}{'p99':>8}")
    for count, figures in rows:
        (a50, a99), (b50, b99) = figures["no locale"], figures["locale en"]
        c50, c99 = figures["no locale, every language"]
        print(f"{count:>8}  {a50:>14.1f}{a99:>8.1f}  {b50:>14.1f}{b99:>8.1f}  {c50:>19.1f}{c99:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
