"""The praise lint: enthusiasm alone is not an authority act.

Stores: nothing.
Refuses: adopting words that are only praise ("lovely!", "sounds good",
"that's great.") with ``CeremonyRefusal`` "enthusiasm is not root". A
convenience for English speakers, not the security wall: the wall is the
recorded signature and the hash-checked gate.
Returns: None.
Test: tests/store/test_store_hostile.py
"""

from __future__ import annotations

import re

from forest_files.kernel.errors import CeremonyRefusal

_PRAISE_WORDS = (
    "lovely|beautiful|great|wonderful|perfect|nice"
    r"|sounds\s+right|sounds\s+good|love\s+it"
)
_PRAISE = re.compile(
    rf"(?:oh)?[,!]?\s*(?:that'?s\s+)?(?:{_PRAISE_WORDS})\.?!?",
    re.IGNORECASE,
)


def is_praise(words: str) -> bool:
    return _PRAISE.fullmatch(words.strip()) is not None


def refuse_praise(words: str) -> None:
    if is_praise(words):
        raise CeremonyRefusal(
            "enthusiasm is not root: praise alone does not adopt text; say what is adopted, "
            "e.g. 'root this entry exactly as displayed'"
        )


# What a printed route leaves for the user to fill in; pasted as is, it must not sign.
_PLACEHOLDER_WORDS = re.compile(r"[\s.…\"'`]*")
_PLACEHOLDER_NAMES = frozenset({"NAME", "NAME <EMAIL>", "NAME <email>", "<NAME>", "YOUR NAME"})


def placeholder_words(words: str) -> str | None:
    """Why ``words`` are a placeholder rather than adopting words (None: they are not)."""
    if _PLACEHOLDER_WORDS.fullmatch(words):
        return (
            f"--words {words.strip()!r} is the placeholder of a printed route, not your words; "
            "say why this text is right, e.g. --words 'Amended after the review of 3 May'"
        )
    return None


def placeholder_signature(by: str) -> str | None:
    """Why ``by`` is a placeholder signature (None: it is not): ``NAME`` from old docs,
    or a route's ``…`` (dots, quotes) typed as the signature — neither names anyone."""
    if by.strip() in _PLACEHOLDER_NAMES or (by.strip() and _PLACEHOLDER_WORDS.fullmatch(by)):
        return (
            f"--as {by.strip()!r} is a placeholder; leave --as out to sign as your git "
            "identity, or give your name: --as 'Ada Lovelace <ada@example.org>'"
        )
    return None
