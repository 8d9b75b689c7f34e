"""A repository whose bound section once held a pasted secret, shared by the erasure tests.

Returns: the constants of that story and ``adopted_then_cleaned`` (a repository whose
ground held the secret and was then superseded), ``forgotten_with_hooks`` (that secret
then forgotten and committed, our hooks installed), ``erased_on_main_adopted_on_side``
(the same text adopted on a branch that never saw the forget), ``tree_bytes`` and
``holding`` (which local files still hold a needle).
"""

from __future__ import annotations

import os
from pathlib import Path

from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.governance.forget import forget
from tests.helpers.custody import BY, MAX, supersede_as_it_stands
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import reused

__all__ = [
    "BY",
    "CLEAN",
    "DOC",
    "SECRET",
    "SENTINEL",
    "WORDS",
    "adopted_then_cleaned",
    "forgotten_with_hooks",
    "holding",
    "tree_bytes",
]

SENTINEL = "SENTINEL-q7w3e9r1t5y2"
SECRET = f"deploy token = {SENTINEL}"
DOC = f"# Ops\n\n## Keys\n\nThe keys live in the vault.\n{SECRET}\n\n## Other\n\nother words\n"
CLEAN = DOC.replace(f"{SECRET}\n", "")
WORDS = "A token was pasted here by mistake"


def adopted_then_cleaned(tmp_path: Path, *, authority: str | None = None) -> tuple[Path, str]:
    """A repository whose ``doc.md#Keys`` ground held the secret, then was superseded
    by the text without it; returns the root and the secret ground's content id. The
    root is ``tmp_path / "repo"``, a private copy of one built once per worker process
    for each ``authority`` (``template.reused``)."""
    key = ("adopted_then_cleaned", authority)

    def build(home: Path) -> Path:
        root, _SECRET_GROUND[key] = built_adopted_then_cleaned(home, authority)
        return root

    root = reused(key, tmp_path / "repo", build)
    return root, _SECRET_GROUND[key]


# The secret ground's content id in each repository ``adopted_then_cleaned`` built.
_SECRET_GROUND: dict[tuple[str, str | None], str] = {}


def built_adopted_then_cleaned(tmp_path: Path, authority: str | None) -> tuple[Path, str]:
    """``adopted_then_cleaned``'s build itself, at ``tmp_path / "repo"`` (no copy)."""
    root = make_repo(tmp_path)
    write(root, "doc.md", DOC)
    with Repository.init(root, project_id="p") as repo:
        if authority is not None:
            cfg = (root / "forest.toml").read_text(encoding="utf-8")
            (root / "forest.toml").write_text(cfg + authority, encoding="utf-8")
    with Repository(root) as repo:
        adopt_sections(
            repo, [read_section(root, "doc.md#Keys", (), max_bytes=MAX)], words="ok", by=BY
        )
        (old,) = [g.content_id for g in repo.ground()]
    commit_all(root, "adopt")
    write(root, "doc.md", CLEAN)
    supersede_as_it_stands(root, "doc.md#Keys")
    return root, old


def cleaned_and_synced(tmp_path: Path) -> Path:
    """``adopted_then_cleaned`` (words "ok", then "amend"), its index synced: the
    root."""
    root, _old = adopted_then_cleaned(tmp_path)
    with Repository(root) as repo:
        repo.sync()
    return root


def tree_bytes(root: Path) -> dict[str, bytes]:
    out = {}
    # The work tree's .forest/ and the local state in the git directory (.git/forest).
    for top in (root / ".forest", root / ".git" / "forest"):
        for dirpath, _dirs, files in os.walk(top):
            for name in files:
                path = Path(dirpath) / name
                out[path.relative_to(root).as_posix()] = path.read_bytes()
    if (root / "doc.md").exists():
        out["doc.md"] = (root / "doc.md").read_bytes()
    return out


def holding(root: Path, needle: str) -> list[str]:
    """Every file under .forest or .git/forest whose raw bytes hold ``needle`` (any case: FTS
    tokens are folded)."""
    want = needle.lower().encode()
    return sorted(
        p
        for p, data in tree_bytes(root).items()
        if p.startswith((".forest", ".git/forest")) and want in data.lower()
    )


def forgotten_with_hooks(tmp_path: Path) -> tuple[Path, str, str]:
    """``adopted_then_cleaned``, then the secret ground forgotten and committed, with
    our hooks installed: (root, the erase act's segment, the erased body's path)."""
    from forest_files.doors import hooks as githooks
    from forest_files.governance.forget import forget
    from forest_files.ledger.segments import body_path

    root, old = adopted_then_cleaned(tmp_path)
    commit_all(root, "clean")
    githooks.install(root)
    with Repository(root) as repo:
        report = forget(repo, old, words=WORDS, by=BY)
    git(root, "add", "-A", ".forest/ledger")
    git(root, "commit", "-q", "-m", "forget")
    added = git(root, "show", "--name-only", "--format=", "--diff-filter=A", "HEAD")
    (segment,) = [p for p in added.splitlines() if "/segments/" in p]
    return root, segment, body_path(Path(".forest/ledger"), report.body_hash).as_posix()


OTHER = "# Notes\n\n## Keys\n\nnothing here yet\n"
SIDE = DOC.replace("# Ops", "# Notes")  # the side branch adopts the secret's very text


def _adopt(root: Path, target: str) -> None:
    with Repository(root) as repo:
        adopt_sections(repo, [read_section(root, target, (), max_bytes=MAX)], words="ok", by=BY)


def erased_on_main_adopted_on_side(folder: Path, name: str = "repo") -> Path:
    """main: the secret pasted into a.md#Keys, superseded and forgotten; side (forked
    before the paste, checked out): b.md#Keys adopted holding the identical section
    (``SIDE``). Merging main into side makes that live ground erased."""
    root = make_repo(folder, name)
    write(root, "a.md", CLEAN)
    write(root, "b.md", OTHER)
    Repository.init(root, project_id="p").close()
    _adopt(root, "a.md#Keys")
    commit_all(root, "base")
    git(root, "branch", "side")
    write(root, "a.md", DOC)
    supersede_as_it_stands(root, "a.md#Keys")
    with Repository(root) as repo:
        (secret,) = [g.content_id for g in repo.ground()]
    commit_all(root, "paste")
    write(root, "a.md", CLEAN)
    supersede_as_it_stands(root, "a.md#Keys")
    with Repository(root) as repo:
        forget(repo, secret, words=WORDS, by=BY)
    commit_all(root, "forget")
    git(root, "checkout", "-q", "side")
    write(root, "b.md", SIDE)
    _adopt(root, "b.md#Keys")
    commit_all(root, "side adopts the same text")
    return root
