"""A short command line shared by public pages is documented usage, not a copy of the
internal page that also gives it (issue 27, rule 6d/6c; CONTRACT X2): making Outlook for
Mac internal withheld two public Learn articles that give the same
``Set-MailboxRegionalConfiguration … -LocalizeDefaultFolderName:$true`` line. The class
stays closed where it leaks: a secret's labelled value or a code in the line, a line only
one public page holds, the same words as prose."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import write_files
from tests.wiki.test_contained_text import _filler, _page, _public

LEARN_LINE = ("set-MailboxRegionalConfiguration -id <alias> -LocalizeDefaultFolderName:$true "
              "-Language <Language_code_to_switch_to> -DateFormat <your_preferred_DateFormat>")
RUNBOOK = ("Night shift checklist kept by the messaging operations crew for sticky outbox complaints.",
           "Escalate unresolved tickets to the duty engineer once the customer confirms the symptoms.")
FLAGS = ["Identity", "Force", "Confirm", "Language", "Archive", "Region", "Folder", "Mailbox", "Scope", "Verbose"]
CMDLETS = ["Set-MailboxFolder", "Get-CalendarPolicy", "Reset-FolderNames", "Update-Quarantine", "Remove-SyncRule"]


def code(line: str) -> str:
    return f"```powershell\n{line}\n```"


def site(tmp: Path, line: str, *, holders: int, as_code: bool = True, seed: int = 0) -> Path:
    """An internal runbook giving ``line``, ``holders`` public articles giving it too (each
    with prose of its own), and one public article without it."""
    rng = random.Random(seed)
    block = code(line) if as_code else line
    # The runbook's prose in words of its own: the public pages' filler shares none of them.
    files = {"mac/runbook.md": _page("Runbook", "internal", [RUNBOOK[0], block, RUNBOOK[1]]),
             "other.md": _page("Other", "public", [_filler(rng, 40) + "."])}
    for number in range(holders):
        files[f"guide{number}.md"] = _page(f"Guide {number}", "public",
                                           [_filler(rng, 40) + ".", block, _filler(rng, 40) + "."])
    return write_files(tmp, files)


def _command(rng: random.Random) -> str:
    parts = [rng.choice(CMDLETS)]
    for _ in range(rng.randint(3, 8)):
        parts.append(f"-{rng.choice(FLAGS)} {rng.choice(['<alias>', '$true', 'Inbox', 'Contoso', 'user'])}")
    return " ".join(parts)


def test_issue27_the_learn_command_line_on_two_public_articles_keeps_them_public(tmp_path: Path) -> None:
    assert _public(site(tmp_path, LEARN_LINE, holders=2)) == {"other.md", "guide0.md", "guide1.md"}


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), holders=st.integers(2, 4))
def test_balance_a_short_command_line_several_public_pages_give_is_no_evidence(
        tmp_path_factory: pytest.TempPathFactory, seed: int, holders: int) -> None:
    line = _command(random.Random(seed))
    found = _public(site(tmp_path_factory.mktemp("site"), line, holders=holders, seed=seed))
    assert found == {"other.md", *(f"guide{n}.md" for n in range(holders))}, line


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000),
       leak=st.sampled_from(["-Password swordfish", "password: swordfish", "-Pin 44179920", "-Key x7q9zk4w",
                             "-AccessToken swordfish", "-ApiKey swordfish"]))
def test_x2_a_command_line_with_a_secret_or_a_code_is_still_a_copy(
        tmp_path_factory: pytest.TempPathFactory, seed: int, leak: str) -> None:
    """A labelled secret's value, a PIN or a key in the shared line: the pages giving it
    hold the runbook's text, however many they are."""
    line = f"{_command(random.Random(seed))} {leak}"
    assert _public(site(tmp_path_factory.mktemp("site"), line, holders=2, seed=seed)) == {"other.md"}, line


def test_x2_a_command_line_one_public_page_gives_is_still_a_copy(tmp_path: Path) -> None:
    assert _public(site(tmp_path, LEARN_LINE, holders=1)) == {"other.md"}


def test_x2_the_same_words_as_prose_on_two_pages_are_still_a_copy(tmp_path: Path) -> None:
    """Only code is a command line: a note pasted as a paragraph into two public pages
    stays under the prose threshold (BOILERPLATE_DOCS)."""
    note = "Escalations for the Contoso tenant go through the night desk before the regional lead signs off"
    assert _public(site(tmp_path, note, holders=2, as_code=False)) == {"other.md"}
