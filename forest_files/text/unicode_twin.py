"""A name typed in another Unicode normalisation than the file spells it (``Café`` as
``e`` + U+0301 against U+00E9): the clause a refusal gives it.

Selectors and content ids stay exact bytes: a heading or path is never matched
across normalisations (two spellings are two names to git and to the ledger).
A refusal that found no match but would have under NFC says so, names the name as
the file spells it (and its code points, since both look alike on a screen), and
gives the exact selector to paste.

Stores: nothing. Refuses: nothing.
Returns: ``nfc`` of a text; ``twin_selector``, the one of some selectors a target
names but for normalisation (its full selector or a heading-path tail); ``twin_clause``,
the clause naming the spelling found and the selector to give.
Test: tests/text/test_unicode_twin.py
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import shell_word
from forest_files.text.selector import parse_selector, render_path


def nfc(text: str) -> str:
    """``text`` in Unicode normalisation form C (only for comparing: never stored)."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def form_of(text: str) -> str:
    """The normalisation form ``text`` is in: NFC, NFD or neither."""
    if unicodedata.is_normalized("NFC", text):
        return "NFC"
    return "NFD" if unicodedata.is_normalized("NFD", text) else "neither NFC nor NFD"


def twin_clause(typed: str, spelled: str, selector: str, *, holder: str = "the file") -> str:
    """The clause a refusal adds when ``typed`` (a name as given) differs from
    ``spelled`` (the same name as ``holder`` holds it) only in normalisation:
    ``selector`` is the one to give instead."""
    return (
        f"{holder} spells it {spelled!r} ({spelled!a}, {form_of(spelled)}), which differs "
        f"from {typed!a} ({form_of(typed)}) only in Unicode normalisation, a different "
        f"name to git and to the ledger: give {shell_word(selector)}"
    )


def twin_selector(target: str, selectors: Iterable[str]) -> str | None:
    """The first of ``selectors`` that ``target`` names only once both are in NFC (the
    whole selector, or a tail of its heading path; a file: the path of any of them,
    as a selector), or None."""
    if target.isascii():
        return None
    try:
        want = parse_selector(nfc(target))
        for spelled in selectors:
            got = parse_selector(nfc(spelled))
            if want.kind == "file" and got.path == want.path:  # the file of any binding
                return render_path(parse_selector(spelled).path)
            same = (got.path, got.kind) == (want.path, want.kind)
            if not same or (want.index is not None and got.index != want.index):
                continue
            if got.parts[len(got.parts) - len(want.parts) :] == want.parts:
                return spelled
    except ForestError:  # a target that is no selector: nothing to name
        return None
    return None
