"""Splice: a file's new bytes with one section's lines replaced by ground, in memory.

Stores: nothing (bytes in, bytes out).
Refuses (one-line ``ForestError``): a ground whose body an erase removed (the
marker ``[erased]``, ``refuse_erased``: never written into a file); bytes that are
not UTF-8 text, a NUL byte or a
lone CR (naming the offset, and what to fix first: a section's lines cannot be found
in them), but for a whole-file binding without exclusions, whose new bytes are ground
whole; a file holding git's merge conflict markers (its sections are not yet
where they will stand: a conflict's ``=======`` reads as a heading's underline);
a section that cannot be found (restore needs its lines), or a symbol's file that is
not Python (fix it, then restore again); a heading's section an edit made hide the
sections after it, where they cannot stay, or cut short by a heading made of
ground's lines or put among them (restore_swallowed.py, restore_cut_short.py); a
result whose section would not read as ground, or would not be found at all (``WouldNotStand``; with
exclusions: an excluded heading placed where it would swallow ground lines).
Exclusions: the excluded parts are not in ground, so they are kept as they are
now, each placed where it stood relative to the surrounding kept lines. Sections an
edit hides (an unclosed fence or comment) are kept after ground, as they stand, when
the result reads back so (restore_swallowed.py ``stands_after``).
Returns: (new file bytes, the text the section held; the file's bytes when it was not
text: then ground in the file's style where its bytes leave no doubt, ``in_file_style``:
its BOM kept, CRLF where every line end was CRLF, else ground as it is). Every byte outside the
section's lines — other lines, their line endings, a BOM — is left exactly as
it was; ground's lines reuse each unchanged original line byte for byte, and new
or changed lines use the line ending the section used (CRLF or LF). Under declared
normalisations (ground is the normalised text: the bytes they drop are in no record) a
line reading as ground's keeps its bytes and a line reading as nothing (a comment, a
docstring, a run of blank lines) stays; a drifted line comes back as ground holds it
(restore_merge.py); should that not read back, ground's normalised lines are written
wherever the bytes differ.
Test: tests/custody/test_restore.py, tests/text/test_selector_rules.py,
tests/custody/test_restore_file_style.py, tests/custody/test_restore_normalised.py,
tests/custody/test_restore_swallowed.py
"""

from __future__ import annotations

import re
from collections.abc import Callable

from forest_files.custody.restore_merge import merge_lines
from forest_files.custody.restore_swallowed import guard, refusal, stands_after
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import forest_text
from forest_files.store.entryrow import ERASED_MARK
from forest_files.text.conflict_markers import has_markers
from forest_files.text.extract import extract
from forest_files.text.normalise import SourceRefused, decode_bytes, normalise_text
from forest_files.text.normalisers import PREFIX as NORMALISED
from forest_files.text.selector import Selector, parse_selector
from forest_files.text.selector_errors import SelectorError


class WouldNotStand(ForestError):
    """Written in, the text would not read back as the section (it would end elsewhere,
    or the selector would find no section): a caller writing someone's text rather than
    ground (a proposal) words the refusal for that text."""


_HEADINGS = ("heading", "anchor")  # selectors of a Markdown heading's section
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def split_lines(text: str) -> list[str]:
    """Lines with their own terminators, one per normalised line."""
    return _LINE.findall(text)


def splice(
    original: bytes,
    selector: str,
    excludes: tuple[str, ...],
    ground: str,
    path: str,
    *,
    committed: Callable[[], str | None] | None = None,
) -> tuple[bytes, str | bytes]:
    """(new file bytes, the text the section held) — only the section's lines change;
    a whole-file binding's file that is not text: (ground, the file's bytes).
    ``committed``: the file's text at HEAD (restore_files.py ``committed_text``), asked
    only when a heading that cuts a section short may be new (restore_cut_short.py)."""
    try:
        decode_bytes(original, path)  # refuses binary / invalid UTF-8, naming the offset
    except SourceRefused as exc:
        return _over_whole(original, selector, excludes, ground, exc)
    if has_markers(original):
        check = forest_text("check")
        raise ForestError(
            f"{path}: the file holds unresolved merge conflicts (its <<<<<<<, ======= "
            f"and >>>>>>> lines); nothing was written — resolve them first (`{check}` "
            "shows how), then restore again"
        )
    raw = original.decode("utf-8")  # as stored: BOM and line endings kept
    bom = "\ufeff" if raw.startswith("\ufeff") else ""
    body = raw[len(bom) :]
    sel = parse_selector(selector)
    try:
        got = extract(normalise_text(body), sel, excludes)
    except SelectorError as exc:
        raise _not_python(exc, path) from None
    lines = split_lines(body)
    lo, hi = got.start_line - 1, got.end_line  # 0-based slice of the section's lines
    section = lines[lo:hi]
    hidden = None  # an edit may hide the sections after a heading's, or cut it short
    if sel.kind in _HEADINGS:
        around = (lines[:lo], lines[lo:hi], lines[hi:])
        hidden = guard((selector, excludes), path, around, got, ground, committed)
    if hidden is not None:  # the hidden sections stay after ground, as they stand
        hi = lo + hidden.line
        section = lines[lo:hi]
    crlf = sum(x.endswith("\r\n") for x in section or lines)
    lf = sum(x.endswith("\n") and not x.endswith("\r\n") for x in section or lines)
    eol = "\r\n" if crlf > lf else "\n"
    kept, inserts = _split_excluded(section, got.start_line, got.cuts)
    plain = "".join(x.rstrip("\r\n") + ("\n" if x.endswith(("\n", "\r")) else "") for x in kept)
    new = ""
    # Lines reading as ground's under the declared normalisations keep their bytes
    # (restore_merge.py); should that not read back (a line kept as it stands reading
    # otherwise beside ground's), ground is written where lines differ byte for byte.
    # The reading of a section cut short at its hidden sections is the lines kept.
    for read in dict.fromkeys((plain,) if hidden is not None else (got.text, plain)):
        replacement = merge_lines(kept, ground, eol, inserts, read)
        if hi < len(lines) and replacement and not replacement.endswith(("\n", "\r")):
            replacement += eol  # keep the following line on its own line
        new = bom + "".join(lines[:lo]) + replacement + "".join(lines[hi:])
        end = _reads_back(new[len(bom) :], sel, excludes, ground)
        if end is not None and (
            hidden is None
            or stands_after(
                new[len(bom) :], end, "".join(lines[hi : got.end_line]), body, got.end_line
            )
        ):
            break
        if hidden is not None:  # kept after ground, the hidden sections would not stand
            raise refusal(selector, path, got.start_line, hidden)
    else:
        cut = [e for e in excludes if not e.startswith(NORMALISED)]
        why = (
            "around the excluded parts as they stand now (they would change the section)"
            if cut
            else "under its declared normalisations as the file stands now: written in, "
            "the section would not read back as ground (it would end elsewhere, or a "
            "line kept as it stands would change it)"
            if excludes
            else "here: written in, the section would end elsewhere (a line after it reads as"
            " part of it, or ground's own lines as a heading that ends it)"
        )
        raise WouldNotStand(
            f"{selector}: ground cannot be restored {why}; nothing was written — edit by "
            "hand (`forest diff` shows ground)"
        )
    return new.encode("utf-8"), got.text


def _not_python(exc: SelectorError, path: str) -> SelectorError:
    """A symbol's file that does not parse as Python, refused as a restore (its
    message says to fix it before binding); any other refusal as it is."""
    from forest_files.text.pysymbol import SymbolSourceError  # loaded when it raised

    if not isinstance(exc, SymbolSourceError) or not (exc.where and exc.fix):
        return exc
    return SymbolSourceError(
        f"{path}: not valid Python ({exc.where}); nothing was written — {exc.fix}, then "
        "restore again",
        exc.where,
        exc.fix,
    )


def refuse_erased(selector: str, ground: str) -> None:
    """The marker an erase leaves in the index is no ground text: never written."""
    if ground == ERASED_MARK:
        raise ForestError(
            f"{selector}: its ground's body was erased (forest forget); nothing was written — "
            "take the erased text out of the file, then `forest supersede` or `forest retire`"
        )


def _over_whole(
    original: bytes, selector: str, excludes: tuple[str, ...], ground: str, exc: SourceRefused
) -> tuple[bytes, bytes]:
    """A file the reader refuses (a NUL byte, not UTF-8, a lone CR): a whole-file
    binding without exclusions is written over with ground (nothing of the file is
    kept in it: its bytes go to the capture); any other restore needs the file's text
    around the section, so it is refused, with the byte to fix first."""
    if not excludes and parse_selector(selector).kind == "file":
        return in_file_style(ground, original), original
    said, _, advice = str(exc).partition("; ")  # PATH: REASON at byte offset N (line L)
    fix = (
        advice.rpartition(": ")[2]  # a lone CR's: end that line with LF (or CRLF) …
        if "(a lone CR)" in said
        else "make it UTF-8 text again (remove that byte, or save the file as UTF-8)"
    )
    need = "the text of the excluded parts" if excludes else f"the text around {selector}"
    raise ForestError(
        f"{said}; nothing was written — the restore needs {need}: {fix}, then restore again"
    )


_BOM = "\ufeff".encode()


def in_file_style(ground: str, like: bytes) -> bytes:
    """``ground`` (LF, no BOM: custody's normalised text) as a file of ``like``'s style
    holds it where its bytes leave no doubt: a BOM kept, and CRLF line ends when every
    line end of ``like`` is a CRLF; else ground as it is. Read back it is ground."""
    bom = _BOM if like.startswith(_BOM) else b""
    ends = like.count(b"\n")
    crlf = ends > 0 and like.count(b"\r\n") == ends
    return bom + (ground.replace("\n", "\r\n") if crlf else ground).encode("utf-8")


def _reads_back(text: str, sel: Selector, excludes: tuple[str, ...], ground: str) -> int | None:
    """The section's last line when the selector finds ``ground`` in ``text``, else
    None; a selector that finds nothing there (the text drops or renames the heading it
    names) or finds twice does not."""
    try:
        got = extract(normalise_text(text), sel, excludes)
    except SelectorError:
        return None
    return got.end_line if got.text == ground else None


def _split_excluded(
    section: list[str], first_line: int, cuts: tuple[tuple[int, int], ...]
) -> tuple[list[str], dict[int, list[str]]]:
    """The section's kept lines, and each excluded line keyed by how many kept lines
    precede it (where it goes back among ground's lines)."""
    excluded = {n for start, end in cuts for n in range(start, end + 1)}
    kept: list[str] = []
    inserts: dict[int, list[str]] = {}
    for offset, line in enumerate(section):
        if first_line + offset in excluded:
            inserts.setdefault(len(kept), []).append(line)
        else:
            kept.append(line)
    return kept, inserts
