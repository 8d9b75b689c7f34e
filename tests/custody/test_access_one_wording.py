"""The five doors that said "make it writable" in words of their own, as a user who is
not root meets them (tests/helpers/unprivileged.py), now say kernel/access.py's one
wording: the path, quoted so it pastes, and the ``chmod`` (or another user's
``chown``) that gives it back. Each line is pinned whole; the fix, pasted as that user,
lets the same command go through; a refused command leaves every file as it was (a
forget's erase act excepted: it is recorded before the purge, by design).

The repositories live in a folder named ``my repo's …``: a fix that is not quoted
does not paste there.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from forest_files.custody.proposals import ProposalStore
from forest_files.kernel.shellword import shell_word
from forest_files.ledger.segments import body_path
from tests.face.test_migrate import build_forest04
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.places import module_place
from tests.helpers.unprivileged import (
    as_root,
    hand_over,
    handed_copy,
    run_as_user,
    script_beside,
)

DOC = "# Doc\n\nThe sky is blue.\n"
MORE = "# More\n\nThe sea is green.\n"


# A repository with doc.md adopted and more.md not (in a folder the unprivileged user
# reaches), and the bin folder that user runs forest from.
place = module_place({"doc.md": DOC, "more.md": MORE}, "doc.md")


def _snapshot(top: Path) -> dict[str, str]:
    """Every path under ``top`` but ``.git``: a file with the SHA-256 of its bytes."""
    return {
        p.relative_to(top).as_posix(): (
            hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
        )
        for p in sorted(top.rglob("*"))
        if ".git" not in p.relative_to(top).parts
    }


def _one_line(done: object) -> str:
    stderr = getattr(done, "stderr", "")
    assert getattr(done, "returncode", None) == 1, stderr
    assert "Traceback" not in stderr, stderr
    [line] = stderr.strip().splitlines()
    return line


def test_record_ledger_folder_read_only_names_chmod_refused(place: tuple[Path, Path]) -> None:
    """``forest adopt`` with ``.forest/ledger/segments`` at ``0555``: the folder's
    ``chmod`` (it said "make it writable"), which pasted lets the adopt record."""
    base, bin_dir = place
    repo = handed_copy(base, "my repo's ledger")
    segments = repo / ".forest" / "ledger" / "segments"
    segments.chmod(0o555)
    before = _snapshot(repo)
    line = _one_line(run_as_user(repo, "forest adopt more.md --words 'the sea'", bin_dir))
    fix = f"chmod u+rwX {shell_word(str(segments))}"
    assert line == (
        "forest: cannot write .forest/ledger/segments (Permission denied): "
        f"{fix}, then run the command again; nothing was recorded"
    )
    assert _snapshot(repo) == before
    done = run_as_user(repo, f"{fix} && forest adopt more.md --words 'the sea'", bin_dir)
    assert done.returncode == 0, done.stderr


def test_init_work_tree_read_only_names_chmod_refused(place: tuple[Path, Path]) -> None:
    """``forest init`` in a work tree at ``0555``: the work tree's ``chmod`` (it said
    "make it writable" of ``.forest/ledger``, a folder not made yet), which pasted lets
    the same init go through."""
    base, bin_dir = place
    repo = make_repo(base.parent, "my repo's init")
    write(repo, "doc.md", DOC)
    commit_all(repo, "doc")
    hand_over(repo)
    repo.chmod(0o555)
    before = _snapshot(repo)
    line = _one_line(run_as_user(repo, "forest init --project-id p", bin_dir))
    fix = f"chmod u+rwX {shell_word(str(repo))}"
    assert line == (
        "forest: .forest/ledger cannot be written (Permission denied); nothing was set up: "
        f"{fix}, then run `forest init --project-id p` again"
    )
    assert _snapshot(repo) == before
    done = run_as_user(repo, f"{fix} && forest init --project-id p", bin_dir)
    assert done.returncode == 0, done.stderr
    assert (repo / "forest.toml").is_file()


def test_hooks_install_hooks_folder_read_only_names_chmod_refused(
    place: tuple[Path, Path],
) -> None:
    """``forest hooks install`` with ``.git/hooks`` at ``0555``: the line names the hook
    (it named ``pre-commit.PID.tmp``, the temporary file) and the folder's ``chmod``,
    which pasted lets the same install go through."""
    base, bin_dir = place
    repo = handed_copy(base, "my repo's hooks")
    hooks = repo / ".git" / "hooks"
    hooks.chmod(0o555)
    before = _snapshot(hooks)
    line = _one_line(run_as_user(repo, "forest hooks install", bin_dir))
    fix = f"chmod u+rwX {shell_word(str(hooks))}"
    assert line == (  # the hook, not its temporary file (it said …/pre-commit.PID.tmp)
        f"forest: {hooks}/pre-commit: cannot be written (Permission denied); no hook was "
        f"installed: {fix}, then run `forest hooks install` again"
    )
    assert _snapshot(hooks) == before
    done = run_as_user(repo, f"{fix} && forest hooks install", bin_dir)
    assert done.returncode == 0, done.stderr
    assert (hooks / "pre-commit").is_file()


@pytest.fixture(scope="module")
def superseded(place: tuple[Path, Path]) -> tuple[Path, str, str]:
    """``place`` with doc.md superseded and committed as the unprivileged user: the
    repository, the first ground's content id and its body hash."""
    base, bin_dir = place
    repo = handed_copy(base, "superseded")
    edit = "printf '# Doc\\n\\nThe sky is grey.\\n' > doc.md && forest supersede doc.md"
    done = run_as_user(repo, f"{edit} --words s && git add -A && git commit -qm s", bin_dir)
    assert done.returncode == 0, done.stderr
    chain = json.loads(run_as_user(repo, "forest log doc.md --json", bin_dir).stdout)["chain"]
    return repo, chain[0]["content_id"], chain[0]["body_hash"]


def test_forget_body_folder_read_only_names_chmod_refused(
    place: tuple[Path, Path], superseded: tuple[Path, str, str]
) -> None:
    """``forest forget`` whose erased body lies in a folder at ``0555``: the erase act
    is recorded, its purge owed; the line names the folder and the body file in
    kernel/access.py's ``chmod`` (it said "make it and its folder writable"), which
    pasted lets ``forest sync`` finish the purge."""
    built, content_id, body_hash = superseded
    bin_dir = place[1]
    repo = handed_copy(built, "my repo's forget")
    body = repo / body_path(Path(".forest/ledger"), body_hash)
    body.parent.chmod(0o555)
    line = _one_line(run_as_user(repo, f"forest forget {content_id} --words gone", bin_dir))
    fix = f"chmod u+rwX {shell_word(str(body.parent))} {shell_word(str(body))}"
    assert re.fullmatch(r"forest: erase act [0-9a-f]{12} is recorded .*", line), line
    assert line.endswith(
        f"but purging its local copies failed: {body.relative_to(repo)} (Permission denied); "
        f"{fix}, then run `forest sync`: it finishes the purge"
    ), line
    assert body.is_file()
    done = run_as_user(repo, f"{fix} && forest sync", bin_dir)
    assert done.returncode == 0, done.stderr
    assert not body.exists()


def test_forget_local_db_read_only_names_chmod_refused(
    place: tuple[Path, Path], superseded: tuple[Path, str, str]
) -> None:
    """``forest forget`` whose purge meets ``local.db`` at ``0444`` (a proposal holds the
    erased text): SQLite's words and the state folder's ``chmod -R`` (it said
    "(ForestError); make .git/forest/local.db and .git/forest writable regular files"),
    which pasted lets ``forest sync`` finish the purge."""
    built, content_id, _body_hash = superseded
    bin_dir = place[1]
    repo = handed_copy(built, "my repo's local.db", hand=False)
    with ProposalStore(repo) as local:
        local.propose(
            binding="0" * 64,
            path="doc.md",
            selector="doc.md",
            derived_from="0" * 64,
            ground_hash="0" * 64,
            text=DOC,
        )
    hand_over(repo)
    state = repo / ".git" / "forest"
    (state / "local.db").chmod(0o444)
    line = _one_line(run_as_user(repo, f"forest forget {content_id} --words gone", bin_dir))
    fix = f"chmod -R u+rwX {shell_word(str(state))}"
    assert re.fullmatch(r"forest: erase act [0-9a-f]{12} is recorded .*", line), line
    assert line.endswith(
        "but purging its local copies failed (attempt to write a readonly database); "
        f"{fix}, then run `forest sync`: it finishes the purge"
    ), line
    done = run_as_user(repo, f"{fix} && forest sync", bin_dir)
    assert done.returncode == 0, done.stderr
    with ProposalStore(repo) as local:
        assert not local.open_proposals()


MIGRATE = """import sys
import forest_files
try:
    forest_files.migrate_to_latest("woods.db", "new.db")
except forest_files.ForestError as exc:
    sys.exit(f"forest: {exc}")
"""


def test_migrate_source_unreadable_names_chmod_refused(place: tuple[Path, Path]) -> None:
    """``migrate_to_latest`` of a Forest 0.4 store at mode ``000``: the store's opening
    names the file and its folder in kernel/access.py's ``chmod`` (it said "make the
    file and its directory writable (SQLite writes its journal beside it)", naming
    neither, for a file only read), which pasted lets the migration run."""
    base, bin_dir = place
    folder = base.parent / "my repo's migrate"
    folder.mkdir()
    source = folder / "woods.db"
    build_forest04(source)
    hand_over(folder)
    folder.chmod(0o755)
    source.chmod(0)
    script = script_beside(folder, "migrate.py", MIGRATE)
    before = sorted(p.name for p in folder.iterdir())
    line = _one_line(run_as_user(folder, f"python3 {shell_word(str(script))}", bin_dir))
    fix = f"chmod u+rwX {shell_word(str(folder))} {shell_word(str(source))}"
    assert line == (
        "forest: cannot read source woods.db: unable to open database file; "
        f"{fix}, then run the command again"
    )
    assert sorted(p.name for p in folder.iterdir()) == before  # no copy begun
    done = run_as_user(folder, f"{fix} && python3 {shell_word(str(script))}", bin_dir)
    assert done.returncode == 0, done.stderr
    assert (folder / "new.db").is_file()


MIGRATE_FROM = """import sys
import forest_files
try:
    forest_files.migrate_to_latest(sys.argv[1], "new.db")
except forest_files.ForestError as exc:
    sys.exit(f"forest: {exc}")
"""


def test_migrate_source_in_root_folder_names_chown_refused(place: tuple[Path, Path]) -> None:
    """``migrate_to_latest`` of a Forest 0.4 store in a folder root owns at ``0700``: one
    line naming the source and kernel/access.py's ``sudo chown`` of that folder, exit 1
    (it was a raw ``PermissionError`` from ``path.is_file()``, a traceback); nothing
    made."""
    if not as_root():
        pytest.skip("only root can own the folder the unprivileged user may not enter")
    base, bin_dir = place
    locked = base.parent / "my repo's locked"
    locked.mkdir()
    source = locked / "woods.db"
    build_forest04(source)
    locked.chmod(0o700)
    out = base.parent / "my repo's migrate out"
    out.mkdir()
    hand_over(out)
    script = script_beside(out, "migrate_from.py", MIGRATE_FROM)
    command = f"python3 {shell_word(str(script))} {shell_word(str(source))}"
    line = _one_line(run_as_user(out, command, bin_dir))
    assert line == (
        f"forest: cannot read source {source} (Permission denied); another user owns it: "
        f'sudo chown -R "$(id -un)" {shell_word(str(locked))}, then run the command again'
    )
    assert list(out.iterdir()) == []  # no copy begun
