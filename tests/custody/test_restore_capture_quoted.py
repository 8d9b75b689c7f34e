"""A restore's capture names what it was captured before so that it pastes: its header
line's ``forest restore`` quotes the selector (a space, a quote), and a capture folder
that cannot be written is named quoted in the refusal."""

from __future__ import annotations

import shlex
from pathlib import Path

from tests.custody.test_restore import captures
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.immutable import immutable
from tests.helpers.state import shared_state

SELECTOR = "my doc.md#Doc/It's $HOME"
DOC = "# Doc\n\n## It's $HOME\n\nThe sky is blue.\n"


def _drifted(tmp_path: Path, name: str = "repo") -> Path:
    repo = make_repo(tmp_path, name)
    ok(repo, "init")
    write(repo, "my doc.md", DOC)
    commit_all(repo, "init")
    ok(repo, "adopt", SELECTOR, "--words", "canon")
    commit_all(repo, "adopt")
    write(repo, "my doc.md", DOC.replace("blue", "green"))
    return repo


def test_restore_capture_header_names_selector_quoted_accepted(tmp_path: Path) -> None:
    repo = _drifted(tmp_path)
    ok(repo, "restore", SELECTOR)
    (kept,) = captures(repo)
    head, _, body = kept.read_text(encoding="utf-8").partition("\n")
    assert head.startswith("# captured before `") and head.endswith("`"), head
    assert shlex.split(head.removeprefix("# captured before `")[:-1]) == [
        "forest",
        "restore",
        SELECTOR,
    ]
    assert "green" in body


def test_restore_capture_folder_unwritable_named_quoted_refused(tmp_path: Path) -> None:
    repo = _drifted(tmp_path, "my repo's")
    folder = shared_state(repo) / "captures"
    folder.mkdir(mode=0o700, exist_ok=True)
    with immutable(folder):
        refused = forest(repo, "restore", SELECTOR)
    assert refused.exit_code == 1, refused.output
    (line,) = refused.stderr.splitlines()
    quoted = shlex.quote(str(folder))
    assert f"kept in {quoted} (" in line and f"make {quoted} writable" in line, line
    assert (repo / "my doc.md").read_text(encoding="utf-8") == DOC.replace("blue", "green")
    assert captures(repo) == []
