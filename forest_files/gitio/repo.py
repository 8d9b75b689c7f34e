"""Where a repository is and what state its history is in.

Stores: nothing.
Refuses: paths outside a working tree (NotARepo), bare repositories
(BareRepo), revisions that do not resolve (UnknownRef: for REMOTE/BRANCH this
clone never fetched, the pasteable ``git fetch``; in a shallow clone, the CI
fix), a merge-base cut off by a shallow clone, or a range it cuts short below
a merge-base it holds (ShallowClone, with the CI fix).
Returns: absolute paths, commit ids, commit lists; ``full_history``
(how to fetch full history, said by every shallow-clone refusal); ``fetch_route``
(the one builder of the fetch that brings a revision this clone lacks: the
refusal's hint and the CI gate's reports print it). A full commit id
once found to name a commit is not asked again in the same process (an object id
names its content for ever; kept with the objects read, seen_objects.py): one
CI run asked git the same question nine times. Config values are config.py's,
which index file a hook judges is index_file.py's.
Test: tests/gitio/test_gitio.py, tests/doors/test_printed_where_typed.py
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from forest_files.gitio import seen_objects
from forest_files.gitio._run import (
    BareRepo,
    GitFailed,
    NotARepo,
    ShallowClone,
    UnknownRef,
    decode,
    git_out,
    refuse_option,
    run_git,
)
from forest_files.kernel.shellword import command_text, git_step

_CHECKOUT_ALL = "actions/checkout with `fetch-depth: 0`"


def full_history() -> str:
    """How to fetch full history; the ``git fetch`` as the user runs it where they
    stand (``git -C ../repo fetch --unshallow`` after ``forest -C ../repo``)."""
    fetch = command_text(git_step("fetch", "--unshallow"))
    return f"fetch full history (GitHub Actions: {_CHECKOUT_ALL}; elsewhere: `{fetch}`)"


def toplevel(path: Path | str) -> Path:
    """The root of the working tree containing ``path`` (a file or directory)."""
    start = Path(path)
    if start.is_file():
        start = start.parent
    try:
        return Path(git_out(start, ["rev-parse", "--show-toplevel"]))
    except NotARepo:
        from forest_files.kernel.foreign_gitdir import refuse_foreign_git_dir

        refuse_foreign_git_dir(None, str(start))  # GIT_DIR names one this tree is in no one of
        raise
    except GitFailed:
        # Rare path: find out why, so the message says how to fix it.
        if git_out(start, ["rev-parse", "--is-bare-repository"]) == "true":
            raise BareRepo(
                f"{start}: bare repository; forest-files needs a working tree "
                "(clone it, or use `git worktree add`)"
            ) from None
        from forest_files.kernel.foreign_gitdir import refuse_foreign_git_dir

        refuse_foreign_git_dir(None, str(start))  # git named one this tree does not lead to
        raise NotARepo(f"{start}: not inside a git working tree (inside .git?)") from None


def git_dir(repo: Path | str) -> Path:
    """Absolute git directory (a linked worktree's own one, not the common dir)."""
    return Path(git_out(repo, ["rev-parse", "--absolute-git-dir"]))


def hooks_dir(repo: Path | str) -> Path:
    """Where git looks for hooks: respects ``core.hooksPath`` and worktrees."""
    return Path(git_out(repo, ["rev-parse", "--path-format=absolute", "--git-path", "hooks"]))


def head_commit(repo: Path | str) -> str | None:
    """HEAD's commit id, detached or not; None on an unborn branch."""
    proc = run_git(repo, ["rev-parse", "-q", "--verify", "HEAD^{commit}"], ok_codes=(0, 1))
    out = decode(proc.stdout).strip()
    return out or None


def is_shallow(repo: Path | str) -> bool:
    return git_out(repo, ["rev-parse", "--is-shallow-repository"]) == "true"


_HEX = frozenset("0123456789abcdef")


def resolve_commit(repo: Path | str, rev: str) -> str:
    """The commit id ``rev`` names; UnknownRef if it names none, saying how to get it."""
    refuse_option(rev, "revision")
    full = len(rev) in (40, 64) and _HEX.issuperset(rev)
    if full and (str(repo), rev) in seen_objects.seen().commits:
        return rev
    proc = run_git(
        repo,
        ["rev-parse", "-q", "--verify", "--end-of-options", f"{rev}^{{commit}}"],
        ok_codes=(0, 1),
    )
    out = decode(proc.stdout).strip()
    if not out:
        raise UnknownRef(f"{repo}: revision {rev!r} does not name a commit{_fetch_hint(repo, rev)}")
    # ``out`` is a commit git just named, however ``rev`` was spelled: the gate's
    # merge-base asks again of the HEAD id it resolved here, and is told by this.
    seen_objects.seen().keep_commit((str(repo), out))
    return out


class FetchRoute(NamedTuple):
    """How a revision this clone lacks gets into it: why it is missing, and the
    ``git fetch`` that brings it (a ``git_step``, spelled where the user stands when
    printed). A NamedTuple, not a dataclass: every door imports gitio, and
    ``dataclasses`` (with ``inspect``) was the largest import of a warm ``check --staged``."""

    why: str  # "this clone never fetched branch 'main' of remote 'origin'", ...
    step: tuple[str, ...]
    actions: str  # the GitHub Actions way, "" when the clone is not shallow
    branch: bool  # a remote branch never fetched (else: history cut off by a shallow clone)


def fetch_route(repo: Path | str, rev: str) -> FetchRoute | None:
    """The fetch that brings ``rev`` (which names nothing here) into this clone: a
    remote branch it never fetched (a single-branch clone has only its own branch),
    else full history when the clone is shallow; None when neither applies."""
    shallow = is_shallow(repo)
    missing = _missing_remote_branch(repo, rev)
    if missing is not None:
        remote, branch = missing
        # --unshallow too when shallow: the fetched branch alone would still meet
        # this branch's history cut off, and the merge-base would be missing next.
        deepen = ("--unshallow",) if shallow else ()
        words = git_step("fetch", *deepen, remote, f"{branch}:refs/remotes/{remote}/{branch}")
        why = f"this clone never fetched branch {branch!r} of remote {remote!r}"
        actions = f"{_CHECKOUT_ALL} fetches every branch" if shallow else ""
        return FetchRoute(why, words, actions, branch=True)
    if shallow:
        why = "the clone is shallow, so that commit may not be in it"
        return FetchRoute(why, git_step("fetch", "--unshallow"), _CHECKOUT_ALL, branch=False)
    return None


def _fetch_hint(repo: Path | str, rev: str) -> str:
    """How to get ``rev`` into this clone (``fetch_route``), else a question."""
    route = fetch_route(repo, rev)
    if route is None:
        return " (fetch it first?)"
    if not route.branch:
        return f"; {route.why}; {full_history()}"
    actions = f" (GitHub Actions: {route.actions})" if route.actions else ""
    return f"; {route.why}; fetch it: `{command_text(route.step)}`{actions}"


def _missing_remote_branch(repo: Path | str, rev: str) -> tuple[str, str] | None:
    """(remote, branch) when ``rev`` is spelled REMOTE/BRANCH for a remote this
    repository has and names nothing at all here; else None."""
    named = run_git(repo, ["rev-parse", "-q", "--verify", "--end-of-options", rev], ok_codes=(0, 1))
    if named.returncode == 0:
        return None
    remotes = git_out(repo, ["remote"]).splitlines()
    for remote in sorted(remotes, key=len, reverse=True):  # "a/b" before "a"
        branch = rev[len(remote) + 1 :] if rev.startswith(f"{remote}/") else ""
        if not branch or branch.startswith("-"):
            continue
        valid = run_git(repo, ["check-ref-format", f"refs/heads/{branch}"], ok_codes=(0, 1))
        if valid.returncode == 0:
            return remote, branch
    return None


def merge_base(repo: Path | str, a: str, b: str) -> str:
    """The best common ancestor of ``a`` and ``b``, from which the range
    merge-base..``b`` is judged: ShallowClone when a shallow clone lacks it, or
    holds it but cuts a commit of that range off from its parents."""
    ids = [resolve_commit(repo, a), resolve_commit(repo, b)]
    proc = run_git(repo, ["merge-base", *ids], ok_codes=(0, 1))
    out = decode(proc.stdout).strip()
    if out:
        cut = _cut_off(repo, out, ids[1])
        if cut is not None:
            raise ShallowClone(
                f"{repo}: the clone is shallow and cuts the range {out[:12]}..{ids[1][:12]} "
                f"off at commit {cut[:12]} (held without its parents), so commits of the "
                f"range would go unjudged; {full_history()}"
            )
        seen_objects.seen().keep_commit((str(repo), out))  # git named a commit: no rev-parse
        return out
    if is_shallow(repo):
        raise ShallowClone(
            f"{repo}: no merge-base of {a!r} and {b!r}: the clone is shallow, so the "
            f"merge-base is not in it; {full_history()}"
        )
    raise GitFailed(f"{repo}: {a!r} and {b!r} share no history (unrelated branches)")


def _cut_off(repo: Path | str, base: str, head: str) -> str | None:
    """The first commit of ``base..head`` a shallow clone holds without its parents
    (git lists it as a root, so the range would silently end there), else None."""
    shallow, path = git_out(
        repo,
        ["rev-parse", "--is-shallow-repository", "--path-format=absolute", "--git-path", "shallow"],
    ).splitlines()
    if shallow != "true":
        return None
    try:
        cut = frozenset(Path(path).read_text(encoding="ascii").split())
    except FileNotFoundError:
        return None
    return next((c for c in rev_list(repo, f"{base}..{head}") if c in cut), None)


def rev_list(repo: Path | str, rev_range: str, *, first_parent: bool = False) -> list[str]:
    """Commits of ``rev_range`` (e.g. ``"base..HEAD"``), oldest first, merges included."""
    refuse_option(rev_range, "range")
    args = ["rev-list", "--reverse"]
    if first_parent:
        args.append("--first-parent")
    try:
        out = git_out(repo, [*args, "--end-of-options", rev_range, "--"])
    except GitFailed as exc:
        raise UnknownRef(
            f"{repo}: range {rev_range!r} does not resolve: {exc.stderr.strip()}"
        ) from None
    return out.split() if out else []


def commits_with_authors(
    repo: Path | str, rev_range: str
) -> list[tuple[str, tuple[str, ...], str]]:
    """(commit, parents, ``"Name <email>"`` of its author) for each commit of
    ``rev_range``, oldest first, merges included."""
    refuse_option(rev_range, "range")
    try:
        out = git_out(
            repo,
            [
                "log",
                "--reverse",
                "-z",
                "--format=%H %P%x00%an <%ae>",
                "--end-of-options",
                rev_range,
                "--",
            ],
        )
    except GitFailed as exc:
        raise UnknownRef(
            f"{repo}: range {rev_range!r} does not resolve: {exc.stderr.strip()}"
        ) from None
    fields = out.split("\0")
    result: list[tuple[str, tuple[str, ...], str]] = []
    for ids, author in zip(fields[0::2], fields[1::2], strict=False):
        commit, *parents = ids.strip().split()
        result.append((commit, tuple(parents), author.strip()))
    return result
