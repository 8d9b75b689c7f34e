"""CI gate benchmark: ``forest ci`` on a fresh clone, beside ``sha256sum -c``.

Builds (with hook_bench.build) a repository of N Markdown files, each with its
``## Bound`` section bound in one adoption, on branch ``main``; then a branch
``pr`` of --commits commits (default 50): even commits append a line to a bound
file OUTSIDE its section (a bound path changed, still clean), odd commits add an
unbound note. Every figure is a whole process, median of --repeat runs:

  sha256sum -c       coreutils over the N bound files of the clone (yardstick)
  ci fresh           ``forest ci --base origin/main --format json`` in a fresh
                     ``git clone`` of the repository (no index, no cached views:
                     what a CI job runs), clone time excluded
  ci again           the same command again in that clone (views cached in
                     ``.git/forest/views``: a second run in one job)
  archive+hash       the range's floor (issue 11): for every commit of
                     merge-base..HEAD, ``git archive`` of its bound files, each
                     member hashed with hashlib — what judging every commit's
                     bound files costs without any custody logic
  first hook         in another fresh clone, one unbound file staged, the
                     pre-commit hook (``forest-hook pre-commit``): the first
                     commit after cloning (no index, no cached view)
  parse floor        issue 10's floor for those two: one process reading every
                     bound file of the clone once, hashing it and (section
                     bindings) parsing it with forest-files' parser and hashing
                     the bound section — no ledger read, nothing judged
  ci fixed           ``ci fresh`` on a corpus of 5 bindings and 2 commits: the
                     fixed cost every run pays (interpreter, imports, git calls)
  ledger floor       what a fresh clone's gate cannot skip beyond that: every
                     ledger line decoded, re-encoded canonically and compared,
                     hashed without its id (ledger_bench's ``verify``), plus the
                     rows of the replayed view ``executemany``-ed into a fresh
                     store built as a view is (ledger_bench's ``floor`` with
                     ``view=True``: no full-text index, no fsync), timed
                     in one process; ``ci floor`` = ledger floor + parse floor
  work floor         the same without the view's rows: every ledger line
                     verified and every bound file read once (verify + parse
                     floor); what judging from custody held in memory, not
                     written to SQLite, could not go below
  evidence floor     one whole process doing what a gate must compute because a
                     hash from the ledger is a claim, with forest-files' own
                     codec and hashing: each segment's name checked against its
                     bytes, each line decoded canonically and its act id
                     recomputed, each entry's content id recomputed
                     (``entry_content_id``), then the parse floor's reads; no
                     custody rule, no SQLite. An in-memory design of the gate
                     costs this plus its rules, judging and git calls

``--whole`` binds each whole file instead of its ``## Bound`` section (issue
10's rows: ci fresh and first hook <= 10x ``sha256sum -c``; with sections,
<= 1.5x the parse floor).

The gate must exit 0 (nothing in the range diverges); the JSON report's range.judged
commit count is printed beside the times.

Run:  .venv/bin/python bench/ci_bench.py [--n 10000] [--commits 50] [--repeat 3]
      [--whole] [--json out.json] [--keep DIR]

``--keep DIR`` builds the corpus under DIR and keeps it; a later run with the same
--n, --commits and --whole reuses it (a stamp in the origin's ``.git`` says what
was built), so only the clones and the timings run again.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import hook_bench  # noqa: E402  (the same seeded corpus and build)

FOREST = str(Path(sys.executable).parent / "forest")
HOOK = str(Path(sys.executable).parent / "forest-hook")


def make_range(root: Path, n: int, commits: int, whole: bool = False) -> None:
    """Branch ``pr``: even commits append to a bound file outside its section (with
    ``whole``, where any edit of a bound file drifts, to an unbound file beside them)."""
    hook_bench.git(root, "checkout", "-q", "-b", "pr")
    notes = root / "notes"
    notes.mkdir(exist_ok=True)
    for i in range(commits):
        if i % 2 == 0:
            name = f"free{i:03d}.md" if whole else f"d{(i * 37) % n:05d}.md"
            doc = root / "docs" / name
            with open(doc, "a", encoding="utf-8") as fh:
                fh.write(f"\nAppendix line {i}, outside the bound section.\n")
            hook_bench.git(root, "add", str(doc.relative_to(root)))
        else:
            (notes / f"n{i:03d}.txt").write_text(f"note {i}\n", encoding="utf-8")
            hook_bench.git(root, "add", f"notes/n{i:03d}.txt")
        hook_bench.git(root, "commit", "-q", "--no-verify", "-m", f"pr commit {i}")
    hook_bench.git(root, "checkout", "-q", "main")


CLONE_TRIES = 4


def fresh_clone(origin: Path, into: Path) -> Path:
    """A fresh clone of ``origin`` at ``into``, on ``pr``. Objects are copied, not
    hard-linked (``--no-hardlinks``: the clone shares no file with the origin), and a
    clone that fails under load (a killed or timed-out ``git clone``) is retried from
    an empty directory, up to CLONE_TRIES times, with its error kept for the last."""
    clone = ["git", "clone", "-q", "--no-hardlinks", str(origin), str(into)]
    for attempt in range(1, CLONE_TRIES + 1):
        if into.exists():
            shutil.rmtree(into)
        proc = subprocess.run(clone, env=hook_bench._env(), capture_output=True, check=False)
        if proc.returncode == 0:
            try:
                hook_bench.git(into, "checkout", "-q", "pr")
                return into
            except subprocess.CalledProcessError as exc:
                error = str(exc.stderr or exc)
        else:
            error = proc.stderr.decode(errors="replace")
        print(f"git clone attempt {attempt} failed: {error.strip()[-300:]}", file=sys.stderr)
        time.sleep(attempt)
    raise SystemExit(f"git clone {origin} failed {CLONE_TRIES} times")


def worker_archive_hash(clone: Path, base: str) -> None:
    """Archive each commit's bound files and hash every member (one process)."""
    import hashlib
    import tarfile

    commits = hook_bench.git(clone, "rev-list", f"{base}..HEAD").split()
    for commit in commits:
        listed = hook_bench.git(clone, "ls-tree", "-r", "--name-only", commit, "docs/")
        paths = listed.split()
        proc = subprocess.run(
            ["git", "archive", "--format=tar", commit, "--", *paths],
            cwd=clone,
            capture_output=True,
            check=True,
        )
        import io

        with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tar:
            for member in tar:
                fh = tar.extractfile(member)
                if fh is not None:
                    hashlib.sha256(fh.read()).hexdigest()


def worker_parse_floor(clone: Path, n: int, whole: bool) -> None:
    """Read every bound file once and hash it; for section bindings also parse it and
    hash its ``## Bound`` section (issue 10's floor of a first judgement)."""
    import hashlib

    from forest_files.text.markdown import outline
    from forest_files.text.normalise import LineIndex, decode_bytes, normalise_text

    for i in range(n):
        rel = f"docs/d{i:05d}.md"
        with open(clone / rel, "rb") as fh:
            data = fh.read()
        hashlib.sha256(data).hexdigest()
        if whole:
            continue
        text = normalise_text(decode_bytes(data, rel))
        lines = LineIndex(text)
        for h in outline(text, lines):
            if h.path[-1:] == ("Bound",):
                lo = lines.offset(h.start_line)
                hi = lines.offset(h.end_line + 1) if h.end_line < lines.count else len(text)
                hashlib.sha256(text[lo:hi].encode("utf-8")).hexdigest()


def worker_evidence_floor(clone: Path, n: int, whole: bool) -> None:
    """The evidence a fresh clone's gate must recompute, then the parse floor."""
    import hashlib

    from forest_files.kernel.hashing import canonical_bytes, canonical_object, entry_content_id

    for path in sorted((clone / ".forest" / "ledger" / "segments").iterdir()):
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != path.stem:
            raise SystemExit(f"segment {path.name} is not named by its bytes")
        for line in data.split(b"\n")[:-1]:
            obj = canonical_object(line)
            if obj is None:
                raise SystemExit("a bench line is not canonical")
            claimed = obj.pop("id")
            if hashlib.sha256(canonical_bytes(obj) or b"").hexdigest() != claimed:
                raise SystemExit("an act id does not hash its line")
            for key in ("entry", "record"):
                e = obj.get(key)
                if e is None:
                    continue
                made = entry_content_id(
                    scope=e["scope"],
                    created_at=e["created_at"],
                    jurisdiction=e["jurisdiction"],
                    bucket=e["bucket"],
                    source=e["source"],
                    signature=e["signature"],
                    body_hash=e["body_hash"],
                    meta=e["meta"],
                    nonce=e["nonce"],
                    origins=[(c, k) for c, k in e["origins"]],
                )
                if made != e["content_id"]:
                    raise SystemExit("a content id does not hash its entry")
    worker_parse_floor(clone, n, whole)


def worker_ledger_floor(clone: Path, view: Path) -> None:
    """Print the verify floor and the index floor of the clone's ledger, in seconds."""
    import ledger_bench

    verify = ledger_bench.verify_floor(clone)
    index = ledger_bench.index_floor_of(view, clone.parent / f"{clone.name}-floor.db", view=True)
    print(json.dumps({"verify": verify, "index": index}))


def first_hook(origin: Path, into: Path) -> tuple[float, int]:
    """The pre-commit hook in a fresh clone, one unbound file staged: seconds, exit."""
    clone = fresh_clone(origin, into)
    (clone / "notes").mkdir(exist_ok=True)
    (clone / "notes" / "first.txt").write_text("the first commit after cloning\n")
    hook_bench.git(clone, "add", "notes/first.txt")
    seconds, proc = timed([HOOK, "pre-commit"], clone)
    shutil.rmtree(clone)
    return seconds, proc.returncode


def timed(cmd: list[str], cwd: Path) -> tuple[float, subprocess.CompletedProcess[bytes]]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=hook_bench._env(), capture_output=True, check=False)
    return time.perf_counter() - start, proc


def measure(
    origin: Path, work: Path, n: int, repeat: int, whole: bool, archive: bool = True
) -> dict[str, Any]:
    files = [f"docs/d{i:05d}.md" for i in range(n)]
    gate = [FOREST, "ci", "--base", "origin/main", "--format", "json"]
    fresh: list[float] = []
    again: list[float] = []
    sums: list[float] = []
    archived: list[float] = []
    hooks: list[float] = []
    floors: list[float] = []
    ledger_floors: list[float] = []
    verify_floors: list[float] = []
    evidence: list[float] = []
    judged = 0
    for k in range(repeat):
        seconds, code = first_hook(origin, work / f"hook-{k}")
        if code != 0:
            raise SystemExit(f"the first hook exited {code}")
        hooks.append(seconds)
        clone = fresh_clone(origin, work / f"clone-{k}")
        listing = clone / "SUMS"
        with open(listing, "w", encoding="utf-8") as fh:
            subprocess.run(["sha256sum", *files], cwd=clone, stdout=fh, check=True)
        seconds, _ = timed(["sha256sum", "-c", "--quiet", str(listing)], clone)
        sums.append(seconds)
        merge_base = hook_bench.git(clone, "merge-base", "origin/main", "HEAD").strip()
        if archive:  # issue 11's floor: minutes on a shared machine
            worker = [sys.executable, __file__, "--archive-hash", str(clone), merge_base]
            seconds, proc = timed(worker, clone)
            if proc.returncode != 0:
                raise SystemExit(f"archive+hash failed: {proc.stderr.decode()[-2000:]}")
            archived.append(seconds)
        floor = [sys.executable, __file__, "--parse-floor", str(clone), str(n), str(int(whole))]
        seconds, proc = timed(floor, clone)
        if proc.returncode != 0:
            raise SystemExit(f"parse floor failed: {proc.stderr.decode()[-2000:]}")
        floors.append(seconds)
        worker = [sys.executable, __file__, "--evidence-floor", str(clone), str(n), str(int(whole))]
        seconds, proc = timed(worker, clone)
        if proc.returncode != 0:
            raise SystemExit(f"evidence floor failed: {proc.stderr.decode()[-2000:]}")
        evidence.append(seconds)
        for bucket in (fresh, again):
            seconds, proc = timed(gate, clone)
            if proc.returncode != 0:
                sys.stderr.write(proc.stdout.decode()[-2000:] + proc.stderr.decode()[-2000:])
                raise SystemExit(f"forest ci exited {proc.returncode}")
            bucket.append(seconds)
            judged = len(json.loads(proc.stdout)["range"]["judged"])
        views = sorted((clone / ".git" / "forest" / "views").glob("*.db"), key=_size)
        worker = [sys.executable, __file__, "--ledger-floor", str(clone), str(views[-1])]
        proc = subprocess.run(worker, cwd=clone, capture_output=True, check=True)
        parts = json.loads(proc.stdout)
        ledger_floors.append(parts["verify"] + parts["index"])
        verify_floors.append(parts["verify"])
        shutil.rmtree(clone)
    return {
        "n": n,
        "sha256sum -c": statistics.median(sums),
        "ci fresh": statistics.median(fresh),
        "ci again": statistics.median(again),
        "archive+hash": statistics.median(archived) if archived else None,
        "first hook": statistics.median(hooks),
        "parse floor": statistics.median(floors),
        "ledger floor": statistics.median(ledger_floors),
        "ci floor": statistics.median(ledger_floors) + statistics.median(floors),
        "work floor": statistics.median(verify_floors) + statistics.median(floors),
        "evidence floor": statistics.median(evidence),
        "whole": whole,
        "judged commits": judged,
    }


FIXED_N, FIXED_COMMITS = 5, 2  # the fixed cost: a handful of bindings, a short range


def corpus(base: Path, n: int, commits: int, whole: bool, *, reuse: bool) -> Path:
    """The origin repository of ``n`` bindings and a ``commits``-commit range under
    ``base``; with ``reuse`` (``--keep``) one built before with the same options
    (a stamp in its ``.git`` says what was built) is taken as it is."""
    origin = base / f"origin-{n}"
    stamp = origin / ".git" / "ci-bench-corpus"
    wanted = f"n={n} commits={commits} whole={int(whole)}\n"
    if reuse and stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted:
        print(f"reusing the corpus kept at {origin}", file=sys.stderr)
        return origin
    if origin.exists():
        shutil.rmtree(origin)
    built = hook_bench.build(origin, n, whole=whole)
    make_range(origin, n, commits, whole)
    stamp.write_text(wanted, encoding="utf-8")
    print(f"built {n} bindings + {commits} commits in {built:.1f}s", file=sys.stderr)
    return origin


def fixed_cost(origin: Path, work: Path, repeat: int) -> float:
    """``forest ci --base origin/main`` in a fresh clone of a handful of bindings: what
    every run pays whatever the corpus (interpreter, imports, git calls), median."""
    gate = [FOREST, "ci", "--base", "origin/main", "--format", "json"]
    runs: list[float] = []
    for k in range(repeat):
        clone = fresh_clone(origin, work / f"fixed-{k}")
        seconds, proc = timed(gate, clone)
        if proc.returncode != 0:
            raise SystemExit(f"forest ci (fixed cost) exited {proc.returncode}")
        runs.append(seconds)
        shutil.rmtree(clone)
    return statistics.median(runs)


def _size(path: Path) -> int:
    return path.stat().st_size


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--ledger-floor"]:
        worker_ledger_floor(Path(argv[1]), Path(argv[2]))
        return 0
    if argv[:1] == ["--archive-hash"]:
        worker_archive_hash(Path(argv[1]), argv[2])
        return 0
    if argv[:1] == ["--evidence-floor"]:
        worker_evidence_floor(Path(argv[1]), int(argv[2]), argv[3] == "1")
        return 0
    if argv[:1] == ["--parse-floor"]:
        worker_parse_floor(Path(argv[1]), int(argv[2]), argv[3] == "1")
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--commits", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", dest="json_out")
    ap.add_argument("--keep", help="build under this directory and keep it")
    ap.add_argument("--whole", action="store_true", help="bind whole files, not sections")
    ap.add_argument(
        "--no-archive",
        action="store_true",
        help="leave out the archive+hash floor (issue 11's: minutes a run)",
    )
    args = ap.parse_args(argv)
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="ci-bench-"))
    try:
        origin = corpus(base, args.n, args.commits, args.whole, reuse=bool(args.keep))
        res = measure(origin, base, args.n, args.repeat, args.whole, not args.no_archive)
        res["commits"] = args.commits
        small = corpus(base, FIXED_N, FIXED_COMMITS, args.whole, reuse=bool(args.keep))
        res["ci fixed"] = fixed_cost(small, base, args.repeat)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    sha = res["sha256sum -c"]
    kind = "whole-file" if res["whole"] else "section"
    print(
        f"N={res['n']} {kind} bindings, {res['commits']}-commit range, "
        f"{res['judged commits']} judged"
    )
    floor, parsed = res["archive+hash"], res["parse floor"]
    names = (
        "sha256sum -c", "parse floor", "ledger floor", "ci floor", "work floor", "evidence floor",
        "archive+hash",
        "ci fresh", "ci again", "first hook",
    )  # fmt: skip
    for name in names:
        if res[name] is None:  # --no-archive
            continue
        against = f"  {res[name] / floor:>6.2f}x archive+hash" if floor is not None else ""
        print(
            f"  {name:<15} {res[name] * 1000:>9.0f} ms  {res[name] / sha:>6.1f}x sha256sum -c"
            f"  {res[name] / parsed:>6.2f}x parse floor{against}"
        )
    print(f"  {'ci fixed':<15} {res['ci fixed'] * 1000:>9.0f} ms  ({FIXED_N} bindings: every run)")
    fresh, hook = res["ci fresh"], res["first hook"]
    print(
        f"  ci fresh / ci floor {fresh / res['ci floor']:.2f}x; "
        f"ci fresh / evidence floor {fresh / res['evidence floor']:.2f}x; "
        f"first hook / parse floor {hook / parsed:.2f}x"
    )
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(res, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
