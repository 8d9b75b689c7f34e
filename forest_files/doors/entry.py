"""The ``forest`` console script: git-style global options, then the command.

``forest [-C DIR]... [--version] COMMAND ...``: ``-C`` changes directory
before anything else, as git does. ``check``, ``status`` and ``ci`` are answered
by the light entry (fastcheck.py, gatecmd.py: no typer, rich or pydantic); every other
command, ``--help`` and any option the light parser does not know go to the
full CLI (cli/, typer), which shares the same check path and renderers.

A console command runs once and exits, so it turns Python's cyclic garbage
collector off (``boundary.one_shot_gc``): its long-lived data (a decoded ledger, a view
being replayed, a tree listing) is acyclic and freed by reference counting,
and every automatic collection walked all of it again. The big decoding and
replaying loops pause it themselves (``gc_paused``, for library callers too);
what is left still cost up to 8% of ``forest ci`` on a fresh clone of 10,000
bindings, with the same peak memory either way (bench/gc_bench.py).
``forest watch`` runs for hours and turns it back on. The light doors (``check``,
``status``) and the hooks end through ``boundary.leave``: their output flushed, then no
interpreter teardown freeing what they decoded.

Every run goes through the one error boundary (boundary.py): one ``forest:``
line and an exit code for any exception, a crash log for an internal error.

Stores: nothing itself.
Refuses: ``-C`` without a directory or with one that does not exist (exit 2).
Returns: the command's exit code.
Test: tests/doors/test_doors.py, tests/doors/test_fastcheck.py, tests/doors/test_one_shot_gc.py,
tests/doors/test_light_ci.py, tests/doors/test_dash_c_hints.py
"""

from __future__ import annotations

import os
import sys


def _version() -> str:
    from forest_files import __version__

    return f"forest-files {__version__}"


def dispatch(argv: list[str], *, typed: bool = False) -> int | None:
    """Answer ``argv`` on the light path, or None for the full CLI. Applies ``-C``.
    ``typed``: ``argv`` was typed in this directory (the console script), so the routes
    it prints are pasted here even when a command's own ``-C``/``--repo`` points
    elsewhere; an in-process caller leaves them as the top's."""
    from forest_files.kernel.standing import typed_in

    typed_in(None)  # set for this command alone (a process may dispatch more than one)
    if typed or (argv and argv[0].startswith("-C")):
        absolute = any(os.path.isabs(d) for d in _directories(argv))  # printed absolute
        try:  # noqa: SIM105  (contextlib stays off the warm check's import list)
            typed_in(os.getcwd(), absolute=absolute)  # routes are pasted here, not in DIR
        except OSError:
            pass  # the directory is gone: where the user stands is unknown
    while argv and argv[0].startswith("-C"):
        if argv[0] == "-C" and len(argv) < 2:
            print("forest: -C needs a directory (forest -C DIR COMMAND …)", file=sys.stderr)
            return 2
        target = argv[1] if argv[0] == "-C" else argv[0][2:]
        try:
            os.chdir(target)
        except OSError as exc:
            print(f"forest: cannot change to {target!r}: {exc.strerror}", file=sys.stderr)
            return 2
        del argv[: 2 if argv[0] == "-C" else 1]
    if argv[:1] in (["--version"], ["-V"]):
        print(_version())
        return 0
    if not argv:
        return None
    command, rest = argv[0], argv[1:]
    if command == "check":
        from forest_files.doors import fastcheck

        args = fastcheck.parse_check(rest)
        return None if args is None else fastcheck.check_command(args)
    if command == "ci":
        from forest_files.doors import gatecmd

        found = gatecmd.parse_ci(rest)
        return None if found is None else gatecmd.ci_command(found)
    if command == "status" and set(rest) <= {"--json"}:
        from forest_files.doors import faststatus

        return faststatus.status_command(".", "--json" in rest)
    return None


def _directories(argv: list[str]) -> list[str]:
    """The directories of the ``-C DIR`` / ``-CDIR`` before the command."""
    out: list[str] = []
    at = 0
    while at < len(argv) and argv[at].startswith("-C"):
        if argv[at] == "-C":
            out += argv[at + 1 : at + 2]
            at += 2
        else:
            out.append(argv[at][2:])
            at += 1
    return out


def _run(argv: list[str]) -> int:
    """``argv`` answered: by the light path, or by the full CLI (which exits itself)."""
    code = dispatch(argv, typed=True)
    if code is None:
        from forest_files.doors.cli import main as full

        sys.argv = [sys.argv[0], *argv]  # -C already applied
        full()
        return 0  # not reached: the full CLI exits the process
    return code


def main() -> None:
    """The ``forest`` console script, inside the one error boundary (boundary.py)."""
    from forest_files.doors.boundary import one_shot_gc, run_guarded

    one_shot_gc()
    argv = sys.argv[1:]

    try:
        code = run_guarded("forest", lambda: _run(argv), sys.argv)
    finally:
        from forest_files.kernel.standing import typed_in

        typed_in(None)  # the next command of this process (a caller in process) types anew
    from forest_files.doors.fastcheck import finish

    finish(code)


if __name__ == "__main__":
    main()
