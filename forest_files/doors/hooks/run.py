"""What the installed git hooks run. Fast path: no typer, pydantic, GitPython.

Stores: nothing on pre-commit / pre-merge-commit (the working tree and the
git index are never modified or stashed) and post-commit / post-applypatch
(which only say what a commit made without the pre-commit check removed from
the ledger: check/after_commit.py); post-merge, post-checkout and post-rewrite
bring the local index in step with the checked-out ledger.
Refuses: a commit whose staged content diverges from the staged ledger's
ground (drifted, missing, unresolved, moved, contested) — exit 1, naming the
binding, who adopted its ground and with which words, a diff ground → staged
on a terminal, and the exact restore / supersede commands; a staged change that
removes forest.toml (or the whole ledger) HEAD holds, or changes a ledger file
HEAD holds (check/staged.py, check/erasure_guard.py); a hook name it does not
know, in any repository (exit 2, with the usage).
Returns: the hook's exit code (``forest-hook --version``: the version, ``--help``:
the usage, exit 0).
A refused commit (drift, or an error that refuses it) is recorded in the audit
log (doors/doorlog.py), imported only then: an accepted commit never loads it.
Test: tests/doors/test_hooks.py, tests/governance/test_audit_doors.py,
      tests/doors/test_server_hook.py, tests/check/test_hook_move_cost.py,
      tests/doors/test_hooks_custody.py, tests/check/test_after_commit.py,
      tests/doors/test_entry_module.py, tests/doors/test_hook_contest_later.py

Custody is what is committed, never the working tree's forest.toml: the check
runs when the git index or HEAD holds forest.toml, asked in the one ``rev-parse``
that also gives the root, HEAD's commit and HEAD's custody key (committed.py). A
staged ledger without forest.toml in the index or HEAD is refused with the way back.

The check honours ``GIT_INDEX_FILE`` (``git commit -a`` and ``git commit
PATH`` use a temporary index). Its cost grows with the staged change: when no
ledger file is staged, the staged ledger is HEAD's (its view found through the
alias of HEAD's ledger tree id, viewkey.py), and only the staged paths'
bindings are judged, from the view's binding map (bindmap.py), with one query for
the staged ledger's contests (check/staged_contests.py): a contest HEAD holds refuses
every commit until one act settles it, as ``forest check --staged`` does.
"""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass

CHECK_HOOKS = ("pre-commit", "pre-merge-commit")
SYNC_HOOKS = ("post-merge", "post-checkout", "post-rewrite")
# say what a commit made without pre-commit removed; git am runs post-applypatch alone
AFTER_HOOKS = ("post-commit", "post-applypatch")
SERVER_HOOKS = ("pre-receive", "update")  # judged from commits alone (doors/hooks/server.py)
HOOKS = (*CHECK_HOOKS, *AFTER_HOOKS, *SYNC_HOOKS, *SERVER_HOOKS)
USAGE = f"usage: forest-hook {'|'.join(HOOKS)} [git's hook arguments]"


def _say(text: str) -> None:
    sys.stderr.write(text + "\n")


def check_staged(
    root: Path, asked: tuple[str | None, tuple[str, str] | None] = (None, None)
) -> int:
    """The pre-commit verdict for what is staged, against the staged ledger
    (check/staged.py), rendered by the one hook renderer. ``asked``: HEAD's commit and
    custody key as ``committed_custody`` found them (commit None: asked here)."""
    from forest_files.check.staged import judge_staged_at
    from forest_files.check.text import hook_refusal

    commit, head = _head_of(root) if asked[0] is None else (asked[0], asked[1])
    report = judge_staged_at(root, head, diffs=sys.stderr.isatty(), commit=commit)
    if report.ok:
        for note in report.notes:  # refused, hook_refusal says them after the verdict
            _say(note)
        _say_left_out(root)
        return 0
    from forest_files.check.text import HOOK_SHOWN
    from forest_files.doors.hooks.commit_index import commit_index

    many = len(report.failed) > HOOK_SHOWN
    report, after, beyond = commit_index(root, report, many, head=commit)
    # What lists every finding: the index, unless this commit judged more than it
    # (``git commit -a``/``-p``/``FILE…``), whose staging is undone once it is refused.
    lister = "forest check" if beyond else "forest check --staged"
    _say("\n".join([*hook_refusal(report, lister=lister), *after]))
    from forest_files.doors.doorlog import record_findings

    record_findings(root, "hook", report.failed, head=commit)
    return 1


def _head_of(root: Path) -> tuple[str, tuple[str, str] | None]:
    """(HEAD's commit, ``""`` on an unborn branch; HEAD's custody key, viewkey.py), when
    ``committed_custody`` could not say (its ``rev-parse`` failed) or ``check_staged``
    is called alone. HEAD without a ledger or forest.toml costs one ``rev-parse`` more."""
    from forest_files import gitio
    from forest_files.custody.viewkey import head_custody

    head = head_custody(root)
    if head is not None:
        return head[0], head
    return gitio.head_commit(root) or "", None


def _say_left_out(root: Path) -> None:
    """Advice, the commit goes on: custody files of the working tree this commit
    leaves out because git does not track them (check/uncommitted.py)."""
    from forest_files.check.uncommitted import uncommitted_custody

    left_out = uncommitted_custody(root, keep_index_file=True, in_commit=True)
    if left_out is not None:
        _say(left_out)


HOOK_BUSY_MS = 2000  # how long the hook waits for another writer of a store


def main(argv: list[str]) -> int:
    """``forest-hook HOOK [git's hook arguments]``, inside the one error boundary
    (doors/boundary.py): a refused commit's error is recorded in the audit log; a
    sync hook never blocks git (a ForestError there exits 0 after its line). The
    cyclic collector is off while it runs (as ``console`` has it): a script installed
    by an earlier release calls ``main`` itself."""
    if argv[:1] in (["--help"], ["-h"]):
        sys.stdout.write(USAGE + "\n")
        return 0
    if argv[:1] in (["--version"], ["-V"]):
        from forest_files import __version__

        sys.stdout.write(f"forest-files {__version__}\n")
        return 0
    if not argv or argv[0] not in HOOKS:  # a typo was silent outside custody (exit 0)
        _say(f"forest-files hook: unknown hook {argv[0]!r}; {USAGE}" if argv else USAGE)
        return 2
    collecting = gc.isenabled()
    # ledger/segments.py gc_paused does the same as a context manager; the hook's
    # start-up loads neither contextlib nor the ledger's modules for it.
    gc.disable()  # one check, then exit: what it builds is acyclic (boundary.one_shot_gc)
    try:
        return _guarded(argv[0], argv)
    finally:
        if collecting:  # called in a process that goes on (a test): as it was
            gc.enable()


def _guarded(hook: str, argv: list[str]) -> int:
    from forest_files.doors.boundary import run_guarded

    if hook in SERVER_HOOKS:  # a bare repository receiving a push (doors/hooks/server.py)
        return run_guarded(
            f"hook {hook}", lambda: _serve(hook, argv[1:]), ["forest-hook", *argv], audit=None
        )
    checks = hook in CHECK_HOOKS
    return run_guarded(
        f"hook {hook}",
        lambda: _run(hook),
        ["forest-hook", *argv],
        prefix="forest-files",
        audit="hook" if checks else None,
        lenient=not checks,
    )


def _serve(hook: str, args: list[str]) -> int:
    from forest_files.doors.hooks.server import run
    from forest_files.store import connection

    connection.set_busy_budget(HOOK_BUSY_MS)
    return run(hook, args)


def _run(hook: str) -> int:
    from forest_files import gitio
    from forest_files.store import connection

    connection.set_busy_budget(HOOK_BUSY_MS)  # git waits on the hook: a short wait, then 75
    from forest_files.kernel.state import git_dir_paths

    if hook in CHECK_HOOKS:
        from forest_files.doors.hooks.committed import committed_custody

        root, held, commit, head = committed_custody(Path.cwd())
        git_dir_paths(root)  # the repository git runs the hook for is the one found here
        from forest_files.kernel.standing import stand_at

        stand_at(root)  # git's GIT_PREFIX: routes that work where `git commit` was typed
        if not held:
            _refuse_ledger_alone(root)
            _say_left_out(root)  # a forest.toml never committed: said, at one stat's cost
            return 0  # never under custody: nothing to guard
        return check_staged(root, (commit, head))
    root = gitio.toplevel(Path.cwd())
    git_dir_paths(root)
    if hook in AFTER_HOOKS:  # the commit is made: said, never refused
        from forest_files.doors.hooks.after_hooks import after_commit

        return after_commit(root, applied=hook == "post-applypatch")
    from forest_files.kernel.paths import CONFIG_NAME

    if not (root / CONFIG_NAME).exists():
        return 0  # not under custody (yet): nothing to guard
    if hook in SYNC_HOOKS:
        from forest_files.kernel.standing import stand_at

        stand_at(root)  # git's GIT_PREFIX: the steps a failed sync names, where git was typed
        from forest_files.doors.hooks.after_hooks import sync_index

        return sync_index(root)
    _say(f"forest-files hook: unknown hook {hook!r}; {USAGE}")
    return 2


def _refuse_ledger_alone(root: Path) -> None:
    """Neither the git index nor HEAD holds forest.toml, yet the index holds the
    ledger (forest.toml removed by a commit made with ``--no-verify``): custody
    cannot be judged, so nothing is accepted; the way back is named
    (custody/lost_config.py). A repository that never held custody pays this one
    ``ls-files``."""
    from forest_files.custody import lost_config

    if not lost_config.index_holds_ledger(root, keep_index_file=True):
        return
    from forest_files.custody.config import ConfigBroken
    from forest_files.kernel.paths import CONFIG_NAME, LEDGER_DIR

    route = lost_config.way_back(root, staged=True)
    raise ConfigBroken(
        f"{CONFIG_NAME} is not committed but the ledger ({LEDGER_DIR}) is: custody cannot "
        f"be judged without it; put it back with `{route}`, stage it, and commit again"
    )


def console() -> None:
    """Console-script entry (``forest-hook``), used by the pre-commit framework, and
    what the installed hook script runs (template.sh): ``main`` without the cyclic
    collector, then the process ends without the interpreter's teardown."""
    from forest_files.doors.boundary import leave, one_shot_gc

    one_shot_gc()
    leave(main(sys.argv[1:]))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    console()
