"""Sitemap ``<loc>`` URLs with dot segments name the page a browser would open (issue 24,
rule 11 of :mod:`provider.wiki.corpus`): ``/a/../b/`` and ``/a/%2E%2E/b/`` publish ``/b/``;
a ``..`` above the root proves nothing (fail closed)."""

from __future__ import annotations

from urllib.parse import urljoin

from hypothesis import given
from hypothesis import strategies as st

from provider.wiki.sitemap import remove_dot_segments, site_key


def test_dot_segments_are_the_page_they_lead_to() -> None:
    assert site_key("https://docs.example.com/a/../b/") == site_key("https://docs.example.com/b/")
    assert site_key("https://docs.example.com/a/%2E%2E/b") == site_key("https://docs.example.com/b/")
    assert site_key("https://docs.example.com/a/%2e/b/.") == site_key("https://docs.example.com/a/b/")
    assert site_key("https://docs.example.com/%2E%2E/b") != site_key("https://docs.example.com/b")
    assert site_key("https://docs.example.com/a%2F../b") != site_key("https://docs.example.com/b")  # %2F: one segment


@given(st.lists(st.sampled_from(["a", "b", ".", "..", "%2E", "%2e%2E", "c.d"]), min_size=1, max_size=8))
def test_remove_dot_segments_is_rfc_3986(parts: list[str]) -> None:
    """Property: the same path as the standard library's RFC 3986 resolution (``urljoin``
    on an absolute path, once the unreserved ``%2E`` is decoded), except that climbing
    above the root gives ``None`` where the RFC clamps. (No empty segment: ``//a`` would
    read as a host to the oracle.)"""
    decoded = ["".join("." if p.lower() == "%2e" else p for p in [part]) if part.lower() != "%2e%2e" else ".."
               for part in parts]
    mine = remove_dot_segments(["", *decoded])
    depth, climbs = 0, False
    for part in decoded:
        if part == "..":
            if depth == 0:
                climbs = True
                break
            depth -= 1
        elif part != ".":
            depth += 1
    if climbs:
        assert mine is None
        return
    theirs = urljoin("https://h/", "/" + "/".join(decoded)).removeprefix("https://h")
    assert mine is not None and "/".join(mine) == theirs
