"""The praise lint: enthusiasm alone is not an authority act.

Stores: nothing.
Refuses: adopting words that are only praise ("lovely!", "sounds good",
"that's great.") with ``CeremonyRefusal`` "enthusiasm is not root". A
convenience for English speakers, not the security wall: the wall is the
recorded signature and the hash-checked gate.
Returns: None.
Test: tests/test_store_hostile.py
"""

from __future__ import annotations

import re

from forest_files.errors import CeremonyRefusal

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
