"""A file forest.toml's ``[require]`` asks for, bound by nothing, that the user who
runs forest (not root: tests/helpers/unprivileged.py) may not read: coverage fails
closed, so ``forest check`` and ``forest status`` refuse with the one
``forest: cannot use …`` line naming its ``chmod``, exit 1, as for an unreadable bound
file (before: it passed, exit 0, nothing said); the file is left byte-identical, and
once the printed ``chmod`` is run it is reported ``unbound``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.places import module_place
from tests.helpers.unprivileged import hand_over, handed_copy, run_as_user

DOC = "# Doc\n\nThe sky is blue.\n"
NEW = "# New\n\nNot bound yet.\n"


place = module_place({"doc.md": DOC}, "doc.md")


@pytest.mark.parametrize("command", ["forest check", "forest status"])
def test_coverage_required_file_unreadable_refused(place: tuple[Path, Path], command: str) -> None:
    base, bin_dir = place
    repo = handed_copy(base, f"required-{command.split()[1]}", hand=False)
    with (repo / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[require]\n"*.md" = "file"\n')
    new = repo / "new.md"
    new.write_text(NEW)
    new.chmod(0)
    hand_over(repo)

    done = run_as_user(repo, command, bin_dir)

    said = done.stdout + done.stderr
    assert "Traceback" not in said and "internal error" not in said, said
    assert done.returncode == 1, said
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"forest: cannot use {new} (Permission denied); chmod u+rwX"), last
    fix = last.split("; ", 1)[1].split(", then")[0]
    assert run_as_user(repo, fix, bin_dir).returncode == 0  # the printed chmod, pasted
    assert new.read_bytes() == NEW.encode()  # untouched
    again = run_as_user(repo, command, bin_dir)
    assert again.returncode == (1 if command == "forest check" else 0), again.stderr
    assert "unbound" in again.stdout and "new.md" in again.stdout, again.stdout + again.stderr
