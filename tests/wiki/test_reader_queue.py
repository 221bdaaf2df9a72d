"""Files handed to reader processes by segmented language (provider.wiki.reader_queue)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.reader_queue import Waiting, path_language

LANGS = ("en", "ja", "ko", "zh")


def test_path_language_reads_folders_and_suffixes() -> None:
    segmented = frozenset({"ja", "zh", "ko"})
    assert path_language("docs/ja/agents.md", segmented) == "ja"
    assert path_language("i18n/zh-CN/docusaurus/a.md", segmented) == "zh"
    assert path_language("tutorials/x/01.ko.md", segmented) == "ko"
    assert path_language("docs/editor-setup/agents.md", segmented) == ""
    assert path_language("docs/en/agents.md", segmented) == ""


def test_each_segmented_language_goes_to_one_process_while_others_have_work() -> None:
    files = [f"docs/{lang}/{i}.md" for lang in LANGS for i in range(40)]
    waiting = Waiting(files, LANGS)
    given_to: dict[str, set[int]] = {}
    handed = []
    process = 0
    while waiting:
        relpath = waiting.pop_for(process)
        assert relpath is not None  # 40 files a language: no process waits for another's
        handed.append(relpath)
        given_to.setdefault(path_language(relpath, frozenset({"ja", "ko", "zh"})), set()).add(process)
        process = 1 - process
    assert sorted(handed) == sorted(files)
    assert all(len(given_to[lang]) == 1 for lang in ("ja", "ko", "zh"))


def test_a_few_files_of_a_held_language_wait_for_their_process() -> None:
    waiting = Waiting([f"docs/zh/{i}.md" for i in range(5)], LANGS)
    assert waiting.pop_for("a") == "docs/zh/0.md"
    assert waiting.pop_for("b") is None  # four left: not worth a second segmenter
    waiting.forget("a")  # its process died: the language is free again
    assert waiting.pop_for("b") == "docs/zh/1.md"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["docs/ja/", "docs/zh-cn/", "x/", "a/b.ko.", "docs/"]),
                          st.integers(0, 10_000)), unique=True, max_size=300),
       st.lists(st.integers(0, 3), min_size=1, max_size=600))
def test_every_file_is_handed_out_once(parts: list[tuple[str, int]], order: list[int]) -> None:
    files = [f"{prefix}{n}.md" for prefix, n in parts]
    waiting = Waiting(files, LANGS)
    handed: list[str] = []
    idle = 0
    step = 0
    while waiting and idle < 8:
        relpath = waiting.pop_for(order[step % len(order)])
        step += 1
        idle = idle + 1 if relpath is None else 0
        if relpath is not None:
            handed.append(relpath)
    for process in range(4):  # what is left goes to the process holding its language
        while (relpath := waiting.pop_for(process)) is not None:
            handed.append(relpath)
    assert not waiting
    assert sorted(handed) == sorted(files)
