"""Two clones of one origin, each rebinding the one binding ``A.md#X`` elsewhere (``b``
to ``B.md#X``, ``c`` to ``C.md#X``), each then merging the other: a binding rebound
on two merged branches (tests/check/test_rebound_twice_doors.py and the doors' tests
after it); ``three_merged``, three branches merged. Each is built once per worker
process and copied (``helpers.template.reused_tree``): the clones' remote names the
copied origin."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli import ok
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import reused_tree

BODY = "# X\n\nkept words\n"


def origin(tmp_path: Path) -> Path:
    """``A.md`` with its section ``X`` adopted, committed."""
    repo = make_repo(tmp_path, "origin")
    ok(repo, "init")
    write(repo, "A.md", "# T\n\nintro\n\n" + BODY)
    commit_all(repo, "a")
    ok(repo, "adopt", "A.md#X", "--words", "one")
    commit_all(repo, "adopt")
    return repo


def rebound_clone(tmp_path: Path, dest: str, name: str) -> Path:
    """A clone of origin whose binding moved to ``dest#X``."""
    repo = tmp_path / name
    git(tmp_path, "clone", "-q", str(tmp_path / "origin"), str(repo))
    write(repo, "A.md", "# T\n\nintro\n")
    write(repo, dest, BODY)
    commit_all(repo, "move")
    ok(repo, "rebind", "A.md#X", f"{dest}#X")
    commit_all(repo, "rebind")
    return repo


def merged_clones(tmp_path: Path) -> tuple[Path, Path]:
    """Clones ``b`` (rebound to ``B.md#X``) and ``c`` (to ``C.md#X``), each then
    merging the other (with ``origin`` beside them in ``tmp_path``)."""
    reused_tree(("rebound.merged_clones",), tmp_path, _merged_clones)
    return tmp_path / "b", tmp_path / "c"


def three_merged(tmp_path: Path) -> Path:
    """Clone ``b`` (rebound to ``B.md#X``) having merged ``c`` (to ``C.md#X``) and
    ``d`` (to ``D.md#X``): one binding rebound on three merged branches (with
    ``origin``, ``c`` and ``d`` beside it in ``tmp_path``)."""
    reused_tree(("rebound.three_merged",), tmp_path, _three_merged)
    return tmp_path / "b"


def _merged_clones(tmp_path: Path) -> tuple[Path, Path]:
    origin(tmp_path)
    b, c = rebound_clone(tmp_path, "B.md", "b"), rebound_clone(tmp_path, "C.md", "c")
    git(b, "pull", "-q", "--no-rebase", "--no-edit", str(c), "HEAD")
    git(c, "pull", "-q", "--no-rebase", "--no-edit", str(b), "HEAD")
    return b, c


def _three_merged(tmp_path: Path) -> Path:
    origin(tmp_path)
    b = rebound_clone(tmp_path, "B.md", "b")
    for dest, name in (("C.md", "c"), ("D.md", "d")):
        other = rebound_clone(tmp_path, dest, name)
        git(b, "pull", "-q", "--no-rebase", "--no-edit", str(other), "HEAD")
    return b
