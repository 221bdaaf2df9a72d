"""A heading that names a product feature with a label's words (``## Internal notes`` over
"Agents can add internal notes to a ticket.") is served; the same heading labelling its
section stays withheld (issue 24; CONTRACT X2, X5: fail closed)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.body_markers import find_body_markers
from provider.wiki.feature_headings import names_a_feature

NAMES = ["Internal notes", "Internal note", "Agent notes", "Private notes", "Agents only mode", "Staff only fields"]

ACTORS = ["Agents", "Admins", "Your team", "Anyone on the team", "Supervisors"]
ACTIONS = ["can add", "can create", "add", "can pin", "can edit", "can view", "can enable", "may use"]
PLACES = ["to a ticket", "on any conversation", "from the ticket sidebar", "in the reply editor", "for a customer"]
DESCRIBED = ["are visible only to agents and never sent to the customer",
             "appear in the ticket timeline with a yellow background",
             "let your team discuss a ticket without emailing the requester",
             "can be turned off in the workspace settings",
             "runs the agent loop without handing off to a human"]
SECRETS = ["The refund override code is 4417.", "Escalate to Tier 2 before you refund.",
           "Use the staging host admin.internal.example for tests.", "Call Dana before approving a chargeback."]
LABEL_OPENERS = ["", "These {n} cover refunds. ", "The {n} below are for agents. ", "{n} are for agents only. ",
                 "{n} are: ", "Keep these {n} here. ", "Do not tell customers: ", "Here are the {n}. "]


def headings(body: str) -> list[str]:
    return [m.text for m in find_body_markers(body) if m.code == "hiding-heading"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(NAMES), st.sampled_from(ACTORS), st.sampled_from(ACTIONS), st.sampled_from(PLACES),
       st.sampled_from(["#", "##", "###"]), st.booleans())
def test_a_feature_the_section_acts_on_is_served(name: str, actor: str, action: str, place: str, level: str,
                                                 lower: bool) -> None:
    noun = name.lower() if lower else name
    body = f"{level} {name}\n\n{actor} {action} {noun.lower()} {place}. Nothing else is needed.\n"
    assert headings(body) == [], body


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(NAMES), st.sampled_from(DESCRIBED))
def test_a_feature_the_section_describes_is_served(name: str, described: str) -> None:
    body = f"## {name}\n\n{name} {described}.\n"
    assert headings(body) == [], body


@settings(max_examples=400, deadline=None)
@given(st.sampled_from([*NAMES, "Staff only", "Agents only", "For agents", "Internal use"]),
       st.sampled_from(LABEL_OPENERS), st.sampled_from(SECRETS), st.sampled_from(["", "\n\nMore text."]))
def test_the_same_heading_as_a_label_stays_withheld(name: str, opener: str, secret: str, more: str) -> None:
    # The section's first paragraph does not describe the thing in the third person:
    # whatever else it says, the heading labels it.
    first = opener.replace("{n}", name.lower()) + secret
    body = f"## {name}\n\n{first}{more}\n"
    assert headings(body) == [name], body


@given(st.sampled_from(NAMES), st.sampled_from(SECRETS))
def test_a_label_heading_over_a_list_or_code_stays_withheld(name: str, secret: str) -> None:
    assert headings(f"## {name}\n\n- {secret}\n") == [name]
    assert headings(f"## {name}\n\n```\n{secret}\n```\n\nAgents can add {name.lower()} to a ticket.\n") == [name]


def test_a_qualified_heading_or_a_label_alone_is_never_a_name() -> None:
    prose = "Agents can add internal notes to a ticket."
    assert not names_a_feature("Internal notes (agents only)", "internal notes", prose)
    assert not names_a_feature("Staff only", "staff only", "Staff only pages can add internal notes today.")
    assert not names_a_feature("Internal notes", "internal notes", "")
    assert headings("## Internal notes — agents\n\nAgents can add internal notes to a ticket.\n")
