"""Why a ledger file read from git does not hash to its name, when git itself
rewrote it: a rule (in ``.gitattributes``, or in ``$GIT_DIR/info/attributes``, which
outranks it) that filters or converts ledger files as git stores or checks them out.

Stores: nothing.
Refuses: nothing (a note, or None when no rule converts ledger files).
Returns: ``conversion_note`` (the cause and the fix: the line that takes the ledger
out of every conversion, in the file that decides, then ``git add --renormalize``);
``with_conversion`` (a ``LedgerError`` with that note).
Test: tests/ledger/test_ledger_filter_rule.py
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from forest_files import gitio
from forest_files.kernel.errors import ForestError
from forest_files.kernel.paths import GITATTRIBUTES_LINE, LEDGER_PREFIX
from forest_files.kernel.shellword import shell_word
from forest_files.ledger.acts import LedgerError

# What makes git rewrite a file between the work tree and what it stores (a clean or
# smudge filter, line-end conversion, $Id$ expansion, re-encoding): never wanted on
# the ledger, whose file names are the SHA-256 of their bytes.
_CONVERTING = ("filter", "text", "eol", "ident", "working-tree-encoding", "crlf")
_PROBES = (
    f"{LEDGER_PREFIX}segments/{'0' * 64}.jsonl",
    f"{LEDGER_PREFIX}bodies/00/{'0' * 64}.txt",
)
UNCONVERTED_LINE = GITATTRIBUTES_LINE  # forest init's line: the fix for an older repository


def conversion_note(root: Path, code: str) -> str | None:
    """Why a ledger file read from git does not hash to its name (``code``:
    ``body-hash`` or ``segment-name``) when a ``.gitattributes`` rule makes git rewrite
    ledger files, with the fix; None when no rule does. One ``git check-attr``."""
    try:
        found = gitio.attributes(root, list(_PROBES))
    except ForestError:
        return None
    rules = sorted(
        {
            attr if value == "set" else f"{attr}={value}"
            for attrs in found.values()
            for attr, value in attrs.items()
            if attr in _converting(attrs) and value not in ("unset", "unspecified")
        }
    )
    if not rules:
        return None
    path = _PROBES[1] if code == "body-hash" else _PROBES[0]
    probe = shell_word(path)
    names = sorted({r.partition("=")[0] for r in rules})
    info = _info_rules(root, path, names)
    where, why = (
        (".gitattributes", "") if info is None else (info, ", which outranks .gitattributes")
    )
    return (
        f"a rule in {where}{why} makes git rewrite ledger files ({', '.join(rules)}); end "
        f"{where} with the line '{UNCONVERTED_LINE}' (git check-attr -a -- {probe} "
        f"names the rule), then git add --renormalize -- {LEDGER_PREFIX.rstrip('/')}"
    )


def _info_rules(root: Path, path: str, names: list[str]) -> str | None:
    """``$GIT_DIR/info/attributes`` when a line of it sets ``names`` for ``path``."""
    try:
        return gitio.info_rules(root, path, names)
    except ForestError:
        return None


def _converting(attrs: Mapping[str, str]) -> tuple[str, ...]:
    """The attributes that convert a path with ``attrs``: with ``text`` unset (``forest
    init``'s ``-text``) git ignores ``eol`` and the old ``crlf``, so ``* eol=lf`` above
    that line rewrites nothing and is no cause to name."""
    if attrs.get("text") == "unset":
        return tuple(a for a in _CONVERTING if a not in ("eol", "crlf"))
    return _CONVERTING


def with_conversion(root: Path, exc: LedgerError) -> LedgerError:
    """``exc`` (a segment or body read from git that does not hash to its name) with
    ``conversion_note``'s cause and fix; ``exc`` itself for any other fault."""
    if exc.code not in ("body-hash", "segment-name"):
        return exc
    note = conversion_note(root, exc.code)
    if note is None:
        return exc
    reason = f"{exc.reason}: {note}"
    return LedgerError(reason, segment=exc.segment, line=exc.line, act_id=exc.act_id, code=exc.code)


__all__ = ["UNCONVERTED_LINE", "conversion_note", "with_conversion"]
