"""Watcher benchmark: save -> verdict latency with N bound files, and the daemon's
hygiene (idle CPU, resident memory over many events).

Builds, for each N in --sizes, a git repository of N small Markdown files in
directories of 100, binds each whole file in ONE adopt_sections call, commits,
starts the watcher (in this process, real inotify observer, or --poll), lets
its start-up reconcile finish, then measures:

  latency         --edits saves (temp + rename, alternately drifting and restoring one
                  file), each timed from the rename to the watcher's verdict record,
                  minus the configured quiet period: median and p95
  missed          saves whose final state the watcher did not report (must be 0)

Then, on the largest repository, the watcher as `forest watch` runs it (its own
process, `python -m forest_files.doors.watch`), read from /proc/<pid>:

  idle CPU        utime + stime of the watcher process over --idle seconds with no
                  events, as a percentage of one core, in --windows windows (median
                  and total); goal < 0.1 %
  memory          VmRSS after start-up, after a warm-up (a tenth of the events), and
                  after --events more file writes (goal: growth < 10 MiB): a third
                  rewrite a bound file in place with its own bytes, a third save one
                  by temp + rename with its own bytes, a third write unbound files in
                  a watched directory. Each write is at least one inotify event.

--idle 0 or --events 0 skips that figure.

Run:  .venv/bin/python bench/watch_bench.py [--sizes 1000,10000] [--edits 40]
      [--idle 30] [--windows 3] [--events 100000] [--quiet 0.2] [--poll] [--json out.json]
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
    from forest_files.custody.record import adopt_sections
    from forest_files.custody.repository import Repository
    from forest_files.custody.targets import read_sections

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
    from forest_files.doors.watch.settings import WatchSettings
    from forest_files.doors.watch.watcher import Watcher

    settings = WatchSettings(quiet=args.quiet, ceiling=max(2.0, args.quiet), poll=args.poll)
    w = Watcher(root, settings)
    t0 = time.monotonic()
    w.start()
    assert w.journal.wait_for(lambda rs: any(r.kind == "reconciled" for r in rs), 600)
    startup = time.monotonic() - t0
    gc.freeze()  # as the daemon does after start-up (watch/daemon.py)
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
        "latency_ms_p50": round(statistics.median(latencies), 1) if latencies else None,
        "latency_ms_p95": round(latencies[int(0.95 * (len(latencies) - 1))], 1)
        if latencies
        else None,
        "missed": missed,
    }


# -- daemon hygiene: the watcher's own process, read from /proc -------------------------
def _cpu_seconds(pid: int) -> float:
    """utime + stime of every thread of ``pid`` (fields 14 and 15 of /proc/pid/stat)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
        stat = fh.read()
    fields = stat[stat.rindex(")") + 2 :].split()  # the name may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for pid {pid}")


def _daemon_state(root: Path) -> dict[str, object]:
    from forest_files.kernel.paths import WATCH_STATE

    try:
        return dict(json.loads((root / WATCH_STATE).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return {}


def _start_daemon(root: Path, args: argparse.Namespace) -> subprocess.Popen[bytes]:
    from forest_files.doors.watch.lock import running

    cmd = [sys.executable, "-m", "forest_files.doors.watch", "--repo", str(root)]
    cmd += [f"--quiet={args.quiet}", *(["--poll"] if args.poll else [])]
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, cwd=root)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:  # another process: no event to wait on
        if running(root) == child.pid and int(_daemon_state(root).get("checks", 0)) >= 1:  # type: ignore[call-overload]
            return child
        if child.poll() is not None:
            raise RuntimeError(f"the watcher exited ({child.returncode})")
        time.sleep(0.1)
    raise RuntimeError("the watcher did not finish its start-up reconcile")


def _quiet_again(root: Path, still: float = 3.0, limit: float = 300.0) -> None:
    """Wait until the daemon's state file has not changed for ``still`` seconds (it is
    rewritten after every batch): every event written so far has been judged."""
    from forest_files.kernel.paths import WATCH_STATE

    state = root / WATCH_STATE
    deadline = time.monotonic() + limit
    last, since = state.stat().st_mtime_ns, time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = state.stat().st_mtime_ns
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= still:
            return


def _storm(root: Path, count: int, start: int) -> None:
    """``count`` writes that change nothing a check would see."""
    bound = [root / f"d000/f{i:05d}.md" for i in range(min(100, len(list(root.glob("d000/*.md")))))]
    bodies = {p: p.read_bytes() for p in bound}
    for k in range(start, start + count):
        kind, target = k % 3, bound[(k // 3) % len(bound)]
        if kind == 0:  # in place, its own bytes (a modify and a close-write)
            with open(target, "wb") as fh:
                fh.write(bodies[target])
        elif kind == 1:  # temp + rename onto the bound path, its own bytes
            tmp = target.with_name(target.name + ".tmp~")
            tmp.write_bytes(bodies[target])
            os.replace(tmp, target)
        else:  # an unbound file in a watched directory: ignored by the handler
            (root / "d000" / f"scratch{(k // 3) % 50}.txt").write_bytes(b"x%d" % k)


def hygiene(root: Path, args: argparse.Namespace) -> dict[str, object]:
    child = _start_daemon(root, args)
    pid = child.pid
    out: dict[str, object] = {"files": len(list(root.glob("d*/*.md"))), "pid_rss_kib_start": 0}
    try:
        out["pid_rss_kib_start"] = _rss_kib(pid)
        if args.idle > 0:
            windows = []
            cpu0, wall0 = _cpu_seconds(pid), time.monotonic()
            for _ in range(args.windows):
                c, t = _cpu_seconds(pid), time.monotonic()
                time.sleep(args.idle / args.windows)  # idle: what the watcher does meanwhile
                windows.append(100 * (_cpu_seconds(pid) - c) / (time.monotonic() - t))
            out["idle_s"] = args.idle
            out["idle_cpu_pct_total"] = round(
                100 * (_cpu_seconds(pid) - cpu0) / (time.monotonic() - wall0), 4
            )
            out["idle_cpu_pct_windows"] = [round(w, 4) for w in windows]
            out["idle_cpu_pct_median"] = round(statistics.median(windows), 4)
            out["clock_tick_s"] = 1 / os.sysconf("SC_CLK_TCK")
        if args.events > 0:
            warm = max(1, args.events // 10)
            _storm(root, warm, 0)
            _quiet_again(root)
            before = _rss_kib(pid)
            t0 = time.monotonic()
            _storm(root, args.events, warm)
            written = time.monotonic() - t0
            _quiet_again(root)
            after = _rss_kib(pid)
            state = _daemon_state(root)
            out.update(
                writes=args.events,
                writes_s=round(written, 1),
                rss_kib_after_warmup=before,
                rss_kib_after_events=after,
                rss_growth_mib=round((after - before) / 1024, 2),
                bound_events_seen=state.get("events"),
                checks=state.get("checks"),
                open_after=len(state.get("open", [])),  # type: ignore[arg-type]
                errors=state.get("errors"),
            )
    finally:
        child.terminate()
        child.wait(60)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--sizes", default="1000")
    p.add_argument("--idle", type=float, default=30.0)
    p.add_argument("--windows", type=int, default=3)
    p.add_argument("--events", type=int, default=100_000)
    p.add_argument("--edits", type=int, default=40)
    p.add_argument("--quiet", type=float, default=0.2)
    p.add_argument("--poll", action="store_true")
    p.add_argument("--json")
    args = p.parse_args()
    os.environ.update(GIT_ENV)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        root = None
        for n in (int(s) for s in args.sizes.split(",")):
            root = build(Path(tmp), n)
            result = measure(root, args)
            results.append(result)
            print(json.dumps(result, sort_keys=True), flush=True)
        if root is not None and (args.idle > 0 or args.events > 0):
            result = {"daemon": hygiene(root, args)}
            results.append(result)
            print(json.dumps(result, sort_keys=True), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
