"""A contest whose file holds exactly one head's text: which head, and which side of
the operation git is stopped in brought it (``git checkout --ours`` / ``--theirs`` put
it there).

Stores: nothing.
Refuses: nothing.
Returns: ``holding`` (the finding, its detail naming the head the file holds and, while
git is stopped in a merge, cherry-pick, rebase or ``git am``, whose side of it that
head is: ``HEAD``'s or the other's, the one whose ledger alone holds that head's body);
``noted`` (the contest's routes, the held head's saying the file holds its text
already, each other head's that ``forest restore`` then writes that head's text into
the file); ``side_of`` (that side, as a ``Side``: the ``git checkout`` flag that takes
its file and its name. ``--ours`` is HEAD's at every operation: in a rebase HEAD is the
base it replays onto and ``--theirs`` the user's own commit; the other side is the
commit ``MERGE_HEAD``, ``CHERRY_PICK_HEAD`` or ``REBASE_HEAD`` names, or, with none
(``git am -3``, a ``git stash pop`` left unmerged), what the index holds beyond HEAD;
none for a revert, whose other side is the reverted commit's parent).
Test: tests/check/test_contested_merged.py
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from forest_files.check.finding import replaced
from forest_files.check.route_steps import forest, written_back_steps
from forest_files.kernel.shellword import command_text

if TYPE_CHECKING:
    from forest_files.check.finding import Finding
    from forest_files.check.findings import Route


def holding(f: Finding, held: tuple[str, str], root: Path, source: str) -> Finding:
    """``f`` whose section holds the text of the head ``held`` (content id, body hash)."""
    head, body = held
    side = side_of(root, body, source) if source in ("worktree", "index") else None
    where = f" ({side.words})" if side else ""
    return replaced(f, detail=f"{f.detail}; the file holds head {head[:12]}'s text{where}")


def noted(
    routes: tuple[Route, ...],
    head: str,
    f: Finding,
    root: Path,
    source: str,
    staged: Collection[str] = (),
) -> tuple[Route, ...]:
    """Each "keep a head's text" route says what the file then needs (a restore staged
    as route_steps.py stages one: in the hook, while a merge waits for its commit, or
    when the index holds the file's change, ``staged``)."""
    back = written_back_steps(source, root, f.path, staged=staged)
    restore = " && ".join(command_text(s) for s in (forest("restore", f.selector), *back))
    out = []
    for r in routes:
        picked = r.steps[0] if r.steps else ()
        if "--pick" not in picked:
            out.append(r)
            continue
        pick = picked[picked.index("--pick") + 1]
        note = (
            "the file holds this text now"
            if pick == head
            else f"then `{restore}` writes this text into the file, which holds the other's"
        )
        out.append(r._replace(note=f"{r.note}; {note}" if r.note else note))
    return tuple(out)


class Side(NamedTuple):
    """A side of the conflict git is stopped in: the ``git checkout`` flag that takes its
    file (``--ours``: HEAD's, in a rebase too; ``--theirs``: the other), and its name."""

    flag: str
    words: str


def side_of(root: Path, body: str, source: str, *, unmerged: bool = False) -> Side | None:
    """The side of the operation git is stopped in (a merge, cherry-pick, rebase or
    ``git am``) whose ledger alone holds the body ``body``: HEAD's, or the commit git
    took the other side from (``MERGE_HEAD``, ``CHERRY_PICK_HEAD``, ``REBASE_HEAD``).
    With no such commit (``git am -3``; a ``git stash pop`` or ``checkout -m`` that left
    the file ``unmerged``) the other side's ledger is what the index holds beyond HEAD's,
    and HEAD's side is not told apart. None when git is stopped in none, both hold it,
    or neither does (a revert's other side is the reverted commit's parent: no side)."""
    from forest_files import gitio
    from forest_files.kernel.errors import ForestError
    from forest_files.kernel.paths import LEDGER_DIR
    from forest_files.kernel.state import git_dir_paths
    from forest_files.ledger.segments import body_path

    try:
        op = _operation(git_dir_paths(root)[0])
        if op is None or (op[0] is None and not (unmerged or op[1] == _AM)):
            return None
        ref, name = op
        path = body_path(Path(LEDGER_DIR), body).as_posix()
        in_head = bool(gitio.ls_tree(root, "HEAD", path))
        if ref is not None:
            in_other = bool(gitio.ls_tree(root, ref, path))
        else:  # what the other side brought is in the index, merged: beyond HEAD's
            staged = gitio.ls_files_stage(root, paths=[path], keep_index_file=source == "index")
            in_other = not in_head and any(e.stage == 0 for e in staged)
            in_head = False  # the other side may hold it too: no commit to ask
    except ForestError:
        return None
    if in_head == in_other:
        return None
    if in_head:
        return Side("--ours", f"HEAD's side of {name}{_REPLAYED.get(name, ('', ''))[0]}")
    other = f"{ref}'s side" if ref else _UNNAMED.get(name, "the other side")
    return Side("--theirs", f"{other} of {name}{_REPLAYED.get(name, ('', ''))[1]}")


_AM, _REBASE = "git am", "the rebase"
# in a rebase HEAD is the commit it builds on, and ``--theirs`` the user's own commit
_REPLAYED = {_REBASE: (", the base it replays onto", ", the commit it replays")}
_UNNAMED = {_AM: "the patch's side"}


def _operation(git_dir: str) -> tuple[str | None, str] | None:
    """(the ref naming the commit of the other side, or None, the operation's name) of
    what git is stopped in; None for a revert."""
    for name, op in _STOPS:
        if os.path.lexists(os.path.join(git_dir, name)):
            return (name if name.isupper() else None, op) if op else None
    return None, "the conflict"  # a stash applied, a checkout -m: no file names it


# the first found wins: a merge or cherry-pick started while a rebase is stopped is
# the one in conflict (REBASE_HEAD, rebase-apply/ stay while the rebase waits)
_STOPS = (
    ("MERGE_HEAD", "the merge"),
    ("CHERRY_PICK_HEAD", "the cherry-pick"),
    ("REVERT_HEAD", ""),
    ("REBASE_HEAD", _REBASE),  # both rebase backends write it
    ("rebase-apply", _AM),  # git am (a rebase --apply wrote REBASE_HEAD)
)
