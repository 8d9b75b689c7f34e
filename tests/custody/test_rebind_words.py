"""``forest rebind --words`` where the text did not change: a rebind records words
only with text it adopts, so the door says the words were not recorded instead of
dropping them in silence (``forest log`` then showed the move without them)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, write

WORDS = "Renamed for clarity in review"


def _repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "old/a.md", "# A\n\nalpha\n")
    write(repo, "old/b.md", "# B\n\nbeta\n")
    ok(repo, "adopt", "old/a.md", "old/b.md", "--words", "Both as written")
    commit_all(repo, "adopt")
    return repo


def _words_of_rebinds(repo: Path) -> list[str]:
    acts = json.loads(ok(repo, "log", "--json").stdout)["acts"]
    return [a["words"] for a in acts if a["kind"] == "rebind"]


def test_rebind_unchanged_text_with_words_says_they_are_not_recorded_detected(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    git(repo, "mv", "old/a.md", "a.md")
    done = ok(repo, "rebind", "old/a.md", "a.md", "--words", WORDS)
    assert "your --words were not recorded" in done.stdout
    assert "rebound old/a.md -> a.md" in done.stdout
    assert _words_of_rebinds(repo) == [""]  # what the note says: nothing kept them


def test_rebind_directory_some_edited_words_kept_with_those_only_detected(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    git(repo, "mv", "old", "new")
    write(repo, "new/b.md", "# B\n\nbeta, amended\n")
    done = ok(repo, "rebind", "old/", "new/", "--words", WORDS)
    assert "1 of 2 texts are unchanged" in done.stdout
    assert sorted(_words_of_rebinds(repo)) == ["", WORDS]


def test_rebind_without_words_no_note_accepted(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    git(repo, "mv", "old/a.md", "a.md")
    done = forest(repo, "rebind", "old/a.md", "a.md")
    assert done.exit_code == 0, done.output
    assert "note:" not in done.stdout
