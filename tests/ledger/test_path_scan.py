"""The paths a ledger's acts bind, decoded in parts by child processes
(``ledger/path_scan``): the same set as one decoder, the same refusal (the serial
read's first fault, its type, message, segment and line) wherever the damage sits,
a child that cannot start, dies or miscounts changes nothing but the time, and
the first pre-commit hook after a clone gives the serial verdict."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.children import observe_results
from helpers.cli import ok
from helpers.git import commit_all, git, git_env, isolate, make_repo, write
from hypothesis import given, settings
from hypothesis import strategies as st

from forest_files.custody import path_scan
from forest_files.custody.repository import Repository
from forest_files.custody.sources import segment_bytes_at, snapshot_of
from forest_files.kernel import spawn as childproc
from forest_files.ledger import segments
from forest_files.ledger.acts import LedgerError

DOC = "# Doc {n}\n\nIntro {n}.\n\n## Part\n\nwords of doc {n}\n"
SEGMENTS = ".forest/ledger/segments"


@pytest.fixture(autouse=True)
def _setup(monkeypatch: pytest.MonkeyPatch) -> None:
    isolate(monkeypatch)
    segments._DECODED.clear()
    segments._PREFIX.clear()


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


def serial(found: dict[str, bytes]) -> set[str]:
    return path_scan.bound_paths(found, parts=1)


def observe_children(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """How many paths each child handed back (None: its part was decoded here)."""
    return observe_results(monkeypatch, path_scan._Child)


def fault_of(found: dict[str, bytes]) -> tuple[str, str | None, int | None, str]:
    with pytest.raises(LedgerError) as caught:
        snapshot_of(found)
    e = caught.value
    return (e.reason, e.segment, e.line, e.code)


def scan_fault(found: dict[str, bytes], parts: int) -> tuple[str, str | None, int | None, str]:
    with pytest.raises(LedgerError) as caught:
        path_scan.bound_paths(found, parts=parts)
    e = caught.value
    return (e.reason, e.segment, e.line, e.code)


def damage_line(found: dict[str, bytes], name: str, lineno: int) -> dict[str, bytes]:
    """``name`` with line ``lineno`` changed by one byte, under a name that is the
    hash of the new bytes (so only the line, not the name, is at fault)."""
    import hashlib

    lines = found[name].split(b"\n")
    lines[lineno - 1] = lines[lineno - 1].replace(b'"kind":"', b'"kind": "', 1)
    data = b"\n".join(lines)
    out = {k: v for k, v in found.items() if k != name}
    out[hashlib.sha256(data).hexdigest() + ".jsonl"] = data
    return out


def test_the_ledger_is_cut_inside_a_segment_and_across_segments_accepted(ledger: Path) -> None:
    found = segs(ledger)
    assert len(found) == 6
    cut = 0
    for parts in (2, 3, 4, 5):
        plan = path_scan.plan_parts(found, parts)
        assert len(plan) == parts
        cut += sum((p.start, p.end) != (0, len(found[p.name])) for part in plan for p in part)
    assert cut  # some segment is decoded in two processes


def test_parts_find_the_serial_paths_accepted(
    ledger: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = segs(ledger)
    handed = observe_children(monkeypatch)
    want = serial(found)
    assert want == {f"docs/d{n:02}.md" for n in range(24)} | {"moved/d00.md"}
    for parts in (2, 3, 4):
        handed.clear()
        segments._DECODED.clear()
        segments._PREFIX.clear()
        assert path_scan.bound_paths(found, parts=parts) == want
        assert len(handed) == parts - 1 and None not in handed, (parts, handed)


def test_default_parts_follow_size_and_cpus_accepted(
    ledger: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = segs(ledger)
    handed = observe_children(monkeypatch)
    monkeypatch.setattr(childproc, "usable_cpus", lambda: 8)
    assert path_scan.bound_paths(found) == serial(found)
    assert handed == []  # a small ledger: one process
    monkeypatch.setattr(path_scan, "PARALLEL_MIN_BYTES", 1)
    assert path_scan.bound_paths(found) == serial(found)
    assert len(handed) == path_scan.MAX_PARTS - 1
    handed.clear()
    monkeypatch.setattr(childproc, "usable_cpus", lambda: 1)
    assert path_scan.bound_paths(found) == serial(found)
    assert handed == []


def test_a_replay_after_the_scan_reuses_the_decoded_prefix_accepted(ledger: Path) -> None:
    found = segs(ledger)
    plan = path_scan.plan_parts(found, 2)
    [boundary] = [p for p in plan[0] if p.end < len(found[p.name])]
    path_scan.bound_paths(found, parts=2)
    assert set(segments._PREFIX) == {boundary.name.removesuffix(".jsonl")}
    whole = {p.name for p in plan[0] if p.end == len(found[p.name])}
    assert {n + ".jsonl" for n in segments._DECODED} == whole
    after_scan = segments.read_segment_bytes(found[boundary.name], boundary.name)
    assert segments._PREFIX == {}  # used once, by the full decode
    segments._DECODED.clear()
    assert after_scan == segments.read_segment_bytes(found[boundary.name], boundary.name)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=30),
        min_size=1,
        max_size=5,
    ),
    st.integers(min_value=1, max_value=6),
)
def test_plan_cuts_whole_lines_and_covers_every_byte_once_accepted(
    shapes: list[list[int]], parts: int
) -> None:
    found = {
        f"{i:064x}.jsonl": b"".join(b"x" * size + b"\n" for size in lengths)
        for i, lengths in enumerate(shapes)
    }
    plan = path_scan.plan_parts(found, parts)
    assert 1 <= len(plan) <= parts
    pieces = [p for part in plan for p in part]
    for name, data in sorted(found.items()):
        mine = [p for p in pieces if p.name == name]
        assert b"".join(data[p.start : p.end] for p in mine) == data
        assert [p.start for p in mine] == [0, *(p.end for p in mine[:-1])]
        for p in mine:
            assert p.start == 0 or data[p.start - 1 : p.start] == b"\n"
            assert data[p.end - 1 : p.end] == b"\n"
            assert p.first == data.count(b"\n", 0, p.start) + 1
    order = [p.name for p in pieces]
    assert order == sorted(order)
    longest = max(max(lengths) for lengths in shapes) + 1
    goal = -(-sum(len(d) for d in found.values()) // parts)
    assert all(sum(p.end - p.start for p in part) <= goal + longest for part in plan)


# --- refusals: the serial read's first fault, wherever the damage sits -----


def test_a_bad_line_in_any_part_raises_the_serial_fault_refused(
    ledger: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = segs(ledger)
    handed = observe_children(monkeypatch)
    held_by: set[int] = set()  # which part held the bad line: this process's or a child's
    # Each segment's first and last lines, and the first line of every later part of
    # each plan: segment names are hashes, so where the cuts fall varies by run.
    starts: dict[str, set[int]] = {}
    for parts in (2, 3):
        for part in path_scan.plan_parts(found, parts)[1:]:
            starts.setdefault(part[0].name, set()).add(part[0].first)
    for name in sorted(found):
        for lineno in sorted({1, found[name].count(b"\n"), *starts.get(name, ())}):
            damaged = damage_line(found, name, lineno)
            want = fault_of(damaged)
            assert want[3] == "noncanonical"
            for parts in (2, 3):
                segments._DECODED.clear()
                segments._PREFIX.clear()
                handed.clear()
                plan = path_scan.plan_parts(damaged, parts)
                holder = next(
                    k
                    for k, part in enumerate(plan)
                    for p in part
                    if p.name == want[1] + ".jsonl"
                    and p.first <= lineno
                    and damaged[p.name].count(b"\n", 0, p.end) >= lineno
                )
                held_by.add(holder)
                assert scan_fault(damaged, parts) == want
                if holder > 0:
                    assert handed[holder - 1] is None  # the child refused; found again here
    assert 0 in held_by and len(held_by) > 1


@pytest.mark.parametrize("damage", ["reordered", "truncated", "empty", "misnamed"])
def test_a_damaged_segment_raises_the_serial_fault_refused(ledger: Path, damage: str) -> None:
    found = segs(ledger)
    # The last segment of several lines: decoded by a child, checked whole here.
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
    want = fault_of(found)
    for parts in (2, 3, 4):
        segments._DECODED.clear()
        segments._PREFIX.clear()
        assert scan_fault(found, parts) == want


def _child_that(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    monkeypatch.setattr(
        childproc, "command", lambda module, *args: [sys.executable, "-I", "-c", code, *args]
    )


@pytest.mark.parametrize(
    "child",
    [
        None,  # no interpreter to start
        f"import sys; sys.exit({childproc.WRONG_PACKAGE})",
        "import os, signal; os.kill(os.getpid(), signal.SIGKILL)",
        'print(\'{"lines": 1, "paths": ["forged.md"]}\')',  # miscounted
        'print(\'{"lines": 1, "paths": [1]}\')',
        "print('not json')",
    ],
)
def test_a_child_that_fails_or_miscounts_changes_nothing_refused(
    ledger: Path, monkeypatch: pytest.MonkeyPatch, child: str | None
) -> None:
    found = segs(ledger)
    want = serial(found)
    if child is None:
        monkeypatch.setattr(childproc, "command", lambda module, *args: None)
    else:
        _child_that(monkeypatch, child)
    handed = observe_children(monkeypatch)
    assert path_scan.bound_paths(found, parts=3) == want
    assert handed == ([] if child is None else [None, None])


def test_the_scan_leaves_nothing_in_tmpdir_accepted(
    ledger: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Each part goes through its child's stdin: no job file ever appears in TMPDIR,
    whether the children answer or are killed."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    found = segs(ledger)
    path_scan.bound_paths(found, parts=3)
    _child_that(monkeypatch, "import os, signal; os.kill(os.getpid(), signal.SIGKILL)")
    path_scan.bound_paths(found, parts=3)
    assert list(tmp_path.iterdir()) == []


def test_a_child_never_imports_the_repositorys_own_modules_refused(
    ledger: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    trap = tmp_path / "trap"
    (trap / "forest_files").mkdir(parents=True)
    marker = tmp_path / "imported"
    plant = f"open({str(marker)!r}, 'w').close()\nraise SystemExit(3)\n"
    (trap / "json.py").write_text(plant)
    (trap / "forest_files" / "__init__.py").write_text(plant)
    monkeypatch.chdir(trap)
    handed = observe_children(monkeypatch)
    found = segs(ledger)
    assert path_scan.bound_paths(found, parts=2) == serial(found)
    assert handed and None not in handed
    assert not marker.exists()


# --- the first hook after a clone, its ledger scanned in parts ------------

# The hook with every ledger decoded in parts on two CPUs, however small.
PARTS_HOOK = (
    sys.executable,
    "-c",
    "import sys; from forest_files.kernel import spawn as childproc\n"
    "childproc.usable_cpus = lambda: 2\n"
    "import forest_files.custody.path_scan as p; p.PARALLEL_MIN_BYTES = 1\n"
    "result = p._Child.result\n"
    "def told(child):\n"
    "    got = result(child); print('scan-child', got is not None, file=sys.stderr)\n"
    "    return got\n"
    "p._Child.result = told\n"
    "from forest_files.doors.hooks.run import console; sys.argv[0] = 'forest-hook'; console()",
)


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
        [*PARTS_HOOK, "pre-commit"], cwd=into, env=env, capture_output=True, text=True, check=False
    )


def test_first_hook_after_clone_with_parts_gives_the_serial_verdict_refused(
    ledger: Path, tmp_path: Path
) -> None:
    clone = tmp_path / "clone"
    unbound = _first_hook(ledger, clone, "notes/first.md", "unbound\n")
    assert unbound.returncode == 0, unbound.stderr
    assert "scan-child True" in unbound.stderr
    drifted = _first_hook(ledger, clone, "docs/d07.md", DOC.format(n=7) + "\nmore\n")
    assert drifted.returncode != 0 and "drifted docs/d07.md" in drifted.stderr, drifted.stderr
    assert "scan-child True" in drifted.stderr
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


def _bound_by_the_child_only(ledger: Path) -> str:
    """A whole-file or section binding whose acts all lie in the child's part."""
    found = segs(ledger)
    plan = path_scan.plan_parts(found, 2)

    def bound(part: list[path_scan.Piece]) -> set[str]:
        return path_scan._paths(
            act
            for p in part
            for _, act in path_scan.decode_lines(found[p.name][p.start : p.end], p.name, p.first)
        )

    untouched = {f"docs/d{n:02}.md" for n in range(24)} - {
        "docs/d00.md",
        "docs/d03.md",
        "docs/d05.md",
    }
    return sorted((bound(plan[1]) - bound(plan[0])) & untouched)[0]


def test_first_hook_after_clone_with_a_job_swapper_in_tmpdir_refused(
    ledger: Path, tmp_path: Path
) -> None:
    """A watcher of a shared TMPDIR that rewrites each new scan job to drop one bound
    path's lines changes nothing: the jobs go through the children's stdin, and an
    answer counts only when it echoes the digest of the job sent."""
    target = _bound_by_the_child_only(ledger)
    shared, log, stop = tmp_path / "shared-tmp", tmp_path / "swapped", tmp_path / "stop"
    shared.mkdir()
    swapper = subprocess.Popen(
        [sys.executable, "-c", SWAPPER, str(shared), target, str(log), str(stop)]
    )
    try:
        n = int(target[6:8])
        drifted = _first_hook(
            ledger,
            tmp_path / "clone",
            target,
            DOC.format(n=n) + "\nmore\n",
            {"TMPDIR": str(shared)},
        )
    finally:
        stop.touch()
        swapper.wait(timeout=60)
    assert drifted.returncode != 0 and f"drifted {target}" in drifted.stderr, drifted.stderr
    assert "scan-child True" in drifted.stderr  # the child's answer was used
    assert not log.exists() or "forest" not in log.read_text()
