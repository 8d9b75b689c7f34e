"""Where the user stands: the directory a command was typed in, and the top of the work
tree reached from there, so a step a door prints works pasted where it was typed.

A door notes it once per command (``stand_at``; ``typed_in`` first, where ``forest -C
DIR`` left the user's directory; ``where_typed`` hands it to a child that speaks for the
command, the detached watcher); a printed step reads it (``from_here``: a ``git`` step
from the top, ``git -C ../..``; the paths of ``mkdir``/``rm``/``mv`` reached from here; a
``forest`` step with ``-C`` when the user stands outside the work tree). ``reached_dir`` is
the ``-C`` of a step run in a directory that is no work tree's top (a bare repository),
``reached`` a path named in words, ``from_the_top`` steps printed as at the top (reports
read there). The quoting of each word is kernel/shellword.py's.

Stores: the noted place, in this process only. Refuses: nothing.
Returns: the prefix (``standing``), the way up (``reach``), a step or path as reached.
Test: tests/kernel/test_shellword.py, tests/doors/test_dash_c_hints.py,
tests/doors/test_printed_where_typed.py, tests/gate/test_ci_where_typed.py
"""

from __future__ import annotations

import os

# The directory the user typed the command in, relative to the top of the work tree
# ("docs/adr/"; "" at the top, outside it, or not known): set once per command by its
# door (``stand_at``), read when a route's step is printed (``from_here``).
_PREFIX = [""]
# Where the user's shell stands when ``forest -C DIR`` moved the command elsewhere
# (``typed_in``, before the first ``-C``); None when the command runs where it was typed.
_TYPED_IN: list[str | None] = [None]
# From where the user's shell stands to the top of the work tree ("../.." below it,
# "../repo" beside it after ``forest -C ../repo``; "" at the top or when not known),
# and whether that is outside the work tree (then a ``forest`` step needs it too).
_REACH = [""]
_OUTSIDE = [False]
# Whether the user reached the work tree by an absolute ``-C``: the printed steps then
# reach its top by its absolute path too (``-C /abs/repo``, never ``-C ../repo``).
_ABSOLUTE = [False]


def typed_in(directory: str | None, *, absolute: bool = False) -> None:
    """Note the directory the command was typed in, before ``forest -C DIR`` leaves it:
    the routes it prints are pasted there, not in ``DIR`` (None: where it runs).
    ``absolute``: ``DIR`` was typed as an absolute path (so the routes keep one)."""
    _TYPED_IN[0] = directory
    _ABSOLUTE[0] = absolute and directory is not None


def where_typed() -> str | None:
    """The directory the user typed the command in: before ``forest -C DIR`` left it
    (``typed_in``), else the working directory; None when it is gone. A child that
    speaks for the command (the detached watcher) is handed it, and notes it with
    ``typed_in``."""
    if _TYPED_IN[0] is not None:
        return _TYPED_IN[0]
    try:
        return os.getcwd()
    except OSError:
        return None


def reached_dir(directory: str | os.PathLike[str]) -> str | None:
    """``directory`` as a printed step's ``-C`` reaches it from where the command was
    typed (``typed_in``): relative (absolute when the user typed an absolute ``-C``);
    None when they stand in it or below it, where ``forest`` finds it itself (a bare
    repository too: git finds it from its folders), or for an in-process caller (no
    ``typed_in``), whose steps are the directory's own, as ``stand_at``'s are the top's."""
    target = os.path.abspath(os.fspath(directory))
    typed = _TYPED_IN[0]
    if typed is None:
        return None
    if _ABSOLUTE[0]:
        return target
    try:
        rel = os.path.relpath(target, typed).replace(os.sep, "/")
    except ValueError:  # another drive
        return target
    return None if all(part == ".." for part in rel.split("/")) or rel == "." else rel


def stand_at(root: str | os.PathLike[str] | None, *, absolute: bool = False) -> None:
    """Note where the user stands in the work tree at ``root``: ``GIT_PREFIX`` when
    git set it (a hook runs at the top, git names the user's directory under it),
    else the working directory when it lies below ``root``. A printed ``git`` step
    then runs from the top whatever directory it is pasted in (``git -C ../..``):
    its paths are the top's, as every selector is. After ``forest -C DIR`` the steps
    are reached from where the command was typed (``typed_in``), also from outside the
    work tree (``forest -C ../repo restore …``); by the top's absolute path when the
    user typed an absolute one (``absolute``: a command's own ``--repo /abs``, or
    ``typed_in``'s). Idempotent; "" when unknown."""
    prefix = os.environ.get("GIT_PREFIX")
    if prefix is None and root is not None:
        try:
            prefix = os.path.relpath(os.getcwd(), os.fspath(root))
        except (OSError, ValueError):
            prefix = ""
        if prefix == "." or prefix == ".." or prefix.startswith(f"..{os.sep}"):
            prefix = ""  # at the top, or outside the work tree: paths stay as they are
    parts = [
        part for part in (prefix or "").replace(os.sep, "/").split("/") if part not in ("", ".")
    ]
    _PREFIX[0] = "".join(f"{part}/" for part in parts)
    _REACH[0], _OUTSIDE[0] = "/".join([".."] * len(parts)), False
    typed = _TYPED_IN[0]
    if typed is not None and root is not None and "GIT_PREFIX" not in os.environ:
        try:
            reach = os.path.relpath(os.fspath(root), typed).replace(os.sep, "/")
        except ValueError:  # another drive: the top as it is
            reach = os.fspath(root)
        up = all(part == ".." for part in reach.split("/"))
        if absolute or _ABSOLUTE[0]:  # typed absolute: reached by the same kind of path
            reach = reach if reach == "." else os.path.abspath(os.fspath(root))
        _REACH[0], _OUTSIDE[0] = ("", False) if reach == "." else (reach, not up)


def standing() -> str:
    """The directory the user typed the command in, relative to the top of the work
    tree, with a trailing slash (``docs/``); "" at the top or when not known."""
    return _PREFIX[0]


def reach() -> str:
    """The path from where the user's shell stands to the top of the work tree, as a
    printed step reaches it (``../..``); "" at the top or when not known."""
    return _REACH[0]


def reached(path: str) -> str:
    """``path`` (from the top of the work tree, or absolute) as the user reaches it
    where they stand (``../.git/info/attributes``), for a path named in words."""
    up = _REACH[0]
    return f"{up}/{path}" if up and not path.startswith("/") else path


def from_here(step: tuple[str, ...]) -> tuple[str, ...]:
    """``step`` as the user runs it where they stand: a ``git`` step from the top of
    the work tree (``git -C ..``), the paths of a ``mkdir``, ``rm`` or ``mv`` step
    reached from here (``../docs/adr``); a ``forest`` step as it is (``forest`` finds
    the top itself) unless the user stands outside the work tree (``forest -C
    ../repo``); every step at the top as it is."""
    up = _REACH[0]
    if not up:
        return step
    if step[:1] == ("git",) or (step[:1] == ("forest",) and _OUTSIDE[0]):
        return (step[0], "-C", up, *step[1:])
    if step[:1] in (("mkdir",), ("rm",), ("mv",)):  # paths the top's: reached from here
        out, paths = [step[0]], False
        for word in step[1:]:
            if paths or not word.startswith("-"):
                out.append(word if word.startswith("/") else f"{up}/{word}")
            else:
                out.append(word)
                paths = word == "--"
        return tuple(out)
    return step


class from_the_top:
    """Steps printed inside as run at the top of the work tree, wherever the user
    stands: the CI gate's SARIF, JUnit and GitHub reports, read at the top of a
    checkout (gate/render.py). Where the user stands is noted again after. A class,
    not ``contextlib``: this module is on the hook's import list."""

    def __enter__(self) -> None:
        self._saved = (_PREFIX[0], _REACH[0], _OUTSIDE[0])
        _PREFIX[0], _REACH[0], _OUTSIDE[0] = "", "", False

    def __exit__(self, *exc: object) -> None:
        _PREFIX[0], _REACH[0], _OUTSIDE[0] = self._saved


__all__ = [
    "from_here",
    "from_the_top",
    "reach",
    "reached",
    "reached_dir",
    "stand_at",
    "standing",
    "typed_in",
    "where_typed",
]
