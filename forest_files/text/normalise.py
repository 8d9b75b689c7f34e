"""Text normalisation of bound files: one declared policy, recorded with every binding.

Policy ``utf8-nobom-lf``: decode as strict UTF-8, drop one leading BOM, turn
CRLF into LF. Nothing else changes (no trailing-space or final-newline fixes,
no Unicode normalisation), so the policy is small enough to be re-implemented
exactly by a later version.

A carriage return not followed by a line feed (a lone CR) is refused, never read
as a line end: bash, git and Go read ``echo x<CR>curl … | sh`` as one line, Python
and YAML as two, so a bound section whose LF became a CR would hash as adopted
while a shell runs other code. (``normalise_text`` still turns a lone CR of text
that is no file's, a proposal's, into LF.)

Stores: nothing.
Refuses: binary content (a NUL byte), invalid UTF-8 and a lone CR, with
``SourceRefused`` naming the file, the byte offset and its line (LF-counted); never
echoes the bytes themselves.
Returns: normalised ``str``; ``SourceRefused.of_bound_file`` (the refusal ending with
what fixes a file already bound, for a check's finding); ``LineIndex``/``Section``,
the one definition of a line (split on LF only) that every section resolver shares.
Test: tests/text/test_normalise.py
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from forest_files.kernel.errors import ForestError

NORMALISATION = "utf8-nobom-lf"
_BOM = "\ufeff"
_BOM_BYTES = _BOM.encode("utf-8")
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
# The reasons of a ``SourceRefused`` (``.reason``), said in its message; a check's route
# chooses by them (check/route_not_text.py)
NUL_BYTE, UTF16_TEXT, NOT_UTF8 = (
    "binary content (NUL byte)",
    "UTF-16 text (NUL byte)",
    "invalid UTF-8",
)
LONE_CR = "a carriage return not followed by a line feed (a lone CR)"
_NUL, _UTF16, _UTF8 = NUL_BYTE, UTF16_TEXT, NOT_UTF8
# what fixes a file already bound (the default advice is an adoption's: bind another)
_BOUND_FIX = {
    _NUL: "a bound file must stay text: remove that byte",
    _UTF16: "a bound file must stay UTF-8 text: save it as UTF-8",
    _UTF8: "a bound file must stay UTF-8 text: save it as UTF-8 (or remove those bytes)",
}


class SourceRefused(ForestError):
    """The file is not UTF-8 text, so no section of it can be bound."""

    def __init__(
        self, path: str, offset: int, reason: str, advice: str = "", line: int = 0
    ) -> None:
        self.path = path
        self.offset = offset
        self.reason = reason
        self.line = line
        self.advice = advice  # the reader's own ("": the default, an adoption's)
        where = f"byte offset {offset}" + (f" (line {line})" if line else "")
        self.said = f"{path}: {reason} at {where}"  # what is wrong and where, no advice
        advice = advice or (
            "only UTF-8 text files can be bound "
            "(re-encode the file as UTF-8, or bind a text file instead)"
        )
        super().__init__(f"{self.said}; {advice}")

    def of_bound_file(self) -> str:
        """The refusal as a bound file's finding says it: ending with what fixes that
        file, not the default advice, an adoption's (bind a text file instead). A lone
        CR's own advice already says what fixes it."""
        fix = None if self.advice else _BOUND_FIX.get(self.reason)
        return str(self) if fix is None else f"{self.said}; {fix}"


def normalise_text(text: str) -> str:
    """Apply the line-ending and BOM policy to already-decoded text (idempotent)."""
    text = text.removeprefix(_BOM)
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def normalised_hash(data: bytes) -> str | None:
    """``hash_body(decode_bytes(data))`` without the refusal: None when ``data`` is not
    UTF-8 text or holds a lone CR. Bytes with no CR and no BOM are their own normalised
    encoding, so they are only validated and hashed as they are (no str round trip)."""
    import hashlib

    has_cr = b"\r" in data
    if has_cr and _lone_cr(data) >= 0:
        return None
    if not has_cr and not data.startswith(_BOM_BYTES):
        if not data.isascii():  # ASCII is UTF-8; only other bytes need the decoder
            try:
                data.decode("utf-8")  # validity only
            except UnicodeDecodeError:
                return None
        return hashlib.sha256(data).hexdigest()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return hashlib.sha256(normalise_text(text).encode("utf-8")).hexdigest()


def decode_bytes(data: bytes, path: str) -> str:
    """Decode file bytes under the policy, or refuse naming ``path`` and the offset."""
    nul = data.find(b"\x00")
    if nul >= 0:
        reason = _UTF16 if data.startswith(_UTF16_BOMS) else _NUL
        raise SourceRefused(path, nul, reason, line=_line_of(data, nul))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = _line_of(data, exc.start)
        raise SourceRefused(path, exc.start, _UTF8, line=line) from None
    lone = _lone_cr(data) if "\r" in text else -1
    if lone >= 0:
        raise SourceRefused(
            path,
            lone,
            LONE_CR,
            "a shell, git and most compilers read it inside a line, other tools as a line "
            "end, so the file's lines are not one text: end that line with LF (or CRLF) "
            "or remove the CR",
            line=_line_of(data, lone),
        )
    return normalise_text(text)


def _line_of(data: bytes, offset: int) -> int:
    """The 1-based line (counted by LF) holding byte ``offset`` of ``data``."""
    return data.count(b"\n", 0, offset) + 1


def _lone_cr(data: bytes) -> int:
    """The offset of the first CR not followed by LF in ``data``; -1 when none. (Counted
    first: a CRLF file is told apart without a step per line.)"""
    if data.count(b"\r") == data.count(b"\r\n"):
        return -1
    pos = data.find(b"\r")
    while data[pos + 1 : pos + 2] == b"\n":
        pos = data.find(b"\r", pos + 2)
    return pos


@dataclass(frozen=True)
class Section:
    """A run of whole lines of normalised text.

    Lines are split on LF only (never on form feed, U+2028 and the other
    characters ``str.splitlines`` honours), numbered from 1, and the range is
    inclusive; an empty section has ``end_line == start_line - 1``. Offsets
    are ``str`` indices into the normalised text, ``end_offset`` exclusive, so
    ``text[start_offset:end_offset]`` is the section including its final LF.
    """

    start_line: int
    end_line: int
    start_offset: int
    end_offset: int


class LineIndex:
    """Line starts of one normalised text, for line <-> offset arithmetic."""

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        find = text.find
        pos = find("\n")
        while pos >= 0:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        self._starts = starts
        # A final LF ends the last line; it does not open an empty one.
        self.count = len(starts) - 1 if (text == "" or text.endswith("\n")) else len(starts)

    def offset(self, line: int) -> int:
        """Offset of the first character of ``line`` (``len(text)`` past the end)."""
        if line - 1 < len(self._starts):
            return self._starts[line - 1]
        return len(self.text)

    def line_of(self, offset: int) -> int:
        """The 1-based line holding ``offset``."""
        return bisect_right(self._starts, offset)

    def line(self, line: int) -> str:
        """The text of ``line`` without its LF."""
        return self.text[self.offset(line) : self.offset(line + 1)].removesuffix("\n")

    def section(self, start_line: int, end_line: int) -> Section:
        return Section(start_line, end_line, self.offset(start_line), self.offset(end_line + 1))
