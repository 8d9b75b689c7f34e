"""Paths a door names in prose (where a restore kept the replaced text, the watcher's
log) are quoted as its routes are: selected and pasted after ``cat`` or ``less`` they
name the file, in a repository whose path holds a space, a quote and ``$HOME``."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.custody import BY, DOC
from tests.helpers.git import commit_all, make_repo, pasted, write
from tests.helpers.watch import EDITED, bound_repo, captured_proposal

HOSTILE = "it's $HOME dir"


def _kept(line: str) -> str:
    """The shell words after 'kept in ' up to the end of the line."""
    match = re.search(r"kept in (.+)$", line)
    assert match, line
    return match.group(1)


def _shown(root: Path, words: str) -> str:
    """``cat WORDS`` pasted into bash: what the file named holds."""
    out = pasted(root, f"cat {words}")
    assert out.returncode == 0, (words, out.stderr)
    return out.stdout


def test_restore_capture_path_with_space_quote_dollar_pasted_accepted(tmp_path: Path) -> None:
    """Before: 'the replaced text is kept in /…/it's $HOME dir/.git/forest/captures/…'
    printed raw; pasted after ``cat`` the quote opened a string and $HOME expanded."""
    repo = make_repo(tmp_path, HOSTILE)
    ok(repo, "init")
    write(repo, "a.md", DOC)
    commit_all(repo)
    ok(repo, "adopt", "a.md", "--words", "adopted as written", "--as", BY)
    commit_all(repo)
    (repo / "a.md").write_text(DOC + "\nsilent edit\n", encoding="utf-8")
    (line,) = ok(repo, "restore", "a.md").stdout.splitlines()[:1]
    assert "silent edit" in _shown(repo, _kept(line))


def test_proposal_adopt_capture_path_pasted_accepted(tmp_path: Path) -> None:
    """``forest proposal adopt`` over a newer edit names the capture as restore does,
    quoted."""
    root = bound_repo(tmp_path / HOSTILE)
    pid = captured_proposal(root, EDITED)
    (root / "a.md").write_text(DOC.replace("kept", "mine"), encoding="utf-8")
    result = forest(root, "proposal", "adopt", pid, "--words", "take the proposal", "--as", BY)
    assert result.exit_code == 0, result.output
    (line,) = [x for x in result.stdout.splitlines() if "kept in" in x]
    assert "mine" in _shown(root, _kept(line))


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[Path]:
    from forest_files.doors.watch.daemon import stop

    root = bound_repo(tmp_path / HOSTILE)
    yield root
    stop(root)


def test_watch_status_log_path_pasted_accepted(watched: Path) -> None:
    """Before: 'watching (pid N, …); log /…/it's $HOME dir/.git/forest/watch.log'."""
    started = pasted(watched, "forest watch --detach --quiet 0.1")
    assert started.returncode == 0, started.stderr
    out = pasted(watched, "forest watch status")
    assert out.returncode == 0, out.stderr
    (line,) = [x for x in out.stdout.splitlines() if x.startswith("watching")]
    words = line.split("; log ", 1)[1]
    assert shlex.split(words) == [str(watched / ".git" / "forest" / "watch.log")]
    _shown(watched, words)
