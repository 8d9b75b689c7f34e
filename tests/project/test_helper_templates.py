"""The shared builders that hand out copies (``template.reused``) give each caller what a
fresh build gives: the same place, files, index and custody, and a copy of its own."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from tests.helpers.custody import adopted_repo, built_adopted_repo
from tests.helpers.forgetting import adopted_then_cleaned, built_adopted_then_cleaned
from tests.helpers.git import git

LEDGER = ".forest/ledger/"


def _shape(root: Path) -> dict[str, object]:
    """What a caller sees, but for what the ledger's acts take from the time they were
    made (their ids, which name their files): the work tree's bytes, how many ledger
    files each ledger directory holds, the local state's file names, the index outside
    the ledger, the status and the log."""
    files: dict[str, bytes] = {}
    ledger: Counter[str] = Counter()
    for dirpath, dirnames, names in os.walk(root):
        if dirpath == str(root):
            dirnames.remove(".git")
        for name in names:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if rel.startswith(LEDGER):
                ledger[path.parent.relative_to(root).as_posix()] += 1
            else:
                files[rel] = path.read_bytes()
    index = [x for x in git(root, "ls-files", "-s").splitlines() if LEDGER not in x]
    return {
        "files": files,
        "ledger": ledger,
        "local": sorted(p.name for p in (root / ".git" / "forest").iterdir()),
        "index": index,
        "status": git(root, "status", "--porcelain", "--", ":!.forest/ledger"),
        "log": git(root, "log", "--format=%s"),
    }


def test_adopted_repo_copy_is_a_fresh_build_of_its_own_accepted(tmp_path: Path) -> None:
    args = ("a.md", "# A\n\n## One\n\nfirst\n", "a.md#One")
    first = adopted_repo(tmp_path / "one", *args)
    assert first == tmp_path / "one" / "repo"
    fresh = built_adopted_repo(tmp_path / "fresh", *args)
    assert _shape(first) == _shape(fresh)
    (first / "a.md").write_text("changed\n", encoding="utf-8")
    second = adopted_repo(tmp_path / "two", *args)
    assert _shape(second) == _shape(fresh)
    other = adopted_repo(tmp_path / "three", "a.md", "# A\n\nfirst\n")
    assert (other / "a.md").read_text(encoding="utf-8") == "# A\n\nfirst\n"


def test_adopted_then_cleaned_copy_is_a_fresh_build_accepted(tmp_path: Path) -> None:
    auth = '\n[authority]\n"doc.md" = ["t <t@example.org>"]\n'
    for authority in (None, auth):
        name = "plain" if authority is None else "authority"
        root, old = adopted_then_cleaned(tmp_path / name, authority=authority)
        assert root == tmp_path / name / "repo"
        fresh, fresh_old = built_adopted_then_cleaned(tmp_path / f"{name}-fresh", authority)
        assert _shape(root) == _shape(fresh)
        # The secret ground's id names the one the copy's own ledger holds.
        ledger = _ledger_bytes(root)
        assert old.encode() in ledger and fresh_old.encode() not in ledger


def _ledger_bytes(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted((root / LEDGER).rglob("*")) if p.is_file())
