"""The paths a ledger's acts bind, read without a replay (``custody/path_scan``): every
path a binding event names, the serial read's refusal (type, message, segment and
line) wherever the damage sits, the decode remembered for the replay that follows,
and the first pre-commit hook after a clone giving the verdict of a full read."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files.custody import path_scan
from forest_files.custody.repository import Repository
from forest_files.custody.sources import segment_bytes_at, snapshot_of
from forest_files.ledger import segments
from forest_files.ledger.acts import LedgerError
from tests.helpers.cli import ok
from tests.helpers.git import commit_all, git, git_env, isolate, make_repo, write

DOC = "# Doc {n}\n\nIntro {n}.\n\n## Part\n\nwords of doc {n}\n"
SEGMENTS = ".forest/ledger/segments"
HOOK = str(Path(sys.executable).parent / "forest-hook")


@pytest.fixture(autouse=True)
def _setup(monkeypatch: pytest.MonkeyPatch) -> None:
    isolate(monkeypatch)
    segments._DECODED.clear()


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository whose ledger holds three adoption segments (24 bindings, whole
    files and sections), a rebind to a new path, a supersession and a retirement."""
    with pytest.MonkeyPatch.context() as mp:
        isolate(mp)
        root = make_repo(tmp_path_factory.mktemp("scan"))
        for n in range(24):
            write(root, f"docs/d{n:02}.md", DOC.format(n=n))
        write(root, "moved/d00.md", DOC.format(n=0))
        Repository.init(root, project_id="scan").close()
        commit_all(root, "corpus")
        for batch in range(3):
            specs = [
                f"docs/d{n:02}.md#Part" if n % 2 else f"docs/d{n:02}.md"
                for n in range(batch * 8, batch * 8 + 8)
            ]
            ok(root, "adopt", *specs, "--words", f"batch {batch}")
        ok(root, "rebind", "docs/d00.md", "moved/d00.md")
        write(root, "docs/d03.md", DOC.format(n=3).replace("words", "new words"))
        ok(root, "supersede", "docs/d03.md#Doc 3/Part", "--words", "amended")
        ok(root, "retire", "docs/d05.md#Doc 5/Part", "--words", "gone")
        commit_all(root, "custody")
    return root


def segs(root: Path) -> dict[str, bytes]:
    return segment_bytes_at(root, "HEAD")


def fault_of(found: dict[str, bytes]) -> tuple[str, str | None, int | None, str]:
    with pytest.raises(LedgerError) as caught:
        snapshot_of(found)
    e = caught.value
    return (e.reason, e.segment, e.line, e.code)


def scan_fault(found: dict[str, bytes]) -> tuple[str, str | None, int | None, str]:
    segments._DECODED.clear()
    with pytest.raises(LedgerError) as caught:
        path_scan.bound_paths(found)
    e = caught.value
    return (e.reason, e.segment, e.line, e.code)


def damage_line(found: dict[str, bytes], name: str, lineno: int) -> dict[str, bytes]:
    """``name`` with line ``lineno`` changed by one byte, under a name that is the
    hash of the new bytes (so only the line, not the name, is at fault)."""
    lines = found[name].split(b"\n")
    lines[lineno - 1] = lines[lineno - 1].replace(b'"kind":"', b'"kind": "', 1)
    data = b"\n".join(lines)
    out = {k: v for k, v in found.items() if k != name}
    out[hashlib.sha256(data).hexdigest() + ".jsonl"] = data
    return out


def test_scan_finds_every_bound_path_accepted(ledger: Path) -> None:
    found = segs(ledger)
    assert len(found) == 6
    want = {f"docs/d{n:02}.md" for n in range(24)} | {"moved/d00.md"}
    assert path_scan.bound_paths(found) == want


def test_a_replay_after_the_scan_decodes_nothing_again_accepted(ledger: Path) -> None:
    found = segs(ledger)
    path_scan.bound_paths(found)
    assert {n + ".jsonl" for n in segments._DECODED} == set(found)
    remembered = dict(segments._DECODED)
    assert snapshot_of(found).acts  # served from the memo: the same tuples
    assert all(segments._DECODED[n] is remembered[n] for n in remembered)


# --- refusals: the serial read's first fault, wherever the damage sits -----


def test_a_bad_line_anywhere_raises_the_serial_fault_refused(ledger: Path) -> None:
    found = segs(ledger)
    for name in sorted(found):
        for lineno in sorted({1, found[name].count(b"\n")}):
            damaged = damage_line(found, name, lineno)
            want = fault_of(damaged)
            assert want[3] == "noncanonical"
            assert scan_fault(damaged) == want


@pytest.mark.parametrize("damage", ["reordered", "truncated", "empty", "misnamed"])
def test_a_damaged_segment_raises_the_serial_fault_refused(ledger: Path, damage: str) -> None:
    found = segs(ledger)
    name = [n for n in sorted(found) if found[n].count(b"\n") > 1][-1]
    data = found[name]
    if damage == "reordered":
        lines = data.splitlines(keepends=True)
        found[name] = b"".join(reversed(lines))
    elif damage == "truncated":
        found[name] = data[:-1]
    elif damage == "empty":
        found[name] = b""
    else:
        found["f" * 64 + ".jsonl"] = found.pop(name)
    assert scan_fault(found) == fault_of(found)


# --- the first hook after a clone ------------------------------------------


def _first_hook(
    origin: Path, into: Path, staged: str, text: str, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    shutil.rmtree(into, ignore_errors=True)
    git(origin.parent, "clone", "-q", str(origin), str(into))
    write(into, staged, text)
    git(into, "add", staged)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | git_env()
    env |= extra or {}
    return subprocess.run(
        [HOOK, "pre-commit"], cwd=into, env=env, capture_output=True, text=True, check=False
    )


def test_first_hook_after_clone_gives_the_full_reads_verdict_refused(
    ledger: Path, tmp_path: Path
) -> None:
    clone = tmp_path / "clone"
    unbound = _first_hook(ledger, clone, "notes/first.md", "unbound\n")
    assert unbound.returncode == 0, unbound.stderr
    drifted = _first_hook(ledger, clone, "docs/d07.md", DOC.format(n=7) + "\nmore\n")
    assert drifted.returncode != 0 and "drifted docs/d07.md" in drifted.stderr, drifted.stderr
    rebound = _first_hook(ledger, clone, "moved/d00.md", "changed\n")
    assert rebound.returncode != 0 and "moved/d00.md" in rebound.stderr, rebound.stderr


def test_first_hook_after_clone_damaged_late_segment_refused(ledger: Path, tmp_path: Path) -> None:
    origin = tmp_path / "origin"
    shutil.copytree(ledger, origin, symlinks=True)
    found = segs(origin)
    name = [n for n in sorted(found) if found[n].count(b"\n") > 1][-1]
    lines = found[name].splitlines(keepends=True)
    (origin / SEGMENTS / name).write_bytes(b"".join(reversed(lines)))
    git(origin, "add", SEGMENTS)
    git(origin, "commit", "-q", "--no-verify", "-m", "damaged past the hook")
    proc = _first_hook(origin, tmp_path / "clone", "notes/first.md", "unbound\n")
    assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr
    assert name[:12] in proc.stderr and "SHA-256" in proc.stderr


# A process of the same user watching TMPDIR: every new file there that reads as a
# scan job (a JSON header line, then the pieces' lines) is rewritten at once with
# each line naming TARGET replaced by another line of its piece, so the line count
# stays and TARGET's binding vanishes. It logs every name it sees.
SWAPPER = """
import json, os, sys, time
folder, target, log, stop = sys.argv[1], sys.argv[2].encode(), sys.argv[3], sys.argv[4]
done = set()
while not os.path.exists(stop):
    for entry in os.scandir(folder):
        if entry.name in done:
            continue
        try:
            with open(entry.path, "rb") as fh:
                head, _, body = fh.read().partition(b"\\n")
            header, chunks, at = json.loads(head), [], 0
            for name, first, size in header:
                lines = body[at : at + size].splitlines(keepends=True)
                at += size
                plain = next((x for x in lines if target not in x), None)
                chunks.append(b"".join(plain if plain and target in x else x for x in lines))
            sizes = [[h[0], h[1], len(c)] for h, c in zip(header, chunks)]
            with open(entry.path, "wb") as fh:
                fh.write(json.dumps(sizes).encode() + b"\\n" + b"".join(chunks))
        except Exception:
            continue  # not (yet) a whole job: tried again
        done.add(entry.name)
        with open(log, "a") as fh:
            fh.write(entry.name + "\\n")
    time.sleep(0.001)
"""


def test_first_hook_after_clone_with_a_job_swapper_in_tmpdir_refused(
    ledger: Path, tmp_path: Path
) -> None:
    """A watcher of a shared TMPDIR that rewrites each new scan job to drop one bound
    path's lines changes nothing: the scan hands no job to anyone (one process reads
    the ledger), so nothing appears in TMPDIR and the drift is refused."""
    target = "docs/d22.md"
    shared, log, stop = tmp_path / "shared-tmp", tmp_path / "swapped", tmp_path / "stop"
    shared.mkdir()
    swapper = subprocess.Popen(
        [sys.executable, "-c", SWAPPER, str(shared), target, str(log), str(stop)]
    )
    try:
        drifted = _first_hook(
            ledger,
            tmp_path / "clone",
            target,
            DOC.format(n=22) + "\nmore\n",
            {"TMPDIR": str(shared)},
        )
    finally:
        stop.touch()
        swapper.wait(timeout=60)
    assert drifted.returncode != 0 and f"drifted {target}" in drifted.stderr, drifted.stderr
    assert not log.exists() and list(shared.iterdir()) == []
