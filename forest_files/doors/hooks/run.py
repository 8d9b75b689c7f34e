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
      tests/doors/test_entry_module.py

Custody is what is committed, never the working tree's forest.toml: the check
runs when the git index or HEAD holds forest.toml, asked in the one ``rev-parse``
that also gives the root (``committed_custody``). A staged ledger without
forest.toml in the index or HEAD is refused with the way back.

The check honours ``GIT_INDEX_FILE`` (``git commit -a`` and ``git commit
PATH`` use a temporary index). Its cost grows with the staged change: when no
ledger file is staged, the staged ledger is HEAD's (its view found through the
alias of HEAD's ledger tree id, viewkey.py), and only the staged paths'
bindings are judged, from the view's binding map (bindmap.py): SQLite is
opened only to explain a refusal.
"""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forest_files.check.findings import CheckReport

CHECK_HOOKS = ("pre-commit", "pre-merge-commit")
SYNC_HOOKS = ("post-merge", "post-checkout", "post-rewrite")
# say what a commit made without pre-commit removed; git am runs post-applypatch alone
AFTER_HOOKS = ("post-commit", "post-applypatch")
SERVER_HOOKS = ("pre-receive", "update")  # judged from commits alone (doors/hooks/server.py)
HOOKS = (*CHECK_HOOKS, *AFTER_HOOKS, *SYNC_HOOKS, *SERVER_HOOKS)
USAGE = f"usage: forest-hook {'|'.join(HOOKS)} [git's hook arguments]"


def _say(text: str) -> None:
    sys.stderr.write(text + "\n")


def check_staged(root: Path) -> int:
    """The pre-commit verdict for what is staged, against the staged ledger
    (check/staged.py), rendered by the one hook renderer."""
    from forest_files.check.staged import judge_staged
    from forest_files.check.text import hook_refusal

    report = judge_staged(root, diffs=sys.stderr.isatty())
    if report.ok:
        for note in report.notes:  # refused, hook_refusal says them after the verdict
            _say(note)
        _say_left_out(root)
        return 0
    from forest_files.check.text import HOOK_SHOWN

    report, after, beyond = _commit_index(root, report, len(report.failed) > HOOK_SHOWN)
    # What lists every finding: the index, unless this commit judged more than it
    # (``git commit -a``/``-p``/``FILE…``), whose staging is undone once it is refused.
    lister = "forest check" if beyond else "forest check --staged"
    _say("\n".join([*hook_refusal(report, lister=lister), *after]))
    from forest_files.doors.doorlog import record_findings

    record_findings(root, "hook", report.failed)
    return 1


def _say_left_out(root: Path) -> None:
    """Advice, the commit goes on: custody files of the working tree this commit
    leaves out because git does not track them (check/uncommitted.py)."""
    from forest_files.check.uncommitted import uncommitted_custody

    left_out = uncommitted_custody(root, keep_index_file=True, in_commit=True)
    if left_out is not None:
        _say(left_out)


def _commit_index(
    root: Path, report: CheckReport, many: bool
) -> tuple[CheckReport, list[str], bool]:
    """The report as the commit's own index needs it (check/commit_route.py): for
    ``git commit -a``/``-p``, its one route staging again what the commit staged
    beyond the index, and each route that stages the ledger staging its finding's
    files the commit took whole; for ``git commit FILE…``, which commits the named files alone,
    its one route staging them first, and the commit to run after a route that
    stages the ledger, which that commit would leave out. And whether the commit
    judged another index than the repository's (then ``check --staged`` would not
    list what it found), asked only when the findings are ``many`` (more than the
    hook shows) or a route needs it."""
    from forest_files import gitio
    from forest_files.check.commit_route import routes_stage_taken, stages_ledger

    ledger = any(stages_ledger(s) for r in report.failed for route in r.routes for s in route.steps)
    if (report.commit_route is not None or many or ledger) and gitio.commit_stages_into_lock(root):
        beyond = _beyond_index(root)
        if report.commit_route is not None:
            report = _staged_beyond_index(report, beyond)
        report = routes_stage_taken(report, beyond[0])
        return report, [], bool(beyond[0] or beyond[1])
    if not gitio.commit_names_its_files(root):
        return report, [], False
    from forest_files.check.commit_route import for_named_files, named_files_route
    from forest_files.kernel.shellword import printable

    named = [c.path for c in gitio.staged_changes(root, keep_index_file=True)]
    report = for_named_files(report, named)
    routes = [route for r in report.failed for route in r.routes]
    if report.commit_route is not None:
        routes.append(report.commit_route)
    route = named_files_route(routes, named)
    return report, [] if route is None else ["", printable(route.line())], True


def _beyond_index(root: Path) -> tuple[list[str], list[str]]:
    """What this commit's index (the lock ``git commit -a``/``-p`` staged into) holds
    otherwise than the index: (paths staged whole, paths staged in part); both empty
    for a plain ``git commit``."""
    from forest_files import gitio

    def entries(keep: bool) -> dict[str, tuple[str, str, int]]:
        listed = gitio.ls_files_stage(root, keep_index_file=keep)
        return {e.path: (e.mode, e.blob, e.stage) for e in listed}

    mine, index = entries(True), entries(False)
    beyond = sorted(p for p in mine.keys() | index.keys() if mine.get(p) != index.get(p))
    parts = gitio.unstaged_paths(root, [p for p in beyond if p in mine], keep_index_file=True)
    return [p for p in beyond if p not in parts], sorted(parts)


def _staged_beyond_index(report: CheckReport, beyond: tuple[list[str], list[str]]) -> CheckReport:
    """``report`` with its one route staging first what the commit staged beyond the
    index (``_beyond_index``); a plain ``git commit`` staged nothing more, and its
    route is left as it is."""
    from forest_files.check.commit_route import for_commit_staged

    return for_commit_staged(report, *beyond)


def sync_index(root: Path) -> int:
    from forest_files.custody.left_out import CustodyLeftOut
    from forest_files.custody.repository import Repository
    from forest_files.kernel.errors import ForestError

    try:
        with Repository(root) as repo:
            repo.sync()
    except CustodyLeftOut:
        raise  # its own way in: `forest sync` would be refused the same
    except ForestError as exc:  # the boundary says it, and a sync hook exits 0
        from forest_files.kernel.shellword import forest_text

        sync = forest_text("sync")  # `forest` finds the top from any folder of the work tree
        raise ForestError(f"index not in step with the ledger ({exc}); run `{sync}`") from exc
    return 0


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
        root, held = committed_custody(Path.cwd())
        git_dir_paths(root)  # the repository git runs the hook for is the one found here
        from forest_files.kernel.standing import stand_at

        stand_at(root)  # git's GIT_PREFIX: routes that work where `git commit` was typed
        if not held:
            _refuse_ledger_alone(root)
            _say_left_out(root)  # a forest.toml never committed: said, at one stat's cost
            return 0  # never under custody: nothing to guard
        return check_staged(root)
    root = gitio.toplevel(Path.cwd())
    git_dir_paths(root)
    if hook in AFTER_HOOKS:  # the commit is made: said, never refused
        return after_commit(root, applied=hook == "post-applypatch")
    from forest_files.kernel.paths import CONFIG_NAME

    if not (root / CONFIG_NAME).exists():
        return 0  # not under custody (yet): nothing to guard
    if hook in SYNC_HOOKS:
        from forest_files.kernel.standing import stand_at

        stand_at(root)  # git's GIT_PREFIX: the steps a failed sync names, where git was typed
        return sync_index(root)
    _say(f"forest-files hook: unknown hook {hook!r}; {USAGE}")
    return 2


def after_commit(root: Path, *, applied: bool = False) -> int:
    """The post-commit hook: a commit git made without the pre-commit check (a revert,
    a cherry-pick, ``--no-verify``) that removed acts from the ledger is said at once,
    with the ways back (check/after_commit.py); whether forest.toml is still there or
    not (a revert of the commit that made custody removes it too). Exit 1 when it says
    so: git ignores it (the commit is made), and the pre-commit framework shows a
    hook's output only when it fails. ``applied``: the post-applypatch hook, after
    each patch ``git am`` commits (the same check, worded for a patch); a pick of
    ``git rebase`` is worded as one, and a step that others follow is undone by its
    id (check/after_commit.py ``sequence_at``)."""
    from forest_files.check.after_commit import removed_custody, sequence_at
    from forest_files.kernel.standing import stand_at
    from forest_files.kernel.state import git_dir_paths

    stand_at(root)  # git's GIT_PREFIX: the ways back, from where git was typed
    hook = "post-applypatch" if applied else "post-commit"
    sequence = sequence_at(Path(git_dir_paths(root)[0]), hook)
    said = removed_custody(root, sequence=sequence).lines()
    for line in said:
        _say(line)
    return 1 if said else 0


def committed_custody(cwd: Path) -> tuple[Path, bool]:
    """(the working tree's root, whether the git index or HEAD holds forest.toml), in
    the one git call the root costs anyway: the working tree's forest.toml is never
    asked, so moving it away cannot switch the check off (a repository that never held
    custody then pays one ``ls-files`` more: ``_refuse_ledger_alone``). ``--revs-only``
    prints the index's forest.toml (``GIT_INDEX_FILE``'s) when it is there, else
    ``--default``'s, HEAD's, when that is (rev-parse reads no name after one that
    fails: hence one name and a default)."""
    from forest_files import gitio
    from forest_files.kernel.paths import CONFIG_NAME

    args = ["rev-parse", "--show-toplevel", "--revs-only", "--default", f"HEAD:{CONFIG_NAME}"]
    proc = gitio.run_git(cwd, [*args, f":{CONFIG_NAME}"], keep_index_file=True, ok_codes=(0, 128))
    lines = proc.stdout.decode("utf-8", "surrogateescape").rstrip("\n").split("\n")
    if proc.returncode != 0:
        return gitio.toplevel(cwd), True  # toplevel says why; else the check decides
    held = len(lines) > 1 and _is_object_id(lines[-1])
    return Path("\n".join(lines[:-1] if held else lines)), held


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


def _is_object_id(line: str) -> bool:
    return len(line) in (40, 64) and all(c in "0123456789abcdef" for c in line)


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
