"""Content sources: the bytes a check judges — working tree, the git index, a commit.

Stores: nothing.
Refuses: to read anything but a regular file (special.py's one rule): a
symlink, directory, FIFO or device in the working tree, a symlink (120000) or
submodule (160000) entry in the git index or a commit, and a working-tree file
whose directory resolves outside the repository (named by ``escapes``).
Returns: raw bytes of a repository-relative regular file (None when it is not
one); ``special(path)``, the kind of what stands there instead (None when
nothing does: the file is missing); the list of paths a source holds (for the
``moved`` search). Paths are compared exactly as git records them: when a bound
path is missing but a name differing from it only in Unicode normalisation
(NFC/NFD) or letter case stands in its directory, a source's ``variant(path)``
says so (``path_variant``) for the finding's detail — it is not the bound path
to git, and it is never read as if it were. That search runs only when asked
about a missing path, so a clean check pays nothing for it.
Test: tests/check/test_check.py, tests/custody/test_special_paths.py,
      tests/text/test_selector_rules.py

The one import path for content sources: the working tree (content_worktree.py),
the git index or a commit (content_git.py) and the safe read of one path
(content_read.py) are re-exported here.
"""

from __future__ import annotations

from typing import Protocol

from forest_files.custody.content_git import GitTreeSource
from forest_files.custody.content_read import dir_inside, escapes, path_variant, read_regular
from forest_files.custody.content_worktree import WorktreeSource

__all__ = [
    "ContentSource",
    "GitTreeSource",
    "WorktreeSource",
    "dir_inside",
    "escapes",
    "path_variant",
    "read_regular",
]


class ContentSource(Protocol):
    name: str

    def read(self, path: str) -> bytes | None: ...

    def special(self, path: str) -> str | None:
        """What stands at ``path`` when ``read`` found no regular file there
        (``symlink``, ``directory``, ``fifo``, ``submodule``…); None when nothing does."""
        ...

    def paths(self) -> list[str]: ...

    def variant(self, path: str) -> str | None:
        """For a missing ``path``: a same-but-for-normalisation-or-case name there."""
        ...
