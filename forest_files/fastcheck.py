"""The light entry point of ``forest check``: ``python -m forest_files.fastcheck [--staged]``.

Same verdict, findings lines and summary as ``forest check`` (worktree, or the
git index with ``--staged``: the pre-commit hook's check), without the CLI: no
typer, pydantic, GitPython — and no markdown-it unless a file must be parsed.
No colour, no diffs (``forest check --show-diff`` has them).

Stores: only the local caches in ``.forest/cache`` (statcache.py, and the
remembered clean verdict of verdict.py that answers an unchanged tree without
opening the store) and the index sync every command does.
Refuses: anything but ``--staged``, ``--repo PATH`` and paths (exit 2).
Returns: exit 0 when every binding is clean, 1 on any other finding or a
refusal, 3 on an unexpected error, 75 when the index is busy.
Test: tests/test_fastcheck.py

``FOREST_DEBUG_IMPORTS=1`` prints, to stderr at exit, the sorted top-level
modules loaded (how the tests prove the heavy libraries stayed out).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def _usage() -> int:
    print(
        "usage: python -m forest_files.fastcheck [--staged] [--repo PATH] [PATH...]",
        file=sys.stderr,
    )
    return 2


def run(argv: list[str]) -> int:
    staged = False
    repo = "."
    paths: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg == "--staged":
            staged = True
        elif arg == "--repo":
            repo = next(args, "")
            if not repo:
                return _usage()
        elif arg.startswith("-"):
            return _usage()
        else:
            paths.append(arg)

    if not staged and not paths:
        count = _remembered(repo)
        if count is not None:
            sys.stdout.write(_summary(count, 0, "working tree") + "\n")
            return 0

    from forest_files.errors import ForestError, StoreBusy, StoreCorruption

    try:
        return _check(repo, staged, tuple(paths))
    except KeyboardInterrupt:
        print("forest: interrupted", file=sys.stderr)
        return 130
    except StoreBusy as exc:
        print(f"forest: {exc}", file=sys.stderr)
        return 75
    except StoreCorruption as exc:
        print(f"forest: {exc}", file=sys.stderr)
        return 3
    except ForestError as exc:
        print(f"forest: {exc}", file=sys.stderr)
        return 1


def _summary(count: int, failed: int, where: str) -> str:
    return f"{count} binding(s) checked against the {where}: {failed} not clean"


def _remembered(repo: str) -> int | None:
    """The binding count of a clean verdict whose inputs are all unchanged (verdict.py)."""
    from forest_files.files import verdict

    near = verdict.quick_root(repo)
    return verdict.recall(near) if near is not None else None


def _check(repo: str, staged: bool, paths: tuple[str, ...]) -> int:
    whole_tree = not staged and not paths
    from forest_files.files import verdict
    from forest_files.files.check import check_all
    from forest_files.files.content import ContentSource
    from forest_files.files.session import custody_at, remember_verdict, worktree_custody

    near = verdict.quick_root(repo)  # the same root the remembered verdict is found by
    if near is not None:
        root = Path(near)
    else:  # GIT_DIR / GIT_WORK_TREE: only git knows
        from forest_files.repository import find_root

        root = find_root(repo)
    content: ContentSource
    before = None
    if staged:
        with custody_at(root, "index", keep_index_file=True) as (store, bindings, content):
            findings = check_all(store, bindings, content, paths=paths)
    else:
        bmap, content, before = worktree_custody(root)
        bindings = bmap.bindings
        findings = check_all(None, bindings, content, paths=paths, grounds=bmap.grounds)
    out: list[str] = []
    for f in findings:
        if f.kind == "clean":
            continue  # the summary counts them; only what needs a route is listed
        where = f" lines {f.start_line}-{f.end_line}" if f.start_line else ""
        out.append(f"{f.kind} {f.selector}{where} {f.detail}".rstrip())
        if f.kind == "contested":
            out.append(f"  candidates: {', '.join(f.candidates) or '(two bindings)'}")
    failed = sum(1 for f in findings if f.failed)
    if whole_tree and before is not None:
        remember_verdict(root, before, content, bindings, bool(failed))
    out.append(_summary(len(findings), failed, content.name))
    sys.stdout.write("\n".join(out) + "\n")
    if failed:
        print(
            f"forest: {failed} binding(s) diverge from ground; run `forest check` for the routes",
            file=sys.stderr,
        )
    return 1 if failed else 0


def main() -> None:
    code = run(sys.argv[1:])
    if os.environ.get("FOREST_DEBUG_IMPORTS") == "1":
        names = sorted({m.split(".")[0] for m in sys.modules})
        print("imports: " + " ".join(names), file=sys.stderr)
    sys.stdout.flush()
    sys.exit(code)


if __name__ == "__main__":
    main()
