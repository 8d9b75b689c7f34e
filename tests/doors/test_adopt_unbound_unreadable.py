"""``forest adopt --unbound`` where a file forest.toml's ``[require]`` asks for, bound by
nothing, is one the user who runs forest (not root: tests/helpers/unprivileged.py) may
not read: coverage fails closed (check/coverage.py ``_closed_read``), so the door
refuses in the one ``forest: cannot use …`` line naming the file's ``chmod``, exit 1,
and records nothing, not even the readable unbound file beside it; once the printed
``chmod`` is run the same command adopts both.

A test of behaviour that already held (it cannot fail on the code before it): with the
refusal taken out of ``_closed_read`` it fails, the unreadable file passed over and the
readable one adopted alone.
"""

from __future__ import annotations

import hashlib
import sqlite3
from contextlib import closing
from pathlib import Path

from tests.helpers.places import module_place
from tests.helpers.unprivileged import hand_over, handed_copy, run_as_user

DOC = "# Doc\n\nThe sky is blue.\n"
NEW = "# New\n\nNot bound yet.\n"
ADOPT = "forest adopt --unbound --yes --words 'Every page is kept'"


place = module_place({"doc.md": DOC}, "doc.md")


def _recorded(repo: Path) -> tuple[dict[str, str], int]:
    """Every ledger file with the SHA-256 of its bytes (what a refused adopt leaves
    byte-identical), and how many entries the index holds (a cache of the ledger: its
    bytes may change as it is opened)."""
    files = {
        p.relative_to(repo).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted((repo / ".forest").rglob("*"))
        if p.is_file()
    }
    with closing(sqlite3.connect(repo / ".git" / "forest" / "woods.db")) as index:
        return files, int(index.execute("SELECT count(*) FROM entries").fetchone()[0])


def test_adopt_unbound_required_file_unreadable_refused(place: tuple[Path, Path]) -> None:
    base, bin_dir = place
    repo = handed_copy(base, "adopt-unbound-unreadable", hand=False)
    with (repo / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[require]\n"*.md" = "file"\n')
    (repo / "other.md").write_text(NEW.replace("New", "Other"), encoding="utf-8")
    new = repo / "new.md"
    new.write_text(NEW, encoding="utf-8")
    new.chmod(0)
    hand_over(repo)
    before = _recorded(repo)

    done = run_as_user(repo, ADOPT, bin_dir)

    said = done.stdout + done.stderr
    assert "Traceback" not in said and "internal error" not in said, said
    assert done.returncode == 1, said
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"forest: cannot use {new} (Permission denied); chmod u+rwX"), line
    assert "adopted" not in done.stdout, done.stdout
    assert _recorded(repo) == before  # nothing recorded, other.md included
    fix = line.split("; ", 1)[1].split(", then")[0]
    assert run_as_user(repo, fix, bin_dir).returncode == 0  # the printed chmod, pasted
    assert new.read_bytes() == NEW.encode()  # untouched
    again = run_as_user(repo, ADOPT, bin_dir)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "new.md" in again.stdout and "other.md" in again.stdout, again.stdout
