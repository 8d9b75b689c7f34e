"""Rename benchmark: a long bound section renamed and edited, at the hook and ``forest check``.

Builds one repository per case and size: ``f.md`` holds ``# Doc``, a bound
``## Long`` of N lines (600 and 6,000 by default; each line unique: ``line I of the
long section says alpha beta gamma``) and an unbound ``## Other``, adopted with the
CLI (``forest init``, ``forest adopt 'f.md#Doc/Long'``), hooks installed
(``forest hooks install``), committed. Then the change a commit stages:

  heading renamed   ``## Long`` -> ``## Long renamed``, line N/2 edited (one word)
  file moved        ``git mv f.md g.md``, line N/2 edited (one word)

Timed as whole processes, as a user runs them, interleaved, ``--repeat`` rounds,
medians:

  hook              the installed ``.git/hooks/pre-commit`` (what ``git commit`` runs:
                    the section found at its new place and its edit reported, exit 1)
  forest check      the working tree against custody (same finding, exit 1)
  git diff -M       ``git diff --cached -M --stat``: git's own rename detection of the
                    same staged change (the yardstick: the ratio column)
  git status        ``git status --porcelain``, printed beside it

Each timed run sees the same staged change, so caches a run keeps (the custody view,
the parse of a blob by content) are warm after the first round, as on a second
``git commit`` attempt; the first round is reported apart as ``cold``. The watcher's
rebind proposal is not timed here (its save -> verdict latency is watch_bench.py's).

Run:  .venv/bin/python bench/rename_bench.py [--sizes 600,6000] [--repeat 5] [--json out.json]
          [--keep DIR]
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hook_bench import _env, _run, git

CASES = ("heading renamed", "file moved")
FOREST = str(Path(sys.executable).parent / "forest")


def text(lines: int, heading: str = "Long", edited: bool = False) -> str:
    body = [f"line {i} of the long section says alpha beta gamma\n" for i in range(lines)]
    if edited:
        body[lines // 2] = body[lines // 2].replace("beta", "BETA")
    return f"# Doc\n\n## {heading}\n\n{''.join(body)}\n## Other\n\nnot bound\n"


def build(repo: Path, case: str, lines: int) -> list[str]:
    """The repository with ``f.md#Doc/Long`` adopted, committed and the case's change
    staged; returns the hook's command."""
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    (repo / "f.md").write_text(text(lines), encoding="utf-8")
    for args in (
        ["init"],
        ["adopt", "f.md#Doc/Long", "--words", "bench", "-q"],
        ["hooks", "install"],
    ):
        subprocess.run([FOREST, *args], cwd=repo, env=_env(), capture_output=True, check=True)
    hook = [str(repo / ".git" / "hooks" / "pre-commit")]
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "adopt")
    if case == "heading renamed":
        (repo / "f.md").write_text(text(lines, "Long renamed", True), encoding="utf-8")
    else:
        git(repo, "mv", "f.md", "g.md")
        (repo / "g.md").write_text(text(lines, edited=True), encoding="utf-8")
    git(repo, "add", "-A")
    return hook


def commands(hook: list[str]) -> dict[str, list[str]]:
    return {
        "hook": hook,
        "forest check": [FOREST, "check"],
        "git diff -M": ["git", "diff", "--cached", "-M", "--stat"],
        "git status": ["git", "status", "--porcelain"],
    }


def measure(base: Path, sizes: list[int], repeat: int) -> list[dict[str, Any]]:
    repos: dict[tuple[str, int], tuple[Path, list[str]]] = {}
    for lines in sizes:
        for k, case in enumerate(CASES):
            repo = base / f"{lines}-{k}"
            if repo.exists():
                shutil.rmtree(repo)
            repos[(case, lines)] = (repo, build(repo, case, lines))
    times: dict[tuple[str, int], dict[str, list[float]]] = {key: {} for key in repos}
    cold: dict[tuple[str, int], dict[str, float]] = {key: {} for key in repos}
    for round_ in range(repeat + 1):  # round 0: cold, reported apart
        for key, (repo, hook) in repos.items():
            for name, cmd in commands(hook).items():
                took, code = _run(cmd, repo)
                if name in ("hook", "forest check") and code != 1:
                    raise SystemExit(f"{name} ({key[0]}, {key[1]} lines) exited {code}, not 1")
                if round_ == 0:
                    cold[key][name] = took
                else:
                    times[key].setdefault(name, []).append(took)
    out: list[dict[str, Any]] = []
    for (case, lines), by in times.items():
        row: dict[str, Any] = {"case": case, "lines": lines}
        row.update({name: statistics.median(ts) for name, ts in by.items()})
        row["cold hook"] = cold[(case, lines)]["hook"]
        row["cold check"] = cold[(case, lines)]["forest check"]
        out.append(row)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="600,6000")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--keep", help="build under this directory and keep it")
    args = ap.parse_args()
    start = time.perf_counter()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="rename-bench-"))
    try:
        rows = measure(base, [int(s) for s in args.sizes.split(",")], args.repeat)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    print(f"medians of {args.repeat} ({FOREST}); ratio: x git diff --cached -M")
    print(
        f"{'case':<16} {'lines':>6} {'hook s':>8} {'x':>6} {'check s':>8} {'x':>6} "
        f"{'git -M s':>9} {'status s':>9} {'cold hook':>10} {'cold check':>11}"
    )
    for r in rows:
        git_m = r["git diff -M"]
        print(
            f"{r['case']:<16} {r['lines']:>6} {r['hook']:>8.3f} {r['hook'] / git_m:>6.1f} "
            f"{r['forest check']:>8.3f} {r['forest check'] / git_m:>6.1f} {git_m:>9.4f} "
            f"{r['git status']:>9.4f} {r['cold hook']:>10.3f} {r['cold check']:>11.3f}"
        )
    print(f"(built and measured in {time.perf_counter() - start:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
