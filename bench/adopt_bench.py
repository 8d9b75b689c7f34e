"""Bulk adoption against its floor, alternated, as issue 10's row asks.

Builds check_bench's seeded corpus of N files (~80% Markdown, ~20% Python) in a
fresh git repository with ``forest init`` committed, then runs, --repeat times,
alternately:

  adopt        check_bench's ``adopt`` worker: read every target section and bind
               all of them in ONE ``adopt_sections`` call (``.forest`` reset
               before each run with ``git clean``)
  adopt floor  check_bench's ``adopt-floor`` worker: the work any bulk adoption of
               those sections must do, nothing recorded (read and normalise, parse,
               one body file per section, one FTS5 batch)
  forest adopt the same adoption as a user runs it: one ``forest adopt`` process
               with every target on its command line (start-up, target expansion
               and the progress bar included; ``.forest`` reset the same way)

and prints each pair and the medians. Alternating keeps a load change on a
shared machine from weighing on one side only. The floor ends with ``os.sync()``,
which flushes the whole machine's dirty pages: expect it to vary.

The ratios are of wall time, what a user waits for. The floor is one serial
process; an adoption of this size reads its targets in parts in child processes
(custody/parallel_read) and has a child write the body files (ledger/body_writer),
so it uses more than one CPU. The last line therefore also gives the CPU time of
every process of each run (user + system, children included), against the
floor's.

Run:  .venv/bin/python bench/adopt_bench.py [--n 10000] [--repeat 5] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent))

from check_bench import git, make_corpus  # noqa: E402

CHECK_BENCH = str(HERE.parent / "check_bench.py")
FOREST = str(Path(sys.executable).parent / "forest")


def build(work: Path, n: int, seed: int) -> Path:
    from forest_files.custody.repository import Repository

    root = work / "repo"
    root.mkdir(parents=True)
    subprocess.run(["git", "-c", "init.defaultBranch=main", "init", "-q", str(root)], check=True)
    for key, value in (("user.name", "bench"), ("user.email", "b@example.org")):
        git(root, "config", key, value)
    git(root, "config", "commit.gpgsign", "false")
    targets = make_corpus(root, n, seed)
    (work / "targets.json").write_text(json.dumps(targets), encoding="utf-8")
    files = [t.split("#")[0].split("::")[0] for t in targets]
    (work / "files.json").write_text(json.dumps(files), encoding="utf-8")
    Repository.init(root, project_id="bench").close()
    git(root, "add", "-A")
    git(root, "commit", "-qm", "corpus")
    return root


CPU: list[float] = []  # CPU seconds of the last timed command, its children included


def timed(cmd: list[str], cwd: Path) -> float:
    """Wall seconds of ``cmd``; its CPU seconds (user + system, every process it
    waited for included) are appended to ``CPU``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--keep", type=Path)
    args = ap.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="adopt-bench-"))
    try:
        root = build(work, args.n, args.seed)
        targets = json.loads((work / "targets.json").read_text(encoding="utf-8"))
        command = [FOREST, "adopt", *targets, "--words", "bench bulk adoption"]
        command += ["--as", "bench <b@example.org>"]
        adopt, floor, cli = [], [], []
        cpu: dict[str, list[float]] = {"adopt": [], "floor": [], "cli": []}
        for _ in range(args.repeat):
            subprocess.run(["git", "clean", "-fdxq", ".forest"], cwd=root, check=True)
            adopt.append(timed([sys.executable, CHECK_BENCH, "--worker", "adopt", str(root)], root))
            cpu["adopt"].append(CPU[-1])
            floor.append(
                timed([sys.executable, CHECK_BENCH, "--worker", "adopt-floor", str(root)], root)
            )
            cpu["floor"].append(CPU[-1])
            subprocess.run(["git", "clean", "-fdxq", ".forest"], cwd=root, check=True)
            cli.append(timed(command, root))
            cpu["cli"].append(CPU[-1])
            print(
                f"adopt {adopt[-1]:.2f} s  floor {floor[-1]:.2f} s  {adopt[-1] / floor[-1]:.2f}x"
                f"  forest adopt {cli[-1]:.2f} s  {cli[-1] / floor[-1]:.2f}x"
                f"  (cpu s: {cpu['adopt'][-1]:.2f} / {cpu['floor'][-1]:.2f} / {cpu['cli'][-1]:.2f})"
            )
        a, f, c = statistics.median(adopt), statistics.median(floor), statistics.median(cli)
        ratio = a / f
        print(f"N={args.n}: adopt {a:.2f} s, floor {f:.2f} s: {ratio:.2f}x the floor", end="")
        print(f"; forest adopt {c:.2f} s: {c / f:.2f}x the floor (goal <= 1.5x)")
        ca, cf, cc = (statistics.median(cpu[k]) for k in ("adopt", "floor", "cli"))
        print(
            f"CPU (every process): adopt {ca:.2f} s = {ca / cf:.2f}x the floor's {cf:.2f} s; "
            f"forest adopt {cc:.2f} s = {cc / cf:.2f}x (the floor is one process; adoption "
            "spreads over the CPUs)"
        )
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
