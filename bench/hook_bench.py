"""Hook benchmark: whole-process wall time of ``forest-hook pre-commit`` against git.

For each N in --sizes (default 100 and 10,000) it builds a git repository of N
Markdown files, binds the ``## Bound`` section of each in ONE ``adopt_sections``
call, and commits. Every file is ~2 KiB except ``docs/d00000.md``, ~20 KiB (the
one the commits change; small files keep the 10k build fast). Then, for three
staged changes, it times as whole processes (cwd = the repository), --repeat
times each, medians:

  python -c pass              the interpreter's floor
  git status --porcelain      the yardstick the goals are stated against
  git diff --cached --quiet   git's own cheapest staged question
  hook                        ``forest-hook pre-commit`` (what git runs)

  (a)  an unbound new file staged                      hook exits 0
  (b)  the bound section of the 20 KiB file edited     hook exits 1
  (b') the 20 KiB file edited outside its section      hook exits 0

The first hook run of each size, with ``.forest/cache/views`` emptied (the
custody view is built from the staged ledger), is reported apart as "cold".
Goals at 10,000 bindings: (a) <= 2x git status --porcelain; (b) <= 4x.

The repositories are built with adopt_sections patched in THIS process so a
bind act also depends on its root act (see tests/test_hooks.py::
test_adopt_bind_act_depends_on_its_root_act: unpatched, a large adoption cannot
be replayed from the ledger and every hook run fails). Package code is untouched.

Run:  .venv/bin/python bench/hook_bench.py [--sizes 100,10000] [--repeat 7]
      [--json out.json] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PY = sys.executable
HOOK = str(Path(sys.executable).parent / "forest-hook")
WORDS = "I adopt these documents as written"
BY = "Bench <bench@example.org>"
_VOCAB_TEXT = (
    "river stone ledger winter treaty harbor lantern orchard signal archive bees honey "
    "summer valley witness chapter measure copper meadow thread anchor scroll timber"
)
_VOCAB = _VOCAB_TEXT.split()

GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.org",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.org",
    "LC_ALL": "C",
}


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_ENV)
    return env


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", *args], cwd=repo, env=_env(), capture_output=True, text=True, check=True
    )
    return proc.stdout


def _text(rng: random.Random, size: int) -> str:
    out: list[str] = []
    length = 0
    while length < size:
        para = " ".join(rng.choices(_VOCAB, k=40)) + ".\n\n"
        out.append(para)
        length += len(para)
    return "".join(out)


def document(i: int, rng: random.Random, size: int) -> str:
    half = size // 2
    return f"# Doc {i}\n\n## Bound\n\n{_text(rng, half)}## Free\n\n{_text(rng, half)}"


def _patch_bind_deps() -> None:
    """A bind act depends on its root act too (the bug the tests pin), in this process."""
    from forest_files.files import record

    original = record.deps_for

    def deps_for(store: Any, *, refs: Any, status_of: Any = ()) -> set[str]:
        refs = list(refs)
        return original(store, refs=refs, status_of=list(status_of) or refs)

    record.deps_for = deps_for  # type: ignore[assignment]


def build(root: Path, n: int, seed: int = 7) -> float:
    """Repository of ``n`` bound documents at ``root``; returns the build seconds."""
    from forest_files.files.record import adopt_sections
    from forest_files.files.targets import read_sections
    from forest_files.repository import Repository

    os.environ.update(GIT_ENV)
    start = time.perf_counter()
    rng = random.Random(seed)
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    Repository.init(root).close()
    docs = root / "docs"
    docs.mkdir()
    for i in range(n):
        size = 20 * 1024 if i == 0 else 2 * 1024
        (docs / f"d{i:05d}.md").write_text(document(i, rng, size), encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "documents")
    with Repository(root) as r:
        limit = r.config.max_body_bytes
        targets = [f"docs/d{i:05d}.md#Bound" for i in range(n)]
        sections = read_sections(root, targets, (), max_bytes=limit)
        adopt_sections(r, sections, words=WORDS, by=BY)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "adopt")
    return time.perf_counter() - start


def _run(cmd: list[str], cwd: Path) -> tuple[float, int]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, check=False)
    return time.perf_counter() - start, proc.returncode


def _stage(root: Path, case: str) -> None:
    git(root, "reset", "-q", "--hard")
    git(root, "clean", "-fdq")  # untracked only: .forest/cache and the index stay
    big = root / "docs" / "d00000.md"
    if case == "a":
        (root / "unbound.txt").write_text("not bound\n", encoding="utf-8")
        git(root, "add", "unbound.txt")
    elif case == "b":
        text = big.read_text(encoding="utf-8")
        big.write_text(text.replace("## Bound\n\n", "## Bound\n\nAn edit.\n\n", 1), "utf-8")
        git(root, "add", "docs/d00000.md")
    else:
        big.write_text(big.read_text(encoding="utf-8") + "\nAn appendix.\n", "utf-8")
        git(root, "add", "docs/d00000.md")


CASES = {
    "a": ("unbound new file staged", 0),
    "b": ("bound section of the 20 KiB file edited", 1),
    "b'": ("20 KiB file edited outside its section", 0),
}
BASELINES = {
    "python -c pass": [PY, "-c", "pass"],
    "git status --porcelain": ["git", "status", "--porcelain"],
    "git diff --cached --quiet": ["git", "diff", "--cached", "--quiet"],
}


def measure(root: Path, repeat: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    views = root / ".forest" / "cache" / "views"
    for case, (label, want) in CASES.items():
        _stage(root, case)
        shutil.rmtree(views, ignore_errors=True)
        cold, code = _run([HOOK, "pre-commit"], root)
        if code != want:
            raise SystemExit(f"case {case}: hook exited {code}, expected {want}")
        row: dict[str, Any] = {"label": label, "hook_exit": code, "hook_cold": cold}
        for name, cmd in {**BASELINES, "hook": [HOOK, "pre-commit"]}.items():
            times = []
            for _ in range(repeat):
                seconds, code = _run(cmd, root)
                if name == "hook" and code != want:
                    raise SystemExit(f"case {case}: hook exited {code}, expected {want}")
                times.append(seconds)
            row[name] = statistics.median(times)
        row["ratio_vs_status"] = row["hook"] / row["git status --porcelain"]
        out[case] = row
    git(root, "reset", "-q", "--hard")
    git(root, "clean", "-fdq")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="100,10000")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--json", dest="json_out", help="also write the results here ('-': stdout)")
    ap.add_argument("--keep", help="build the repositories under this directory and keep them")
    args = ap.parse_args(argv)
    _patch_bind_deps()
    sizes = [int(s) for s in args.sizes.split(",")]
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="hook-bench-"))
    results: dict[str, Any] = {"repeat": args.repeat, "sizes": {}}
    try:
        for n in sizes:
            root = base / f"repo-{n}"
            if root.exists():
                shutil.rmtree(root)
            built = build(root, n)
            print(f"built {n} bindings in {built:.1f}s", file=sys.stderr)
            results["sizes"][str(n)] = {"build_s": built, "cases": measure(root, args.repeat)}
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    _table(results)
    if args.json_out == "-":
        print(json.dumps(results, indent=2))
    elif args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


def _table(results: dict[str, Any]) -> None:
    cols = ["python -c pass", "git status --porcelain", "git diff --cached --quiet", "hook"]
    head = f"{'N':>6} {'case':<4} {'exit':>4} " + " ".join(f"{c[:14]:>14}" for c in cols)
    print(head + f" {'hook cold':>10} {'hook/status':>11}")
    for n, size in results["sizes"].items():
        for case, row in size["cases"].items():
            ms = " ".join(f"{row[c] * 1000:>12.1f}ms" for c in cols)
            print(
                f"{n:>6} {case:<4} {row['hook_exit']:>4} {ms} "
                f"{row['hook_cold'] * 1000:>8.0f}ms {row['ratio_vs_status']:>10.2f}x"
            )
    big = results["sizes"].get("10000")
    if big:
        a, b = big["cases"]["a"]["ratio_vs_status"], big["cases"]["b"]["ratio_vs_status"]
        print(
            f"goals at 10,000: (a) {a:.2f}x <= 2x {'met' if a <= 2 else 'MISSED'}; "
            f"(b) {b:.2f}x <= 4x {'met' if b <= 4 else 'MISSED'}"
        )


if __name__ == "__main__":
    sys.exit(main())
