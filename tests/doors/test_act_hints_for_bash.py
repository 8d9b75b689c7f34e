"""The hints a door prints after an act (``commit it: …``, ``next: …``, ``to erase it:
…``, a check's facts) say they need bash, zsh or ksh when a word in them is spelled
``$'\\ooo'`` (kernel/shellword.py ``for_bash``), as every route and refusal does.

A repository in a folder whose name holds the byte 0xE9 (not UTF-8), reached with
``forest -C`` from the folder above: every step a door prints names it as
``caf$'\\351'``, which Debian's ``sh`` (dash 0.5.12) and fish read as another folder.
Real repositories, the console script's code path, the printed step pasted into bash.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forest_files.kernel.shellword import BASH_ONLY
from tests.helpers.cli import console
from tests.helpers.git import commit_all, git, make_repo, pasted, write

pytestmark = pytest.mark.slow  # a dozen processes

NAME = os.fsdecode(b"caf\xe9")  # the folder the repository lives in: not UTF-8


def _unsaid(output: str) -> list[str]:
    """The lines of ``output`` that spell a word as ``$'\\ooo'`` and do not say so."""
    return [ln for ln in output.splitlines() if "$'\\" in ln and BASH_ONLY not in ln]


def test_act_hint_names_not_utf8_folder_pasted_into_bash_recovers(tmp_path: Path) -> None:
    """``forest -C caf$'\\351' adopt`` printed ``commit it: git -C caf$'\\351' add -- …``
    and nothing more: pasted into sh it named the folder ``caf$\\351`` (no such
    repository). Each hint now says to paste it into bash, and there it commits."""
    root = make_repo(tmp_path, NAME)
    write(root, "a.md", "# A\n\nalpha\n")
    commit_all(root, "start")
    here = ("-C", NAME)

    def typed(*args: str) -> str:
        done = console(tmp_path, *here, *args)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        assert not _unsaid(done.stdout + done.stderr), (args, done.stdout, done.stderr)
        return done.stdout

    typed("init")
    commit_all(root, "custody")
    write(root, "c.md", "# C\n\ngamma\n")
    out = typed("adopt", "a.md", "c.md", "--words", "Adopted", "--as", "me <me@x>")
    (line,) = [ln for ln in out.splitlines() if ln.startswith("commit it")]
    assert line.endswith(f" ({BASH_ONLY})"), line
    step = line.split(": ", 1)[1].removesuffix(f" ({BASH_ONLY})")
    assert "caf$'\\351'" in step, step
    done = pasted(tmp_path, f"{step} -q -m adopted")
    assert done.returncode == 0, (step, done.stderr)
    assert git(root, "status", "--porcelain") == ""
    assert "c.md" in git(root, "ls-files")
    # Every other act's hint says the same: supersede, seal and unseal, retire, the
    # check's facts, status's line, the watcher's status.
    write(root, "a.md", "# A\n\nalpha, edited\n")
    checked = console(tmp_path, *here, "check")
    assert checked.returncode == 1 and not _unsaid(checked.stdout + checked.stderr), checked
    typed("status")  # its line naming the check that prints the routes
    typed("supersede", "a.md", "--words", "Edited", "--as", "me <me@x>")
    typed("seal", "c.md", "--words", "Withheld", "--as", "me <me@x>")
    typed("unseal", "c.md", "--words", "Readable", "--as", "me <me@x>")
    typed("retire", "c.md", "--words", "Gone", "--as", "me <me@x>")
    typed("watch", "status")


def test_watch_proposal_hint_names_not_utf8_folder_pasted_into_bash_recovers(
    tmp_path: Path,
) -> None:
    """The watcher started with ``forest -C caf$'\\351' watch --detach`` logged ``proposal
    ID holds this text (new): forest -C caf$'\\351' proposal show ID`` and nothing more
    (doors/watch/respond.py): pasted into sh it named another folder. The line now says
    to paste it into bash, and there it shows the proposal."""
    from forest_files.kernel.paths import WATCH_LOG
    from tests.helpers.custody import DOC, init_and_adopt
    from tests.helpers.state import local_state
    from tests.helpers.watch import until

    root = make_repo(tmp_path, NAME)
    write(root, "a.md", DOC)
    init_and_adopt(root, ["a.md#Title/Keep"])
    commit_all(root, "adopt")
    here = ("-C", NAME)
    fast = ("--quiet", "0.1", "--ceiling", "1", "--grace", "0.5")
    started = console(tmp_path, *here, "watch", "--detach", *fast)
    assert started.returncode == 0, (started.stdout, started.stderr)
    log = local_state(root) / WATCH_LOG
    try:
        write(root, "a.md", DOC.replace("kept words", "watched words"))
        assert until(lambda: " holds this text " in log.read_text(errors="replace")), log
    finally:
        stopped = console(tmp_path, *here, "watch", "stop")
        assert stopped.returncode == 0, (stopped.stdout, stopped.stderr)
    said = [ln for ln in log.read_text().splitlines() if " holds this text " in ln]
    assert said and not _unsaid(log.read_text()), log.read_text()
    line = said[0]
    assert line.endswith(f" ({BASH_ONLY})"), line
    step = line.split("): ", 1)[1].removesuffix(f" ({BASH_ONLY})")
    assert step.startswith("forest -C caf$'\\351' proposal show "), step
    done = pasted(tmp_path, step)
    assert done.returncode == 0, (step, done.stderr)
    assert "{+watched+}" in done.stdout, done.stdout
