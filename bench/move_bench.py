"""Move benchmark: the pre-commit hook on a commit that moves 200 bound files.

Builds a repository of 300 Markdown files with 10 bound ``##`` sections each
(3,000 bindings, adopted in one call) and 200 unbound files, commits, installs
the hook (``forest hooks install``; forest-files from a wheel of this checkout
in a temp venv, as hook_bench.py does; ``--editable`` measures this venv), then
stages ``git mv vault/old vault/new`` of 200 of the bound files (2,000
bindings). The hook must find every moved section (exit 1, each ``moved`` with
its rebind route): every staged file is read and parsed once for the whole
run. Timed as whole processes, interleaved, --repeat rounds, medians:

  git status --porcelain      the yardstick
  hook                        ``.git/hooks/pre-commit`` as git runs it

The first hook run (``.git/forest`` caches and views emptied) is reported apart as "cold".
Goal (issue 11): hook <= 10x git status.

  floor                       the work any hook must do for this commit, nothing else:
                              one Python process that asks git for the staged change
                              (``diff --cached --name-status``) and the staged blobs
                              (``cat-file --batch``), parses each staged Markdown file
                              with the parser forest-files uses, hashes every section,
                              and prints one finding line and one quoted route per
                              section that moved (no ledger, index or binding read)
  custody floor               the floor, plus the least custody any hook must read: HEAD's
                              ledger tree (one git call), its cached view's alias and the
                              cached binding map of the moved files (the warm hook's own
                              read, through the package's public names); a route is
                              printed only for a section a binding names

Run:  .venv/bin/python bench/move_bench.py [--repeat 5] [--json out.json] [--editable]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hook_bench import GIT_ENV, PY, _run, _text, git, install_hooks, user_install

WORDS = "I adopt these notes as written"
BY = "Bench <bench@example.org>"
BOUND_FILES, SECTIONS, MOVED, UNBOUND = 300, 10, 200, 200


def note(i: int, rng: random.Random) -> str:
    parts = [f"# Note {i}\n\n{_text(rng, 200)}"]
    parts += [f"## Part {k}\n\n{_text(rng, 400)}" for k in range(SECTIONS)]
    return "".join(parts)


def build(root: Path, seed: int = 11) -> float:
    import os

    from forest_files.custody.record import adopt_sections
    from forest_files.custody.repository import Repository
    from forest_files.custody.targets import read_sections

    os.environ.update(GIT_ENV)
    start = time.perf_counter()
    rng = random.Random(seed)
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    Repository.init(root).close()
    for i in range(BOUND_FILES):
        folder = "old" if i < MOVED else "stays"
        path = root / "vault" / folder / f"n{i:04d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(note(i, rng), encoding="utf-8")
    for i in range(UNBOUND):
        path = root / "loose" / f"u{i:04d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_text(rng, 1024), encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "notes")
    with Repository(root) as r:
        targets = [
            f"vault/{'old' if i < MOVED else 'stays'}/n{i:04d}.md#Part {k}"
            for i in range(BOUND_FILES)
            for k in range(SECTIONS)
        ]
        sections = read_sections(root, targets, (), max_bytes=r.config.max_body_bytes)
        adopt_sections(r, sections, words=WORDS, by=BY)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "adopt")
    return time.perf_counter() - start


def stage_move(root: Path) -> None:
    git(root, "reset", "-q", "--hard")
    git(root, "clean", "-fdq")
    git(root, "mv", "vault/old", "vault/new")


def _bound_selectors(old_paths: list[str]) -> set[str]:
    """The selectors HEAD's custody binds in ``old_paths``, read as the warm hook reads
    them (the custody floor's extra work)."""
    from forest_files.custody import bindmap
    from forest_files.custody.viewkey import head_custody, read_alias, view_path

    root = Path.cwd()
    head = head_custody(root)
    fingerprint = read_alias(root, head[1]) if head is not None else None
    if fingerprint is None:
        raise SystemExit("custody floor: no view of HEAD's ledger (run the hook once)")
    record = bindmap.view_record(str(view_path(root, fingerprint)))
    bmap = bindmap.load(record, fingerprint, old_paths)
    if bmap is None:
        raise SystemExit("custody floor: no cached binding map (run the hook once)")
    return {b.selector for b in bmap.bindings}


def worker_floor(custody: bool = False) -> int:
    """The floor (see the module header); run in the repository, prints its findings.
    ``custody``: the custody floor (the bindings of the moved files read first)."""
    import hashlib
    import shlex
    import subprocess

    from forest_files.text.markdown import outline
    from forest_files.text.normalise import LineIndex

    out = subprocess.run(
        ["git", "diff", "--cached", "-z", "--name-status", "-M"],
        capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    moved: list[tuple[str, str]] = []
    i = 0
    while i < len(out) - 1:
        status = out[i]
        if status.startswith("R"):
            moved.append((out[i + 1], out[i + 2]))
            i += 3
        else:
            i += 2
    bound = _bound_selectors([old for old, _ in moved]) if custody else None
    staged = subprocess.run(
        ["git", "ls-files", "-s", "-z", "--", *(new for _, new in moved)],
        capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    blobs = [line.split()[1] for line in staged if line]
    batch = subprocess.run(
        ["git", "cat-file", "--batch"], input="\n".join(blobs).encode() + b"\n",
        capture_output=True, check=True,
    ).stdout  # fmt: skip
    lines_out: list[str] = []
    pos = 0
    for (old, new), _blob in zip(moved, blobs, strict=True):
        header_end = batch.index(b"\n", pos)
        size = int(batch[pos:header_end].split()[2])
        text = batch[header_end + 1 : header_end + 1 + size].decode("utf-8")
        pos = header_end + 1 + size + 1
        lines = LineIndex(text)
        for h in outline(text, lines):
            lo = lines.offset(h.start_line)
            hi = lines.offset(h.end_line + 1) if h.end_line < lines.count else len(text)
            hashlib.sha256(text[lo:hi].encode("utf-8")).hexdigest()
            if h.level == 2 and (bound is None or f"{old}#{'/'.join(h.path)}" in bound):
                was, now = f"{old}#{'/'.join(h.path)}", f"{new}#{'/'.join(h.path)}"
                lines_out.append(f"moved      {was}\n  now at {now}")
                lines_out.append("  " + shlex.join(["forest", "rebind", was, now]))
    sys.stderr.write("\n".join(lines_out) + "\n")
    return 1


def measure(root: Path, repeat: int, py: str) -> dict[str, Any]:
    hook = install_hooks(root, py)
    stage_move(root)
    for name in ("cache", "views"):  # local state lives in the git directory
        shutil.rmtree(root / ".git" / "forest" / name, ignore_errors=True)
    cold, code = _run(hook, root)
    if code != 1:
        raise SystemExit(f"hook exited {code}, expected 1 (moved sections)")
    commands = {
        "git status --porcelain": ["git", "status", "--porcelain"],
        "hook": hook,
        "floor": [py, str(Path(__file__).resolve()), "--worker-floor"],
        "custody floor": [py, str(Path(__file__).resolve()), "--worker-custody-floor"],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):  # interleaved: load changes weigh on both alike
        for name, cmd in commands.items():
            seconds, code = _run(cmd, root)
            if name != "git status --porcelain" and code != 1:
                raise SystemExit(f"{name} exited {code}, expected 1")
            times[name].append(seconds)
    row: dict[str, Any] = {name: statistics.median(v) for name, v in times.items()}
    row["hook_cold"] = cold
    row["ratio_vs_status"] = row["hook"] / row["git status --porcelain"]
    row["floor_vs_status"] = row["floor"] / row["git status --porcelain"]
    row["ratio_vs_floor"] = row["hook"] / row["floor"]
    row["custody_floor_vs_status"] = row["custody floor"] / row["git status --porcelain"]
    row["ratio_vs_custody_floor"] = row["hook"] / row["custody floor"]
    row["moved_findings"] = _moved_count(root, py)
    return row


def _moved_count(root: Path, py: str) -> int:
    import subprocess

    from hook_bench import _env

    code = "from forest_files.doors.cli import main; main()"
    proc = subprocess.run(
        [py, "-c", code, "check", "--staged", "--json"],
        cwd=root,
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    found = json.loads(proc.stdout)["findings"]
    return sum(1 for f in found if f["kind"] == "moved")


def main(argv: list[str] | None = None) -> int:
    if (argv if argv is not None else sys.argv[1:]) == ["--worker-floor"]:
        return worker_floor()
    if (argv if argv is not None else sys.argv[1:]) == ["--worker-custody-floor"]:
        return worker_floor(custody=True)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", dest="json_out")
    ap.add_argument("--keep", help="build under this directory and keep it")
    ap.add_argument("--editable", action="store_true", help="measure this venv instead")
    args = ap.parse_args(argv)
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="move-bench-"))
    try:
        py = PY if args.editable else str(user_install(base))
        built = build(base / "repo")
        print(f"built {BOUND_FILES * SECTIONS} bindings in {built:.1f}s", file=sys.stderr)
        row = measure(base / "repo", args.repeat, py)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    print(
        f"git status {row['git status --porcelain'] * 1000:.1f}ms  "
        f"hook {row['hook'] * 1000:.0f}ms (cold {row['hook_cold'] * 1000:.0f}ms)  "
        f"moved findings {row['moved_findings']}  "
        f"ratio {row['ratio_vs_status']:.1f}x (goal <= 10x: "
        f"{'met' if row['ratio_vs_status'] <= 10 else 'MISSED'})\n"
        f"floor {row['floor'] * 1000:.0f}ms = {row['floor_vs_status']:.1f}x git status; "
        f"hook = {row['ratio_vs_floor']:.2f}x the floor\n"
        f"custody floor {row['custody floor'] * 1000:.0f}ms = "
        f"{row['custody_floor_vs_status']:.1f}x git status; "
        f"hook = {row['ratio_vs_custody_floor']:.2f}x the custody floor"
    )
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(row, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
