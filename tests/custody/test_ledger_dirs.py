"""Links that arrive through git are never followed into or out of custody.

A committed ``.forest -> ../elsewhere``, ``.forest/cache -> …`` or
``.forest/ledger/segments -> …`` (custody/ledger_dirs.py, custody/relocate.py,
custody/sources.py), a segment or body file that is a symlink (ledger/segments.py,
custody/sync.py), and links planted at state files in ``.git/forest``
(kernel/state.py) are refused or left alone: nothing outside the clone is read,
written, moved or deleted, and every refusal is one ``forest:`` line that says how
to remove the link.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files.custody.relocate import relocate_once
from forest_files.doors import hooks as githooks
from tests.helpers.cli import FOREST
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, pasted, write
from tests.helpers.state import shared_state

BIN = Path(sys.executable).parent
CANON = "# Canon\n\n## Family\n\nHer brother.\n"


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        [FOREST, *args], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )


def files_under(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def _custody(tmp_path: Path, name: str = "origin") -> Path:
    root = make_repo(tmp_path, name)
    write(root, "canon.md", CANON)
    init_and_adopt(root, ["canon.md#Canon/Family"])
    commit_all(root, "adopt")
    return root


def _outside(tmp_path: Path) -> dict[str, bytes]:
    """A folder beside the clone, laid out like old state, with files a user owns."""
    out = tmp_path / "outside"
    for rel in ("cache/notes.txt", "cache/captures/kept.txt", "cache/purge-pending/p1"):
        write(out, rel, f"precious {rel}\n")
    write(out, "woods.db.backup", "mine\n")
    write(out, "local.db", "not a database, and not forest-files' own\n")
    return files_under(out)


def test_committed_forest_symlink_moves_or_deletes_nothing_refused(tmp_path: Path) -> None:
    """``.forest`` committed as a link to a folder outside: the first command in a fresh
    clone deletes, moves and writes nothing there, and refuses with its removal."""
    before = _outside(tmp_path)
    origin = make_repo(tmp_path, "origin")
    write(origin, "README.md", "hello\n")
    os.symlink("../outside", origin / ".forest")
    commit_all(origin, "innocent")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    for args in (["check"], ["status"], ["init"]):
        proc = run(clone, *args)
        assert files_under(tmp_path / "outside") == before, args
        if args == ["init"]:
            assert proc.returncode != 0 and ".forest is a symlink" in proc.stderr, proc.stderr
            assert proc.stderr.count("forest:") == 1
    assert files_under(tmp_path / "outside") == before
    assert relocate_once(clone) is None  # nothing walked through the link


def test_committed_cache_symlink_moves_nothing_out_refused(tmp_path: Path) -> None:
    before = _outside(tmp_path)
    origin = _custody(tmp_path)
    os.symlink("../../outside/cache", origin / ".forest" / "cache")
    git(origin, "add", "-f", ".forest/cache")
    git(origin, "commit", "-q", "-m", "cache link")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    proc = run(clone, "check")
    assert files_under(tmp_path / "outside") == before
    assert "tracked-local-state" in proc.stdout
    assert not (shared_state(clone) / "captures" / "kept.txt").exists()


def _linked_segments(tmp_path: Path) -> tuple[Path, Path]:
    """A clone of a repository whose ``.forest/ledger/segments`` was committed as a
    link to a folder outside (the ledger's acts moved there)."""
    origin = _custody(tmp_path)
    outside = tmp_path / "outside-segments"
    (origin / ".forest" / "ledger" / "segments").rename(outside)
    os.symlink("../../../outside-segments", origin / ".forest" / "ledger" / "segments")
    commit_all(origin, "segments moved out")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    return clone, outside


@pytest.mark.parametrize(
    "args", [["check"], ["check", "--staged"], ["check", "--rev", "HEAD"], ["status"]]
)
def test_linked_segments_every_door_fails_closed_refused(tmp_path: Path, args: list[str]) -> None:
    """No door reads the acts through the link, and none reports an empty ledger as
    clean: each refuses (exit 3) with the link named and its removal."""
    clone, _outside_dir = _linked_segments(tmp_path)
    proc = run(clone, *args)
    assert proc.returncode == 3, (proc.stdout, proc.stderr)
    assert ".forest/ledger/segments is a symlink" in proc.stderr, proc.stderr
    assert proc.stderr.count("forest:") == 1


def test_linked_segments_hook_refuses_drift_and_nothing_written_outside_refused(
    tmp_path: Path,
) -> None:
    clone, outside = _linked_segments(tmp_path)
    before = files_under(outside)
    githooks.install(clone)
    write(clone, "canon.md", CANON.replace("brother", "BROTHER"))
    git(clone, "add", "canon.md")
    env = {**os.environ, **git_env(), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "edit"], cwd=clone, env=env, capture_output=True, text=True
    )
    assert proc.returncode != 0, proc.stderr
    proc = run(clone, "supersede", "canon.md#Canon/Family", "--words", "w")
    assert proc.returncode == 3 and "is a symlink" in proc.stderr
    assert files_under(outside) == before  # no act written through the link


def test_linked_segments_printed_removal_works_pasted(tmp_path: Path) -> None:
    clone, _outside_dir = _linked_segments(tmp_path)
    proc = run(clone, "check")
    removal = proc.stderr.split("Remove it (", 1)[1].split(") and bring", 1)[0]
    assert pasted(clone, removal).returncode == 0
    assert not os.path.lexists(clone / ".forest" / "ledger" / "segments")
    assert git(clone, "ls-files", "--", ".forest/ledger/segments") == ""


def test_segment_file_symlink_refused(tmp_path: Path) -> None:
    root = _custody(tmp_path)
    segments = root / ".forest" / "ledger" / "segments"
    real = next(segments.iterdir())
    moved = tmp_path / real.name
    real.rename(moved)
    os.symlink(moved, real)
    (Path(git(root, "rev-parse", "--absolute-git-dir")) / "forest" / "woods.db").unlink()
    proc = run(root, "check")
    assert proc.returncode == 3 and f"{real.name} is a symlink" in proc.stderr, proc.stderr


def test_body_file_symlink_to_dev_zero_refused(tmp_path: Path) -> None:
    """A body that is a link (to /dev/zero: an endless read) is refused, never read."""
    root = _custody(tmp_path)
    body = next((root / ".forest" / "ledger" / "bodies").rglob("*.txt"))
    body.unlink()
    os.symlink("/dev/zero", body)
    (Path(git(root, "rev-parse", "--absolute-git-dir")) / "forest" / "woods.db").unlink()
    proc = run(root, "status")
    assert proc.returncode == 3, proc.stderr
    assert "is a symlink" in proc.stderr and "internal error" not in proc.stderr


@pytest.mark.parametrize("name", ["woods.db", "woods.db-wal"])
def test_index_symlink_in_git_dir_refused(tmp_path: Path, name: str) -> None:
    """A link planted where the index lives is refused; nothing is built at its target."""
    root = _custody(tmp_path)
    state = Path(git(root, "rev-parse", "--absolute-git-dir")) / "forest"
    for side in ("", "-wal", "-shm"):
        (state / f"woods.db{side}").unlink(missing_ok=True)
    target = tmp_path / "elsewhere.db"
    os.symlink(target, state / name)
    proc = run(root, "status")
    assert proc.returncode == 1 and "a symlink where forest-files keeps woods.db" in proc.stderr
    assert not target.exists()
    (state / name).unlink()
    assert run(root, "status").returncode == 0


def test_audit_log_not_written_is_said_recovers(tmp_path: Path) -> None:
    root = _custody(tmp_path)
    state = shared_state(root)
    for side in ("", "-wal", "-shm"):
        (state / f"audit.db{side}").unlink(missing_ok=True)
    target = tmp_path / "audit-elsewhere.db"
    os.symlink(target, state / "audit.db")
    write(root, "canon.md", CANON.replace("brother", "sister"))
    proc = run(root, "supersede", "canon.md#Canon/Family", "--words", "a sister")
    assert proc.returncode == 0, proc.stderr  # the act stands: the ledger holds it
    assert "warning: the audit log was not written" in proc.stderr
    assert not target.exists()


def test_watch_log_symlink_refused(tmp_path: Path) -> None:
    root = _custody(tmp_path)
    state = Path(git(root, "rev-parse", "--absolute-git-dir")) / "forest"
    target = tmp_path / "someone-elses.txt"
    target.write_text("theirs\n")
    os.symlink(target, state / "watch.log")
    proc = run(root, "watch", "--detach")
    assert proc.returncode == 1 and "watch.log: a symlink" in proc.stderr, proc.stderr
    assert target.read_text() == "theirs\n"


def test_init_through_linked_gitattributes_refused(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    target = tmp_path / "theirs.txt"
    target.write_text("theirs\n")
    os.symlink(target, root / ".gitattributes")
    proc = run(root, "init")
    assert proc.returncode == 1 and ".gitattributes is a symlink" in proc.stderr
    assert target.read_text() == "theirs\n"
    assert not (root / "forest.toml").exists()


def _legacy_db(root: Path, text: str) -> None:
    write(root, ".forest/local.db", text)
    write(root, ".forest/local.db-wal", text + " wal")


def test_relocation_committed_local_db_left_in_place_refused(tmp_path: Path) -> None:
    """A ``local.db`` that any commit held came through git: it is never moved in as
    this machine's proposals, even after ``git rm --cached``."""
    root = _custody(tmp_path)
    _legacy_db(root, "forged proposals")
    git(root, "add", "-f", ".forest/local.db")
    git(root, "commit", "-q", "-m", "forged")
    git(root, "rm", "-q", "--cached", ".forest/local.db")
    git(root, "commit", "-q", "-m", "untracked again")
    done = relocate_once(root)
    assert done is not None and ".forest/local.db" in done.kept
    assert (root / ".forest" / "local.db").read_text() == "forged proposals"
    assert not (shared_state(root) / "local.db-wal").exists()


def test_relocation_twice_taken_never_overwrites_recovers(tmp_path: Path) -> None:
    """Two old copies whose new place is taken (two worktrees, one after the other)
    each get a ``legacy/<n>`` of their own, with their journal files beside them."""
    root = _custody(tmp_path)
    state = shared_state(root)
    write(state, "local.db", "current")
    for n, text in enumerate(("first", "second"), start=1):
        _legacy_db(root, text)
        done = relocate_once(root)
        assert done is not None and done.legacy == state / "legacy" / str(n)
        assert (done.legacy / "local.db").read_text() == text
        assert (done.legacy / "local.db-wal").read_text() == text + " wal"
    assert (state / "local.db").read_text() == "current"
    assert not (state / "local.db-wal").exists()


def test_body_write_over_a_symlink_replaces_the_link_recovers(tmp_path: Path) -> None:
    """Writing a body whose place holds a symlink (to ``/dev/zero``, or to a file
    outside) never reads or writes through it: the link is replaced by the file."""
    from forest_files.kernel.hashing import hash_body
    from forest_files.ledger.segment_write import write_bodies

    ledger = tmp_path / "ledger"
    text = "The rule stands.\n"
    body_hash = hash_body(text)
    place = ledger / "bodies" / body_hash[:2] / f"{body_hash}.txt"
    place.parent.mkdir(parents=True)
    outside = tmp_path / "outside.txt"
    outside.write_text("theirs\n")
    for target in ("/dev/zero", str(outside)):
        place.unlink(missing_ok=True)
        os.symlink(target, place)
        write_bodies(ledger, {body_hash: text})
        assert not place.is_symlink() and place.read_text() == text
    assert outside.read_text() == "theirs\n"
