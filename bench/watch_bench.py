"""Watcher benchmark: idle CPU and save -> verdict latency with N bound files.

Builds, for each N in --sizes, a git repository of N small Markdown files in
directories of 100, binds each whole file in ONE adopt_sections call, commits,
starts the watcher (in this process, real inotify observer, or --poll), lets
its start-up reconcile finish, then measures:

  idle CPU        process CPU time (every thread) over --idle seconds with no events,
                  as a percentage of one core
  latency         --edits saves (temp + rename, alternately drifting and restoring one
                  file), each timed from the rename to the watcher's verdict record,
                  minus the configured quiet period: median and p95
  missed          saves whose final state the watcher did not report (must be 0)

Run:  .venv/bin/python bench/watch_bench.py [--sizes 1000,10000] [--idle 10] [--edits 40]
      [--quiet 0.2] [--poll] [--json out.json]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_SYSTEM": os.devnull,
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.org",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.org",
}
BY = "bench <bench@example.org>"


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def build(base: Path, n: int) -> Path:
    from forest_files.files.record import adopt_sections
    from forest_files.files.targets import read_sections
    from forest_files.repository import Repository

    root = base / f"repo-{n}"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    names = []
    for i in range(n):
        name = f"d{i // 100:03d}/f{i:05d}.md"
        full = root / name
        full.parent.mkdir(exist_ok=True)
        full.write_text(f"# File {i}\n\nWords of file {i}.\n", encoding="utf-8")
        names.append(name)
    with Repository.init(root, project_id="bench") as repo:
        adopt_sections(repo, read_sections(root, names, (), max_bytes=1 << 20), words="b", by=BY)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "bench")
    past = time.time() - 30  # out of the racy-clean window
    for name in names:
        os.utime(root / name, (past, past))
    return root


def _save(full: Path, text: str) -> float:
    tmp = full.with_name(full.name + ".tmp~")
    tmp.write_text(text, encoding="utf-8")
    at = time.monotonic()
    os.replace(tmp, full)
    return at


def measure(root: Path, args: argparse.Namespace) -> dict[str, object]:
    from forest_files.watch.settings import WatchSettings
    from forest_files.watch.watcher import Watcher

    settings = WatchSettings(quiet=args.quiet, ceiling=max(2.0, args.quiet), poll=args.poll)
    w = Watcher(root, settings)
    t0 = time.monotonic()
    w.start()
    assert w.journal.wait_for(lambda rs: any(r.kind == "reconciled" for r in rs), 600)
    startup = time.monotonic() - t0
    gc.freeze()  # as the daemon does after start-up (watch/daemon.py)
    cpu0, wall0 = time.process_time(), time.monotonic()
    time.sleep(args.idle)  # the quantity measured is what the watcher does meanwhile
    idle = 100 * (time.process_time() - cpu0) / (time.monotonic() - wall0)
    target = root / "d000" / "f00000.md"
    original = target.read_text(encoding="utf-8")
    latencies, missed = [], 0
    for k in range(args.edits):
        text = original.replace("Words", f"Edit {k}") if k % 2 == 0 else original
        want = "drifted" if k % 2 == 0 else "clean"
        seen = len(w.journal.items("verdict"))
        at = _save(target, text)
        ok = w.journal.wait_for(
            lambda rs, seen=seen, want=want: (
                [r.detail for r in rs if r.kind == "verdict"][seen:] == [want]
            ),
            30,
        )
        if not ok:
            missed += 1
            continue
        verdict = w.journal.items("verdict")[-1]
        latencies.append((verdict.at - at - args.quiet) * 1000)
    w.stop()
    latencies.sort()
    return {
        "files": len([1 for _ in root.glob("d*/*.md")]),
        "mode": w.observers.mode,
        "startup_s": round(startup, 3),
        "idle_cpu_pct": round(idle, 3),
        "latency_ms_p50": round(statistics.median(latencies), 1) if latencies else None,
        "latency_ms_p95": round(latencies[int(0.95 * (len(latencies) - 1))], 1)
        if latencies
        else None,
        "missed": missed,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--sizes", default="1000")
    p.add_argument("--idle", type=float, default=10.0)
    p.add_argument("--edits", type=int, default=40)
    p.add_argument("--quiet", type=float, default=0.2)
    p.add_argument("--poll", action="store_true")
    p.add_argument("--json")
    args = p.parse_args()
    os.environ.update(GIT_ENV)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            result = measure(build(Path(tmp), n), args)
            results.append(result)
            print(json.dumps(result, sort_keys=True), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
