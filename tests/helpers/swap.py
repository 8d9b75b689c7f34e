"""A hostile owner acting at one moment of root's command, and the place it acts in.

Root runs forest in ``nobody``'s repository (under ``sudo``, ``SUDO_UID`` naming
``nobody``); the owner swaps a folder for a link, or plants a link, at the moment
root's process names a file. That moment is caught by an audit hook (PEP 578) in the
child that runs root's command: no product code is changed. ``owner_script`` writes
that child from its parts; ``owned_place`` is the module fixture the hostile-owner
tests share (tests/doors/test_hostile_owner_*.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from tests.helpers.places import module_place

ONE_DOC = {"doc.md": "# Doc\n\nThe sky is blue.\n"}
ROOT_ONLY = "only root runs forest in a repository another user owns"

# What every child holds: the owner's two acts, named for the hook's ``act``.
_HEAD = r"""
import os, sys

{reads} = sys.argv[1:{after}]
done, armed = [], []


def swap(folder, target):
    os.rename(folder, folder + "-moved")
    os.symlink(target, folder)


def plant(link, target, owner):
    os.symlink(target, link)
    os.lchown(link, int(owner), int(owner))


def hook(event, args):
    first = args[0] if args else None
    path = os.fsdecode(first) if isinstance(first, (str, bytes, os.PathLike)) else None
"""

_ARMED = """\
    if {arm}:
        armed.append(True)
    elif armed and ({when}):
        armed.clear()
{act}
"""

_AT = """\
    if {once}({when}):
{act}
"""

_FOREST = """
sys.addaudithook(hook)
sys.argv = ["forest", {command}]
from forest_files.doors.entry import main

sys.exit(main())
"""


def owner_script(
    reads: tuple[str, ...],
    when: str,
    act: str,
    *,
    arm: str = "",
    once: bool = True,
    forest: tuple[str, ...] | None = None,
    program: str = "",
) -> str:
    """The child's source: its arguments bound to ``reads``; an audit hook that runs
    ``act`` (statements; ``swap(folder, outside)`` and ``plant(link, target, owner)`` at
    hand) at an event where ``when`` holds (an expression of ``event``, ``args`` and
    ``path``, the first argument's path or None): once when ``once``, and, given
    ``arm``, only at the first such event after one where ``arm`` holds. The hook is
    then set and root's ``forest`` run with ``forest`` (the arguments after ``reads``
    when None), or ``program`` (which sets the hook itself) run instead."""
    body = "\n".join(f"        {line}" for line in act.strip().splitlines())
    if arm:
        hook = _ARMED.format(arm=arm, when=when, act=body)
    else:
        body = f"        done.append(True)\n{body}" if once else body
        hook = _AT.format(when=when, once="not done and " if once else "", act=body)
    given = [repr(word) for word in forest] if forest is not None else []
    command = ", ".join(given) if forest is not None else f"*sys.argv[{len(reads) + 1}:]"
    tail = program or _FOREST.format(command=command)
    head = _HEAD.format(reads=", ".join(reads), after=len(reads) + 1)
    return f"{head}{hook}\n{tail}"


def owned_place(files: dict[str, str], *adopt: str) -> Callable[[], Iterator[tuple[Path, Path]]]:
    """The module fixture of the hostile-owner tests (``module_place``): skipped unless
    root runs them."""
    return module_place(files, *adopt, only_root=ROOT_ONLY)
