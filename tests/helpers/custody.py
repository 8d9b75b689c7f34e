"""Builders for file-custody tests through the library: adopt, supersede, retire
sections of a real repository, and age its files past the racy-clean window."""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from pathlib import Path

from forest_files.custody.bindings import all_bindings
from forest_files.custody.lookup import find_binding
from forest_files.custody.record import adopt_sections, retire_binding, supersede_section
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.kernel.hashing import hash_body
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import reused

BY = "t <t@example.org>"
MAX = 1 << 20


def age_files(root: Path, seconds: int = 30) -> None:
    """Move every mtime outside ``.git`` into the past, so no input is racily clean."""
    for dirpath, dirnames, filenames in os.walk(root):
        if ".git" in dirnames:
            dirnames.remove(".git")
        for name in filenames:
            full = os.path.join(dirpath, name)
            st = os.lstat(full)
            os.utime(full, ns=(st.st_atime_ns, st.st_mtime_ns - seconds * 10**9))


def init_and_adopt(root: Path, targets: Sequence[str], *, words: str = "adopt") -> None:
    """``forest init`` (project id "p") and one adoption of every target."""
    with Repository.init(root, project_id="p") as repo:
        sections = [read_section(root, t, (), max_bytes=MAX) for t in targets]
        adopt_sections(repo, sections, words=words, by=BY)


def adopted_repo(
    tmp_path: Path, path: str, text: str, target: str | None = None, *, name: str = "repo"
) -> Path:
    """A new repository holding ``path`` with ``text``, ``target`` (default: the whole
    file) adopted and committed, at ``tmp_path / name``: a private copy of one built
    once per worker process for these arguments (``template.reused``)."""
    key = ("adopted_repo", path, text, target, name)
    build = functools.partial(built_adopted_repo, path=path, text=text, target=target, name=name)
    return reused(key, tmp_path / name, build)


def built_adopted_repo(
    tmp_path: Path, path: str, text: str, target: str | None, name: str = "repo"
) -> Path:
    """``adopted_repo``'s build itself, at ``tmp_path / name`` (no copy)."""
    repo = make_repo(tmp_path, name)
    write(repo, path, text)
    init_and_adopt(repo, [target or path])
    commit_all(repo, "adopt")
    return repo


def feature_upstream(tmp_path: Path) -> Path:
    """main (a bound ``t.md``), then a branch ``feat`` one commit ahead, and main moving
    on: an upstream whose shallow or single-branch clones lack the merge-base."""
    up = adopted_repo(tmp_path, "t.md", "# T\n\nwords\n")
    git(up, "checkout", "-q", "-b", "feat")
    write(up, "other.md", "feature\n")
    commit_all(up, "feature work")
    git(up, "checkout", "-q", "main")
    write(up, "main.md", "main moves on\n")
    commit_all(up, "main moves on")
    return up


def supersede_as_it_stands(root: Path, target: str, *, words: str = "amend") -> None:
    """Adopt the text ``target`` holds now as its binding's new ground."""
    with Repository(root) as repo:
        binding = find_binding(all_bindings(repo.synced()), target)
        section = read_section(root, target, (), max_bytes=MAX)
        supersede_section(
            repo,
            binding,
            section,
            words=words,
            by=BY,
            expected_body_hash=hash_body(section.text),
        )


def retire(root: Path, target: str, *, words: str = "gone") -> None:
    with Repository(root) as repo:
        binding = find_binding(all_bindings(repo.synced()), target)
        retire_binding(repo, binding, words=words, by=BY)


DOC = "# Title\n\n## Keep\n\nkept words\n\n## Other\n\nother words\n"


def two_bound_files(tmp_path: Path) -> Path:
    """A committed repository binding ``a.md#Keep`` and ``b.md#Keep`` (both ``DOC``
    shaped), every file aged past the racy-clean window, at ``tmp_path / "repo"`` (a
    private copy of one built once per worker process)."""
    return reused(("two_bound_files",), tmp_path / "repo", _two_bound_files)


def _two_bound_files(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    write(root, "b.md", DOC.replace("kept", "second"))
    init_and_adopt(root, ["a.md#Keep", "b.md#Keep"])
    commit_all(root, "adopt")
    age_files(root)
    return root


def propose_on_latest(root: Path, path: str, selector: str, text: str) -> str:
    """An open proposal of ``text`` for the binding the latest act made (as an agent
    or the watcher would leave one); its id."""
    from forest_files.custody.proposals import ProposalStore

    with Repository(root) as repo:
        binding = repo.log()[0].act_id
    with ProposalStore(root) as local:
        done = local.propose(
            binding=binding,
            path=path,
            selector=selector,
            derived_from="0" * 64,
            ground_hash="0" * 64,
            text=text,
        )
    return done.proposal.id
