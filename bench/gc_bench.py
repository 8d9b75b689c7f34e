"""One-shot console commands without the cyclic garbage collector, measured.

Builds (with hook_bench.build) a repository of N bound files and ci_bench's
50-commit range, then alternates, --repeat times, in a fresh ``git clone``
each time: ``forest ci --base origin/main --format json`` as the console
script runs it (collector off, entry.py), and the same command in a process
that turns the collector back on before running the same CLI. Prints the
medians of wall time and of peak RSS (the child's ``ru_maxrss``) for both:
turning the collector off must cost no memory, since the data a command keeps
is acyclic and reference counting frees it.

Run:  .venv/bin/python bench/gc_bench.py [--n 10000] [--repeat 3] [--whole]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ci_bench  # noqa: E402
import hook_bench  # noqa: E402

GATE = ["ci", "--base", "origin/main", "--format", "json"]
WITH_GC = (
    "import gc, sys\n"
    "from forest_files.doors import boundary, entry\n"
    "boundary.one_shot_gc = gc.enable  # the console script, with the collector left on\n"
    "sys.argv = ['forest', *sys.argv[1:]]\n"
    "entry.main()\n"
)


def run(cmd: list[str], cwd: Path) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one child process."""
    start = time.perf_counter()
    child = subprocess.Popen(
        cmd, cwd=cwd, env=hook_bench._env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{cmd[:3]} failed: {child.stderr.read().decode()[-2000:]}")
    child.stderr.close()
    return seconds, usage.ru_maxrss


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--whole", action="store_true", help="bind whole files, not sections")
    args = ap.parse_args(argv)
    base = Path(tempfile.mkdtemp(prefix="gc-bench-"))
    forest = str(Path(sys.executable).parent / "forest")
    try:
        origin = base / "origin"
        hook_bench.build(origin, args.n, whole=args.whole)
        ci_bench.make_range(origin, args.n, 50, args.whole)
        off: list[tuple[float, int]] = []
        on: list[tuple[float, int]] = []
        for k in range(args.repeat):
            for label, bucket, cmd in (
                ("off", off, [forest, *GATE]),
                ("on", on, [sys.executable, "-c", WITH_GC, *GATE]),
            ):
                clone = ci_bench.fresh_clone(origin, base / f"clone-{label}-{k}")
                bucket.append(run(cmd, clone))
                shutil.rmtree(clone)
                print(f"collector {label}: {bucket[-1][0]:.2f} s, {bucket[-1][1] // 1024} MiB")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    kind = "whole-file" if args.whole else "section"
    t_off, t_on = (statistics.median(t for t, _ in b) for b in (off, on))
    m_off, m_on = (statistics.median(m for _, m in b) for b in (off, on))
    print(f"N={args.n} {kind} bindings, forest ci on a fresh clone (medians of {args.repeat}):")
    print(f"  collector off (the console script) {t_off:.2f} s, peak RSS {m_off / 1024:.0f} MiB")
    print(f"  collector on                       {t_on:.2f} s, peak RSS {m_on / 1024:.0f} MiB")
    print(f"  off / on: {t_off / t_on:.2f}x time, {m_off / m_on:.2f}x memory")
    return 0


if __name__ == "__main__":
    sys.exit(main())
