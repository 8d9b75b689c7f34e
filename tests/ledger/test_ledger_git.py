"""The ledger under real git: clones, merges, branch switches, rebase, cherry-pick,
damaged or forged segments, concurrent and crashing writers, CRLF checkouts, and
the CLI's messages when there is no repository to speak of."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forest_files.custody.repository import GroundEntry, Repository
from forest_files.doors.cli import app
from forest_files.kernel.hashing import canonical_json, hash_body, sha256_text
from forest_files.ledger import LedgerError, make_act, read_ledger, verify_ledger, write_segment
from forest_files.ledger.segment_files import segment_paths
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.state import local_state
from tests.helpers.template import reused

ADA = "Ada Lovelace <ada@example.org>"
BOB = "Bob Babbage <bob@example.org>"
WORDS = "I adopt this text as written"
LEDGER = Path(".forest") / "ledger"

runner = CliRunner()


# -- helpers -------------------------------------------------------------------------


def forest(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def clone(url: str, dest: Path, *config: str) -> Path:
    flags = [f for c in ("protocol.file.allow=always", *config) for f in ("-c", c)]
    git(dest.parent, "clone", "-q", *flags, url, str(dest))
    return dest


def applied_in_index(repo: Path) -> list[str]:
    """Act ids recorded as applied in the local index (raw read, after close)."""
    with closing(sqlite3.connect(local_state(repo) / "woods.db")) as db:
        return [str(r[0]) for r in db.execute("SELECT act_id FROM ledger_applied ORDER BY rowid")]


Views = tuple[list[GroundEntry], list[GroundEntry], list[str]]


def views(repo: Path, *, rebuild: bool = False) -> Views:
    """ground(), contested() and the sorted applied act ids, after a sync (or rebuild)."""
    with Repository(repo) as r:
        if rebuild:
            r.rebuild()
        else:
            r.sync()
        ground, contested = r.ground(), r.contested()
    applied = applied_in_index(repo)
    assert len(applied) == len(set(applied)), "an act was applied twice"
    return ground, contested, sorted(applied)


def ids(entries: list[GroundEntry]) -> list[str]:
    return [e.content_id for e in entries]


def adopt(repo: Path, body: str, by: str = ADA) -> str:
    with Repository(repo) as r:
        return r.adopt_text(body, words=WORDS, by=by)


def supersede(repo: Path, old: str, body: str) -> str:
    with Repository(repo) as r:
        return r.supersede(old, body, words=WORDS, by=ADA, expected_body_hash=hash_body(body))


def ledger_act_ids(repo: Path) -> set[str]:
    return set(read_ledger(repo / LEDGER).acts)


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    """A bare origin holding one commit of an initialised forest (no acts yet): a
    private copy of one built once per worker process."""
    return reused((__name__, "origin"), tmp_path / "origin.git", _build_origin)


def _build_origin(tmp_path: Path) -> Path:
    bare = make_repo(tmp_path, "origin.git", bare=True)
    seed = make_repo(tmp_path, "seed")
    Repository.init(seed, project_id="proj-ledger-git").close()
    commit_all(seed, "forest init")
    git(seed, "push", "-q", str(bare), "main")
    return bare


@pytest.fixture
def work(origin: Path, tmp_path: Path) -> Path:
    return clone(origin.as_uri(), tmp_path / "work")


# -- clones, merges, branches --------------------------------------------------------


def test_two_clones_push_pull_identical_views(origin: Path, tmp_path: Path) -> None:
    a = clone(origin.as_uri(), tmp_path / "a")
    b = clone(origin.as_uri(), tmp_path / "b")
    shared = adopt(a, "Shared text, adopted on a.")
    commit_all(a, "a: shared")
    git(a, "push", "-q", "origin", "main")
    git(b, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
    # Each clone now records on its own: a supersedes, b seals the shared ground
    # and adopts something new.
    supersede(a, shared, "Shared text, revised on a.")
    adopt(a, "Only a adopted this.")
    commit_all(a, "a: work")
    with Repository(b) as r:
        r.adopt_text("Only b adopted this.", words=WORDS, by=BOB)
        r.seal(shared, words="hold it while we check", by=BOB)
    commit_all(b, "b: work")
    git(a, "push", "-q", "origin", "main")
    git(b, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
    git(b, "push", "-q", "origin", "main")
    git(a, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
    assert git(a, "rev-parse", "HEAD") == git(b, "rev-parse", "HEAD")
    va, vb = views(a), views(b)
    assert va == vb
    assert set(va[2]) == ledger_act_ids(a)
    assert len(va[0]) == 3  # a's successor and both single adoptions
    assert views(a, rebuild=True) == va
    assert views(b, rebuild=True) == vb
    assert verify_ledger(a / LEDGER).ok


def test_branch_switches_never_leak_ground(work: Path) -> None:
    base = adopt(work, "Ground on main before the split.")
    commit_all(work, "base")
    git(work, "checkout", "-q", "-b", "left")
    left = adopt(work, "Only on the left branch.")
    left_succ = supersede(work, base, "Base as the left branch rewrote it.")
    commit_all(work, "left")
    git(work, "checkout", "-q", "-b", "right", "main")
    right = adopt(work, "Only on the right branch.")
    commit_all(work, "right")
    git(work, "checkout", "-q", "-b", "both", "right")
    git(work, "merge", "-q", "--no-edit", "left")
    expected = {
        "main": sorted([base]),
        "left": sorted([left, left_succ]),
        "right": sorted([base, right]),
        "both": sorted([left, left_succ, right]),
    }
    acts = {}
    for branch in expected:
        git(work, "checkout", "-q", branch)
        acts[branch] = ledger_act_ids(work)
    order = ["left", "main", "both", "right", "left", "right", "main", "both", "main", "left"]
    commands = ["ground", "sync", "log", "contested", "cli-sync", "cli-log", "rebuild"]
    for step, branch in enumerate(order * 2):
        git(work, "checkout", "-q", branch)
        command = commands[step % len(commands)]
        if command.startswith("cli-"):
            code, _, err = forest(command.removeprefix("cli-"), "--repo", str(work))
            assert code == 0, err
        else:
            with Repository(work) as r:
                getattr(r, command)()
        with Repository(work) as r:
            assert ids(r.ground()) == expected[branch], (step, branch, command)
            assert r.contested() == []
            assert {e.act_id for e in r.log()} == acts[branch]
        assert set(applied_in_index(work)) == acts[branch], (step, branch, command)


def test_rebase_onto_moved_main_gives_union(work: Path) -> None:
    git(work, "checkout", "-q", "-b", "feature")
    feat = adopt(work, "Recorded on the feature branch.")
    commit_all(work, "feature")
    git(work, "checkout", "-q", "main")
    moved = adopt(work, "Main moved on meanwhile.")
    commit_all(work, "main moved")
    main_acts = ledger_act_ids(work)
    git(work, "checkout", "-q", "feature")
    feature_acts = ledger_act_ids(work)
    assert ids(views(work)[0]) == [feat]  # the index holds feature's ledger
    git(work, "rebase", "-q", "main")
    ground, contested, applied = views(work)
    assert ids(ground) == sorted([feat, moved]) and contested == []
    assert set(applied) == main_acts | feature_acts == ledger_act_ids(work)
    assert views(work, rebuild=True) == (ground, contested, applied)


@pytest.mark.parametrize("second_copy", ["cherry-pick", "reordered-segment"])
def test_cherry_pick_same_act_twice_is_one_act(work: Path, second_copy: str) -> None:
    git(work, "checkout", "-q", "-b", "source")
    cid = adopt(work, "Picked onto two branches.")
    pick = commit_all(work, "the act")
    [seg] = segment_paths(work / LEDGER)
    seg_data = seg.read_bytes()
    [adopt_act] = read_ledger(work / LEDGER).ordered()
    extra_cids: list[str] = []
    for branch in ("b1", "b2"):
        git(work, "checkout", "-q", "-b", branch, "main")
        write(work, f"{branch}.txt", f"something only {branch} has")
        commit_all(work, f"{branch} diverges")  # so the two picks are distinct commits
        if branch == "b2" and second_copy == "reordered-segment":
            # The same act in another segment (other bytes, other name), written with an
            # act of b2's own: a segment never holds one act twice (duplicate-act).
            extra_cids.append(adopt(work, "Only b2 adopted this."))
            [own] = segment_paths(work / LEDGER)
            data = own.read_bytes() + seg_data
            own.unlink()
            other = seg.with_name(f"{hashlib.sha256(data).hexdigest()}.jsonl")
            other.parent.mkdir(parents=True, exist_ok=True)
            other.write_bytes(data)
            assert other.stem != seg.stem
            git(work, "checkout", "source", "--", str(LEDGER / "bodies"))
            commit_all(work, "same acts, another segment")
        else:
            git(work, "cherry-pick", pick)
        assert sorted(ids(views(work)[0])) == sorted([cid, *extra_cids])
    git(work, "merge", "-q", "--no-edit", "b1")
    assert len(git(work, "rev-list", "--parents", "-1", "HEAD").split()) == 3  # a real merge
    snapshot = read_ledger(work / LEDGER)
    extra_acts = set(snapshot.acts) - {adopt_act.id}
    assert len(extra_acts) == len(extra_cids)
    ground, contested, applied = views(work)
    assert sorted(ids(ground)) == sorted([cid, *extra_cids]) and contested == []
    assert applied == sorted([adopt_act.id, *extra_acts])
    assert verify_ledger(work / LEDGER).ok
    code, _, err = forest("verify", "--repo", str(work))
    assert code == 0, err
    with Repository(work) as r:
        assert [e.kind for e in r.log()] == ["adopt"] * (1 + len(extra_cids))
    assert views(work, rebuild=True) == (ground, contested, applied)


# -- damaged, forged and newer segments ----------------------------------------------


@pytest.mark.parametrize("renamed", [False, True], ids=["name-kept", "renamed-to-new-hash"])
def test_hand_edited_field_refused_naming_segment(work: Path, renamed: bool) -> None:
    adopt(work, "Text whose record someone edits.")
    commit_all(work, "adopt")
    [seg] = segment_paths(work / LEDGER)
    data = seg.read_bytes()
    needle = b"Ada Lovelace"
    at = data.index(needle)
    edited = data[:at] + b"Eda Lovelace" + data[at + len(needle) :]  # one byte, id kept
    assert len(edited) == len(data) and edited.count(b"\n") == data.count(b"\n")
    seg.unlink()
    name = sha256_text(edited.decode()) if renamed else seg.stem
    (seg.parent / f"{name}.jsonl").write_bytes(edited)
    report = verify_ledger(work / LEDGER)
    assert not report.ok and {f.segment for f in report.faults} == {name}
    assert "id-mismatch" in report.codes()
    code, out, _ = forest("verify", "--repo", str(work))
    assert code == 3 and name in out
    with Repository(work) as r, pytest.raises(LedgerError, match=name):
        r.sync()
    code, _, err = forest("sync", "--repo", str(work))
    assert code == 3 and name in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_deleted_segment_of_a_dependency_dangling(work: Path, tmp_path: Path) -> None:
    first = adopt(work, "Adopted in the first segment.")
    commit_all(work, "adopt")
    [seg1] = segment_paths(work / LEDGER)
    supersede(work, first, "Superseded in a second segment.")
    commit_all(work, "supersede")
    git(work, "rm", "-q", str(seg1.relative_to(work)))
    commit_all(work, "drop the first segment")
    report = verify_ledger(work / LEDGER)
    assert report.codes() == {"dangling-dep"}
    code, out, _ = forest("verify", "--repo", str(work))
    assert code == 3 and "dangling-dep" in out
    with Repository(work) as r, pytest.raises(LedgerError) as info:
        r.sync()
    assert info.value.code == "dangling-dep"
    code, _, err = forest("sync", "--repo", str(work))
    assert code == 3 and "not in the ledger" in err and len(err.strip().splitlines()) == 1
    # A fresh clone (no index at all) refuses the same way.
    fresh = clone(work.as_uri(), tmp_path / "fresh")
    with pytest.raises(LedgerError, match="not in the ledger"):
        Repository(fresh).sync()


@pytest.mark.parametrize("cut", ["final-lf", "mid-line"])
def test_truncated_segment_refused(work: Path, cut: str) -> None:
    adopt(work, "Recorded, then cut short.")
    [seg] = segment_paths(work / LEDGER)
    data = seg.read_bytes()
    seg.write_bytes(data[:-1] if cut == "final-lf" else data[: len(data) - 40])
    report = verify_ledger(work / LEDGER)
    assert "truncated" in report.codes()
    code, out, _ = forest("verify", "--repo", str(work))
    assert code == 3 and "truncated" in out
    with Repository(work) as r, pytest.raises(LedgerError, match="truncated") as info:
        r.sync()
    assert info.value.segment == seg.stem
    code, _, err = forest("sync", "--repo", str(work))
    assert code == 3 and "truncated" in err and seg.stem in err


def test_forged_root_with_valid_id_refused_on_pull(work: Path, tmp_path: Path) -> None:
    honest = adopt(work, "Honest ground.")
    commit_all(work, "honest")
    git(work, "push", "-q", "origin", "main")
    before = views(work)
    # The forger adopts in a clone, then replaces the root's record body_hash by
    # the hash of other words (present as a body) and recomputes a valid id.
    forger = clone(str(work), tmp_path / "forger")
    adopt(forger, "Text the forger wants as ground.")
    ledger = forger / LEDGER
    new_seg = next(p for p in segment_paths(ledger) if p.name not in _names(work))
    [adopt_act] = _ordered(read_ledger(ledger), new_seg.stem)
    other = "I adopt some other words entirely"
    fields = dict(adopt_act.fields)
    fields["record"] = {**fields["record"], "body_hash": hash_body(other)}
    forged = make_act("adopt", adopt_act.deps, fields, scope=adopt_act.scope)
    assert forged.id != adopt_act.id
    new_seg.unlink()
    write_segment(ledger, [forged], {hash_body(other): other})
    commit_all(forger, "forged root")
    assert verify_ledger(ledger).ok  # well-formed: only replay can tell
    git(work, "pull", "-q", "--no-rebase", "--no-edit", str(forger), "main")
    with Repository(work) as r, pytest.raises(LedgerError, match=forged.id):
        r.sync()
    code, _, err = forest("sync", "--repo", str(work))
    assert code == 3 and forged.id in err and len(err.strip().splitlines()) == 1
    assert sorted(applied_in_index(work)) == before[2]  # nothing of it was applied
    with Repository(work) as r, pytest.raises(LedgerError, match=forged.id):
        r.rebuild()
    git(work, "reset", "-q", "--hard", "HEAD~1")
    assert ids(views(work)[0]) == [honest]


def _names(repo: Path) -> set[str]:
    return {p.name for p in segment_paths(repo / LEDGER)}


def _ordered(snapshot: Any, segment: str) -> list[Any]:
    return [a for a in snapshot.ordered() if segment in snapshot.found_in[a.id]]


def test_newer_format_segment_refused_with_upgrade_hint(work: Path) -> None:
    adopt(work, "Ground before the newer segment arrived.")
    obj: dict[str, Any] = {"v": 4, "kind": "write", "deps": [], "entry": {"novel": True}}
    line = canonical_json({**obj, "id": sha256_text(canonical_json(obj))}) + "\n"
    name = sha256_text(line)
    write(work, str(LEDGER / "segments" / f"{name}.jsonl"), line)
    report = verify_ledger(work / LEDGER)
    assert report.codes() == {"bad-version"}
    [fault] = report.faults
    assert fault.segment == name and "ledger format 4" in fault.detail
    code, out, _ = forest("verify", "--repo", str(work))
    assert code == 3 and "upgrade forest-files" in out
    with Repository(work) as r, pytest.raises(LedgerError, match="format 4; upgrade forest-files"):
        r.sync()
    code, _, err = forest("sync", "--repo", str(work))
    assert code == 3 and "upgrade forest-files" in err and name in err


# -- concurrent and crashing writers -------------------------------------------------


def _adopt_many(root: str, tag: str, count: int) -> list[str]:
    out = []
    for i in range(count):
        with Repository(root) as r:
            out.append(r.adopt_text(f"{tag} text number {i}.", words=WORDS, by=ADA))
    return out


def test_rebuild_while_another_repository_holds_index_recovers(work: Path) -> None:
    """A rebuild resets the index in place: a second open Repository (another process
    in real life) keeps working, and the index file is never deleted under it."""
    adopt(work, "Present before both opened.")
    other = Repository(work)
    me = Repository(work)
    try:
        before = [g.content_id for g in other.ground()]
        inode = (local_state(work) / "woods.db").stat().st_ino
        assert me.rebuild().rebuilt
        other.adopt_text("Recorded after the rebuild.", words=WORDS, by=BOB)
        after = [g.content_id for g in me.ground()]
        assert set(before) < set(after) and len(after) == len(before) + 1
        assert (local_state(work) / "woods.db").stat().st_ino == inode
    finally:
        me.close()
        other.close()


def test_sync_scans_ledger_under_write_lock_detected(work: Path) -> None:
    """Sync lists the segments inside BEGIN IMMEDIATE: a writer cannot slip a segment in
    between the listing and the replay (it waits for the lock instead)."""
    import forest_files.custody.sync as sync_mod
    from forest_files.kernel.errors import StoreBusy

    adopt(work, "Present before both opened.")
    other = Repository(work)
    other.sync()
    other.store().conn.execute("PRAGMA busy_timeout = 50")
    real = sync_mod._scan
    seen: list[str] = []

    def scan_then_try_writing(ledger_dir: Path) -> Any:
        listing = real(ledger_dir)
        if not seen:
            seen.append("scanned")
            with pytest.raises(StoreBusy):
                other.adopt_text("Must wait for the lock.", words=WORDS, by=BOB)
        return listing

    me = Repository(work)
    sync_mod._scan = scan_then_try_writing  # type: ignore[assignment]
    try:
        report = me.sync()
    finally:
        sync_mod._scan = real  # type: ignore[assignment]
        me.close()
        other.close()
    assert seen and not report.rebuilt


@pytest.mark.slow
@pytest.mark.serial  # times processes, signals or lock waits: one at a time
def test_two_processes_record_at_once(work: Path) -> None:
    count = 12
    views(work)  # the index exists before the writers start
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2) as pool:
        runs = [pool.apply_async(_adopt_many, (str(work), tag, count)) for tag in ("p", "q")]
        made = [cid for run in runs for cid in run.get(timeout=120)]
    assert len(set(made)) == 2 * count
    ground, contested, applied = views(work)
    assert ids(ground) == sorted(made) and contested == []
    snapshot = read_ledger(work / LEDGER)
    assert len(snapshot.acts) == 2 * count and set(applied) == set(snapshot.acts)
    assert all(len(v) == 1 for v in snapshot.found_in.values())
    assert verify_ledger(work / LEDGER).ok
    assert views(work, rebuild=True) == (ground, contested, applied)


_BULK = textwrap.dedent(
    """
    import sys
    from forest_files.custody.repository import Repository
    root, words, by = sys.argv[1:4]
    with Repository(root) as r:
        for i in range(200):
            r.adopt_text(f"bulk text {i} " + "x" * (i % 7), words=words, by=by)
    """
)


@pytest.mark.slow
@pytest.mark.serial  # times processes, signals or lock waits: one at a time
@pytest.mark.parametrize("after", [3, 11])
def test_kill_9_mid_bulk_recording_recovers(work: Path, after: int) -> None:
    segments = work / LEDGER / "segments"
    argv = [sys.executable, "-c", _BULK, str(work), WORDS, ADA]
    proc = subprocess.Popen(argv, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while len(list(segments.glob("*.jsonl"))) < after:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "bulk recording never got going"
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
        if proc.stderr:
            proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    on_disk = segment_paths(work / LEDGER)
    assert len(on_disk) >= after
    with Repository(work) as r:
        r.sync()
        ground = r.ground()
    assert verify_ledger(work / LEDGER).ok
    snapshot = read_ledger(work / LEDGER)
    adopt_segments = [p for p in on_disk if len(p.read_bytes().splitlines()) == 1]
    assert len(ground) == len(adopt_segments) == len(on_disk)
    assert set(applied_in_index(work)) == set(snapshot.acts)
    assert views(work, rebuild=True)[0] == ground


# -- checkouts ------------------------------------------------------------------------


def test_autocrlf_checkout_keeps_ledger_intact(work: Path, tmp_path: Path) -> None:
    first = adopt(work, "Line one of a body.\nLine two.\n\nAfter a blank line.")
    supersede(work, first, "A successor\nwith\nthree lines.")
    adopt(work, "Already CRLF inside:\r\nsecond line\r\nthird")
    commit_all(work, "multi-line bodies")
    crlf = clone(work.as_uri(), tmp_path / "crlf", "core.autocrlf=true")
    assert b"\r\n" in (crlf / "forest.toml").read_bytes()  # the conversion did happen
    for path in (crlf / LEDGER).rglob("*"):
        if path.is_file():
            assert path.read_bytes() == (work / path.relative_to(crlf)).read_bytes(), path
    assert verify_ledger(crlf / LEDGER).ok
    code, _, err = forest("verify", "--repo", str(crlf))
    assert code == 0, err
    assert views(crlf) == views(work)
    # Control: without the -text line the same checkout rewrites the segments.
    write(work, ".gitattributes", "")
    commit_all(work, "drop the ledger's -text line")
    bare = clone(work.as_uri(), tmp_path / "unprotected", "core.autocrlf=true")
    assert not verify_ledger(bare / LEDGER).ok


def test_clone_with_forest_toml_needs_no_init(work: Path, tmp_path: Path) -> None:
    cid = adopt(work, "Committed ground.")
    commit_all(work, "adopt")
    fresh = clone(work.as_uri(), tmp_path / "fresh")
    assert not (local_state(fresh) / "woods.db").exists()
    code, out, err = forest("log", "--repo", str(fresh), "--json")
    assert code == 0, err
    assert [e["kind"] for e in json.loads(out)["acts"]] == ["adopt"]
    assert (local_state(fresh) / "woods.db").is_file()
    assert git(fresh, "status", "--porcelain", "--untracked-files=all") == ""
    assert ids(views(fresh)[0]) == [cid]
    code, _, err = forest("init", "--repo", str(fresh))
    assert code == 1 and "already initialised" in err


# -- CLI messages ------------------------------------------------------------------


def _console(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("forest")
    return subprocess.run(
        [str(script), *args], cwd=cwd, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(
    ("where", "hint"),
    [
        ("outside-git", "git init"),
        ("before-init", "forest init"),
        ("garbage-toml", "forest.toml"),
    ],
)
def test_cli_log_without_a_usable_repo_one_line(tmp_path: Path, where: str, hint: str) -> None:
    if where == "outside-git":
        cwd = tmp_path / "plain"
        cwd.mkdir()
    else:
        cwd = make_repo(tmp_path)
        if where == "garbage-toml":
            Repository.init(cwd).close()
            write(cwd, "forest.toml", "[project\nid = = 'nope'\n\x00garbage")
    proc = _console(cwd, "log")
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("forest: ") and hint in lines[0], lines
