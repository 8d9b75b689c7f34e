"""A crash at any moment of every recording command loses no record and no file edit.

Each command runs once, uncrashed, counting its state changes (tests/helpers/
crash_runner.py: an audit hook; no product code changed); then, in a fresh copy of the
same repository for each, it is killed with SIGKILL at every change (an even spread of
30 when there are more). What each crash leaves is judged as a person would find it
(tests/helpers/crash.py, ``assert_recovers``): verify and fsck clean or naming fixes
that work pasted, no file a person wrote lost, the command typed again done or saying
so, then the same work tree, ledger, check and commit as the run never killed.

Real repositories, the real ``forest`` console entry and real ``git``; the kill is a
real SIGKILL, so no clean-up of the command runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.kernel.paths import GITATTRIBUTES_LINE
from tests.helpers.crash import (
    Scenario,
    assert_recovers,
    crash_everywhere,
    template,
)
from tests.helpers.crash_runs import typed
from tests.helpers.git import commit_all, git, write

DOC = "# Doc\n\n## Part\n\nthe words\n\n## Other\n\nmore\n"
EDITED = DOC.replace("the words", "new words")
MOVED = DOC.replace("## Part", "## Piece")
ATTRIBUTES = "*.png binary\n"
ATTRIBUTES_INITED = f"{ATTRIBUTES}{GITATTRIBUTES_LINE}\n"
FOREIGN = '#!/bin/sh\necho ran >> "$(git rev-parse --git-dir)/foreign-ran"\n'


def _ok(root: Path, *args: str) -> None:
    done = typed(root, *args)
    assert done.returncode == 0, (args, done.stdout, done.stderr)


def _plain(root: Path) -> None:
    write(root, "a.md", DOC)
    write(root, ".gitattributes", ATTRIBUTES)
    commit_all(root, "a person's files")


def _inited(root: Path) -> None:
    _plain(root)
    _ok(root, "init", "--project-id", "p")
    commit_all(root, "forest init")


def _hooked(root: Path) -> None:
    _inited(root)
    _ok(root, "hooks", "install")


def _bound(root: Path) -> None:
    _hooked(root)
    _ok(root, "adopt", "a.md#Part", "--words", "adopted")
    commit_all(root, "adopted")


def _edited(root: Path) -> None:
    _bound(root)
    write(root, "a.md", EDITED)


def _moved(root: Path) -> None:
    _bound(root)
    write(root, "a.md", MOVED)


def _sealed(root: Path) -> None:
    _bound(root)
    _ok(root, "seal", "a.md#Part", "--words", "sealed")
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "sealed")  # the hook refuses it: unresolved


def _foreign_hook(root: Path) -> None:
    _inited(root)
    hook = write(root, ".git/hooks/pre-commit", FOREIGN)
    hook.chmod(0o755)


def _foreign_hook_ran(root: Path) -> None:
    assert (root / ".git" / "foreign-ran").exists(), "the chained foreign hook never ran"


WORDS = ("--words", "W")
KEPT = {"a.md": (DOC,), ".gitattributes": (ATTRIBUTES_INITED,)}
SCENARIOS = {
    s.name: s
    for s in (
        Scenario("adopt", _hooked, ("adopt", "a.md#Part", *WORDS), KEPT, "already bound"),
        Scenario(
            "supersede",
            _edited,
            ("supersede", "a.md#Part", *WORDS),
            {**KEPT, "a.md": (EDITED,)},
            "already holds its ground text",
        ),
        Scenario(
            "rebind",
            _moved,
            ("rebind", "a.md#Part", "a.md#Piece", *WORDS),
            {**KEPT, "a.md": (MOVED,)},
            "no binding",
        ),
        Scenario("retire", _bound, ("retire", "a.md#Part", *WORDS), KEPT, "retired already"),
        Scenario("seal", _bound, ("seal", "a.md#Part", *WORDS), KEPT, "already sealed"),
        Scenario("unseal", _sealed, ("unseal", "a.md#Part", *WORDS), KEPT, "not sealed"),
        Scenario(
            "restore",
            _edited,
            ("restore", "a.md#Part"),
            {**KEPT, "a.md": (EDITED, DOC)},
            "^$",  # a restore typed again says it holds ground, exit 0
            captured=("a.md", "## Part\n\nnew words\n"),
        ),
        Scenario(
            "init",
            _plain,
            ("init", "--project-id", "p"),
            {**KEPT, ".gitattributes": (ATTRIBUTES, ATTRIBUTES_INITED)},
            "already initialised",
            then=(("hooks", "install"),),
        ),
        Scenario(
            "hooks-install",
            _foreign_hook,
            ("hooks", "install"),
            KEPT,
            "^$",
            after=_foreign_hook_ran,
        ),
    )
}


# Crash points per command: the first and last change and evenly between (about 45 s for
# supersede at 30 on a quiet 2-core machine; 20 keeps the slow suite within CI's budget).
MOST = 20


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_crash_at_every_change_recovers(tmp_path: Path, name: str) -> None:
    crash_everywhere(tmp_path, name, SCENARIOS[name], MOST)


# -- the fast lane: one crash of each fault the matrix found, and its representative ----


def test_init_killed_as_it_writes_gitattributes_keeps_a_persons_lines_recovers(
    tmp_path: Path,
) -> None:
    """``forest init`` added its line by writing ``.gitattributes`` anew: a kill after
    the open truncated it and before the write left it empty, the person's own lines
    (``*.png binary``) gone. It appends the line now; the file holds them whatever
    moment the kill lands."""
    scenario = SCENARIOS["init"]
    trial = template(tmp_path, scenario)
    assert_recovers(trial, scenario, "open:opened@/.gitattributes", None)


def test_init_killed_as_it_writes_forest_toml_leaves_none_or_whole_recovers(
    tmp_path: Path,
) -> None:
    """``forest init`` wrote forest.toml in place: a kill between the open and the write
    left it empty, and every command after refused (``[project]: missing``), init typed
    again too (``already initialised``). It is written in the git directory's temp
    folder and renamed in now: absent, so init typed again completes, or whole."""
    scenario = SCENARIOS["init"]
    trial = template(tmp_path, scenario)
    assert_recovers(trial, scenario, "open:opened@/forest.toml", None)
    assert (trial / "forest.toml").read_text().startswith("[project]")


def test_adopt_killed_between_its_bodies_and_its_segment_recovers(tmp_path: Path) -> None:
    """The ledger writer's one window: bodies placed, the segment that cites them not.
    verify names each body no act cites with its ``rm`` (pasted: clean), and the adopt
    typed again records the act, citing them."""
    scenario = SCENARIOS["adopt"]
    trial = template(tmp_path, scenario)
    assert_recovers(trial, scenario, "os.rename@segments%2F", None)


def test_restore_killed_before_its_rename_keeps_the_text_recovers(tmp_path: Path) -> None:
    """Killed with the new text in its temp file beside ``a.md`` and the capture written:
    the file holds the person's text; the restore typed again removes the temp file and
    writes ground, the capture holding what it replaced."""
    scenario = SCENARIOS["restore"]
    trial = template(tmp_path, scenario)
    assert_recovers(trial, scenario, "os.rename@.forest-restore", None)
    assert (trial / "a.md").read_text() == DOC


def test_restore_killed_as_it_opens_its_capture_leaves_no_empty_capture_recovers(
    tmp_path: Path,
) -> None:
    """Killed just after the capture file was opened, before a byte of it was written:
    the capture was written in place, so an empty capture stayed, naming no text. It is
    written beside as a part file and renamed in now: no capture, or a whole one; the
    restore typed again removes the part a killed run left and keeps one capture."""
    scenario = SCENARIOS["restore"]
    trial = template(tmp_path, scenario)
    assert_recovers(trial, scenario, "open:opened@/captures/", None)
    assert (trial / "a.md").read_text() == DOC
    (kept,) = (trial / ".git" / "forest" / "captures").iterdir()
    assert kept.suffix == ".txt"
    assert kept.read_text().startswith(
        "# captured before `forest restore 'a.md#Doc/Part'`\n## Part"
    )
