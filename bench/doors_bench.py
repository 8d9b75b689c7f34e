"""Doors benchmark: the commands people type, as installed console scripts, against
``git status --porcelain`` measured in the same run (issue 11's performance table).

Builds a seeded repository of N files (check_bench.make_corpus: ~80% Markdown with
a bound heading section, ~20% Python with a bound function), adopts one section per
file, commits, warms the caches once, then times, as whole processes, --repeat
times, medians:

  git status          ``git status --porcelain`` (the yardstick)
  forest check        warm, nothing changed (the console script ``forest``)
  forest check -v     the same, listing every clean binding
  check --staged      a commit staging one unbound file (touching no bound file)
  forest-hook         the pre-commit hook on that same staged change
  post-commit         the post-commit hook after a commit that keeps the ledger
                      (``forest-hook post-commit``: one ``git diff-tree``)
  forest status       every binding with its finding
  forest --help       the full CLI's help (typer loaded)

  python -c pass      the same venv's interpreter doing nothing (the floor of any
                      Python command)

The commands are those of a venv holding forest-files installed from a wheel of
this checkout, as a user installs it (hook_bench.user_install); ``--editable``
times this development venv instead, whose editable install adds an import hook
(~15-20 ms) to every process that no user pays. Bytecode is written for the
timed processes (``PYTHONDONTWRITEBYTECODE`` is dropped from their environment):
an installed package has its ``.pyc`` files, and compiling every module on each
run is not what a user pays.

Run:  .venv/bin/python bench/doors_bench.py [--n 10000] [--repeat 7] [--keep DIR]
      [--editable]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent))

from check_bench import git, make_corpus, median_of, run_once  # noqa: E402


def _tool(bin_dir: Path, name: str) -> str:
    found = bin_dir / name
    if not found.exists():
        raise SystemExit(f"{found} not found: install forest-files into this venv first")
    return str(found)


def build(root: Path, n: int, seed: int) -> None:
    root.mkdir(parents=True)
    subprocess.run(["git", "-c", "init.defaultBranch=main", "init", "-q", str(root)], check=True)
    git(root, "config", "user.name", "bench")
    git(root, "config", "user.email", "b@example.org")
    git(root, "config", "commit.gpgsign", "false")
    targets = make_corpus(root, n, seed)
    from forest_files.custody.record import adopt_sections
    from forest_files.custody.repository import Repository
    from forest_files.custody.targets import read_sections

    with Repository.init(root, project_id="bench") as repo:
        sections = read_sections(repo.root, targets, (), max_bytes=repo.config.max_body_bytes)
        adopt_sections(repo, sections, words="bench adoption", by="bench <b@example.org>")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "corpus")


def measure(root: Path, repeat: int, bin_dir: Path) -> dict[str, float]:
    forest, hook = _tool(bin_dir, "forest"), _tool(bin_dir, "forest-hook")
    python = _tool(bin_dir, "python")
    for _ in range(2):  # warm every local cache the way daily use does
        run_once([forest, "check"], root)
        run_once([forest, "status"], root)
    (root / "notes.txt").write_text("an unbound file\n", encoding="utf-8")
    git(root, "add", "notes.txt")
    run_once([forest, "check", "--staged"], root)
    run_once([hook, "pre-commit"], root)
    out = {
        "git status": median_of(["git", "status", "--porcelain"], root, repeat),
        "forest check": median_of([forest, "check"], root, repeat),
        "forest check -v": median_of([forest, "check", "-v"], root, repeat),
        "check --staged": median_of([forest, "check", "--staged"], root, repeat),
        "forest-hook": median_of([hook, "pre-commit"], root, repeat),
        "post-commit": median_of([hook, "post-commit"], root, repeat),
        "forest status": median_of([forest, "status"], root, repeat),
        "forest --help": median_of([forest, "--help"], root, repeat),
        "python -c pass": median_of([python, "-c", "pass"], root, repeat),
    }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--keep", type=Path)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--editable", action="store_true", help="time this venv instead")
    args = ap.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # the timed processes keep their .pyc
    base = args.keep or Path(tempfile.mkdtemp(prefix="forest-doors-bench-"))
    root = base / f"n{args.n}" / "repo"
    try:
        if not root.exists():
            build(root, args.n, args.seed)
        if args.editable:
            bin_dir = Path(sys.executable).parent
        else:
            from hook_bench import user_install

            bin_dir = user_install(base).parent
        res = measure(root, args.repeat, bin_dir)
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)
    yard = res["git status"]
    print(
        f"doors bench: {args.n} bindings, medians of {args.repeat} (seconds, ratio to git status)"
    )
    for name, secs in res.items():
        plain = ("git status", "forest --help")
        ratio = "" if name in plain else f"  {secs / yard:5.2f}x"
        print(f"  {name:<16} {secs:7.3f}s{ratio}")
    if args.json:
        args.json.write_text(json.dumps({"n": args.n, **res}, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
