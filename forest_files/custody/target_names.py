"""A target naming a file no selector can name, refused with the rename that frees it.

A file whose name holds a backslash, a newline or another control character exists
(git tracks it), but the selector grammar refuses such a path: typed to any command
it got the grammar's general refusal ("use '/' between directories"), which sends a
user looking for a directory that is not there. Every command that takes a target
refuses it here, in the one line ``forest adopt`` gives: the file named escaped, why
no selector can name it, and its rename as a command that works pasted.

Stores: nothing.
Refuses (``TargetRefused``): a target typed as it stands (``a\\b.md``,
``a\\b.md#Intro``) whose path part names a regular file no selector can name; a path
naming no such file keeps the grammar's own refusal (``docs\\a.md`` typed for
``docs/a.md`` is told to use ``/``).
Returns: ``parse_target``'s ``Selector``; ``unnameable``'s refusal or None;
``cannot_name``'s refusal for a file known to be unnameable.
Test: tests/custody/test_target_globs.py, tests/custody/test_target_names.py
"""

from __future__ import annotations

import os
import stat as stat_mod
from pathlib import Path

from forest_files import gitio
from forest_files.custody.target_refusals import TargetRefused
from forest_files.kernel.shellword import command_text, git_step, printable
from forest_files.text.selector import Selector, parse_selector, validate_path
from forest_files.text.selector_errors import SelectorError

ADOPT = "adopt"  # what follows the rename for a file no binding can hold yet


def parse_target(root: Path, spec: str, *, then: str = ADOPT) -> Selector:
    """``spec`` parsed as a selector; a file no selector can name, typed as it
    stands, refused with its rename (``then``: what the user does after it)."""
    try:
        return parse_selector(spec)
    except SelectorError:
        refused = unnameable(root, spec, then=then)
        if refused is None:
            raise
        raise refused from None


def unnameable(root: Path, spec: str, *, then: str = ADOPT) -> TargetRefused | None:
    """The refusal of a target typed as it stands that names a file no selector can
    name, with its rename; None when ``spec`` names no such file. The file is
    ``spec`` itself, or the part before a ``#``, ``::`` or ``@``."""
    parts = (spec, *(spec.split(marker, 1)[0] for marker in ("#", "::", "@")))
    for path in dict.fromkeys(parts):
        if not any(map(_renamed, path)):
            continue  # ``a.md/``, ``/abs``: the grammar's refusal says what is wrong
        if "\0" in path or os.path.isabs(path) or ".." in path.split("/"):
            continue  # no file has that name (the OS refuses NUL), or it is outside
        try:
            validate_path(path)
            continue  # a name a selector spells: the refusal was about something else
        except SelectorError as exc:
            if regular_names(root / path):
                return cannot_name(root, path, exc, "", then=then)
    return None


def cannot_name(
    root: Path, path: str, exc: SelectorError, matched: str, *, then: str = ADOPT
) -> TargetRefused:
    """``path`` names a file no selector can name: said escaped, with its rename;
    ``matched``: the clause before it when a glob matched the file."""
    why = str(exc).split(";")[0]
    rename = _rename_first(root, path, then)
    return TargetRefused(f"{printable(path)}: {matched}no selector can name it ({why}); {rename}")


def _rename_first(root: Path, path: str, then: str) -> str:
    """The rename of a file no selector can name, each backslash and control
    character ``_`` in the new name (``mv`` when git does not track the file), quoted
    so it pastes (``$'\\012'`` for a newline); no command when that name is no better."""
    new = "".join("_" if _renamed(c) else c for c in path)
    try:
        validate_path(new)
    except SelectorError:
        return f"rename it first (git mv), then {then}"
    tracked = any(e.path == path for e in gitio.ls_files_stage(root, path))
    step = git_step("mv", "--", path, new) if tracked else ("mv", "--", path, new)
    return f"rename it first, `{command_text(step)}` (or a name you like), then {then}"


def _renamed(ch: str) -> bool:
    """A character no selector's path may hold and a file name may: a backslash, a
    control character (NUL aside: no file name holds it)."""
    return ch == "\\" or ord(ch) < 32 or ord(ch) == 127


def regular_names(full: Path) -> int:
    """How many names (hard links) the file has when it is a regular file, what a glob
    may match; 0 for anything else (a symlink, a directory, gone), in one ``lstat``."""
    try:
        st = os.lstat(full)
    except OSError:
        return 0
    return st.st_nlink if stat_mod.S_ISREG(st.st_mode) else 0
