"""A query of Han characters only (no kana, no Hangul) is ambiguous between Japanese and
both Chinese scripts (issue 16): its characters decide where they are evidence —
Traditional-only, Simplified-only or Japanese shinjitai forms — and otherwise every CJK
language of the index is searched first, not one guess (CONTRACT Q3;
docs/reference/capabilities.md, "Without a request locale"). Real text: titles and pages
of ../shared/corpora/astro-docs and kaia-docs (see their SOURCE.md)."""

from __future__ import annotations

import shutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpthread_kit.backend import SearchQuery
from helpthread_kit.registrations import Exposure
from provider.config import load_config
from provider.indexing import Indexer
from provider.search.backend import WhooshBackend
from provider.search.layout import IndexLayout
from provider.search.querylang import han_writings, written_in
from tests.corpora import corpus_path, require_corpus
from tests.support import REPO_ROOT

CORPORA = corpus_path()

# Page titles of the corpora, as written (file in the comment).
TITLES = [
    ("部署你的 Astro 網站", {"zh-Hant"}),               # astro-docs zh-tw/guides/deploy/index.mdx
    ("檔案節點資料", {"zh-Hant"}),                      # kaia-docs zh-TW nodes/debugging/node-profiling.md
    ("跨鏈價值轉移", {"zh-Hant"}),                      # kaia-docs zh-TW nodes/service-chain/…/value-transfer.md
    ("编辑器配置", {"zh-Hans"}),                        # astro-docs zh-cn/editor-setup.mdx
    ("签名电文标准", {"zh-Hans"}),                      # kaia-docs zh-CN references/signed-message.md
    ("国際化", {"ja"}),                                 # kaia-docs ja misc/internationalization.md (際: shinjitai)
    ("環境変数", {"ja"}),                               # astro-docs ja/guides/environment-variables.mdx (変)
    ("編輯器設定", {"ja", "zh-Hant"}),                  # astro-docs zh-tw/editor-setup.mdx: Japanese writes these too
    ("利用規約", {"ja", "zh-Hant"}),                    # kaia-docs ja misc/terms-of-use.md
    ("安装前", {"ja", "zh-Hans"}),                      # kaia-docs zh-CN nodes/core-cell/install/before-you-install.md
    ("分析工具", {"ja", "zh-Hans", "zh-Hant"}),         # kaia-docs zh-CN and zh-TW nodes/debugging/analytics-tool.md
]


@pytest.mark.parametrize(("title", "writings"), TITLES)
def test_q3_the_characters_of_a_real_title_tell_the_writings_it_can_be_in(title: str, writings: set[str]) -> None:
    assert han_writings(title) == writings


@given(st.sampled_from([t for t, w in TITLES if len(w) > 1]), st.integers(min_value=1, max_value=10_000))
def test_q3_an_ambiguous_han_query_is_not_given_to_the_language_using_its_words_most(title: str, bias: int) -> None:
    """As a class: however much more often the Japanese documents use the query's words,
    a Han-only query its characters do not decide keeps every writing they fit (before,
    the vocabulary made it Japanese and Chinese was searched only to fill up)."""
    words = {"ja": (title,), "zh": (title,)}
    counts = {"en": 1000, "ja": 100, "zh": 100}

    def frequency(language: str, term: str) -> int:
        return min(bias, 100) if language == "ja" else 0

    assert written_in(words, {}, frequency, counts, "en", title) == han_writings(title)


def test_q3_han_only_decided_by_one_language_when_the_index_has_no_other() -> None:
    """Only Chinese documents: a query Japanese could also write is Chinese, in the
    script its characters fit (設 is not Simplified)."""
    words = {"zh": ("設定",)}
    assert written_in(words, {}, lambda language, term: 5, {"en": 10, "zh": 10}, "en", "設定") == {"zh-Hant"}


PAGES = ("editor-setup", "guides/environment-variables", "guides/deploy/index", "concepts/islands",
         "basics/project-structure", "install-and-setup", "getting-started")


@pytest.fixture(scope="module")
def astro(tmp_path_factory: pytest.TempPathFactory) -> WhooshBackend:
    """Seven real astro-docs pages in en, ja, ko, zh-cn and zh-tw, served as the corpus is
    (bench/relevance/corpora/astro-docs.yaml)."""
    require_corpus("astro-docs")
    tmp = tmp_path_factory.mktemp("astro")
    docs = tmp / "docs"
    for lang in ("en", "ja", "ko", "zh-cn", "zh-tw"):
        for page in PAGES:
            source = CORPORA / "astro-docs" / "src" / "content" / "docs" / lang / f"{page}.mdx"
            if source.exists():
                (docs / lang / page).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(source, docs / lang / f"{page}.mdx")
    config_text = (REPO_ROOT / "bench" / "relevance" / "corpora" / "astro-docs.yaml").read_text("utf-8")
    lines = [f"content: {docs}" if line.startswith("content:") else line for line in config_text.splitlines()]
    (tmp / "kp.yaml").write_text("\n".join(lines) + "\n", "utf-8")
    config = load_config(tmp / "kp.yaml")
    with Indexer(config.wiki_settings(), IndexLayout(tmp / "index")) as indexer:
        assert indexer.sync().by_locale["zh-TW"] >= 5
    return WhooshBackend(tmp / "index", cache_entries=0, fallback_locales=config.fallback_chain)


def _answers(backend: WhooshBackend, text: str, limit: int = 10) -> list[str]:
    query = SearchQuery(text=text, limit=limit, reach=Exposure.CUSTOMER_SAFE, capabilities=frozenset({"retrieve"}))
    return [r.document_id.removeprefix("src/content/docs/") for r in backend.search(query)]


def test_q3_a_han_query_both_japanese_and_traditional_write_reaches_both(astro: WhooshBackend) -> None:
    """設定 ("settings") is a word of Japanese and of Traditional Chinese: without a locale
    the first five answers hold the pages of both, ranked together (before: Japanese
    pages only, as Japanese pages use the word more; Chinese only filled up)."""
    found = _answers(astro, "設定", limit=5)
    assert {doc.split("/", 1)[0] for doc in found} >= {"ja", "zh-tw"}, found


@pytest.mark.parametrize(("text", "first"), [
    ("專案的public目錄要放什麼", "zh-tw/basics/project-structure"),   # 錄: Traditional only
    ("部署網站", "zh-tw/guides/deploy"),
    ("环境变量", "zh-cn/guides/environment-variables"),                # 环 变: Simplified only
    ("環境変数", "ja/guides/environment-variables"),                   # 変: Japanese only
    ("群島架構", "zh-tw/concepts/islands"),
])
def test_q3_a_han_query_finds_its_own_writings_page_first(astro: WhooshBackend, text: str, first: str) -> None:
    found = _answers(astro, text)
    assert found and found[0] == first, found
