"""The hints and refusals a door prints after an act name commands through the step
machinery (kernel/shellword.py ``forest_text``, ``commit_ledger``): after ``forest -C
../repo …`` each is pasted where the command was typed, beside the repository."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.helpers.cli import console
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, make_repo, pasted, write

# The slow lane (.ci/run runs it; the README's fast command leaves it out):
# every hint pasted where typed: dozens of processes.
pytestmark = pytest.mark.slow

EDITOR = "export GIT_EDITOR='echo forest act >'; "  # `git commit` as printed, message given


forest = console  # typed in a directory, through entry.main


def _beside(tmp_path: Path) -> tuple[Path, Path, tuple[str, str]]:
    """A repository with b.md and x.md adopted, and a directory beside it: where the
    user types ``forest -C ../repo …``."""
    root = make_repo(tmp_path)
    write(root, "b.md", "# B\n\nbee\n")
    write(root, "x.md", "# X\n\nx\n")
    init_and_adopt(root, ["b.md", "x.md"])
    commit_all(root, "adopt")
    beside = tmp_path / "beside"
    beside.mkdir()
    return root, beside, ("-C", f"../{root.name}")


def _after(output: str, lead: str) -> str:
    (found,) = [line[len(lead) :] for line in output.splitlines() if line.startswith(lead)]
    return found


def _paste(where: Path, command: str) -> subprocess.CompletedProcess[str]:
    done = pasted(where, EDITOR + command.replace("'…'", "'why it is right'"))
    assert done.returncode == 0, (command, done.stdout, done.stderr)
    return done


def _committed(root: Path) -> None:
    assert git(root, "status", "--porcelain", "--", ".forest") == ""
    assert git(root, "log", "-1", "--format=%s") == "forest act"


def test_dash_c_seal_unseal_forget_hints_pasted_where_typed_accepted(tmp_path: Path) -> None:
    """Before, ``forest -C ../repo seal`` printed ``forest unseal …`` and ``git -C
    ../repo add … && git commit``: pasted beside the repository, neither found it."""
    root, beside, here = _beside(tmp_path)
    sealed = forest(beside, *here, "seal", "b.md", "--words", "a key was pasted")
    assert sealed.returncode == 0, sealed.stderr
    _paste(beside, _after(sealed.stdout, "next: commit it: "))
    _committed(root)
    again = _after(sealed.stdout, "to read it again: ")
    assert again.startswith("forest -C ../repo unseal ")
    unsealed = _paste(beside, again)
    _paste(beside, _after(unsealed.stdout, "show it: "))
    _paste(beside, _after(unsealed.stdout, "next: commit it: "))
    _committed(root)
    sealed = forest(beside, *here, "seal", "b.md", "--words", "seal it again")
    _paste(beside, _after(sealed.stdout, "next: commit it: "))
    forgot = _paste(beside, _after(sealed.stdout, "to erase it: "))
    _paste(
        beside,
        _after(forgot.stdout, "next: commit the new segment WITH the body file's deletion: "),
    )
    _committed(root)


def test_dash_c_retire_rebind_commit_hint_pasted_where_typed_accepted(tmp_path: Path) -> None:
    root, beside, here = _beside(tmp_path)
    retired = forest(beside, *here, "retire", "x.md", "--words", "gone")
    assert retired.returncode == 0, retired.stderr
    _paste(beside, _after(retired.stdout, "commit it: "))
    _committed(root)
    git(root, "mv", "b.md", "c.md")
    rebound = forest(beside, *here, "rebind", "b.md", "c.md", "--words", "moved")
    assert rebound.returncode == 0, rebound.stderr
    _paste(beside, _after(rebound.stdout, "commit it: "))
    _committed(root)


def _quoted(text: str) -> str:
    """The one command a refusal names, in backquotes or in parentheses."""
    (found,) = re.findall(r"`([^`]+)`|\((forest [^)]+)\)", text)
    quoted, bracketed = found
    return str(quoted or bracketed)


def test_dash_c_refusal_hints_pasted_where_typed_accepted(tmp_path: Path) -> None:
    """A refusal's fix names the command to run: ``forest log`` for an unknown entry,
    ``forest status`` for an unknown binding, ``forest seal`` before erasing live
    ground; after ``forest -C ../repo`` each is pasted beside the repository."""
    root, beside, here = _beside(tmp_path)
    unknown = forest(beside, *here, "show", "deadbeefdead")
    assert unknown.returncode == 1 and "forest -C ../repo log" in unknown.stderr
    _paste(beside, _quoted(unknown.stderr))
    unbound = forest(beside, *here, "retire", "nope.md", "--words", "gone")
    assert unbound.returncode == 1 and "forest -C ../repo status" in unbound.stderr
    _paste(beside, _quoted(unbound.stderr))
    before = git(root, "log", "-1", "--format=%s")
    cid = json.loads(forest(root, "log", "--json").stdout)["acts"][0]["result"]
    live = forest(beside, *here, "forget", cid, "--words", "erase it")
    assert live.returncode == 1 and "forest -C ../repo seal" in live.stderr
    _paste(beside, _quoted(live.stderr))
    assert git(root, "log", "-1", "--format=%s") == before  # the seal pasted: not committed
    assert forest(root, "forget", cid, "--words", "erase it").returncode == 0


@pytest.mark.parametrize("option", ["--repo", "-C"])
def test_command_repo_option_beside_routes_pasted_where_typed_accepted(
    tmp_path: Path, option: str
) -> None:
    """``forest check -C ../repo`` (the command's own option, which every ``--help``
    offers) typed beside the repository printed ``forest restore b.md``, as at the top:
    pasted where it was typed, it found no repository. Its routes, and the watcher's
    hints, reach the repository from there, as after ``forest -C ../repo check``."""
    root, beside, _here = _beside(tmp_path)
    write(root, "b.md", "# B\n\nwasp\n")
    found = forest(beside, "check", option, f"../{root.name}")
    assert found.returncode == 1, found.stderr
    restore = _after(found.stdout, "  restore ground: ")
    assert restore == "forest -C ../repo restore b.md"
    _paste(beside, restore)
    assert (root / "b.md").read_text(encoding="utf-8") == "# B\n\nbee\n"
    idle = forest(beside, "watch", "status", option, f"../{root.name}")
    assert "`forest -C ../repo watch --detach`" in idle.stdout, idle.stdout


@pytest.mark.parametrize("where", ["global", "--repo", "-C"])
def test_absolute_dash_c_routes_keep_it_absolute_pasted_accepted(
    tmp_path: Path, where: str
) -> None:
    """``forest -C /abs/repo check`` (and the command's own ``--repo``/``-C``) printed
    ``forest -C ../repo restore …``: right only where it was typed. The routes and the
    act's commit hint keep the absolute path the user gave."""
    root, beside, _here = _beside(tmp_path)
    top = str(root.resolve())
    write(root, "b.md", "# B\n\nwasp\n")
    given = ("-C", top, "check") if where == "global" else ("check", where, top)
    found = forest(beside, *given)
    assert found.returncode == 1, found.stderr
    restore = _after(found.stdout, "  restore ground: ")
    assert restore == f"forest -C {top} restore b.md"
    _paste(beside, restore)
    assert (root / "b.md").read_text(encoding="utf-8") == "# B\n\nbee\n"
    retired = forest(root / ".forest", "-C", top, "retire", "x.md", "--words", "gone")
    assert retired.returncode == 0, retired.stderr
    step = _after(retired.stdout, "commit it: ")
    assert step.startswith(f"git -C {top} add "), step
    _paste(beside, step)
    _committed(root)
    write(root, "b.md", "# B\n\nwasp\n")
    relative = forest(beside, "-C", f"../{root.name}", "check")  # a relative one stays so
    assert _after(relative.stdout, "  restore ground: ") == "forest -C ../repo restore b.md"
