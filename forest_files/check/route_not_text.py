"""Routes out of a bound file the reader refuses (text/normalise.py ``decode_bytes``): a
NUL byte, bytes that are not UTF-8, a lone CR. No section of it can be read, so none
is gone or moved: the file is to be fixed where the refusal says, or, for a whole-file
binding, written over with the adopted text.

Stores: nothing. Refuses: nothing.
Returns: ``not_text`` (the refusal a finding's typed ``Reason`` carries: the reader's
reason, byte offset, line, and advice; None for any other finding); ``routes`` (a
whole-file binding's ``forest restore``, which writes ground over the whole file and
keeps the bytes it replaces, never offered with exclusions or declared normalisations
(the finding's ``excludes``: restore needs the file's text around them and refuses);
fixing the file at the byte the refusal names, then ``forest check PATH``).
Test: tests/check/test_unresolved_not_text.py, tests/check/test_route_reasons.py
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from forest_files.check.findings import Route
from forest_files.check.route_steps import forest, written_back_steps
from forest_files.kernel.shellword import forest_text
from forest_files.text.normalise import NOT_UTF8 as _UTF8
from forest_files.text.normalise import NUL_BYTE as _NUL
from forest_files.text.normalise import UTF16_TEXT as _UTF16

if TYPE_CHECKING:
    from forest_files.check.engine import Finding


class NotText(NamedTuple):
    """The reader's refusal (text/normalise.py ``SourceRefused``), as its finding's
    ``Reason`` carries it: each reason with what is wrong in a route's words."""

    reason: str
    offset: int
    line: int  # 0: the refusal names none
    advice: str

    def wrong(self) -> str:
        """What the file holds, and where."""
        where = f"at byte offset {self.offset}" + (f" (line {self.line})" if self.line else "")
        if self.reason == _NUL:
            return f"a NUL byte {where}"
        if self.reason == _UTF16:
            return f"UTF-16 text (a NUL byte {where})"
        if self.reason == _UTF8:
            return f"bytes that are not UTF-8 {where}"
        return f"a lone CR {where}"  # the detail says what that is

    def fix(self) -> str:
        """How to make it text again."""
        if self.reason == _NUL:
            return "remove it (a text file holds none)"
        if self.reason == _UTF16:
            return "save it as UTF-8"
        if self.reason == _UTF8:
            return "save the file as UTF-8 (or remove those bytes)"
        return self.advice.rpartition(": ")[2]  # the refusal's: end that line with LF …


def not_text(f: Finding) -> NotText | None:
    """The reader's refusal of ``f``'s file (its typed reason, finding.py ``Reason``)."""
    why = f.reason
    if f.kind != "unresolved" or why is None or why.kind != "not-text":
        return None
    return NotText(why.what, why.offset, why.line, why.advice)


def routes(
    f: Finding, refused: NotText, root: Path, source: str, staged: Collection[str] = ()
) -> tuple[Route, ...]:
    """Fix the file where the refusal says; a whole-file binding first: restore."""
    check = forest_text("check", f.path)
    fix = Route(
        "fix the file",
        note=f"{f.path} holds {refused.wrong()}: {refused.fix()}; then `{check}` shows what "
        "is left",
    )
    if f.excludes or not _whole_file(f.selector):  # restore needs the text around them
        return (fix,)
    back = written_back_steps(source, root, f.path, staged=staged)
    restore = Route(
        "restore ground",
        (forest("restore", f.selector), *back),
        "it writes the adopted text over the whole file; restore says where it keeps the "
        "bytes it replaces",
    )
    return (restore, fix._replace(label="or fix the file"))


def _whole_file(selector: str) -> bool:
    from forest_files.text.selector import parse_selector
    from forest_files.text.selector_errors import SelectorError

    try:
        return parse_selector(selector).kind == "file"
    except SelectorError:
        return False
