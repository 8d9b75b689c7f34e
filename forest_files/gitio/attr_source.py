"""The attributes a commit, or the git index, gives paths: its ``.gitattributes`` alone.

What every clone of a commit gets is decided by the ``.gitattributes`` files the commit
holds; ``$GIT_DIR/info/attributes`` and ``core.attributesFile`` are this machine's and
go with no clone. ``git check-attr --source`` (git 2.40) would read a commit's files
but still this machine's two; so git is asked in a throwaway git directory of its own
(``HEAD``, ``objects/``, ``refs/``: no ``info/attributes``), reaching the repository's
objects as an alternate, ``core.attributesFile`` pointed at nothing, with ``--cached``
and an index that holds only what is asked: the git index itself (``GIT_INDEX_FILE``
kept for a hook), or, for a commit, a temporary one holding the commit's
``.gitattributes`` files along the asked paths (``git ls-tree``, then ``git
update-index --index-info``). Git itself matches the patterns and macros.

Stores: the throwaway git directory, in a private temporary folder of the work tree's
git directory, removed before returning.
Refuses: an attribute or revision that reads as an option (``UnknownRef``).
Returns: ``committed_attributes`` — path -> attribute -> value ("set", "unset",
"unspecified" or the value), for every path and attribute asked.
Test: tests/check/test_checkout_rewrite_commit.py
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from forest_files.gitio._run import refuse_option, run_git, split_z
from forest_files.kernel.state import git_dirs, worktree_dir

INDEX = "index"  # the git index as the source (else a commit id)
_BATCH = 500  # .gitattributes paths per ls-tree


def committed_attributes(
    repo: Path,
    source: str,
    names: Sequence[str],
    paths: Sequence[str],
    *,
    keep_index_file: bool = False,
) -> dict[str, dict[str, str]]:
    """``names``' values for each of ``paths`` as the ``.gitattributes`` files of
    ``source`` (``INDEX`` or a commit) set them, and nothing local."""
    for name in names:
        refuse_option(name, "attribute")
    if not paths or not names:
        return {}
    import tempfile  # only when asked: a hook with no .gitattributes staged never is

    git_dir, common = git_dirs(repo)
    with tempfile.TemporaryDirectory(prefix=".attr-", dir=worktree_dir(repo)) as tmp:
        fake = Path(tmp)
        for sub in ("objects", "refs"):
            (fake / sub).mkdir()
        (fake / "HEAD").write_text("ref: refs/heads/attributes\n")
        env = {"GIT_DIR": str(fake), "GIT_ALTERNATE_OBJECT_DIRECTORIES": _alternates(common)}
        if source == INDEX:
            given = os.environ.get("GIT_INDEX_FILE") if keep_index_file else None
            env["GIT_INDEX_FILE"] = os.path.abspath(given) if given else str(git_dir / "index")
        else:
            refuse_option(source, "revision")
            env["GIT_INDEX_FILE"] = str(fake / "index")
            listed = _committed_rules(repo, source, paths)
            if not listed:
                return {p: dict.fromkeys(names, "unspecified") for p in paths}
            run_git(fake, ["update-index", "-z", "--index-info"], stdin=listed, extra_env=env)
        args = ["-c", f"core.attributesFile={os.devnull}", "check-attr", "-z", "--cached"]
        stdin = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)
        proc = run_git(fake, [*args, "--stdin", *names], stdin=stdin, extra_env=env)
    fields = split_z(proc.stdout)
    out: dict[str, dict[str, str]] = {p: {} for p in paths}
    for i in range(0, len(fields) - 2, 3):
        out.setdefault(fields[i], {})[fields[i + 1]] = fields[i + 2]
    return out


def _alternates(common: Path) -> str:
    """The repository's objects (and a receive-pack quarantine's alternates, kept) as
    ``GIT_ALTERNATE_OBJECT_DIRECTORIES``; a path holding ``:`` or ``"`` in git's
    double quotes."""
    objects = str(common / "objects")
    if ":" in objects or '"' in objects:
        objects = '"' + objects.replace("\\", "\\\\").replace('"', '\\"') + '"'
    kept = os.environ.get("GIT_ALTERNATE_OBJECT_DIRECTORIES") if _quarantined() else None
    return f"{kept}:{objects}" if kept else objects


def _quarantined() -> bool:
    return bool(os.environ.get("GIT_QUARANTINE_PATH"))


def _committed_rules(repo: Path, commit: str, paths: Sequence[str]) -> bytes:
    """``ls-tree -z`` records of the regular ``.gitattributes`` files ``commit`` holds
    in the directories of ``paths`` and above (``update-index --index-info`` input)."""
    dirs = {""}
    for path in paths:
        parts = path.split("/")[:-1]
        dirs.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    rules = sorted(f"{d}/.gitattributes" if d else ".gitattributes" for d in dirs)
    out = b""
    for start in range(0, len(rules), _BATCH):
        args = ["ls-tree", "-z", "--full-tree", "--end-of-options", commit, "--"]
        proc = run_git(repo, [*args, *rules[start : start + _BATCH]])
        for record in proc.stdout.split(b"\0"):
            if record.startswith((b"100644 blob ", b"100755 blob ")):
                out += record + b"\0"
    return out


__all__ = ["INDEX", "committed_attributes"]
