"""The steps every route is made of: ``forest`` and ``git`` commands spelled as the
user runs them (kernel/shellword.py), the placeholder words a ceremony asks for, and
what a route stages after it changed files or recorded an act (and after it wrote a
file back whose change the index holds: staged by hand, or by a merge, cherry-pick or
revert that waits for its commit; the commit takes the index, not the working tree).

Stores: nothing (``Built``: the dict one report's caller keeps for its call, so the
steps every finding shares are built once: ``recorded``, ``ledger_add``,
``written_back``). Refuses:
nothing. Returns: steps (argument tuples); ``staged_of`` (which of some paths the index
holds otherwise than HEAD: one git call).
Test: tests/check/test_routes_paste.py, tests/check/test_merge_routes.py,
tests/check/test_route_steps_once.py
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from pathlib import Path

from forest_files.check.findings import WORDS_PLACEHOLDER
from forest_files.kernel.paths import LEDGER_PREFIX
from forest_files.kernel.shellword import forest_step, git_step

LEDGER = LEDGER_PREFIX.rstrip("/")
# what git leaves in the git directory while an operation waits for ``git commit``, which
# commits what the index holds
_AWAITING_COMMIT = ("MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD")
Step = tuple[str, ...]
# steps built for one report, by what built them and its arguments (``recorded``)
Built = dict[tuple[str, ...], tuple[Step, ...]]


def words_option() -> Step:
    """``--words …``: the placeholder a ceremony refuses when pasted as is."""
    return ("--words", WORDS_PLACEHOLDER)


forest = forest_step  # ``forest COMMAND [options] TARGET…`` (kernel/shellword.py)


def stage_steps(source: str, *paths: str) -> tuple[Step, ...]:
    """After a route changed files: the hook's commit needs them staged again."""
    return (git_step("add", "--", *paths),) if source == "index" else ()


def written_back_steps(
    source: str, root: Path, *paths: str, staged: Collection[str] = ()
) -> tuple[Step, ...]:
    """After a route wrote files back (a restore): staged again for the hook's commit,
    for the commit a merge (cherry-pick, revert) under way waits for (git staged what
    it merged), and when the index holds a change of one of them (``staged``, from
    ``staged_of``: a ``git add`` by hand): the file written to the working tree alone
    stays staged as it was (``MM``) and the commit is refused again."""
    if source == "worktree" and (any(p in staged for p in paths) or awaiting_commit(root)):
        return (git_step("add", "--", *paths),)
    return stage_steps(source, *paths)


def staged_of(root: Path, paths: Sequence[str]) -> frozenset[str]:
    """Which of ``paths`` the git index holds otherwise than HEAD (all it holds on an
    unborn branch): one ``git diff --cached``, content compared, renames split; none
    when git cannot say (a route then stages only as a merge under way asks)."""
    from forest_files import gitio

    wanted = sorted(set(paths))
    if not wanted:
        return frozenset()
    args = ["diff", "--cached", "-z", "--name-only", "--no-renames", "--no-ext-diff"]
    named = len(wanted) <= _NAMED  # beyond: the whole index's, filtered here (ARG_MAX)
    out = gitio.run_git(root, [*args, "--", *(wanted if named else ())], ok_codes=(0, 128))
    listed = gitio.split_z(out.stdout) if out.returncode == 0 else []
    return frozenset(listed).intersection(wanted)


_NAMED = 500  # paths named on git's command line at most


def awaiting_commit(root: Path) -> bool:
    """A merge, cherry-pick or revert in this working tree waits for its commit."""
    from forest_files.kernel.errors import ForestError
    from forest_files.kernel.state import git_dir_paths

    try:
        git_dir = git_dir_paths(root)[0]
    except ForestError:
        return False
    return any(os.path.lexists(os.path.join(git_dir, name)) for name in _AWAITING_COMMIT)


def record_steps(source: str, *paths: str) -> tuple[Step, ...]:
    """After a route recorded an act: the ledger staged for the commit that carries
    it (and, in the hook, the files the route changed)."""
    return (git_step("add", "--", LEDGER, *(paths if source == "index" else ())),)


def recorded(built: Built | None, source: str, *paths: str) -> tuple[Step, ...]:
    """``record_steps(source, *paths)``, built once per distinct argument in ``built``
    (one report's dict: 2,000 moved findings share one; None: built anew)."""
    if built is None:
        return record_steps(source, *paths)
    key = ("record", source, *paths)
    got = built.get(key)
    if got is None:
        got = built[key] = record_steps(source, *paths)
    return got


def ledger_add(built: Built | None, path: str) -> Step:
    """``git add -- .forest/ledger PATH`` (a supersede's), built once per path in
    ``built`` as ``recorded`` builds its steps."""
    if built is None:
        return git_step("add", "--", LEDGER, path)
    key = ("ledger-add", path)
    got = built.get(key)
    if got is None:
        got = built[key] = (git_step("add", "--", LEDGER, path),)
    return got[0]


def written_back(
    built: Built | None, source: str, root: Path, path: str, staged: Collection[str]
) -> tuple[Step, ...]:
    """``written_back_steps(source, root, path, staged=staged)``, built once per path in
    ``built`` (one report's: one root, one ``staged``), so a working tree's report
    asks once whether a merge waits for its commit, not once per drifted section."""
    if built is None:
        return written_back_steps(source, root, path, staged=staged)
    key = ("back", source, path)
    got = built.get(key)
    if got is None:
        got = built[key] = written_back_steps(source, root, path, staged=staged)
    return got
