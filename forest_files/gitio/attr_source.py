"""The attributes a commit, or the git index, gives paths: its ``.gitattributes`` alone.

What every clone of a commit gets is decided by the ``.gitattributes`` files the commit
holds; ``$GIT_DIR/info/attributes`` and ``core.attributesFile`` are this machine's and
go with no clone. ``git check-attr --source`` (git 2.40) would read a commit's files
but still this machine's two; so git is asked in a throwaway git directory of its own
(``HEAD``, ``objects/``, ``refs/``: no ``info/attributes``; a ``config`` naming the
repository's object format, or git would read a SHA-256 repository's ids and index as
SHA-1's), reaching the repository's objects as an alternate, ``core.attributesFile``
pointed at nothing, with ``--cached`` and an index that holds only what is asked: the
git index itself (``GIT_INDEX_FILE`` kept for a hook), or, for a commit, a temporary
one holding the commit's ``.gitattributes`` files along the asked paths (``git
ls-tree``, then ``git update-index --index-info``). Git itself matches the patterns and macros.

Stores: the throwaway git directory, in a private temporary folder of the work tree's
git directory, removed before returning.
Refuses: an attribute or revision that reads as an option (``UnknownRef``).
Returns: ``committed_attributes`` — path -> attribute -> value ("set", "unset",
"unspecified" or the value), for every path and attribute asked; ``deciding_rules`` —
path -> attribute -> the committed ``.gitattributes`` whose line gives it (the same
check-attr, asked with the files of each depth added in turn). A ``.gitattributes``
that is a symbolic link is no rule file, as git reads none.
Test: tests/check/test_checkout_rewrite_commit.py, tests/gitio/test_sha256_repo.py
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from forest_files.gitio._run import refuse_option, run_git, split_z
from forest_files.kernel.state import git_dirs, worktree_dir

INDEX = "index"  # the git index as the source (else a commit id)
_BATCH = 500  # .gitattributes paths per ls-tree
# The throwaway's config: the repository's object format (``sha1`` or ``sha256``),
# which git reads only from a repository format 1's ``extensions``.
_CONFIG = b"[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectformat = %s\n"


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
    if source != INDEX:
        refuse_option(source, "revision")
    with _throwaway(repo) as (fake, env):
        if source == INDEX:
            given = os.environ.get("GIT_INDEX_FILE") if keep_index_file else None
            env["GIT_INDEX_FILE"] = (
                os.path.abspath(given) if given else str(git_dirs(repo)[0] / "index")
            )
        else:
            listed = _committed_rules(repo, source, paths)
            if not listed:
                return {p: dict.fromkeys(names, "unspecified") for p in paths}
            run_git(fake, ["update-index", "-z", "--index-info"], stdin=listed, extra_env=env)
        return _ask(fake, env, names, paths)


def deciding_rules(
    repo: Path,
    source: str,
    given: Mapping[str, Sequence[str]],
    *,
    keep_index_file: bool = False,
) -> dict[str, dict[str, str]]:
    """For each path of ``given``, each attribute named there (one ``source``'s
    ``.gitattributes`` give it: ``committed_attributes`` said so) -> the one of those
    files whose line decides it: the deepest along the path whose rules change what the
    files above it said. Git matches the patterns and macros: it is asked with the files
    of each depth added in turn (one ``update-index`` and one ``check-attr`` per depth
    holding a file; none when one file lies along the paths). A file that repeats the
    value a file above it gives leaves the upper one named."""
    names = sorted({name for named in given.values() for name in named})
    for name in names:
        refuse_option(name, "attribute")
    if source != INDEX:
        refuse_option(source, "revision")
    paths = sorted(given)
    records = _rules_records(repo, source, paths, keep_index_file)
    depths = sorted({_depth(path) for path, _ in records})
    held = {path for path, _ in records}
    out: dict[str, dict[str, str]] = {p: {} for p in paths}
    if not depths:  # no rules file along the paths: nothing to name
        return out
    if len(depths) == 1:  # one file: it gives them all
        for path in paths:
            for name in given[path]:
                out[path][name] = _rules_at(path, depths[0])
        return out
    levels: list[dict[str, dict[str, str]]] = []
    with _throwaway(repo) as (fake, env):
        for depth in depths:
            added = b"".join(rec for path, rec in records if _depth(path) == depth)
            run_git(fake, ["update-index", "-z", "--index-info"], stdin=added, extra_env=env)
            levels.append(_ask(fake, env, names, paths))
    for path in paths:
        for name in given[path]:
            before = "unspecified"
            for depth, level in zip(depths, levels, strict=True):
                now = level[path].get(name, "unspecified")
                if now != before and _rules_at(path, depth) in held:
                    out[path][name] = _rules_at(path, depth)
                before = now
    return out


def _depth(rules: str) -> int:
    """How many directories deep the ``.gitattributes`` at ``rules`` lies (0: the top)."""
    return rules.count("/")


def _rules_at(path: str, depth: int) -> str:
    """The ``.gitattributes`` of ``path``'s directory ``depth`` levels below the top;
    "" when ``path`` lies higher."""
    parts = path.split("/")[:-1]
    return "/".join([*parts[:depth], ".gitattributes"]) if len(parts) >= depth else ""


def _rules_records(
    repo: Path, source: str, paths: Sequence[str], keep_index_file: bool
) -> list[tuple[str, bytes]]:
    """Each regular ``.gitattributes`` file ``source`` holds along ``paths``, with its
    ``update-index --index-info`` record."""
    if source == INDEX:
        args = ["ls-files", "-s", "-z", "--", *_rules_along(paths)]
        raw = run_git(repo, args, keep_index_file=keep_index_file).stdout
        kept = [r for r in raw.split(b"\0") if r.startswith((b"100644 ", b"100755 "))]
        kept = [r for r in kept if r.split(b"\t", 1)[0].endswith(b" 0")]  # merged entries
    else:
        kept = [r for r in _committed_rules(repo, source, paths).split(b"\0") if r]
    return [(r.split(b"\t", 1)[1].decode("utf-8", "surrogateescape"), r + b"\0") for r in kept]


@contextlib.contextmanager
def _throwaway(repo: Path) -> Iterator[tuple[Path, dict[str, str]]]:
    """A git directory of its own (no ``info/attributes``) reaching ``repo``'s objects,
    with the environment that drives it and an index of its own; removed after."""
    import tempfile  # only when asked: a hook with no .gitattributes staged never is

    common = git_dirs(repo)[1]
    form = run_git(repo, ["rev-parse", "--show-object-format"]).stdout.strip()
    with tempfile.TemporaryDirectory(prefix=".attr-", dir=worktree_dir(repo)) as tmp:
        fake = Path(tmp)
        for sub in ("objects", "refs"):
            (fake / sub).mkdir()
        (fake / "HEAD").write_text("ref: refs/heads/attributes\n")
        (fake / "config").write_bytes(_CONFIG % form)
        env = {
            "GIT_DIR": str(fake),
            "GIT_ALTERNATE_OBJECT_DIRECTORIES": _alternates(common),
            "GIT_INDEX_FILE": str(fake / "index"),
        }
        yield fake, env


def _ask(
    fake: Path, env: dict[str, str], names: Sequence[str], paths: Sequence[str]
) -> dict[str, dict[str, str]]:
    """``names``' values for ``paths`` from the ``.gitattributes`` of ``env``'s index."""
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
    in the directories of ``paths`` and above (``update-index --index-info`` input): a
    symbolic link is left out, as git leaves it out reading the tree or the index (and
    will not follow it in the work tree) since 2.32."""
    rules = _rules_along(paths)
    out = b""
    for start in range(0, len(rules), _BATCH):
        args = ["ls-tree", "-z", "--full-tree", "--end-of-options", commit, "--"]
        proc = run_git(repo, [*args, *rules[start : start + _BATCH]])
        for record in proc.stdout.split(b"\0"):
            if record.startswith((b"100644 blob ", b"100755 blob ")):
                out += record + b"\0"
    return out


def _rules_along(paths: Sequence[str]) -> list[str]:
    """The ``.gitattributes`` paths of the directories of ``paths`` and above."""
    dirs = {""}
    for path in paths:
        parts = path.split("/")[:-1]
        dirs.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    return sorted(f"{d}/.gitattributes" if d else ".gitattributes" for d in dirs)


__all__ = ["INDEX", "committed_attributes", "deciding_rules"]
