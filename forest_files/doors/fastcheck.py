"""The light ``forest check`` (and the boundary and root ``forest status``'s light
door, faststatus.py, shares): the same verdict, findings and routes as every door
(doors/), without typer, pydantic, GitPython — and no markdown-it unless a file must
be parsed.

``python -m forest_files.doors.fastcheck [check options]`` and the ``forest``
console script (entry.py) both land here for ``check``/``status``; anything
this parser does not know (``--help`` included) goes to the full CLI, which
calls the same ``check_command``.

Stores: only the local caches in ``.git/forest`` (statcache.py, and the
remembered clean verdict of verdict.py that answers an unchanged tree without
opening the store) and the index sync every command does.
Refuses: an option it does not know when run as ``python -m`` (exit 2).
Returns: exit 0 when every binding is clean, 1 on any other finding or a
refusal, 2 when a PATH (or section selector) names no binding and no required
target, 3 on corruption or an internal error (a crash log: boundary.py), 75
when the index is busy (exits.py).
The verdict line on standard error points at where the routes went: above it only
when standard output goes where standard error goes; the JSON's routes fields after
``--json``; the file standard output was sent to (streams.py ``routes_where``).
Test: tests/doors/test_fastcheck.py, tests/doors/test_check_routes_pointer.py

``FOREST_DEBUG_IMPORTS=1`` prints, to stderr at exit, the sorted top-level
modules loaded (how the tests prove the heavy libraries stayed out).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing itself is not imported: ~5 ms of every warm check
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from forest_files.check.findings import CheckReport, Route


class CheckArgs:
    """``check``'s options. A plain class: a dataclass (with inspect) or a NamedTuple
    (with typing) would double the import cost of a warm ``forest check``."""

    __slots__ = ("as_json", "paths", "repo", "rev", "show_diff", "staged", "verbose")

    def __init__(
        self,
        *,
        staged: bool = False,
        rev: str | None = None,
        paths: tuple[str, ...] = (),
        repo: str = ".",
        as_json: bool = False,
        verbose: bool = False,
        show_diff: bool = False,
    ) -> None:
        self.staged = staged
        self.rev = rev
        self.paths = paths
        self.repo = repo
        self.as_json = as_json
        self.verbose = verbose
        self.show_diff = show_diff


_FLAGS = {
    "--staged": "staged",
    "--json": "as_json",
    "-v": "verbose",
    "--verbose": "verbose",
    "--show-diff": "show_diff",
}


def parse_check(argv: list[str]) -> CheckArgs | None:
    """``check``'s options, or None when something here is not understood (the full
    CLI then answers, with its usage error or help)."""
    flags: set[str] = set()
    values: dict[str, str] = {}
    paths: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg in _FLAGS:
            flags.add(_FLAGS[arg])
        elif arg in ("--rev", "--repo"):
            value = next(args, None)
            if value is None:
                return None
            values[arg[2:]] = value
        elif arg.startswith(("--rev=", "--repo=")):
            key, _, value = arg[2:].partition("=")
            values[key] = value
        elif arg == "--":
            paths.extend(args)
        elif arg.startswith("-"):
            return None
        else:
            paths.append(arg)
    if "staged" in flags and "rev" in values:
        return None  # the full CLI says why
    return CheckArgs(
        paths=tuple(paths),
        rev=values.get("rev"),
        repo=values.get("repo", "."),
        staged="staged" in flags,
        as_json="as_json" in flags,
        verbose="verbose" in flags,
        show_diff="show_diff" in flags,
    )


def check_command(args: CheckArgs) -> int:
    """``forest check``: render the one check path's report; the exit code."""
    if not (args.staged or args.rev or args.paths or args.as_json or args.verbose):
        count = _remembered(args.repo)
        if count is not None:
            from forest_files.check.summary import summary_line

            print(summary_line(count, 0, "working tree"))
            return 0
    return guarded("check", lambda: _check(args), args.repo)


def _check(args: CheckArgs) -> int:
    from forest_files.check.path import run_check
    from forest_files.check.text import terminal

    root = work_root(args.repo)
    source = "index" if args.staged else (args.rev or "worktree")
    diffs = args.show_diff or (sys.stdout.isatty() and not args.as_json)
    quick = args.staged and not (args.paths or args.as_json or args.verbose)
    paths = args.paths
    if paths:  # a selector judges its file, then shows its own section
        from forest_files.check.narrow import narrowed, split, twin_of, unmatched

        paths, selectors = split(root, args.paths)
    report = run_check(root, source, paths, diffs=diffs, quick=quick)
    if args.paths:
        whole, report = report, narrowed(report, args.paths, selectors)
        missed = unmatched(report, args.paths, selectors)
        if missed:
            from forest_files.custody.target_names import unnameable
            from forest_files.kernel.shellword import forest_text, shell_word

            refused = unnameable(root, missed[0]) if len(missed) == 1 else None
            if refused is not None:  # a file no selector can name: its rename
                raise refused
            named = ", ".join(map(shell_word, missed))
            twin = twin_of(whole, missed[0]) if len(missed) == 1 else None
            how = twin or f"`{forest_text('status')}` lists the bindings"
            print(
                f"forest: check: {named} names no binding and no required target; {how}",
                file=sys.stderr,
            )
            return 2
    if not report.ok:  # recorded whether or not standard output takes the report
        from forest_files.doors.doorlog import record_findings

        record_findings(root, "check", report.failed, head=report.head)  # None: asked there
    if args.as_json:
        import json

        sent = _sent(json.dumps(report.as_dict("check")))
    else:
        colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        more = _folder_routes(report) if source == "worktree" and not args.paths else ()
        sent = _sent("\n".join(terminal(report, verbose=args.verbose, colour=colour, more=more)))
    if report.ok:
        return 0
    from forest_files.doors.streams import routes_where

    where = routes_where(args.as_json) if sent else ""  # the boundary says why, after
    print(f"forest: {len(report.failed)} finding(s) not clean{where}", file=sys.stderr)
    return 1


def _sent(text: str) -> bool:
    """``text`` printed and flushed, before a line on stderr points at it; False when
    standard output could not be written (a full disk, ``>&-``: ``OutputLost``, which
    the boundary says in its own line once the command returns)."""
    from forest_files.doors.streams import OutputLost

    try:
        print(text)
        sys.stdout.flush()
    except OutputLost:
        return False
    return True


def _folder_routes(report: CheckReport) -> tuple[Route, ...]:
    """A folder moved whole: one directory rebind for its moved bindings (every
    binding judged: a check narrowed to paths may not see them all)."""
    if report.ok:
        return ()
    from forest_files.check.folder_move import folder_routes

    return folder_routes(report)


def guarded(command: str, run: Callable[[], int], repo: str) -> int:
    """``run`` inside the one error boundary (boundary.py), pointed at ``repo``: where
    a refusal is recorded (its code, never its message) and a crash log is written."""
    from forest_files.doors.boundary import run_guarded

    return run_guarded(command, run, sys.argv, repo=repo)


def work_root(repo: str) -> Path:
    """The work tree's top, with where the user stands in it noted for the routes a
    check prints (kernel/standing.py ``stand_at``)."""
    from forest_files.custody import verdict
    from forest_files.kernel.standing import stand_at

    near = verdict.quick_root(repo)  # the same root the remembered verdict is found by
    if near is not None:
        from pathlib import Path

        stand_at(near, absolute=os.path.isabs(repo))  # --repo /abs: routes say /abs
        return Path(near)
    from forest_files.custody.repository import find_root  # GIT_DIR / GIT_WORK_TREE: only git knows

    root = find_root(repo)
    stand_at(root, absolute=os.path.isabs(repo))
    return root


def _remembered(repo: str) -> int | None:
    """The binding count of a clean verdict whose inputs are all unchanged (verdict.py),
    while git's index tracks no local state (localstate.py: remembered while the
    index is unchanged, listed again by one git call when it changed)."""
    from forest_files.custody import verdict

    near = verdict.quick_root(repo)
    if near is None:
        return None
    from forest_files.check.opening import remembered_count

    return remembered_count(near)


def run(argv: list[str]) -> int:
    args = parse_check(argv)
    if args is None:
        print(
            "usage: python -m forest_files.doors.fastcheck [--staged | --rev REV] [--json] [-v] "
            "[--show-diff] [--repo PATH] [PATH...]",
            file=sys.stderr,
        )
        return 2
    return check_command(args)


def finish(code: int) -> None:
    if os.environ.get("FOREST_DEBUG_IMPORTS") == "1":
        names = sorted({m.split(".")[0] for m in sys.modules})
        print("imports: " + " ".join(names), file=sys.stderr)
    from forest_files.doors.boundary import leave

    leave(code)


def main() -> None:
    from forest_files.doors.boundary import run_guarded

    finish(run_guarded("check", lambda: run(sys.argv[1:]), sys.argv))


if __name__ == "__main__":
    main()
