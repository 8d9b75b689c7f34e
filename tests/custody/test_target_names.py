"""A file no selector can name, typed to any command that takes a target
(custody/target_names.py): the one refusal ``forest adopt`` gives, with its rename.

Real repository: ``forest supersede 'a\\b.md'`` (and restore, retire, rebind, diff,
log, renormalise, seal) beside a real ``a\\b.md`` said "use '/' between directories"
with the general selector help; only adopt named the rename.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forest_files.kernel.shellword import BASH_ONLY
from tests.custody.test_special_paths import snapshot as every_byte
from tests.helpers.cli import console, forest
from tests.helpers.git import commit_all, make_repo, pasted, write

BACKSLASH = "git --literal-pathspecs mv -- 'a\\b.md' a_b.md"
NEWLINE = "git mv -- new$'\\012'line.md new_line.md"


def snapshot(repo: Path) -> dict[str, bytes | str]:
    """Every byte under ``repo`` (the index as its SQL dump), but the time a sync last
    looked at each ledger segment (a cache column every read command refreshes)."""
    out = every_byte(repo)
    for key, value in out.items():
        if key.startswith(".git/forest/woods.db ") and isinstance(value, str):
            out[key] = re.sub(
                r"(INSERT INTO \"ledger_segments\" VALUES\(.*),\d+\);", r"\1);", value
            )
    return out


def _bound_repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    write(repo, "ok.md", "# A\n\ntext\n")
    write(repo, "a\\b.md", "# A\n\ntext\n")
    write(repo, "new\nline.md", "# A\n\ntext\n")
    commit_all(repo, "files")
    assert forest(repo, "init").exit_code == 0
    assert forest(repo, "adopt", "ok.md", "--words", "w").exit_code == 0
    commit_all(repo, "adopt")
    return repo


@pytest.mark.slow  # twenty commands in process, over half a second
def test_unnameable_file_typed_to_every_target_command_names_its_rename_refused(
    tmp_path: Path,
) -> None:
    repo = _bound_repo(tmp_path)
    assert forest(repo, "status").exit_code == 0  # the index in step with the ledger
    before = snapshot(repo)
    for name, rename in (("a\\b.md", BACKSLASH), ("new\nline.md", NEWLINE)):
        runs = {
            "supersede": ("supersede", name, "--words", "w"),
            "restore": ("restore", f"{name}#A"),
            "retire": ("retire", name, "--words", "w"),
            "diff": ("diff", f"{name}#A"),
            "log": ("log", name),
            "renormalise": ("renormalise", name, "--none", "--words", "w"),
            "seal": ("seal", name, "--words", "w"),
            "unseal": ("unseal", name, "--words", "w"),
            "rebind old": ("rebind", name, "ok.md"),
            "rebind new": ("rebind", "ok.md", name),
        }
        for what, args in runs.items():
            result = forest(repo, *args)
            assert result.exit_code == 1, (what, result.output)
            (line,) = result.stderr.splitlines()
            assert line.startswith("forest: ") and "no selector can name it" in line, (what, line)
            assert [p for p in line.split("`") if " mv " in p] == [rename], (what, line)
            then = "rebind to the new name" if what == "rebind new" else "adopt"
            bash = f" ({BASH_ONLY})" if rename == NEWLINE else ""  # $'\012': not sh's
            assert line.endswith(f"(or a name you like), then {then}{bash}"), (what, line)
    assert snapshot(repo) == before  # ledger, index, files and git's own: untouched
    # A backslash path naming no file keeps the grammar's own refusal ('/' between dirs).
    result = forest(repo, "supersede", "no\\such.md", "--words", "w")
    assert result.exit_code == 1 and "between directories" in result.stderr, result.stderr
    # The rename pasted frees the name: the next rebind to it goes through.
    assert pasted(repo, BACKSLASH).returncode == 0
    assert forest(repo, "rebind", "ok.md", "a_b.md").exit_code == 0


@pytest.mark.slow  # the installed console script, twice
def test_unnameable_file_typed_to_the_light_check_names_its_rename_refused(
    tmp_path: Path,
) -> None:
    """``forest check 'a\\b.md'`` (the light entry, as a user types it) said the name
    named no binding; it gives the same rename as every other command, and a name
    that is merely unbound keeps its own line."""
    repo = _bound_repo(tmp_path)
    assert console(repo, "check").returncode == 0  # the machine's own caches made

    def kept(repo: Path) -> dict[str, bytes | str]:  # all but the caches' time stamps
        return {k: v for k, v in snapshot(repo).items() if "/forest/cache/" not in k}

    before = kept(repo)
    typed = console(repo, "check", "a\\b.md")
    assert typed.returncode == 1, typed.stderr
    (line,) = typed.stderr.splitlines()
    assert "no selector can name it" in line and f"`{BACKSLASH}`" in line, line
    assert kept(repo) == before
    plain = console(repo, "check", "zz.md")
    assert plain.returncode == 2 and "names no binding" in plain.stderr, plain.stderr
