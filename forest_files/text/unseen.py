"""What a person reviewing a proposal could not see on a terminal: characters that show
as nothing or as a plain space, and words that mix look-alike scripts.

Stores: nothing.
Refuses: nothing (a proposal may hold any of these rightly: a no-break space in French,
a joiner in an emoji); they are made visible, and adopting writes the text as sent.
Returns: ``shown(text)``: ``text`` with each invisible character (a format character
such as U+200B, U+00AD, U+200F or a tag, a private-use or unassigned code point, a
variation selector or filler, a space other than U+0020: kernel/invisible.py) written
as its code (``<U+200B>``); ``lookalikes(ground, text)``: one line per word of ``text`` that ground
does not hold whose letters mix Latin, Cyrillic, Greek, … (``w\u043erds`` with a
Cyrillic o), naming its line and the odd letters' codes, at most ``SHOWN``.
Test: tests/proposals/test_proposals.py

The mixed-script test is Unicode's (UTS #39, "mixed-script confusables") over the
scripts whose letters pass for Latin ones; a word wholly in one such script (``paypal``
spelt all in Cyrillic) is not flagged: that needs the confusables table.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from forest_files.kernel.invisible import invisible

SHOWN = 5  # look-alike words named; then how many more
_LOOKALIKE_SCRIPTS = frozenset(
    {"LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC", "FULLWIDTH", "MATHEMATICAL"}
)
_WORD = re.compile(r"\w+")


def _code(ch: str) -> str:
    # kernel/shellword.py's printable is the one escaper of what a terminal obeys;
    # what it would only hide is named as the look-alike notes name a letter
    return f"<U+{ord(ch):04X}>"


def shown(text: str) -> str:
    """``text`` with each character a terminal shows as nothing or a space as its code."""
    if text.isascii():
        return text
    return "".join(_code(ch) if invisible(ch) else ch for ch in text)


def _script(ch: str) -> str:
    return unicodedata.name(ch, "").split(" ", 1)[0]


def _odd_letters(word: str) -> list[str] | None:
    """The letters of ``word`` outside its main script, if it mixes look-alike ones."""
    scripts = [_script(ch) if ch.isalpha() else "" for ch in word]
    mixed = {s for s in scripts if s in _LOOKALIKE_SCRIPTS}
    if len(mixed) < 2:
        return None
    main = Counter(s for s in scripts if s in mixed).most_common(1)[0][0]
    return [ch for ch, s in zip(word, scripts, strict=True) if s in mixed and s != main]


def lookalikes(ground: str, text: str) -> list[str]:
    """One note per word of ``text`` (not in ``ground``) mixing look-alike scripts."""
    from forest_files.kernel.shellword import printable

    known = set(_WORD.findall(ground))
    notes: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for word in _WORD.findall(line):
            # an ASCII word is of one script: nothing to mix
            odd = None if word.isascii() or word in known else _odd_letters(word)
            if odd:
                codes = ", ".join(f"U+{ord(ch):04X}" for ch in dict.fromkeys(odd))
                scripts = " and ".join(sorted({_script(ch) for ch in word if ch.isalpha()}))
                notes.append(
                    f"  look-alike: line {number}: {printable(shown(word))!r} mixes "
                    f"{scripts} letters ({codes}); adopted, the file holds them as sent"
                )
    if len(notes) > SHOWN:
        notes[SHOWN:] = [f"  look-alike: and {len(notes) - SHOWN} more word(s) like these"]
    return notes
