"""A contest whose file holds exactly one head's text: which head, and which side of
a merge under way brought it (``git checkout --ours`` / ``--theirs`` put it there).

Stores: nothing.
Refuses: nothing.
Returns: ``holding`` (the finding, its detail naming the head the file holds and, while
a merge waits for its commit, whose side of it that head is: ``HEAD``'s or
``MERGE_HEAD``'s, the commit whose ledger alone holds that head's body); ``noted``
(the contest's routes, the held head's saying the file holds its text already, each
other head's that ``forest restore`` then writes that head's text into the file);
``side_of`` (the side of a merge under way whose ledger alone holds a body).
Test: tests/check/test_contested_merged.py
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.finding import replaced
from forest_files.check.route_steps import forest, written_back_steps
from forest_files.kernel.shellword import command_text

if TYPE_CHECKING:
    from forest_files.check.finding import Finding
    from forest_files.check.findings import Route

_SIDES = ("HEAD", "MERGE_HEAD")


def holding(f: Finding, held: tuple[str, str], root: Path, source: str) -> Finding:
    """``f`` whose section holds the text of the head ``held`` (content id, body hash)."""
    head, body = held
    side = side_of(root, body) if source in ("worktree", "index") else None
    where = f" ({side}'s side of the merge)" if side else ""
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


def side_of(root: Path, body: str) -> str | None:
    """``HEAD`` or ``MERGE_HEAD``: the one of the two commits a merge under way joins
    whose ledger holds the body ``body``; None when no merge waits, or both hold it."""
    from forest_files import gitio
    from forest_files.kernel.errors import ForestError
    from forest_files.kernel.paths import LEDGER_DIR
    from forest_files.kernel.state import git_dir_paths
    from forest_files.ledger.segments import body_path

    try:
        if not Path(git_dir_paths(root)[0], "MERGE_HEAD").exists():
            return None
        path = body_path(Path(LEDGER_DIR), body).as_posix()
        having = [rev for rev in _SIDES if gitio.ls_tree(root, rev, path)]
    except ForestError:
        return None
    return having[0] if len(having) == 1 else None
