"""Custody the working tree holds and git does not: forest.toml never committed,
ledger files an act wrote that were never staged, or custody files an ignore rule
hides from every commit.

Every clone, and ``forest ci``, judges the custody git holds. An adoption whose
ledger files were never committed binds nothing anywhere else, while ``forest
check`` and ``forest status`` in this working tree judge it as held. The hook (on a
commit it lets through), ``forest init`` and every act's commit step say so, with
the step that commits it (or, for an ignored file, the ``git check-ignore`` that
names the rule to remove); none refuses (committing other files first is allowed).
``forest status`` says it too (``status_custody``), and asks git once per change of
the git index, of the ledger or of an ignore file that can hide custody: the listing
is remembered under their stat (git replaces its index by a rename, an act writes a
new segment, an edit of a rule alone changes which files git ignores), so a warm
status still runs no git and loads no more than the standard library's light modules.
The ignore files keyed are the ones git reads for custody's paths that a repository
holds: the root ``.gitignore``, ``.forest/.gitignore``, ``$GIT_COMMON_DIR/info/exclude``
and the user's default ``core.excludesFile`` (``$XDG_CONFIG_HOME/git/ignore``, else
``~/.config/git/ignore``). A ``core.excludesFile`` set in a git config is not: finding
it means reading git's config files and their includes (a git call on every warm
status); after editing that file, the next change of the git index (a ``git add``, a
commit) brings the line up to date. A ``.gitignore`` inside the ledger is a stray
``forest verify`` names.

Stores: ``.git/forest/cache/custody-<python tag>.bin`` (a kernel/cache record, by
``status_custody``): the custody files git does not track, keyed by the stat of the
git index, the ledger's segments, forest.toml and the ignore files above.
Refuses: nothing.
Returns: the one line to print, or None when git tracks every file of the working
tree's custody (one ``git ls-files`` lists them, ignored or not; a second, of the files
it listed, says which are ignored only when it lists any).
Test: tests/check/test_uncommitted_custody.py
"""

from __future__ import annotations

import os
import sys

from forest_files.kernel import cache
from forest_files.kernel.paths import CACHE_DIR, CONFIG_NAME, FOREST_DIR, LEDGER_DIR, LEDGER_PREFIX

TYPE_CHECKING = False  # typing and pathlib are not imported: a warm status asks here
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

# What ``forest init`` writes for git to carry: its settings, the ledger's git
# attributes and the ignore rules that keep local state out.
SETUP = (CONFIG_NAME, ".gitattributes", f"{FOREST_DIR}/.gitignore")
_CUSTODY = (*SETUP, LEDGER_DIR)
_FORMAT = 1
_NAME = f"custody-{sys.implementation.cache_tag}.bin"
_KIND = "untracked-custody"


def uncommitted_custody(
    root: Path, *, keep_index_file: bool = False, in_commit: bool = False
) -> str | None:
    """The line naming the custody files git does not track, with the step that
    commits them (``in_commit``: said by the hook, about the commit being made)."""
    if not (root / CONFIG_NAME).is_file():
        return None  # no custody here, or only git knows it (a bare view of a commit)
    added, hidden = untracked_custody(root, keep_index_file=keep_index_file)
    if not added and not hidden:
        return None
    return _said([*added, *hidden], hidden, in_commit=in_commit)


def untracked_custody(root: Path, *, keep_index_file: bool = False) -> tuple[list[str], list[str]]:
    """The custody files git does not track, from one listing: those ``git add`` would
    stage, and those an ignore rule hides (each list in git's order; gitio
    ``untracked_split``)."""
    from forest_files import gitio

    return gitio.untracked_split(root, _CUSTODY, keep_index_file=keep_index_file)


def status_custody(root: str) -> str | None:
    """``uncommitted_custody``'s line for ``forest status``: from the record while the
    git index, the ledger's segments and forest.toml stat as they did, else listed
    again (``untracked_custody``) and remembered."""
    if not os.path.isfile(os.path.join(root, CONFIG_NAME)):
        return None
    from forest_files.kernel.state import worktree_path

    key = _key(root)
    record = os.path.join(worktree_path(root), CACHE_DIR, _NAME)
    doc = cache.read(record, _KIND) if key is not None else None
    if isinstance(doc, tuple) and len(doc) == 4 and doc[:2] == (_FORMAT, key):
        listed, hidden = list(doc[2]), list(doc[3])
    else:
        from pathlib import Path

        from forest_files import gitio

        added, hidden = gitio.untracked_split(Path(root), _CUSTODY)
        listed = [*added, *hidden]
        if key is not None and key == _key(root):  # nothing changed while git listed
            cache.write(record, _KIND, (_FORMAT, key, tuple(listed), tuple(hidden)))
    return _said(listed, hidden, in_commit=False) if listed else None


def _key(root: str) -> tuple[object, ...] | None:
    """The stat of what decides which custody files git does not track: its index
    (``git add``, a commit, ``git rm --cached``), the ledger (an act adds files) and
    the ignore files that can hide custody (a rule added or taken away)."""
    from forest_files.custody.verdict import ledger_key
    from forest_files.kernel.state import git_dir_paths

    git_dir, common = git_dir_paths(root)
    index = _stat(os.path.join(git_dir, "index"))
    if index is None:
        return None  # no index yet: listed each time
    ledger = ledger_key(root)
    if ledger is None:
        return None
    ignores = (
        os.path.join(root, ".gitignore"),
        os.path.join(root, FOREST_DIR, ".gitignore"),
        os.path.join(common, "info", "exclude"),  # git reads the common directory's
        _user_excludes(),
    )
    return (index, ledger, tuple(_stat(path) if path else None for path in ignores))


def _stat(path: str) -> tuple[int, int, int, int] | None:
    """What changes when a file is written or replaced; None when there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def _user_excludes() -> str | None:
    """Git's default ``core.excludesFile``: ``$XDG_CONFIG_HOME/git/ignore``, else
    ``$HOME/.config/git/ignore`` (None with neither variable set)."""
    base = os.environ.get("XDG_CONFIG_HOME") or ""
    if not base:
        home = os.environ.get("HOME")
        if not home:
            return None
        base = os.path.join(home, ".config")
    return os.path.join(base, "git", "ignore")


def _said(listed: Sequence[str], hidden: Sequence[str], *, in_commit: bool) -> str:
    """The line for the custody files git does not track (``listed``), those an ignore
    rule hides (``hidden``) named with the rule first."""
    from forest_files.kernel.shellword import command_text, for_bash, git_step, printable

    if hidden:
        return ignored_line(hidden, in_commit=in_commit)
    setup = [p for p in SETUP if p in listed]
    ledger = [p for p in listed if p.startswith(LEDGER_PREFIX)]
    left_out = "this commit leaves them out, and " if in_commit else ""
    if CONFIG_NAME in setup:
        tops = [p for p in setup if not p.startswith(f"{FOREST_DIR}/")]
        add = git_step("add", "--", *tops, FOREST_DIR)
        what = f"custody is not in git yet ({CONFIG_NAME} and the ledger are untracked)"
        left_out = "this commit leaves it out, and " if in_commit else ""
        seen = "every clone and forest ci see no custody"
    else:
        add = git_step("add", "--", *setup, *([LEDGER_DIR] if ledger else []))
        count = [f"{len(ledger)} ledger file(s)"] if ledger else []
        what = f"{', '.join([*(printable(p) for p in setup), *count])} not in git (never committed)"
        seen = "every clone and forest ci judge without them"
    step = f"{command_text(add)} && {command_text(git_step('commit'))}"
    return for_bash(f"forest: {what}: {left_out}{seen}; commit: {step}")


def ignored_custody(
    root: Path, *, keep_index_file: bool = False, in_commit: bool = False
) -> str | None:
    """The line naming the custody files an ignore rule hides from git (no commit
    carries them, and ``git add`` refuses them), with the step that names the rule."""
    from forest_files import gitio

    hidden = gitio.untracked(root, _CUSTODY, keep_index_file=keep_index_file, which="ignored")
    return ignored_line(hidden, in_commit=in_commit) if hidden else None


def ignored_line(hidden: Sequence[str], *, in_commit: bool) -> str:
    """``ignored_custody``'s line for ``hidden`` (not empty), listed already."""
    from forest_files.kernel.shellword import command_text, for_bash, git_step, printable

    first = hidden[0]
    see = command_text(git_step("check-ignore", "-v", "--", first))
    more = f" and {len(hidden) - 1} more" if len(hidden) > 1 else ""
    left_out = "this commit leaves them out, and " if in_commit else ""
    return for_bash(
        f"forest: git ignores custody files ({printable(first)}{more}): {left_out}no commit "
        f"can carry them, so every clone and forest ci judge without them; `{see}` names "
        "the ignore rule: remove it (or exclude forest's files from it), then commit them"
    )


__all__ = [
    "SETUP",
    "ignored_custody",
    "ignored_line",
    "status_custody",
    "uncommitted_custody",
    "untracked_custody",
]
