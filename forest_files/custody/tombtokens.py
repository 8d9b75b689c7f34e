"""Long tokens of a text: what a tombstone fingerprints besides whole lines.

A forgotten secret must stay out when it comes back inside another line, alone
on a line, with other text around it, in words, a signature or a file name.
So a tombstone also holds salted fingerprints of the erased body's long tokens.

Normalisation (both sides alike): each line is normalised as a tombstone line is
(``tombstone.normalise_line``) after zero-width characters (U+200B..U+200D,
U+2060, U+FEFF, U+00AD, U+180E) are removed and NFKC is applied; a candidate is
then case folded (``str.casefold``) before it is hashed.

Candidates (both sides alike): every whitespace-separated run, with wrapping
punctuation (quotes, brackets, ``,;.!?*``) stripped; its *parts* split at
``= : , ; ' " ` ( ) [ ] { } < > | @ ? & # ! *``; and its *pieces* split at those
and ``/ \\ .`` too. Only candidates of at least ``MIN_TOKEN`` (16) characters
count. A text is checked by fingerprinting all of its candidates.

Which candidates a tombstone keeps (``secret_like``): a candidate that is not
*plain* and either has at least ``LONG_TOKEN`` (20) characters or has a Shannon
entropy of at least ``MIN_ENTROPY`` (3.0) bits per character (measured on the
unfolded characters). *Plain* means every word of it (split at ``- _ . / \\ :
~ + % # ? & = @``) is shorter than 16 characters and changes character class
(lower case, upper case, digit; a leading capital is free) at most twice:
URLs, paths, domain names, file names, hyphenated phrases and ISO timestamps
are plain, so they pass; ``sk_live_4eC39HqLyjWD…`` or ``AKIAIOSFODNN7EXAMPLE``
are not. A hex string that names an object of the repository (a commit hash)
is left out by the caller (``innocent``). docs/tombstones.md gives examples.

Stores: nothing (pure functions).
Refuses: nothing.
Returns: candidates with their line numbers; token fingerprints.
Test: tests/custody/test_tombtokens.py
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import pairwise

MIN_TOKEN = 16
LONG_TOKEN = 20
MIN_ENTROPY = 3.0
MAX_PLAIN_WORD = 16
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e"))
_WRAP = "\"'`()[]{}<>,;.!?*"
_PART_SPLIT = re.compile(r"[=:,;'\"`()\[\]{}<>|@?&#!*]+")
_PIECE_SPLIT = re.compile(r"[=:,;'\"`()\[\]{}<>|@?&#!*/\\.]+")
_WORD_SPLIT = re.compile(r"[-_./\\:~+%#?&=@]+")
_HEX = re.compile(r"[0-9a-f]{16,64}")


_MARKERS = re.compile(r"^(?:[#>*+|\-]+|\d{1,9}[.)])\s*")
_SPACES = re.compile(r"\s+")


def normalise_line(line: str) -> str:
    """The form a tombstone line is fingerprinted in (custody/tombstone.py): NFC;
    leading Markdown markers and list numbers dropped; whitespace runs one space."""
    text = _SPACES.sub(" ", unicodedata.normalize("NFC", line)).strip()
    for _ in range(4):  # "> - 1. text": a few nested markers, no more
        stripped = _MARKERS.sub("", text, count=1)
        if stripped == text:
            break
        text = stripped
    return text.rstrip("| ").strip()


def prepare_line(raw: str) -> str:
    """A line as tokens are read from it (see the module docstring)."""
    return normalise_line(unicodedata.normalize("NFKC", raw.translate(_ZERO_WIDTH)))


def _candidates_of_run(run: str) -> set[str]:
    run = run.strip(_WRAP)
    out = {run}
    for split in (_PART_SPLIT, _PIECE_SPLIT):
        out.update(part.strip(_WRAP) for part in split.split(run))
    return {c for c in out if len(c) >= MIN_TOKEN}


def candidates(text: str) -> Iterator[tuple[int, str]]:
    """(line number, candidate) of every candidate of ``text``, unfolded."""
    for number, raw in enumerate(text.splitlines(), 1):
        seen: set[str] = set()
        for run in prepare_line(raw).split(" "):
            if len(run) >= MIN_TOKEN:
                seen |= _candidates_of_run(run)
        for candidate in sorted(seen):
            yield number, candidate


def fingerprint(project: str, token: str) -> str:
    """The salted fingerprint of a candidate, folded; its domain ("\\0token ") keeps
    it apart from a line's and from the body mark."""
    folded = unicodedata.normalize("NFKC", token.casefold())
    return hashlib.sha256(f"{project}\0\0token {folded}".encode()).hexdigest()


def entropy(text: str) -> float:
    """Shannon entropy of ``text``'s characters, in bits per character."""
    if not text:
        return 0.0
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values())


def _class(ch: str) -> str:
    return "d" if ch.isdigit() else "u" if ch.isupper() else "l" if ch.islower() else "o"


def _plain_word(word: str) -> bool:
    if len(word) >= MAX_PLAIN_WORD:
        return False
    classes = [_class(c) for c in word]
    if len(classes) > 1 and classes[0] == "u" and classes[1] == "l":
        classes[0] = "l"  # a leading capital is free: "Forest", "Readme"
    return sum(a != b for a, b in pairwise(classes)) <= 2


def plain(candidate: str) -> bool:
    """Words only: a URL, a path, a file name, a phrase, a timestamp (see module)."""
    return all(_plain_word(w) for w in _WORD_SPLIT.split(candidate) if w)


def secret_like(candidate: str) -> bool:
    """Whether a tombstone keeps ``candidate`` (see the module docstring)."""
    if len(candidate) < MIN_TOKEN or plain(candidate):
        return False
    return len(candidate) >= LONG_TOKEN or entropy(candidate) >= MIN_ENTROPY


def hex_candidates(text: str) -> set[str]:
    """Candidates that could be object names of a repository (16-64 hex digits)."""
    return {c.lower() for _, c in candidates(text) if _HEX.fullmatch(c.lower())}


def token_fingerprints(
    project: str, text: str, innocent: Callable[[str], bool] | None = None
) -> frozenset[str]:
    """Fingerprints of the secret-like candidates of ``text`` a tombstone keeps;
    ``innocent`` leaves more out (the repository's own object names)."""
    out = set()
    for _, candidate in candidates(text):
        if secret_like(candidate) and not (innocent is not None and innocent(candidate)):
            out.add(fingerprint(project, candidate))
    return frozenset(out)


def all_fingerprints(project: str, text: str) -> Iterator[tuple[int, str]]:
    """(line number, fingerprint) of every candidate: what a checked text offers."""
    for number, candidate in candidates(text):
        yield number, fingerprint(project, candidate)
