"""The one path-glob syntax of forest-files: forest.toml's tables and ``forest adopt``.

Every table that takes path globs (``[authority]``, ``[require]`` and its
``except``, ``[signing]``, ``[watch]``) and every glob target of ``forest adopt``
(``supersede``, ``restore``) is compiled here, once, to one regular expression.
The syntax is gitignore's (git's wildmatch, as ``pathspec``'s ``gitignore``
patterns read it) for a pattern written with a leading ``/``:

* a pattern is a repository-relative path, anchored at the root, matched
  against a file's whole path: ``*.md`` is a top-level file, ``**/*.md`` is a
  ``.md`` file at any depth, and ``docs`` names the file ``docs`` only (write
  ``docs/**`` for everything below it; gitignore would match the directory);
* ``*`` is any run of characters but ``/`` (dot files included), ``?`` one
  character but ``/``; ``[0-9]``, ``[abc]``, ``[!a-z]`` / ``[^a-z]`` one
  character of (not of) the class, never ``/`` (``]`` first in a class is
  literal; write ``[*]``, ``[?]``, ``[[]`` for a literal ``*``, ``?``, ``[``);
* ``**`` as a whole segment spans zero or more directories; last, everything
  below (``docs/**``).

Refused, never matched literally (``GlobError`` saying what to write):
``{a,b}`` (no brace expansion: one rule per alternative); ``!`` outside a class
(gitignore's negation when leading; the tables are last-match-wins and
``[require]`` has ``except``; match a ``!`` in a file name with ``?``); a
leading ``#`` (a comment to gitignore); ``\\`` escapes; POSIX classes
(``[[:digit:]]``); an unclosed ``[``; a reversed range; ``**`` inside a
segment; a leading, trailing or doubled ``/``; ``.``/``..`` segments; spaces
at either end; control characters; an empty pattern.

Kept light on purpose: the pre-commit hook reads forest.toml, and ``pathspec``
costs ~30 ms to import (it stays the tests' oracle: tests/kernel/test_globs.py).

Stores: nothing.
Refuses: GlobError (a ValueError) for a pattern it cannot honour.
Returns: ``Glob`` (``match(path)``); ``is_glob``; ``literal_prefix``.
Test: tests/kernel/test_globs.py
"""

from __future__ import annotations

import re

WILDCARDS = "*?["
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class GlobError(ValueError):
    """A pattern the one glob syntax cannot honour; the message says what to write."""


class Glob:
    """One compiled pattern: ``match(path)`` is True when it names ``path`` exactly."""

    __slots__ = ("pattern", "regex")

    def __init__(self, pattern: str, regex: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.regex = regex

    def match(self, path: str) -> bool:
        return self.regex.fullmatch(path) is not None

    def __repr__(self) -> str:
        return f"Glob({self.pattern!r})"


def is_glob(text: str) -> bool:
    """``text`` has a wildcard (``*``, ``?``, ``[``): a pattern, not a path."""
    return any(ch in text for ch in WILDCARDS)


def literal_prefix(pattern: str) -> list[str]:
    """The leading directory segments of ``pattern`` that hold no wildcard."""
    out: list[str] = []
    for part in pattern.split("/")[:-1]:
        if is_glob(part):
            break
        out.append(part)
    return out


def compile_glob(pattern: str) -> Glob:
    """``pattern`` compiled (see the module docstring); raises GlobError."""
    _check_whole(pattern)
    segments = pattern.split("/")
    out: list[str] = []
    last = len(segments) - 1
    for i, seg in enumerate(segments):
        if seg in ("", ".", ".."):
            raise GlobError("no empty, '.' or '..' segments (write 'docs/adr/*.md')")
        if seg == "**":
            out.append(".+" if i == last else "(?:[^/]+/)*")
            continue
        if "**" in seg:
            raise GlobError("'**' must be a whole path segment (write 'docs/**/x.md' or 'docs/*x')")
        part = _segment(seg)
        out.append(part if i == last else part + "/")
    return Glob(pattern, re.compile("".join(out)))


def _check_whole(pattern: str) -> None:
    if not pattern:
        raise GlobError("empty (write a path such as 'docs/**')")
    if _CONTROL.search(pattern):
        raise GlobError("contains control characters")
    if pattern != pattern.strip():
        raise GlobError("spaces at either end (remove them)")
    if pattern.startswith("/") or pattern.endswith("/"):
        raise GlobError("no leading or trailing '/': patterns are relative to the root")
    if "\\" in pattern:
        raise GlobError("'\\' escapes are not supported (write [*] for a literal '*')")
    if "{" in pattern or "}" in pattern:
        raise GlobError("'{a,b}' is not supported (write one rule per alternative)")
    if pattern.startswith("#"):
        raise GlobError("a leading '#' is a comment to gitignore (write [#] for a literal '#')")


def _segment(seg: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(seg):
        ch = seg[i]
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            body, i = _class(seg, i)
            out.append(body)
            continue
        elif ch == "!":
            raise GlobError(
                "'!' (gitignore's negation) is not supported outside a class: add a later "
                "rule (the last match wins) or, in [require], an except list"
            )
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def _class(seg: str, start: int) -> tuple[str, int]:
    """The regex of the class opening at ``seg[start]`` and the index after it."""
    i = start + 1
    negate = i < len(seg) and seg[i] in "!^"
    if negate:
        i += 1
    items: list[str] = []
    first = True
    while i < len(seg) and (first or seg[i] != "]"):
        if seg.startswith("[:", i):
            raise GlobError("POSIX classes such as [[:digit:]] are not supported (write [0-9])")
        lo = seg[i]
        if i + 2 < len(seg) and seg[i + 1] == "-" and seg[i + 2] != "]":
            hi = seg[i + 2]
            if hi < lo:
                raise GlobError(f"the range '{lo}-{hi}' is reversed (write '{hi}-{lo}')")
            items.append(f"{re.escape(lo)}-{re.escape(hi)}")
            i += 3
        else:
            items.append(re.escape(lo))
            i += 1
        first = False
    if i >= len(seg):
        raise GlobError("a '[' with no closing ']' (write [[] for a literal '[')")
    body = "".join(items)
    return (f"[^/{body}]" if negate else f"(?!/)[{body}]"), i + 1
