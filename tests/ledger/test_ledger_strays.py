"""Nothing stray inside ``.forest/ledger``: temp files are written (and swept) in
``.git/forest/tmp``; verify and the CI gate name every other path there, with
the command that removes it; an interrupted bulk adoption leaves nothing behind."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.pids import STALE_SECONDS
from forest_files.ledger import verify_ledger, write_segment
from forest_files.ledger.placing import temp_dir
from forest_files.ledger.segments import body_path
from tests.helpers.acts import body_act
from tests.helpers.cli import FOREST
from tests.helpers.custody import BY, init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, write
from tests.helpers.state import local_state

# The slow lane (.ci/run runs it; the README's fast command leaves it out):
# each fix pasted, the gate and verify run after it.
pytestmark = pytest.mark.slow

LEDGER = Path(".forest") / "ledger"
_SEGMENT = re.compile(r"segments/[0-9a-f]{64}\.jsonl")
_BODY = re.compile(r"bodies/([0-9a-f]{2})/(\1[0-9a-f]{62})\.txt")
DOC = "# Doc {n}\n\n## Part\n\nwords of doc {n}\n"


def run(root: Path, *args: str, check: int | None = 0) -> subprocess.CompletedProcess[str]:
    """The installed ``forest`` console script, in ``root``, with the fixed git."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | git_env()
    proc = subprocess.run(
        [FOREST, *args], cwd=root, env=env, capture_output=True, text=True, check=False
    )
    if check is not None:
        assert proc.returncode == check, (args, proc.stdout, proc.stderr)
    return proc


def bash(root: Path, command: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | git_env()
    subprocess.run(["bash", "-c", command], cwd=root, env=env, check=True, capture_output=True)


def foreign_paths(ledger: Path) -> list[str]:
    """Every path under the ledger that is no well-formed segment or body, nor a
    directory they need (``segments``, ``bodies``, a non-empty ``bodies/<2 hex>``)."""
    out = []
    for path in sorted(ledger.rglob("*")):
        rel = path.relative_to(ledger).as_posix()
        if path.is_symlink() or not (path.is_dir() or path.is_file()):
            out.append(rel)
        elif path.is_dir():
            prefix = re.fullmatch(r"bodies/[0-9a-f]{2}", rel) and any(path.iterdir())
            if rel not in ("segments", "bodies") and not prefix:
                out.append(rel)
        elif not (_SEGMENT.fullmatch(rel) or _BODY.fullmatch(rel)):
            out.append(rel)
    return out


def committed(removal: str, path: str) -> str:
    """The CI gate's route for a stray: its removal, then the commit of that path."""
    return f"{removal} && git commit -m 'ledger: remove a stray file' -- {path}"


def fix_commands(output: str) -> list[str]:
    return re.findall(r"fix, at the repository root: (.+)$", output, flags=re.MULTILINE)


def adopted(tmp_path: Path) -> Path:
    """A committed repository with one bound section (two bodies in the ledger)."""
    root = make_repo(tmp_path)
    write(root, "a.md", DOC.format(n=1))
    init_and_adopt(root, ["a.md#Part"])
    commit_all(root, "adopt")
    return root


def a_body_dir(root: Path) -> Path:
    return next((root / LEDGER / "bodies").iterdir())


# -- writing: temp files beside the ledger, never in it ------------------------------


def test_write_places_every_file_from_cache_tmp_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()  # a working tree: temp files go to its git directory
    ledger = tmp_path / ".forest" / "ledger"
    ledger.parent.mkdir()  # as forest init leaves it
    renames: list[tuple[str, str]] = []
    real = os.replace

    def spy(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        real(src, dst)
        renames.append((os.fspath(src), os.fspath(dst)))

    monkeypatch.setattr(os, "replace", spy)
    bodies = {hash_body(t): t for t in ("one", "two", "three")}
    acts = [body_act(text, n=i)[0] for i, text in enumerate(bodies.values())]
    ref = write_segment(ledger, acts, bodies)
    into_ledger = [(s, d) for s, d in renames if Path(d).is_relative_to(ledger)]
    tmp = local_state(tmp_path) / "tmp"
    assert into_ledger and all(Path(src).parent == tmp for src, _ in into_ledger), into_ledger
    assert ref.path.is_file() and all(body_path(ledger, h).is_file() for h in bodies)
    assert len({src for src, _ in renames}) == len(renames)  # one temp name per target
    assert foreign_paths(ledger) == [] and list(tmp.iterdir()) == []


def test_write_interrupted_at_its_rename_leaves_no_directory_recovers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A body whose prefix directory does not exist yet arrives with it, in one
    rename: interrupted before that rename, the ledger holds nothing new at all."""
    ledger = tmp_path / ".forest" / "ledger"
    ledger.mkdir(parents=True)
    real = os.replace

    def interrupted(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        if Path(dst).is_relative_to(ledger) and Path(src).is_dir():
            raise KeyboardInterrupt  # the directory's rename; a file's goes through
        real(src, dst)

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_segment(ledger, [body_act("b", n=1)[0]], {hash_body("b"): "b"})
    monkeypatch.undo()
    assert list(ledger.iterdir()) == []
    assert list(temp_dir(ledger).iterdir()) == []  # the temp file taken back too


def _dead_pid() -> int:
    code = "import os; print(os.getpid())"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(proc.stdout)


def test_stale_temp_files_swept_by_the_next_write_recovers(tmp_path: Path) -> None:
    ledger = tmp_path / ".forest" / "ledger"
    tmp = temp_dir(ledger)
    tmp.mkdir(parents=True)
    dead, live = _dead_pid(), os.getpid()
    names = {
        "dead": f"bodies%2Fab%2Fx.txt.{dead}.part",
        "dead-stage": f"bodies%2Fcd%2Fy.txt.{dead}.dir",
        "old": f"segments%2Fz.jsonl.{live}.part",
        "fresh": f"segments%2Fw.jsonl.{live}.part",
        "other": "notes.txt",
    }
    for key, name in names.items():
        if key == "dead-stage":
            (tmp / name / "cd").mkdir(parents=True)
            (tmp / name / "cd" / "y.txt").write_bytes(b"half")
        else:
            (tmp / name).write_bytes(b"half a file")
    hour_ago = time.time() - STALE_SECONDS - 60
    os.utime(tmp / names["old"], (hour_ago, hour_ago))
    write_segment(ledger, [body_act("b", n=1)[0]], {})
    assert sorted(p.name for p in tmp.iterdir()) == sorted([names["fresh"], names["other"]])


def test_refused_bulk_adoption_leaves_no_empty_directory_recovers(tmp_path: Path) -> None:
    """The body writer takes back the files it created and the prefix directories
    that leaves empty (verify would name each a stray)."""
    root = make_repo(tmp_path)
    for n in range(40):
        write(root, f"d{n}.md", DOC.format(n=n))
    init_and_adopt(root, ["d0.md#Part"])
    before = sorted(p.relative_to(root).as_posix() for p in (root / LEDGER).rglob("*"))
    sections = [read_section(root, f"d{n}.md#Part", (), max_bytes=1 << 20) for n in range(40)]
    with Repository(root) as repo, pytest.raises(ForestError, match="already bound"):
        adopt_sections(repo, sections, words="all of them", by=BY)  # d0 is bound
    after = sorted(p.relative_to(root).as_posix() for p in (root / LEDGER).rglob("*"))
    assert after == before
    assert verify_ledger(root / LEDGER).ok


# -- verify and the CI gate name strays -----------------------------------------------


def test_stray_files_detected_by_verify_and_rm_fix_recovers(tmp_path: Path) -> None:
    root = adopted(tmp_path)
    write(root, ".forest/ledger/zz-forged-segment", "{}\n")
    legacy = a_body_dir(root) / ".tmp-x.part"
    legacy.write_bytes(b"half a body")
    result = run(root, "verify", check=3)
    strays = {".forest/ledger/zz-forged-segment", legacy.relative_to(root).as_posix()}
    for path in strays:
        assert f"stray: {path}:" in result.stdout
    fixes = fix_commands(result.stdout)
    assert sorted(fixes) == sorted(f"rm -- {p}" for p in strays)
    assert "run the fix commands shown" in result.stderr
    for command in fixes:
        bash(root, command)
    assert not legacy.exists() and not (root / LEDGER / "zz-forged-segment").exists()
    assert "ledger ok" in run(root, "verify").stdout


def test_stray_files_committed_detected_by_ci_and_git_rm_fix_recovers(tmp_path: Path) -> None:
    root = adopted(tmp_path)
    write(root, ".forest/ledger/zz-forged-segment", "{}\n")
    write(root, ".forest/ledger/bodies/zz/notes.txt", "a note")
    (a_body_dir(root) / ".tmp-x.part").write_bytes(b"half a body")
    os.symlink("../../../a.md", root / LEDGER / "segments" / ("0" * 64 + ".jsonl"))
    commit_all(root, "commit the strays, as `git add .forest` would")
    result = run(root, "ci", check=3)
    fixes = re.findall(r"remove it and commit: (.+)$", result.stdout, flags=re.MULTILINE)
    body_tmp = a_body_dir(root).relative_to(root).as_posix() + "/.tmp-x.part"
    link = f".forest/ledger/segments/{'0' * 64}.jsonl"
    assert sorted(fixes) == sorted(
        [
            committed(
                "git rm -- .forest/ledger/zz-forged-segment", ".forest/ledger/zz-forged-segment"
            ),
            committed("git rm -r -- .forest/ledger/bodies/zz", ".forest/ledger/bodies/zz"),
            committed(f"git rm -- {body_tmp}", body_tmp),
            committed(f"git rm -- {link}", link),
        ]
    )
    assert "ledger-fault .forest/ledger/" in result.stdout
    doc = json.loads(run(root, "ci", "--format", "json", check=3).stdout)
    assert {f["path"] for f in doc["findings"]} >= {".forest/ledger/bodies/zz", body_tmp}
    for command in fixes:
        bash(root, command)
    run(root, "verify")
    commit_all(root, "strays removed")
    assert "clean" in run(root, "ci").stdout


def test_stray_with_shell_characters_quoted_fix_recovers(tmp_path: Path) -> None:
    root = adopted(tmp_path)
    odd = root / LEDGER / "segments" / "it's $(here) -x.jsonl"
    odd.write_bytes(b"")
    (root / LEDGER / "-rf").mkdir()
    doc = json.loads(run(root, "verify", "--json", check=3).stdout)
    strays = [f for f in doc["faults"] if f["code"] == "stray"]
    assert [f["path"] for f in strays] == [".forest/ledger/-rf", odd.relative_to(root).as_posix()]
    assert strays[0]["fix"] == "rm -r -- .forest/ledger/-rf"
    for fault in strays:
        bash(root, fault["fix"])
    assert not odd.exists() and not (root / LEDGER / "-rf").exists()
    run(root, "verify")


def test_unexpected_directories_detected_empty_prefix_accepted(tmp_path: Path) -> None:
    ledger = tmp_path / ".forest" / "ledger"
    body = "kept"
    write_segment(ledger, [body_act(body)[0]], {hash_body(body): body})
    (ledger / "bodies" / "0a").mkdir(exist_ok=True)  # empty prefix directory: fine
    (ledger / "bodies" / "xyz" / "deep").mkdir(parents=True)  # not a prefix
    (ledger / "bodies" / "1b").mkdir(exist_ok=True)
    (ledger / "bodies" / "1b" / ".tmp-y.part").write_bytes(b"")  # holds no body
    (ledger / "segments" / "sub").mkdir()
    report = verify_ledger(ledger)
    assert report.codes() == {"stray"}
    found = {(f.path, f.fix) for f in report.faults}
    assert found == {
        (f".forest/ledger/{rel}", f"rm -r -- .forest/ledger/{rel}")
        for rel in ("bodies/xyz", "bodies/1b", "segments/sub")
    }


def test_empty_segments_and_bodies_directories_accepted(tmp_path: Path) -> None:
    """A first write interrupted after its rename, then taken back, can leave
    them empty; git does not record them, and nothing belongs in them but files."""
    ledger = tmp_path / ".forest" / "ledger"
    (ledger / "segments").mkdir(parents=True)
    (ledger / "bodies").mkdir()
    assert verify_ledger(ledger).ok


def test_legacy_temp_file_in_ledger_kept_by_writes_and_detected(tmp_path: Path) -> None:
    """A leftover of an older version is reported, never silently deleted."""
    ledger = tmp_path / ".forest" / "ledger"
    write_segment(ledger, [body_act("b", n=1)[0]], {hash_body("b"): "b"})
    legacy = ledger / "segments" / f".tmp-{'a' * 64}.jsonl.4242.part"
    legacy.write_bytes(b"half")
    write_segment(ledger, [body_act("b", n=2)[0]], {})
    assert legacy.exists()
    [fault] = verify_ledger(ledger).faults
    assert fault.code == "stray" and "interrupted write" in fault.detail


# -- interrupted bulk adoption -----------------------------------------------------------


def _corpus(tmp_path: Path, files: int) -> Path:
    root = make_repo(tmp_path, "template")
    for n in range(files):
        write(root, f"docs/d{n:03}.md", DOC.format(n=n))
    Repository.init(root, project_id="p").close()
    commit_all(root, "docs and forest init")
    return root


ADOPT = ("adopt", "docs/*.md", "--words", "All the docs", "--as", BY)
# The console entry with every batch of bodies handed to the child writer
# (early_bodies.PROCESS_MIN lowered): the same `forest` command, its other path.
CHILD_WRITER = (
    sys.executable,
    "-c",
    "import sys; import forest_files.ledger.early_bodies as e; e.PROCESS_MIN = 2; "
    "from forest_files.doors.entry import main; sys.argv[0] = 'forest'; main()",
)


def _interrupted_adopt(
    template: Path, trial: Path, sig: int, delay: float, command: tuple[str, ...]
) -> int:
    shutil.copytree(template, trial, symlinks=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | git_env()
    proc = subprocess.Popen(
        [*command, *ADOPT], cwd=trial, env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    time.sleep(delay)
    proc.send_signal(sig)
    proc.wait(timeout=60)
    return proc.pid


# Not serial: the interruption points are fractions of a run measured in the same
# conditions as the trials, and every assertion holds wherever a signal lands, so
# it runs beside the other slow tests (.ci/run's parallel slow lane).
@pytest.mark.slow
@pytest.mark.parametrize("writer", ["thread", "child"])
def test_bulk_adopt_interrupted_by_sigint_or_sigkill_leaves_no_stray_recovers(
    tmp_path: Path, writer: str
) -> None:
    """With the bodies written on a thread, or by the child process of a large batch
    (whose writes may outlive a killed parent: they are whole bodies, or temp files
    swept once it is gone)."""
    files = 300
    command = (FOREST,) if writer == "thread" else CHILD_WRITER
    template = _corpus(tmp_path, files)
    measured = tmp_path / "measured"
    shutil.copytree(template, measured, symlinks=True)
    started = time.monotonic()
    run(measured, *ADOPT)
    duration = time.monotonic() - started
    # Chosen points of the measured run rather than many random ones (the first part
    # of a run is interpreter start-up, which writes nothing): as the bodies start,
    # in the middle of the writes, and near the end (segment, index, done).
    points = (0.3, 0.6, 0.9) if writer == "thread" else (0.45, 0.9)
    for sig in (signal.SIGINT, signal.SIGKILL):
        for n, point in enumerate(points):
            delay = duration * point
            trial = tmp_path / f"{sig.name}-{n}"
            pid = _interrupted_adopt(template, trial, sig, delay, command)
            where = f"{sig.name} after {delay:.3f}s of {duration:.3f}s"
            assert foreign_paths(trial / LEDGER) == [], where
            _unnamed_only_after_a_kill(trial, sig, where)
            again = run(trial, *ADOPT, check=None)
            assert again.returncode == 0 or (
                again.returncode == 1 and "already bound" in again.stderr
            ), (where, again.stderr)
            assert foreign_paths(trial / LEDGER) == [], where
            run(trial, "verify")  # the run again adopted every body a killed writer left
            leftovers = [p.name for p in temp_dir(trial / LEDGER).glob(f"*.{pid}.*")]
            assert leftovers == [], where  # the killed writer's temp files were swept
            commit_all(trial, "adopted")
            doc = json.loads(run(trial, "ci", "--format", "json").stdout)
            assert len([f for f in doc["findings"] if f["binding"]]) == files, where
            assert git(trial, "status", "--porcelain") == "", where


def _unnamed_only_after_a_kill(trial: Path, sig: int, where: str) -> None:
    """Verify after the interruption: clean after SIGINT (the bodies written ahead of
    the segment are taken back); after SIGKILL, which runs no clean-up, at most the
    bodies the writer finished before it saw its parent gone, each named as a body
    no act names, with its ``rm``."""
    proc = run(trial, "verify", "--json", check=None)
    if proc.returncode == 0:
        return
    assert sig == signal.SIGKILL and proc.returncode == 3, (where, proc.stdout)
    for fault in json.loads(proc.stdout)["faults"]:
        assert fault["code"] == "stray" and "no act names this body" in fault["detail"], where
        assert fault["fix"].startswith("rm -- .forest/ledger/bodies/"), where


def test_stray_named_not_utf8_fix_pasted_recovers(tmp_path: Path) -> None:
    """A stray whose name is not UTF-8: ``verify`` and ``ci`` print its removal with
    the byte spelled ``$'\\351'`` (kernel/shellword.py), plain text that bash runs."""
    root = adopted(tmp_path)
    name = os.fsdecode(b"caf\xe9.part")
    (root / LEDGER / "segments" / name).write_bytes(b"")
    fault = next(f for f in json.loads(run(root, "verify", "--json", check=3).stdout)["faults"])
    assert fault["fix"] == "rm -- .forest/ledger/segments/caf$'\\351'.part", fault
    commit_all(root, "commit the stray")
    found = json.loads(run(root, "ci", "--format", "json", check=3).stdout)["findings"]
    command = next(r["command"] for f in found for r in f["routes"] if r["command"])
    stray = ".forest/ledger/segments/caf$'\\351'.part"
    assert command == committed(f"git rm -- {stray}", stray), command
    bash(root, command)
    assert not (root / LEDGER / "segments" / name).exists()
    commit_all(root, "stray removed")
    run(root, "ci")


def test_body_no_act_names_stray_fix_pasted_recovers(tmp_path: Path) -> None:
    """A body file no act cites (a bulk adoption killed before its segment: text
    nobody adopted) passed verify, fsck and the CI gate, and `git add -A
    .forest/ledger` committed it to every clone. It is a stray now: verify names it
    with its `rm`, the gate with its `git rm`; pasted, both come clean."""
    import hashlib

    root = adopted(tmp_path)
    text = b"a secret paragraph nobody adopted\n"
    digest = hashlib.sha256(text).hexdigest()
    orphan = body_path(root / LEDGER, digest)
    orphan.parent.mkdir(parents=True, exist_ok=True)
    orphan.write_bytes(text)
    faults = json.loads(run(root, "verify", "--json", check=3).stdout)["faults"]
    (fault,) = faults
    rel = f".forest/ledger/bodies/{digest[:2]}/{digest}.txt"
    assert fault["code"] == "stray" and "no act names this body" in fault["detail"], fault
    assert fault["fix"] == f"rm -- {rel}"
    commit_all(root, "the orphan committed")
    found = json.loads(run(root, "ci", "--format", "json", check=3).stdout)["findings"]
    command = next(r["command"] for f in found for r in f["routes"] if r["command"])
    assert command == committed(f"git rm -- {rel}", rel), command
    bash(root, command)
    run(root, "ci")
    run(root, "verify")


def test_body_of_a_deleted_segment_not_called_a_stray_accepted(tmp_path: Path) -> None:
    """A segment deleted: its bodies are the ones to keep (the segment is restored
    from git), so verify names the missing segment's consequences, never `rm` of
    its bodies."""
    root = adopted(tmp_path)
    (segment,) = (root / LEDGER / "segments").iterdir()
    segment.unlink()
    proc = run(root, "verify", "--json", check=None)
    faults = json.loads(proc.stdout)["faults"]
    assert not [f for f in faults if "no act names this body" in f["detail"]], faults


def _unnamed_bodies(root: Path, count: int) -> list[Path]:
    """``count`` well-formed body files no act names (as a killed bulk adoption leaves)."""
    import hashlib

    out = []
    for n in range(count):
        text = f"a paragraph nobody adopted, number {n}\n".encode()
        orphan = body_path(root / LEDGER, hashlib.sha256(text).hexdigest())
        orphan.parent.mkdir(parents=True, exist_ok=True)
        orphan.write_bytes(text)
        out.append(orphan)
    return out


def test_unnamed_body_fix_pasted_in_a_subdirectory_recovers(tmp_path: Path) -> None:
    """The `rm` of a stray named the path from the top: pasted in `docs/`, where the
    user typed `forest verify`, it failed. It reaches the top from there now, in the
    text and in `--json` (the fix and its argv)."""
    root = adopted(tmp_path)
    (root / "docs" / "adr").mkdir(parents=True)
    here = root / "docs" / "adr"
    first, second = _unnamed_bodies(root, 2)
    text = run(here, "verify", check=3).stdout
    fixes = re.findall(r"^  fix: (.+)$", text, flags=re.MULTILINE)
    fix = f"rm -- ../../{first.relative_to(root).as_posix()}"
    assert fix in fixes and len(fixes) == 2, text
    assert "at the repository root" not in text, text
    bash(here, fix)
    assert not first.exists() and second.exists()
    (fault,) = json.loads(run(here, "verify", "--json", check=3).stdout)["faults"]
    assert fault["fix_argv"] == ["rm", "--", f"../../{second.relative_to(root).as_posix()}"]
    subprocess.run(fault["fix_argv"], cwd=here, check=True)
    assert not second.exists()
    run(here, "verify")


def test_many_unnamed_bodies_one_route_removes_exactly_them_recovers(tmp_path: Path) -> None:
    """Hundreds of strays printed hundreds of `rm` lines; one route beside them removes
    every one, pasted where the user stands, and nothing else in the ledger."""
    root = adopted(tmp_path)
    here = root / "docs"
    here.mkdir()
    kept = sorted(p for p in (root / LEDGER).rglob("*") if p.is_file())
    orphans = _unnamed_bodies(root, 30)
    text = run(here, "verify", check=3).stdout
    (line,) = [ln for ln in text.splitlines() if ln.startswith("remove all 30 stray files")]
    bash(here, line.split(": ", 1)[1])
    assert not any(p.exists() for p in orphans)
    assert sorted(p for p in (root / LEDGER).rglob("*") if p.is_file()) == kept
    run(here, "verify")
    _unnamed_bodies(root, 3)
    doc = json.loads(run(here, "verify", "--json", check=3).stdout)
    (argv,) = doc["fix_all"]["argv"]
    assert argv[:2] == ["rm", "--"] and all(
        a.startswith("../.forest/ledger/bodies/") for a in argv[2:]
    )
    subprocess.run(argv, cwd=here, check=True)
    assert sorted(p for p in (root / LEDGER).rglob("*") if p.is_file()) == kept


def test_one_stray_no_route_for_all_accepted(tmp_path: Path) -> None:
    root = adopted(tmp_path)
    _unnamed_bodies(root, 1)
    doc = json.loads(run(root, "verify", "--json", check=3).stdout)
    assert doc["fix_all"] is None and len(doc["faults"]) == 1


def test_removal_of_all_batches_at_the_limit_accepted() -> None:
    """One `rm` per REMOVAL_BATCH names (ARG_MAX): N names in one step, N+1 in two;
    a directory's `rm -r` is never part of it."""
    from forest_files.ledger.verify import REMOVAL_BATCH, Fault, removal_of_all

    def stray(n: int) -> Fault:
        path = f".forest/ledger/bodies/{n:064x}"
        return Fault("stray", None, None, None, "x", path=path, fix_argv=("rm", "--", path))

    directory = Fault("stray", None, None, None, "d", fix_argv=("rm", "-r", "--", "x"))
    at = removal_of_all([stray(n) for n in range(REMOVAL_BATCH)] + [directory])
    assert [len(step) - 2 for step in at] == [REMOVAL_BATCH]
    over = removal_of_all([stray(n) for n in range(REMOVAL_BATCH + 1)])
    assert [len(step) - 2 for step in over] == [REMOVAL_BATCH, 1]
    assert [w for step in over for w in step[2:]] == [
        stray(n).path for n in range(REMOVAL_BATCH + 1)
    ]
