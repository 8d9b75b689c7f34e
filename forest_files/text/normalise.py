"""Text normalisation of bound files: one declared policy, recorded with every binding.

Policy ``utf8-nobom-lf``: decode as strict UTF-8, drop one leading BOM, turn
CRLF and lone CR into LF. Nothing else changes (no trailing-space or
final-newline fixes, no Unicode normalisation), so the policy is small enough
to be re-implemented exactly by a later version.

Stores: nothing.
Refuses: binary content (a NUL byte) and invalid UTF-8, with ``SourceRefused``
naming the file and the byte offset; never echoes the bytes themselves.
Returns: normalised ``str``; ``LineIndex``/``Section``, the one definition of a
line (split on LF only) that every section resolver shares.
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


class SourceRefused(ForestError):
    """The file is not UTF-8 text, so no section of it can be bound."""

    def __init__(self, path: str, offset: int, reason: str) -> None:
        self.path = path
        self.offset = offset
        super().__init__(
            f"{path}: {reason} at byte offset {offset}; only UTF-8 text files can be bound "
            "(re-encode the file as UTF-8, or bind a text file instead)"
        )


def normalise_text(text: str) -> str:
    """Apply the line-ending and BOM policy to already-decoded text (idempotent)."""
    text = text.removeprefix(_BOM)
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def normalised_hash(data: bytes) -> str | None:
    """``hash_body(decode_bytes(data))`` without the refusal: None when ``data`` is not
    UTF-8 text. Bytes with no CR and no BOM are their own normalised encoding, so
    they are only validated and hashed as they are (no str round trip)."""
    import hashlib

    if b"\r" not in data and not data.startswith(_BOM_BYTES):
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
        reason = (
            "UTF-16 text (NUL byte)"
            if data.startswith(_UTF16_BOMS)
            else "binary content (NUL byte)"
        )
        raise SourceRefused(path, nul, reason)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceRefused(path, exc.start, "invalid UTF-8") from None
    return normalise_text(text)


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
