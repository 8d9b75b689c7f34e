"""Running git: one argument-list runner, a clean environment, typed errors.

Every git call sees the repository's own objects and history only: replace refs
(``refs/replace/*``, ``git replace``) and a grafts file (``info/grafts``, still
honoured by git 2.39 even with ``GIT_NO_REPLACE_OBJECTS``) are ignored, so neither
can hide a commit of a range from the gate or the hook; and every path is a literal
name, whatever pathspec variables (``GIT_GLOB_PATHSPECS``…) the user's shell exports.

Stores: nothing.
Refuses: a ``GIT_INDEX_FILE`` kept for a hook that names no file (a shell's
export); maps git's failures to NotARepo (naming GIT_CEILING_DIRECTORIES when it
stopped git short of a work tree above) / GitFailed (a partial
clone's object its promisor remote cannot give: one line naming that remote; a
boolean variable exported as what git cannot read: gitio/discovery.py's line; a
repository another user owns: gitio/ownership.py's line).
Returns: decoded stdout (bytes or str), NUL-split records.
Test: tests/gitio/test_gitio.py, tests/gitio/test_partial_clone.py,
tests/gitio/test_user_repo_vars.py, tests/gitio/test_dubious_ownership.py,
tests/gitio/test_pathspec_vars.py
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from forest_files.gitio.discovery import unreadable_boolean
from forest_files.gitio.ownership import dubious_ownership
from forest_files.kernel.errors import ForestError

# Variables that tie a git process to one particular repository. Inherited
# from a hook or another git command they would misdirect us when we drive a
# repository by path (``cwd``), so they are dropped. Config variables
# (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT/KEY_n/VALUE_n) are user intent, kept.
_REPO_LOCAL_VARS = frozenset(
    {
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_COMMON_DIR",
        "GIT_CONFIG",
        "GIT_DIR",
        "GIT_GRAFT_FILE",
        "GIT_IMPLICIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_INTERNAL_SUPER_PREFIX",
        "GIT_NO_REPLACE_OBJECTS",
        "GIT_OBJECT_DIRECTORY",
        "GIT_PREFIX",
        "GIT_REPLACE_REF_BASE",
        "GIT_SHALLOW_FILE",
        "GIT_WORK_TREE",
    }
)

# How git reads a pathspec, exported by a user for their own git commands. Every
# path forest hands git is a literal name (``--literal-pathspecs`` below), and git
# refuses to run at all when that flag meets an exported glob or icase setting.
_PATHSPEC_VARS = frozenset(
    {"GIT_GLOB_PATHSPECS", "GIT_ICASE_PATHSPECS", "GIT_LITERAL_PATHSPECS", "GIT_NOGLOB_PATHSPECS"}
)
_DROPPED = _REPO_LOCAL_VARS | _PATHSPEC_VARS

# Where the grafts file is said to be: beneath a file, so nothing can ever stand
# there (git ignores a graft file it cannot open with ENOENT or ENOTDIR, silently).
NO_GRAFTS = os.path.join(os.devnull, "forest-files-no-grafts")

# Global options for every call: raw (unquoted) paths, no pager, no colour,
# pathspecs taken literally so a file named "*.md" means only itself, no replace
# refs (the environment says so too, for any git that git starts), and no
# signature checks printed into ``git log``'s asked format (a signer's usual
# ``log.showSignature``: its "Good … signature" lines were read as commits), and
# ``log`` output in UTF-8 whatever ``i18n.logOutputEncoding`` says (latin1 there
# turned a non-ASCII author into another name, one ``[authority]`` does not list),
# and no ``log`` of one path following its renames (``log.follow``: ``--no-renames``
# does not stop it; a file's renaming commit no longer "added" it).
_BASE = (
    "git",
    "--no-pager",
    "--no-replace-objects",
    "--literal-pathspecs",
    "-c",
    "core.quotepath=off",
    "-c",
    "color.ui=false",
    "-c",
    "log.showSignature=false",
    "-c",
    "i18n.logOutputEncoding=UTF-8",
    "-c",
    "log.follow=false",
)


class GitFailed(ForestError):
    """git exited non-zero. ``stderr`` holds what git said."""

    def __init__(self, message: str, *, stderr: str = "", returncode: int | None = None) -> None:
        detail = f"{message}: {stderr.strip()}" if stderr.strip() else message
        super().__init__(detail)
        self.stderr = stderr
        self.returncode = returncode


class NotARepo(ForestError):
    """The path is not inside a git working tree."""


class BareRepo(ForestError):
    """The repository has no working tree; forest-files needs one."""


class ShallowClone(ForestError):
    """History needed for the check is missing because the clone is shallow."""


class UnknownRef(ForestError):
    """A revision, ref or object id does not resolve."""


def clean_env(
    extra: Mapping[str, str] | None = None, *, keep_index_file: bool = False
) -> dict[str, str]:
    """The environment for a git child process.

    Repository-locating variables are dropped, and the pathspec ones (every path
    forest passes is literal). ``keep_index_file=True`` keeps
    ``GIT_INDEX_FILE`` (made absolute against our cwd; refused when it names no
    file) for a hook that must judge the index git handed it: ``commit -a`` and
    ``commit <paths>`` run the hook against a temporary index named only by that
    variable. Inside a receive-pack quarantine (a server hook: ``GIT_QUARANTINE_PATH`` set, and
    ``GIT_OBJECT_DIRECTORY`` naming it) the object directories git set are kept,
    or the pushed objects could not be read. Replace refs and grafts are always
    off (``GIT_NO_REPLACE_OBJECTS``, ``GIT_GRAFT_FILE``), whatever ``extra`` says.
    """
    env = {k: v for k, v in os.environ.items() if k not in _DROPPED}
    index_file = os.environ.get("GIT_INDEX_FILE")
    if keep_index_file and index_file:
        env["GIT_INDEX_FILE"] = _index_file(index_file)
    env.update(_quarantine())
    # Messages in English so the few we classify are stable; never take
    # optional locks (a background check must not fight the user's git).
    env["LC_ALL"] = "C"
    env.pop("LANGUAGE", None)
    env["GIT_OPTIONAL_LOCKS"] = "0"
    env["GIT_TERMINAL_PROMPT"] = "0"
    if extra:
        env.update(extra)
    env["GIT_NO_REPLACE_OBJECTS"] = "1"
    env["GIT_GRAFT_FILE"] = NO_GRAFTS
    return env


def _index_file(named: str) -> str:
    """``GIT_INDEX_FILE``, absolute. git names an index it has written (the index's
    lock, or a commit's temporary index) in a hook; one exported in a shell may name
    no file, which git reads as an empty index, every file removed: refused."""
    index = os.path.abspath(named)
    if not os.path.lexists(index):
        raise GitFailed(
            f"GIT_INDEX_FILE names {index}, which does not exist (git sets it only "
            "for a hook); run `unset GIT_INDEX_FILE` to judge the repository's index"
        )
    return index


def _quarantine() -> dict[str, str]:
    """The object directories of a receive-pack quarantine this process runs in:
    git sets the quarantine as the object directory and the repository's own as
    an alternate, both absolute; kept as git wrote them."""
    quarantine = os.environ.get("GIT_QUARANTINE_PATH")
    objects = os.environ.get("GIT_OBJECT_DIRECTORY")
    if not quarantine or not objects or not os.path.isabs(objects):
        return {}
    if os.path.normpath(objects) != os.path.normpath(quarantine):
        return {}
    kept = {"GIT_OBJECT_DIRECTORY": objects}
    alternates = os.environ.get("GIT_ALTERNATE_OBJECT_DIRECTORIES")
    if alternates:
        kept["GIT_ALTERNATE_OBJECT_DIRECTORIES"] = alternates
    return kept


def run_git(
    repo: Path | str,
    args: Sequence[str],
    *,
    keep_index_file: bool = False,
    stdin: bytes | None = None,
    ok_codes: Sequence[int] = (0,),
    extra_env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``git <args>`` in ``repo``; raise on an exit code outside ``ok_codes``.
    ``extra_env``: variables set for this call (``clean_env``'s ``extra``)."""
    try:
        proc = subprocess.run(
            [*_BASE, *args],
            cwd=repo,
            env=clean_env(extra_env, keep_index_file=keep_index_file),
            input=stdin,
            capture_output=True,
            check=False,
        )
    except FileNotFoundError as exc:
        if not Path(repo).is_dir():
            raise NotARepo(f"{repo}: no such directory") from exc
        raise GitFailed("git is not installed or not on PATH") from exc
    if proc.returncode not in ok_codes:
        err = decode(proc.stderr)
        if "not a git repository" in err:
            raise NotARepo(_not_a_repo(repo))
        if "from promisor remote" in err:
            raise _out_of_reach(repo, args[0], err, proc.returncode)
        said = unreadable_boolean(err) or dubious_ownership(err)
        if said is not None:  # git's own words kept in ``stderr``, as below
            failed = GitFailed(said, returncode=proc.returncode)
            failed.stderr = err
            raise failed
        raise GitFailed(f"git {args[0]} failed", stderr=err, returncode=proc.returncode)
    return proc


def _not_a_repo(repo: Path | str) -> str:
    """git found no repository at or above ``repo``: when one lies above it and
    ``GIT_CEILING_DIRECTORIES`` (a shell's or CI image's) stopped git's search
    short of it, that says so, not `git init` (a repository inside the other)."""
    ceiling = os.environ.get("GIT_CEILING_DIRECTORIES")
    start = Path(os.path.abspath(repo))
    top = next((d for d in start.parents if os.path.lexists(d / ".git")), None)
    if ceiling and top is not None:
        return (
            f"{repo}: git stops looking for its repository at GIT_CEILING_DIRECTORIES "
            f"({ceiling}), short of the work tree at {top}; run `unset "
            "GIT_CEILING_DIRECTORIES`, or point forest at the work tree's top"
        )
    return f"{repo}: not inside a git repository (run `git init` first)"


def _out_of_reach(repo: Path | str, command: str, err: str, code: int) -> GitFailed:
    """A partial clone (``--filter``) lacks an object and its promisor remote cannot
    be reached: git's three lines say only that, run together; one line that says it
    and what to do (git's words kept in ``stderr``)."""
    oid = err.rsplit("could not fetch ", 1)[-1].split(" ", 1)[0]
    listed = run_git(repo, ["config", "--get-regexp", r"^remote\..*\.promisor$"], ok_codes=(0, 1))
    names = [
        line.split(" ", 1)[0][len("remote.") : -len(".promisor")]
        for line in decode(listed.stdout).splitlines()
        if line.endswith(" true")
    ]
    remote = ", ".join(names) or "the remote it was cloned from"
    failed = GitFailed(
        f"git {command} failed: this partial clone lacks object {oid} and cannot fetch it "
        f"from its promisor remote ({remote}); reach that remote again (git fetches what the "
        "clone lacks when it is read), or work in a clone made without --filter",
        returncode=code,
    )
    failed.stderr = err
    return failed


def git_out(repo: Path | str, args: Sequence[str], *, keep_index_file: bool = False) -> str:
    """stdout of a successful git call, decoded, trailing newline removed."""
    return decode(run_git(repo, args, keep_index_file=keep_index_file).stdout).rstrip("\n")


def decode(raw: bytes) -> str:
    # surrogateescape: a non-UTF-8 file name survives and re-encodes exactly.
    return raw.decode("utf-8", "surrogateescape")


def split_z(raw: bytes) -> list[str]:
    """Fields of ``-z`` output (the final NUL terminates, it does not separate)."""
    if not raw:
        return []
    parts = decode(raw).split("\0")
    if parts[-1] == "":
        parts.pop()
    return parts


def refuse_option(value: str, what: str) -> None:
    """A revision or range that starts with '-' would be read as an option."""
    if not value or value.startswith("-") or "\0" in value or "\n" in value:
        raise UnknownRef(f"{what} {value!r} is not a valid revision")


def pairs_stdin(pairs: Sequence[tuple[str, str]]) -> bytes:
    """``git diff-tree --stdin`` input for (commit, parent) pairs, each id checked."""
    for commit, parent in pairs:
        refuse_option(commit, "revision")
        refuse_option(parent, "revision")
    return "".join(f"{commit} {parent}\n" for commit, parent in pairs).encode()


# Every ``diff-tree --stdin`` of (commit, parent) pairs: one record per pair, in order.
DIFF_TREE_PAIRS = ("diff-tree", "--stdin", "--always", "-r", "-z", "--no-renames", "--no-ext-diff")
