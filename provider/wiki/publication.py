"""Whether a page is published: the front matter and path facts that withhold it.

A page is served to nobody (CONTRACT X5) when any of these holds:

=============================================  ==============================================
``draft`` set (anything but an explicit false)  every layout
``published: false``                           every layout (Jekyll)
``unlisted: true``                             every layout (Docusaurus)
``build: {render: never|link}`` or             every layout (Hugo; also the old ``_build``);
``build: {list: never}``                       an unrecognised ``build`` withholds (fail closed)
``headless: true``                             every layout (Hugo leaf bundles)
``publishDate`` in the future                  every layout (also ``publishdate``, ``pubdate``,
                                               ``publish_date``, ``release_date``, ``embargo``,
                                               ``embargo_until``, ``available_from``,
                                               ``go_live``, ``launch_date``…: the latest counts);
                                               Hugo: ``date`` when ``publishDate`` is absent;
                                               Jekyll: a ``_posts`` file's date
``expiryDate`` now or in the past              every layout (also ``expirydate``, ``unpublishdate``,
                                               ``expires``, ``expiry_date``, ``expiration_date``,
                                               ``sunset``, ``end_date``, ``valid_until``…: the
                                               earliest counts; top-level keys only, so an
                                               event's ``end_date`` in a list is not read)
a folder named in the layout's draft folders   Jekyll ``_drafts``
=============================================  ==============================================

Key names are matched case-insensitively (Hugo lowercases front matter keys), so
``Draft: true`` withholds too. Withholding facts are honoured in every layout because
honouring them can only serve less.

Facts are kept as a small JSON-able mapping, *canonical key → decision*, so section
pages can cascade them (:mod:`provider.wiki.cascade`) and the corpus can evaluate dates
against the clock at each sync (:func:`withheld_reason`):

* flag keys (:data:`FLAG_KEYS`): ``""`` when the page explicitly does not withhold
  (``draft: false``), else the reason it does;
* date keys (:data:`DATE_KEYS`): an ISO 8601 UTC date-time, or ``"invalid"``; when the
  author wrote another name for it, ``<key>.key`` holds that name (for the reason).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from .classify import decide_draft
from .dates import DATED_NAME, not_a_date, parse_date
from .flag_keys import FLAG_KEYS
from .frontmatter import lookup, lookup_all
from .layouts import Layout

__all__ = [
    "DATE_KEYS",
    "FLAG_KEYS",
    "INVALID",
    "read_publication",
    "standing_withholding",
    "withheld_reason",
    "withholding",
]

DATE_KEYS = ("publishDate", "expiryDate")
INVALID = "invalid"
_ALIASES: dict[str, tuple[str, ...]] = {
    "draft": ("draft",),
    "published": ("published",),
    "unlisted": ("unlisted",),
    "build": ("build", "_build"),
    "headless": ("headless",),
    # Hugo's names, and the names other tools and authors give the same dates: a page
    # under embargo or not yet released is not published; an expired one no longer is.
    "publishDate": ("publishdate", "pubdate", "publish_date", "publish_at", "publishat", "release_date",
                    "releasedate", "embargo", "embargo_until", "embargountil", "embargoed_until", "embargo_date",
                    "available_from", "availablefrom", "available_at", "go_live", "golive", "go_live_date",
                    "golive_date", "launch_date", "launchdate", "launch_at"),
    "expiryDate": ("expirydate", "unpublishdate", "unpublish_date", "expires", "expiry_date", "expiry",
                   "expiration_date", "expirationdate", "expires_at", "expire_date", "sunset", "sunset_date",
                   "sunsetdate", "end_date", "enddate", "valid_until", "validuntil", "available_until"),
}
#: Aliases that are also ordinary words a page may use for its topic (``sunset: "Sunset of
#: the v1 API"``): their value counts only when it looks like a date (then a broken one
#: withholds); words and flags are not read as a date.
_TOPIC_WORD_ALIASES = frozenset(("sunset",))
#: Aliases also used as flags (``go_live: true``): a yes/no is read by
#: :mod:`provider.wiki.restricting_keys` (``go_live: false`` is not approved), not as a date.
_FLAG_ALIASES = frozenset(("go_live", "golive"))
#: Where a date key's alias is kept, when it is not the canonical name: ``check`` names
#: the key the author wrote (``release_date 2999-01-01T00:00:00+00:00 is in the future``).
KEY_SUFFIX = ".key"
_RENDER_OK = frozenset({"always", "true"})
_RENDER_WITHHOLDS = frozenset({"never", "link", "false"})
_LIST_OK = frozenset({"always", "local", "true"})
_LIST_WITHHOLDS = frozenset({"never", "false"})



def _build_decision(value: Any) -> tuple[str, str | None]:
    """``(decision, error)`` for Hugo's ``build`` options."""
    if not isinstance(value, Mapping):
        return "front matter build is not a mapping (withheld, fail closed)", "build is not a mapping"
    reasons = []
    for option, ok, withholds in (("render", _RENDER_OK, _RENDER_WITHHOLDS), ("list", _LIST_OK, _LIST_WITHHOLDS)):
        found = lookup(value, option)
        if found is None:
            continue
        text = str(found[1]).strip().lower() if isinstance(found[1], (str, bool)) else repr(found[1])
        if text in withholds:
            reasons.append(f"build.{option}: {text}")
        elif text not in ok:
            return (f"front matter build.{option} {found[1]!r} is not recognised (withheld, fail closed)",
                    f"build.{option} has an unrecognised value {str(found[1])[:40]!r}")
    return ("front matter " + ", ".join(reasons)) if reasons else "", None


def _date_fact(raw: Any) -> str:
    parsed = parse_date(raw)
    return parsed.isoformat() if parsed is not None else INVALID


def read_flags_and_dates(data: Mapping[str, Any]) -> tuple[dict[str, str], list[str]]:
    """The withholding facts a front matter mapping states (no path facts).

    Returns:
        ``(facts, errors)``; errors are values that could not be understood and that
        withhold the page (an operator must fix them).
    """
    facts: dict[str, str] = {}
    errors: list[str] = []
    for key in FLAG_KEYS:
        found = lookup(data, *_ALIASES[key])
        if found is None:
            continue
        value = found[1]
        if key in ("draft", "published"):
            decision = decide_draft({key: value})
            facts[key] = decision.source if decision.value else ""
        elif key == "build":
            facts[key], error = _build_decision(value)
            if error:
                errors.append(f"front matter {error}; withheld")
        else:
            facts[key] = f"front matter {found[0]}" if decide_draft({"draft": value}).value else ""
    for key in DATE_KEYS:
        # Every alias present counts, the strictest winning: the latest publication
        # date, the earliest expiry, an invalid one over both (fail closed).
        for name, value in lookup_all(data, *_ALIASES[key]):
            if (name.lower() in _TOPIC_WORD_ALIASES and not _looks_like_date(value)) or (
                    name.lower() in _FLAG_ALIASES and isinstance(value, bool)):
                continue
            fact = _date_fact(value)
            if fact == INVALID:
                errors.append(f"{not_a_date(name, value)}; withheld")
            held = facts.get(key)
            if held is None or fact == INVALID or (held != INVALID and (fact > held if key == "publishDate"
                                                                        else fact < held)):
                facts[key] = fact
                if name.lower() != key.lower():
                    facts[key + KEY_SUFFIX] = name
                else:
                    facts.pop(key + KEY_SUFFIX, None)
    return facts, errors


_JEKYLL_DATED = re.compile(r"(?P<date>\d{4}-\d{1,2}-\d{1,2})-")
_DATE_LIKE = re.compile(r"\d{4}|\d[-/.]\d")


def _looks_like_date(value: Any) -> bool:
    """A date, a number (a timestamp), or a short string with a year or digits joined by
    a date separator (``2020-01-01``, ``1 March 2031``, ``01/2020``): not a topic
    (``Sunset of the v1 API``, ``v1 sunset``)."""
    return (isinstance(value, (dt.date, int, float)) and not isinstance(value, bool)) or (
        isinstance(value, str) and len(value.split()) <= 4 and _DATE_LIKE.search(value) is not None)



def read_publication(
    data: Mapping[str, Any], relpath: str, layout: Layout, *, dated: bool | None = None
) -> tuple[dict[str, str], list[str], list[str]]:
    """A page's own withholding facts: its front matter and its path.

    Args:
        dated: the tool withholds the page while its date (front matter ``date``, else a
            ``YYYY-MM-DD-`` file name) is in the future: a Jekyll post or collection
            document without ``future: true`` (:attr:`~.sites.load.SiteView.dated`);
            ``None``: a file in the layout's posts folder.

    Returns:
        ``(facts, errors, warnings)`` — see the module docstring for ``facts``.
    """
    facts, errors = read_flags_and_dates(data)
    warnings: list[str] = []
    parts = relpath.split("/")
    drafts = [part for part in parts[:-1] if part in layout.draft_folders]
    if drafts:
        facts["path"] = f"in the {drafts[0]} folder"
    date_key = lookup(data, "date")
    if "publishDate" not in facts and layout.date_is_publish_date and date_key is not None:
        # Hugo's default: a page without publishDate is published at its date.
        facts["publishDate"] = _date_fact(date_key[1])
        if facts["publishDate"] == INVALID:
            errors.append(f"{not_a_date(date_key[0], date_key[1])}; withheld")
    in_posts = bool(layout.posts_folder) and layout.posts_folder in parts[:-1]
    if "publishDate" not in facts and (in_posts if dated is None else dated):
        # Jekyll publishes a post or collection document at its date (front matter, else
        # file name); future ones are not built by default (``future: false``).
        name = parts[-1].rsplit(".", 1)[0]
        # Document::DATE_FILENAME_MATCHER takes one-digit months and days (2999-1-5-x.md).
        named = _JEKYLL_DATED.match(name) or DATED_NAME.fullmatch(name)
        when = parse_date(date_key[1]) if date_key is not None else None
        if when is None and named is not None:
            when = parse_date(named["date"])
        if when is not None:
            facts["publishDate"] = when.isoformat()
        elif in_posts:
            warnings.append("post has no date in its file name (YYYY-MM-DD-title) or front matter")
    return facts, errors, warnings


def standing_withholding(facts: Mapping[str, str]) -> tuple[str, str] | None:
    """``(key, reason)`` of the first fact that withholds a page whatever the date (a
    flag such as ``draft``, or ``path``: a rule, a stub, the docs tool), or ``None``."""
    return next(((key, facts[key]) for key in (*FLAG_KEYS, "path") if facts.get(key)), None)


def withholding(facts: Mapping[str, str], now: dt.datetime) -> tuple[str, str] | None:
    """``(key, reason)`` of the first fact that withholds a page at ``now`` (aware UTC),
    or ``None`` when the facts let it be served."""
    standing = standing_withholding(facts)
    if standing is not None:
        return standing
    publish, said = facts.get("publishDate"), facts.get("publishDate" + KEY_SUFFIX, "publishDate")
    if publish == INVALID:
        return "publishDate", f"{said} is not a date (withheld, fail closed)"
    if publish and dt.datetime.fromisoformat(publish) > now:
        return "publishDate", f"{said} {publish} is in the future"
    expiry, said = facts.get("expiryDate"), facts.get("expiryDate" + KEY_SUFFIX, "expiryDate")
    if expiry == INVALID:
        return "expiryDate", f"{said} is not a date (withheld, fail closed)"
    if expiry and dt.datetime.fromisoformat(expiry) <= now:
        return "expiryDate", f"{said} {expiry} has passed"
    return None


def withheld_reason(facts: Mapping[str, str], now: dt.datetime) -> str | None:
    """Why facts withhold a page at ``now`` (aware UTC), or ``None`` when it is served."""
    found = withholding(facts, now)
    return found[1] if found is not None else None
