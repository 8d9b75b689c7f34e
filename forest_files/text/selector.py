"""The selector grammar: which file, and which section of it, a binding covers.

Grammar (one string, parsed left to right)::

    selector := path [ "#" heading | "#" anchor | "::" symbol | "@" region ]
    path     := repo-relative, "/"-separated; "\\#", "\\@", "\\:" stand for
                those characters when a file name contains them
    heading  := part ("/" part)* ["[" n "]"]   -- "\\/", "\\#", "\\[", "\\]",
                "\\\\" escape inside a part; n >= 1 picks the n-th match
    anchor   := "{" id "}" | "{^" block-id "}"  -- a stable id (anchors.py):
                id [A-Za-z0-9_][A-Za-z0-9_:.-]*, block-id [A-Za-z0-9][A-Za-z0-9-]*;
                a heading whose whole name has that shape is written "\\{...}"
    symbol   := identifier ("." identifier)* ["[" n "]"]
    region   := name, [A-Za-z0-9] then [A-Za-z0-9_.-], not ending in "." or "-"

``render`` gives the canonical string; ``parse_selector(render(s)) == s``. The path
is split off by selector_split.py.

Stores: nothing.
Refuses: malformed selectors and unsafe paths (empty, absolute, drive
letters, ``..``/``.``/empty components, backslashes, NUL and other control
characters, longer than ``MAX_SELECTOR_CHARS``, a path longer than
``MAX_PATH_CHARS``: bounds.py) with ``SelectorError``, whose
message says what is wrong and shows valid examples (a path ending in ``/``:
the selector without it, quoted for a shell; the error types and the examples are
selector_errors.py's).
Returns: a frozen ``Selector``; its canonical text (``render``); the path alone
(``selector_path``, the section not parsed). Choosing one of
several matches (unique tail, ``[n]``) is selector_pick.py's ``pick``, shared by
the resolvers.
Test: tests/text/test_selectors.py, tests/text/test_selector_rules.py,
tests/text/test_selector_split.py, tests/text/test_selector_path.py
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from forest_files.kernel import bounds
from forest_files.kernel.repopath import is_drive_path
from forest_files.kernel.shellword import shell_word
from forest_files.text.selector_errors import SelectorError, refuse
from forest_files.text.selector_split import split_path

Kind = Literal["file", "heading", "symbol", "region", "anchor"]
KINDS: tuple[str, ...] = get_args(Kind)
MAX_SELECTOR_CHARS = bounds.MAX_SELECTOR_CHARS
MAX_INDEX = bounds.MAX_INDEX
MAX_PATH_CHARS = bounds.MAX_PATH_CHARS
REGION_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?"
_REGION_RE = re.compile(REGION_NAME)
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")
_INDEX_RE = re.compile(r"\[([0-9]+)\]\Z")
_TRAILING_INDEX_RE = re.compile(r"\[[0-9]+\]\Z")
_PART_ESCAPES = "/#[]\\{"
ANCHOR_RE = re.compile(r"\{(\^[A-Za-z0-9][A-Za-z0-9-]*|[A-Za-z0-9_][A-Za-z0-9_:.-]*)\}\Z")


@dataclass(frozen=True)
class Selector:
    """A parsed selector. ``parts`` is empty for ``file``, one name for ``region``."""

    path: str
    kind: Kind = "file"
    parts: tuple[str, ...] = ()
    index: int | None = None

    def __post_init__(self) -> None:
        validate_path(self.path)
        if self.kind not in KINDS:
            raise refuse(f"unknown selector kind {self.kind!r}")
        if (self.kind == "file") != (not self.parts):
            raise refuse(
                f"a {self.kind} selector {'has no' if self.kind == 'file' else 'needs'} parts"
            )
        if self.index is not None and (
            self.kind in ("file", "region", "anchor") or not 1 <= self.index <= MAX_INDEX
        ):
            raise refuse(
                f"index [{self.index}] is not allowed here (1..{MAX_INDEX}, headings/symbols only)"
            )
        if self.kind == "region" and (
            len(self.parts) != 1 or not _REGION_RE.fullmatch(self.parts[0])
        ):
            raise refuse(f"invalid region name {self.parts!r}")
        if self.kind == "anchor" and (
            len(self.parts) != 1 or not ANCHOR_RE.fullmatch("{" + self.parts[0] + "}")
        ):
            raise refuse(f"invalid anchor id {self.parts!r} (letters, digits, '_', ':', '.', '-')")
        if self.kind == "symbol" and not all(p.isidentifier() for p in self.parts):
            raise refuse(f"symbol path {'.'.join(self.parts)!r} is not dotted Python identifiers")
        if self.kind == "heading":
            for part in self.parts:
                check_heading_part(part)

    def __str__(self) -> str:
        return render(self)


def validate_path(path: str) -> str:
    """Return ``path`` if it is a safe repository-relative path, else refuse."""
    if not path:
        raise refuse("the path is empty")
    if len(path) > MAX_PATH_CHARS:
        raise refuse(f"the path is longer than {MAX_PATH_CHARS} characters")
    if _CONTROL_RE.search(path):
        raise refuse("the path contains NUL or another control character")
    if "\\" in path:
        raise refuse("the path contains a backslash; use '/' between directories")
    if path.startswith("/") or is_drive_path(path):
        raise refuse(f"the path {path!r} is absolute; give it relative to the repository root")
    for component in path.split("/"):
        if component in ("", ".", ".."):
            shown = component or "an empty component"
            raise refuse(f"the path {path!r} contains {shown!r}; give a plain relative path")
    return path


def check_heading_part(part: str) -> None:
    if not part:
        raise refuse("a heading path has an empty part (check for '//' or a trailing '/')")
    if _CONTROL_RE.search(part):
        raise refuse(f"heading part {part!r} contains a control character")
    if part != part.strip():
        raise refuse(f"heading part {part!r} has leading or trailing spaces")


def parse_heading_path(spec: str) -> tuple[tuple[str, ...], int | None]:
    """Parse ``A/B\\/C[2]`` into ``(("A", "B/C"), 2)``; the text after ``#``."""
    parts: list[str] = []
    cur: list[str] = []
    index: int | None = None
    i, n = 0, len(spec)
    while i < n:
        c = spec[i]
        if c == "\\" and i + 1 < n and spec[i + 1] in _PART_ESCAPES:
            cur.append(spec[i + 1])
            i += 2
            continue
        if c == "/":
            parts.append("".join(cur))
            cur = []
        elif c == "[" and (m := _INDEX_RE.match(spec, i)):
            index = _index(m.group(1))
            break
        else:
            cur.append(c)
        i += 1
    parts.append("".join(cur))
    for part in parts:
        check_heading_part(part)
    return tuple(parts), index


def render_heading_path(parts: Sequence[str], index: int | None) -> str:
    """Canonical text of a heading path (inverse of ``parse_heading_path``)."""
    out = []
    for k, part in enumerate(parts):
        esc = part.replace("\\", "\\\\").replace("/", "\\/").replace("#", "\\#")
        if k == len(parts) - 1 and _TRAILING_INDEX_RE.search(esc):
            cut = esc.rindex("[")
            esc = esc[:cut] + "\\[" + esc[cut + 1 :]
        if len(parts) == 1 and index is None and ANCHOR_RE.fullmatch(esc):
            esc = "\\" + esc  # a heading named like an anchor: "\{x}"
        out.append(esc)
    return "/".join(out) + (f"[{index}]" if index is not None else "")


def _index(digits: str) -> int:
    value = int(digits)
    if not 1 <= value <= MAX_INDEX:
        raise refuse(f"index [{digits}] is out of range; duplicates are numbered from [1]")
    return value


def _refuse_directory(path: str, marker: str, rest: str) -> None:
    """A path ending in '/' (``notes/a.md/#H``, ``git mv``'s spelling of a directory):
    refused naming the selector without it, when that one is well formed."""
    bare = path.rstrip("/")
    if bare == path or not bare or marker == "@":  # "pkgs/@scope": an '@' in a name
        return
    try:
        validate_path(bare)
    except SelectorError:
        return
    given = f"{render_path(bare)}{marker}{rest}"
    escape = f" (if {marker!r} is part of the file name, write it as '\\{marker[:1]}')"
    raise refuse(
        f"the path {path!r} ends in '/' (an empty component: a directory), and a selector "
        f"names a file: give {shell_word(given)}{escape if marker else ''}"
    )


def selector_path(text: str) -> str:
    """The file path of selector ``text``, its section not parsed: ``parse_selector(text)
    .path`` for every text that takes, and refused as it refuses the text as a whole or
    its path (empty, too long, a control character, an unsafe path); a malformed section
    after the marker is not judged here (tests/text/test_selector_path.py)."""
    return _head(text)[0]


def _head(text: str) -> tuple[str, str, str]:
    """``parse_selector``'s checks of the whole text and of its path, in its order: the
    path, the marker and the rest."""
    if not isinstance(text, str) or not text:
        raise refuse("the selector is empty")
    if len(text) > MAX_SELECTOR_CHARS:
        raise refuse(f"the selector is longer than {MAX_SELECTOR_CHARS} characters")
    if _CONTROL_RE.search(text):
        raise refuse("the selector contains NUL or another control character")
    path, marker, rest = split_path(text)
    try:
        validate_path(path)
    except SelectorError as exc:
        _refuse_directory(path, marker, rest)
        if not marker:
            raise
        hint = f"if {marker!r} is part of the file name, write it as '\\{marker[0]}'"
        raise refuse(f"{exc.problem} ({hint})") from None
    return path, marker, rest


def parse_selector(text: str) -> Selector:
    """Parse one selector string; see the module docstring for the grammar."""
    path, marker, rest = _head(text)
    if marker == "":
        return Selector(path)
    if not rest:
        raise refuse(f"nothing follows {marker!r} in {text!r}")
    if marker == "#" and (m := ANCHOR_RE.fullmatch(rest)):
        return Selector(path, "anchor", (m.group(1),))
    if marker == "#":
        parts, index = parse_heading_path(rest)
        return Selector(path, "heading", parts, index)
    if marker == "@":
        if not _REGION_RE.fullmatch(rest):
            raise refuse(
                f"invalid region name {rest!r} (letters, digits, '_', '.', '-'); "
                "if '@' is part of the file name, write it as '\\@'"
            )
        return Selector(path, "region", (rest,))
    body, index = rest, None
    if m := _INDEX_RE.search(rest):
        body, index = rest[: m.start()], _index(m.group(1))
    parts = tuple(body.split("."))
    if not all(p.isidentifier() for p in parts):
        raise refuse(f"symbol {body!r} is not dotted Python identifiers like 'Class.method'")
    return Selector(path, "symbol", parts, index)


def render_path(path: str) -> str:
    out = path.replace("#", "\\#").replace("@", "\\@")
    # Only '::' (or a ':' that would touch the marker) is special in a path.
    return re.sub(r":(?=:|\Z)", r"\\:", out)


def render(sel: Selector) -> str:
    """The canonical full string of ``sel``."""
    base = render_path(sel.path)
    if sel.kind == "file":
        return base
    if sel.kind == "heading":
        return f"{base}#{render_heading_path(sel.parts, sel.index)}"
    if sel.kind == "region":
        return f"{base}@{sel.parts[0]}"
    if sel.kind == "anchor":
        return f"{base}#{{{sel.parts[0]}}}"
    suffix = f"[{sel.index}]" if sel.index is not None else ""
    return f"{base}::{'.'.join(sel.parts)}{suffix}"
