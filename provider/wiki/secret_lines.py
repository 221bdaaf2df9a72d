"""Lines that give a secret: ``label: value`` where the label names one (rule 6d, CONTRACT X2).

An internal page's ``Authorisation phrase: amber falcon seventy nine`` or
``Kennwort: Leuchtturm`` holds a secret in a few words; the words around it (the label)
are not what a public page copies — the value is. Rule 6d
(:mod:`provider.wiki.containment`) makes each such value a unit of its own: a public page
holding the value, with or without its label, holds the internal text.

* **Label**: the :data:`MAX_LABEL_WORDS` words (or :data:`MAX_LABEL_CHARS` characters of a
  script written without spaces) before a colon (``:``, ``：``) or ``=``, ending with a
  secret's name (``Admin password``; not ``Password reset``) or a code of what one opens
  (``Override code``, ``Door codes``, ``Lock PIN``, ``Safe combination``: :data:`CODE_QUALIFIERS`; not
  ``Error code``, ``Zip code``): :data:`LABEL_WORDS`, in
  English, German, French, Spanish, Portuguese, Italian, Dutch, Russian;
  :data:`LABEL_CHARACTERS` (anywhere in the label) in Japanese, Chinese and Korean.
* **Value**: the text after it up to the end of its sentence or clause (``.``, ``!``,
  ``?``, ``;``, ``,`` followed by a space, or a full stop of a script without spaces), to
  the next label (``Password: swordfish User: admin`` gives ``swordfish``) or
  :data:`MAX_VALUE_TERMS` terms, whichever comes first.
* **Said in a sentence**: ``The staging password is swordfish.`` — a label, ``is`` (or
  ``are``, ``ist``, ``lautet``, ``est``…), and a value of at most
  :data:`MAX_IS_VALUE_WORDS` words ending its clause (``is stored in the vault`` is prose).

Blocks reach this module as single-line text (:class:`provider.wiki.plaintext.Block`), so
a value never runs past its sentence, but two short lines of one paragraph (no
punctuation between them) are one line here: the next label ends the value.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterator, Sequence

__all__ = ["CODE_QUALIFIERS", "LABEL_CHARACTERS", "LABEL_WORDS", "MAX_IS_VALUE_WORDS", "MAX_LABEL_CHARS",
           "MAX_LABEL_WORDS", "MAX_VALUE_TERMS", "names_a_secret_anywhere", "secret_values",
           "table_values", "whole_labelled_values"]

#: Words (case-folded, NFKC) of a label that names a secret; two-word names are matched as
#: a run ("code word", "master key").
LABEL_WORDS = frozenset("""
    password passwords passwd pwd passphrase passcode pin pins codeword override overrides token secret
    kennwort passwort geheimzahl zugangscode losung
    motdepasse contraseña clave senha parola wachtwoord пароль
""".split()) | frozenset({
    "pass phrase", "code word", "master key", "api key", "access key", "private key", "recovery key",
    "secret key", "security code", "security answer", "auth code", "authorisation phrase",
    "authorization phrase", "authorisation code", "authorization code", "safe word", "unlock code",
    "door code", "alarm code", "de passe", "pin code", "recovery phrase", "seed phrase", "secret phrase",
    "wifi password", "vault phrase",
    "türcode", "tresorcode", "alarmcode", "code d accès", "code d entrée", "código de acceso", "código de acesso",
    "codice di accesso",
})
#: Words that name what a code opens or does (``Override code``, ``Gate codes``): a label
#: word, or one of these, followed by a word of :data:`_CODE_WORDS` names a secret. A code
#: of nothing named (``Error code``, ``Status code``, ``code``) is none.
CODE_QUALIFIERS = frozenset("""
    override overrides door alarm gate keypad bypass disarm vault master emergency unlock
    access entry lock safe security
""".split()) | frozenset(name for name in LABEL_WORDS if " " not in name)
#: What a qualifier of :data:`CODE_QUALIFIERS` names a secret with (``Lock code``,
#: ``Alarm PIN``, ``Safe combination``; issue 24).
_CODE_WORDS = frozenset({"code", "codes", "pin", "pins", "combination", "combinations"})
#: Qualifiers that name a secret with ``number`` too (``Safe number``; not ``Access
#: number``, a dial-in phone number, nor ``Door number``, ``Gate number``).
_NUMBER_QUALIFIERS = frozenset({"safe", "lock", "alarm", "keypad", "unlock"})
#: The label words run together (``pass word`` and ``passphrase`` name the same secret).
_JOINED_LABELS = frozenset(name.replace(" ", "") for name in LABEL_WORDS)
#: Names of a secret in scripts written without spaces (matched anywhere in the label).
LABEL_CHARACTERS = ("パスワード", "暗証番号", "合言葉", "合い言葉", "秘密鍵", "密码", "密碼", "口令", "暗号",
                    "비밀번호", "암호", "패스워드")
#: Words a label has at most (``Emergency admin override code`` is 4).
MAX_LABEL_WORDS = 4
#: Characters a label of a script written without spaces has at most.
MAX_LABEL_CHARS = 12
#: Terms of a value kept at most (a longer value is prose: its block is a unit anyway).
MAX_VALUE_TERMS = 8

_SEPARATOR = re.compile(r"\s*[:：=]\s*")
#: "The staging password is swordfish": a label, then a verb, then a short value.
_IS = re.compile(r"\s+(?:is|are|ist|lautet|est|es|é|è|is now|was)\s+", re.IGNORECASE)
#: Terms a value after "is" has at most (a passphrase of four or five words; "is stored
#: in the vault" is prose by its first word: :data:`_PROSE_STARTS`).
MAX_IS_VALUE_WORDS = 5
_LABEL_WORD = re.compile(r"[^\W\d_]+")
#: Where a value ends: the end of a sentence or clause.
_VALUE_END = re.compile(r"[.!?;,](?=\s|$)|[\u3002\uff01\uff1f\uff1b\u3001\uff0c]")


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _names_a_secret(label: str) -> bool:
    folded = _fold(label)
    if any(name in folded for name in LABEL_CHARACTERS):
        return len(folded.strip()) <= MAX_LABEL_CHARS or len(folded.split()) <= MAX_LABEL_WORDS
    found = _LABEL_WORD.findall(folded)
    if not found or len(found) > MAX_LABEL_WORDS:
        return False
    # The secret's name ends the label: "Admin password", "PIN code"; not "password reset".
    # Its words may be split or joined: "pass word", "pass-word", "pass_phrase", "codeword".
    if len(found) >= 2 and found[-1] in _CODE_WORDS and found[-2] in CODE_QUALIFIERS:
        return True  # "Override code": "override" names a secret, "code" ends the label (issue 24)
    if len(found) >= 2 and found[-1] in ("number", "numbers") and found[-2] in _NUMBER_QUALIFIERS:
        return True
    if found[-1] in ("combination", "combinations") and (len(found) == 1 or found[-2] in ("the", "a", "our", "this")):
        return True  # a lock's, alone ("Combination: 12-34-56"); not "Key combination"
    return any(" ".join(found[-n:]) in LABEL_WORDS or "".join(found[-n:]) in _JOINED_LABELS for n in (1, 2, 3))


def names_a_secret_anywhere(found: list[str]) -> bool:
    """Whether folded terms ``found`` (a code line's) name a secret anywhere, however
    written: a term or two adjacent terms run together that are a secret's name
    (``apikey``), or a term holding one of 5 letters or more (``-AdminPassword``,
    ``-AccessToken``, ``secretvalue``) or a name of :data:`LABEL_CHARACTERS`."""
    joined = [*found, *map("".join, itertools.pairwise(found))]
    # No name holds a line break: a match in the joined lines is a name inside one term.
    return not _JOINED_LABELS.isdisjoint(joined) or _NAME_INSIDE.search("\n".join(joined)) is not None


#: A name :func:`names_a_secret_anywhere` finds inside a term: a joined label of 5
#: letters or more, or a name of :data:`LABEL_CHARACTERS`.
_NAME_INSIDE = re.compile("|".join(map(re.escape, sorted(
    {*(name for name in _JOINED_LABELS if len(name) >= 5), *LABEL_CHARACTERS}, key=lambda name: (-len(name), name)))))


def secret_values(text: str) -> Iterator[str]:
    """The values of the secret-naming labels of ``text`` (one block's single-line text),
    in order, as written (see the module docstring); none when it has no such label."""
    yield from _labelled(text)
    for found in _IS.finditer(text):
        # An aside in brackets is not the label's: "The alarm PIN (rotated monthly) is 4417".
        before = _ASIDE.sub(" ", text[: found.start()])
        clause = re.split(r"[.!?;,:()\[\]\u3002]\s*", before)[-1].split()
        if not _said_of_a_secret(clause):
            number = _NUMBER_BEFORE.search(text[: found.start()])
            said = re.split(r"[.!?;,:()\[\]\u3002]\s", text[found.end() :] + " ")[0].split()
            # The number first: "4417 is the alarm PIN." (issue 24).
            if number is not None and said and len(said) <= MAX_LABEL_WORDS + 1 and _said_of_a_secret(said):
                yield number.group(1)
            continue
        rest = text[found.end() :]
        end = _VALUE_END.search(rest)
        value = (rest[: end.start()] if end else rest).strip()
        # Prose goes on after the value: "… is correct horse battery staple and it rotates".
        cut = _CONJUNCTION.split(value, maxsplit=1)
        value = cut[0].strip()
        shown = value.split()
        # One word before "and" is a state ("the token is revoked and a new one is
        # created": 2 Learn articles withheld), a passphrase is words; a number is a PIN
        # ("The alarm PIN is 7305 and it rotates monthly.": issue 24).
        if len(cut) > 1 and len(shown) < 2 and not (shown and _PIN.fullmatch(shown[0])):
            continue
        if shown and len(shown) <= MAX_IS_VALUE_WORDS and _SEPARATOR.search(value) is None and \
                (len(shown) <= 2 or _fold(shown[0]) not in _PROSE_STARTS):
            yield value


#: An aside in brackets between a secret's name and its verb.
_ASIDE = re.compile(r"\s*\([^()]*\)")
#: A PIN or a code of digits (groups of digits, a separator between them).
_PIN = re.compile(r"\d+(?:[-\s]\d+)*")
#: A number that starts its clause, just before its verb ("4417 is the alarm PIN").
_NUMBER_BEFORE = re.compile(r"(?:^|[.!?;:]\s+|\s*\|\s*|·\s+)(\d{4,}(?:-\d+)*)\s*$")
#: Words after which a value said in a sentence ends (its clause goes on in prose).
_CONJUNCTION = re.compile(r"\s+(?:and|but|which|so|until|because|though|while|und|et|y|e)\s+", re.IGNORECASE)
#: Words that start prose, not a value of three words or more ("is stored in the vault").
_PROSE_STARTS = frozenset("""
    a an the not never always also only now still usually stored kept saved held set shown sent changed rotated
    managed generated used located listed given provided found printed written required needed available valid
    in on at by from with to of for under inside case same different displayed known shared reset expired
    then automatically randomly typically generally normally optional mandatory important sensitive
    it its this that these those your our their his her what where how who one used created entered
""".split())
#: Words between a secret's name and its verb ("The recovery phrase for the vault is …").
_OF_WHAT = frozenset("for of on to at".split())


def _said_of_a_secret(clause: list[str]) -> bool:
    """Whether the words before ``is`` name a secret: the label's last words, or a label
    followed by what it opens (``for the staging vault``: a preposition and up to three
    words)."""
    if not clause:
        return False
    if _names_a_secret(" ".join(clause[-MAX_LABEL_WORDS:])):
        return True
    for at in range(max(1, len(clause) - 4), len(clause)):
        if _fold(clause[at]) in _OF_WHAT and _names_a_secret(" ".join(clause[max(0, at - MAX_LABEL_WORDS) : at])):
            return True
    return False


def whole_labelled_values(text: str) -> list[str]:
    """The values of ``text``'s ``label: value`` lines that end where their clause does,
    not where another secret's label starts: a value a secret's label gives whole
    (``Passphrase: correct horse battery staple``), not the words of a prompt cut by the
    next prompt's label (``New password: Re-enter new password:`` in
    ``mysql_secure_installation``'s output gives ``Re-enter new``)."""
    return [value for value, cut in _labelled_values(text) if not cut]


def _labelled(text: str) -> Iterator[str]:
    for value, _ in _labelled_values(text):
        yield value


def _labelled_values(text: str) -> Iterator[tuple[str, bool]]:
    separators = list(_SEPARATOR.finditer(text))
    for number, sep in enumerate(separators):
        start = separators[number - 1].end() if number else 0
        before = text[start : sep.start()]
        # The label: the last clause before the separator ("Call us. Password: x").
        label = re.split(r"[.!?;,()\[\]\u3002]\s*", before)[-1]
        label_words = label.split()
        if len(label_words) > MAX_LABEL_WORDS:
            label = " ".join(label_words[-MAX_LABEL_WORDS:])
        if not label.strip() or not _names_a_secret(label):
            continue
        rest = text[sep.end() :]
        end = _VALUE_END.search(rest)
        value = rest[: end.start()] if end else rest
        following = _SEPARATOR.search(value)
        if following is not None:  # the next label ends this value: drop that label's words
            head = value[: following.start()].split()
            value = " ".join(head[:-1]) if len(head) > 1 else ""
        value = value.strip()
        if value:
            yield value, following is not None


#: How :mod:`provider.wiki.plaintext` joins a table row's cells into one block.
_CELL = " · "


def table_values(texts: Sequence[str]) -> dict[int, list[str]]:
    """The values a table's column gives under a secret's name: ``texts`` (a page's
    blocks, a table row each as its cells joined by `` · ``) → for each row (by index)
    under a header row with a cell naming a secret (``| System | PIN |``), that column's
    cell when it is one term holding a digit (``| Alarm | 4417 |`` gives ``4417``; issue
    24). Only a table's first row is its header (a row ``| Password | The password of
    … |`` of an options table names no column). A row of another number of cells, or a
    block of no cells, ends the table."""
    out: dict[int, list[str]] = {}
    columns: list[int] = []
    width = 0
    for number, text in enumerate(texts):
        cells = text.split(_CELL) if _CELL in text else []
        if len(cells) != width:  # a table's first row is its header; a row of its body names nothing
            columns = [at for at, cell in enumerate(cells)
                       if cell.strip() and len(cell.split()) <= MAX_LABEL_WORDS and _names_a_secret(cell)]
            width = len(cells)
            continue
        found = [cells[at].strip() for at in columns
                 if len(cells[at].split()) == 1 and any(ch.isdigit() for ch in cells[at])]
        if found:
            out[number] = found
    return out
