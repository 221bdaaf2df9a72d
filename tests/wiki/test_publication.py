"""provider.wiki.publication: what withholds a page (CONTRACT X5: served to nobody),
evaluated against an injected clock."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from provider.wiki.layouts import HUGO, JEKYLL, PLAIN
from provider.wiki.publication import INVALID, read_publication, withheld_reason

NOW = dt.datetime(2025, 6, 1, 12, tzinfo=dt.UTC)


def reason(data: dict[str, Any], relpath: str = "a.md", layout: Any = PLAIN, now: dt.datetime = NOW) -> str | None:
    facts, _, _ = read_publication(data, relpath, layout)
    return withheld_reason(facts, now)


@pytest.mark.parametrize(
    "data",
    [
        {"draft": True},
        {"Draft": "yes"},
        {"published": False},
        {"unlisted": True},
        {"headless": True},
        {"build": {"render": "never"}},
        {"build": {"render": "link"}},
        {"build": {"list": "never", "render": "never"}},
        {"_build": {"render": False}},
        {"publishDate": dt.date(2999, 1, 1)},
        {"publishdate": "2999-01-01T00:00:00Z"},
        {"pubdate": dt.datetime(2025, 6, 1, 13, tzinfo=dt.UTC)},
        {"expiryDate": "2025-06-01T12:00:00Z"},  # expiry at now: gone
        {"unpublishdate": dt.date(2000, 1, 1)},
    ],
)
def test_withheld(data: dict[str, Any]) -> None:
    assert reason(data) is not None


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"draft": False},
        {"draft": "false"},
        {"published": True},
        {"unlisted": False},
        {"build": {"list": "local", "render": "always"}},
        {"build": {"publishResources": False}},
        {"publishDate": "2025-06-01"},
        {"expiryDate": dt.date(2999, 1, 1)},
        {"date": "2999-01-01"},  # date is metadata in the plain layout
    ],
)
def test_served(data: dict[str, Any]) -> None:
    assert reason(data) is None


@pytest.mark.parametrize(
    "data", [{"build": "never"}, {"build": {"render": "sometimes"}}, {"publishDate": "soon"}, {"expiryDate": [1]}]
)
def test_values_that_cannot_be_understood_withhold_and_are_errors(data: dict[str, Any]) -> None:
    facts, errors, _ = read_publication(data, "a.md", PLAIN)
    assert withheld_reason(facts, NOW) is not None
    assert errors


def test_dates_are_evaluated_against_the_clock() -> None:
    data = {"publishDate": "2025-07-01", "expiryDate": "2025-08-01"}
    assert "future" in str(reason(data, now=NOW))
    assert reason(data, now=dt.datetime(2025, 7, 15, tzinfo=dt.UTC)) is None
    assert "passed" in str(reason(data, now=dt.datetime(2025, 8, 2, tzinfo=dt.UTC)))


def test_hugo_date_stands_in_for_publish_date() -> None:
    assert reason({"date": "2999-01-01"}, "content/a.md", HUGO) is not None
    assert reason({"date": "2999-01-01", "publishDate": "2020-01-01"}, "content/a.md", HUGO) is None
    facts, errors, _ = read_publication({"date": "not a date"}, "content/a.md", HUGO)
    assert facts["publishDate"] == INVALID and errors
    # The message names the value as written and the forms that are read.
    assert "'not a date'" in errors[0] and "YYYY-MM-DD" in errors[0] and "withheld" in errors[0]


def test_jekyll_posts_and_drafts() -> None:
    assert reason({}, "_posts/2999-01-01-later.md", JEKYLL) is not None
    assert reason({}, "_posts/2024-01-31-hello.md", JEKYLL) is None
    assert reason({"date": "2999-01-01"}, "_posts/2024-01-31-hello.md", JEKYLL) is not None  # front matter wins
    assert reason({}, "_drafts/idea.md", JEKYLL) == "in the _drafts folder"
    assert reason({}, "_drafts/idea.md", PLAIN) is None
    _, _, warnings = read_publication({}, "_posts/undated.md", JEKYLL)
    assert warnings


_PUBLISH_ALIASES = ("publishDate", "publish_date", "release_date", "releaseDate", "embargo", "embargo_until",
                    "Embargo_Until", "publish_at", "pubdate", "available_from", "go_live", "Go_Live", "launch_date")
_EXPIRY_ALIASES = ("expiryDate", "expires", "Expires", "expiry_date", "expiration_date", "unpublishdate", "expiry",
                   "sunset", "end_date", "valid_until", "Valid_Until")


@given(key=st.sampled_from(_PUBLISH_ALIASES), days=st.integers(1, 40_000),
       written=st.sampled_from(["date", "iso", "datetime"]))
def test_x5_every_name_of_a_future_publication_date_withholds_and_check_names_it(key: str, days: int,
                                                                                 written: str) -> None:
    """Issue 24: Hugo and Jekyll do not build future pages; other tools' names for the
    date (``release_date``, ``embargo_until``) say the same. The reason names the key."""
    when = NOW + dt.timedelta(days=days)
    value: Any = {"date": when.date() + dt.timedelta(days=1), "iso": when.isoformat(), "datetime": when}[written]
    found = reason({"title": "x", key: value})
    assert found is not None and key in found and "future" in found, found


@given(key=st.sampled_from(_EXPIRY_ALIASES), days=st.integers(0, 40_000))
def test_x5_every_name_of_a_past_expiry_date_withholds_and_check_names_it(key: str, days: int) -> None:
    found = reason({"title": "x", key: (NOW - dt.timedelta(days=days)).isoformat()})
    assert found is not None and key in found and "passed" in found, found


def test_x5_the_strictest_of_several_date_names_wins() -> None:
    past, future = "2000-01-01", "2999-01-01"
    assert "release_date" in (reason({"publishDate": past, "release_date": future}) or "")
    assert "expires" in (reason({"expiryDate": future, "expires": past}) or "")
    assert reason({"publishDate": past, "release_date": past, "expires": future}) is None
    assert "not a date" in (reason({"publishDate": past, "embargo": "TBD"}) or "")


@pytest.mark.parametrize("data", [{"launch_date": "1 March 2031"}, {"go_live": "TBD"}, {"available_from": "soon"},
                                  {"sunset": "2020/01/01"}, {"end_date": "Q3"}])
def test_x5_a_date_that_cannot_be_read_under_a_new_date_name_withholds(data: dict[str, Any]) -> None:
    """Issue 24, fourth round: ``launch_date: 1 March 2031`` is not read as a date, so the
    page is withheld (fail closed), as under the other names."""
    facts, errors, _ = read_publication(data, "a.md", PLAIN)
    assert "not a date" in (withheld_reason(facts, NOW) or "") and errors


@pytest.mark.parametrize("data", [
    {"events": [{"name": "Webinar", "end_date": "2020-01-01"}]},  # only the page's own top-level keys count
    {"sunset": "Sunset of the v1 API"}, {"sunset": "v1 sunset"}, {"sunset": True},  # a topic, not a date
    {"go_live": True}, {"end_date": "2999-01-01"}, {"available_from": "2020-01-01"},
    {"valid_until": dt.date(2999, 1, 1)},
])
def test_x5_balance_topic_words_nested_dates_and_dates_that_allow_stay_served(data: dict[str, Any]) -> None:
    facts, errors, _ = read_publication(data, "a.md", PLAIN)
    assert withheld_reason(facts, NOW) is None and not errors, facts
