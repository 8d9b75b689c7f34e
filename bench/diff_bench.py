"""Diff benchmark: ``forest diff`` of a long bound section against ``git diff --no-index``.

Builds one repository per case, each a ``f.md`` whose ``# A`` (6,000 lines, each
unique: ``line N of the section says alpha beta gamma``) is adopted with the CLI
(``forest init``, ``forest adopt 'f.md#A'``) and committed, then edited in the working
tree:

  every other line     3,000 lines, one word each (``beta`` -> ``BETA``)
  one line             line 3,000, one word
  rewritten            every line replaced (``row N reads delta epsilon``)

Timed as whole processes, as a user runs them, interleaved, ``--repeat`` rounds,
medians; the ratio is each against git on the same two texts (the file at ground and
as edited, written beside the repository):

  forest diff f.md            the unified line diff
  forest diff f.md --words    the word diff
  git diff --no-index         the yardstick

The ``forest`` measured is the one beside this interpreter (the venv's console script);
``--forest PATH`` measures another; ``--against PATH`` measures a second one in the same
rounds (an older checkout's venv: its rows are marked ``against``), each case's
repository built and adopted by the first.

Run:  .venv/bin/python bench/diff_bench.py [--repeat 3] [--lines 6000] [--json out.json]
          [--against OTHER_VENV/bin/forest]
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

CASES = ("every other line", "one line", "rewritten")


def texts(case: str, lines: int) -> tuple[str, str]:
    """The file at ground and as edited for ``case``."""
    old = [f"line {i} of the section says alpha beta gamma\n" for i in range(lines)]
    if case == "every other line":
        new = [x.replace("beta", "BETA") if i % 2 else x for i, x in enumerate(old)]
    elif case == "one line":
        new = list(old)
        new[lines // 2] = new[lines // 2].replace("beta", "BETA")
    else:
        new = [f"row {i} reads delta epsilon\n" for i in range(lines)]
    return _file(old), _file(new)


def _file(section: list[str]) -> str:
    return f"# A\n\n{''.join(section)}\n# B\n\nx\n"


def build(root: Path, case: str, lines: int, forest: str) -> Path:
    """A repository with ``f.md#A`` adopted and committed, then edited; the two texts
    beside it as ``old.md`` and ``new.md``."""
    old, new = texts(case, lines)
    repo = root / "repo"
    repo.mkdir(parents=True)
    (root / "old.md").write_text(old, encoding="utf-8")
    (root / "new.md").write_text(new, encoding="utf-8")
    git(repo, "init", "-q", "-b", "main")
    (repo / "f.md").write_text(old, encoding="utf-8")
    for args in (["init"], ["adopt", "f.md#A", "--words", "bench", "-q"]):
        subprocess.run([forest, *args], cwd=repo, env=_env(), capture_output=True, check=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "adopt")
    (repo / "f.md").write_text(new, encoding="utf-8")
    return repo


def commands(forest: str, against: str | None) -> dict[str, list[str]]:
    out = {
        "forest diff": [forest, "diff", "f.md"],
        "forest diff --words": [forest, "diff", "f.md", "--words"],
        "git diff --no-index": ["git", "diff", "--no-index", "--", "../old.md", "../new.md"],
    }
    if against:
        out["against: forest diff"] = [against, "diff", "f.md"]
        out["against: --words"] = [against, "diff", "f.md", "--words"]
    return out


def measure(
    forest: str, lines: int, repeat: int, against: str | None = None
) -> dict[str, dict[str, float]]:
    work = Path(tempfile.mkdtemp(prefix="forest-diff-bench-"))
    try:
        repos = {case: build(work / str(k), case, lines, forest) for k, case in enumerate(CASES)}
        times: dict[str, dict[str, list[float]]] = {case: {} for case in CASES}
        for _ in range(repeat):
            for case, repo in repos.items():
                for name, cmd in commands(forest, against).items():
                    took, code = _run(cmd, repo)
                    if code not in (0, 1):  # git diff exits 1 when the texts differ
                        raise SystemExit(f"{name} ({case}) exited {code}")
                    times[case].setdefault(name, []).append(took)
        return {
            case: {name: statistics.median(ts) for name, ts in by.items()}
            for case, by in times.items()
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--lines", type=int, default=6_000)
    ap.add_argument("--forest", default=str(Path(sys.executable).parent / "forest"))
    ap.add_argument("--against", help="a second forest, measured in the same rounds")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    start = time.perf_counter()
    medians = measure(args.forest, args.lines, args.repeat, args.against)
    print(f"{args.lines:,}-line section, medians of {args.repeat} ({args.forest})")
    if args.against:
        print(f"against: {args.against}")
    print(f"{'case':<18} {'command':<21} {'median s':>9} {'x git':>7}")
    out: list[dict[str, Any]] = []
    for case, by in medians.items():
        yardstick = by["git diff --no-index"]
        for name, median in by.items():
            ratio = median / yardstick
            print(f"{case:<18} {name:<21} {median:>9.3f} {ratio:>7.1f}")
            out.append({"case": case, "command": name, "median_s": median, "x_git": ratio})
    print(f"(built and measured in {time.perf_counter() - start:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
