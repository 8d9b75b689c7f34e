"""Hook benchmark: whole-process wall time of the installed pre-commit hook against git.

For each N in --sizes (default 100 and 10,000) it builds a git repository of N
Markdown files, binds the ``## Bound`` section of each in ONE ``adopt_sections``
call, and commits. Every file is ~2 KiB except ``docs/d00000.md``, ~20 KiB (the
one the commits change; small files keep the 10k build fast). forest-files is
installed as a user gets it (a wheel of this checkout in a temp venv; see
``user_install``; ``--editable`` measures the development venv instead) and
``forest hooks install`` puts the hook in place. Then, for three staged changes,
it times as whole processes (cwd = the repository), --repeat times each, medians:

  python -c pass              the interpreter's floor (the same venv's python)
  git status --porcelain      the yardstick the goals are stated against
  git diff --cached --quiet   git's own cheapest staged question
  hook                        ``.git/hooks/pre-commit``: exactly what git runs

  (a)  an unbound new file staged                      hook exits 0
  (b)  the bound section of the 20 KiB file edited     hook exits 1
  (b') the 20 KiB file edited outside its section      hook exits 0
  (c)  the bound section edited and superseded (``forest supersede``), its ledger
       segment staged with it: hook exits 0. A new ledger each round, so each run
       builds a view (from HEAD's cached one) and judges what the change can move

The first hook run of each size, with ``.git/forest/views`` emptied (the
custody view is built from the staged ledger), is reported apart as "cold".
Goals at 10,000 bindings: (a) <= 2x git status --porcelain; (b) <= 4x.

Run:  .venv/bin/python bench/hook_bench.py [--sizes 100,10000] [--repeat 7]
      [--json out.json] [--keep DIR] [--editable]
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
REPO = Path(__file__).resolve().parent.parent
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


def user_install(base: Path) -> Path:
    """A venv holding forest-files installed from a wheel of this checkout, as a user
    installs it. Returns its python. The development venv's editable install adds
    a start-up import hook (~20 ms a process) that no user pays. The wheel is
    installed without dependencies; a ``.pth`` line lends it this venv's
    site-packages (pyromark, ...), so no download beyond the build backend. A ``--keep``
    directory's earlier wheel and venv are removed first: pip skips reinstalling a
    wheel of the same version, so the code measured would be the old checkout's."""
    import sysconfig

    wheels = base / "wheel"
    for old in (wheels, base / "user-venv"):
        shutil.rmtree(old, ignore_errors=True)
    subprocess.run(
        [PY, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(REPO)],
        check=True,
        capture_output=True,
    )
    venv = base / "user-venv"
    subprocess.run([PY, "-m", "venv", "--without-pip", str(venv)], check=True)
    user_py = venv / "bin" / "python"
    wheel = next(wheels.glob("forest_files-*.whl"))
    subprocess.run(
        [PY, "-m", "pip", "--python", str(user_py), "install", "-q", "--no-deps", str(wheel)],
        check=True,
        capture_output=True,
    )
    site = subprocess.run(
        [str(user_py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(site, "zz-forest-bench-deps.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    return user_py


def build(root: Path, n: int, seed: int = 7, *, whole: bool = False) -> float:
    """Repository of ``n`` bound documents at ``root`` (each one's ``## Bound``
    section, or with ``whole`` the whole file); returns the build seconds."""
    from forest_files.custody.record import adopt_sections
    from forest_files.custody.repository import Repository
    from forest_files.custody.targets import read_sections

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
        targets = [f"docs/d{i:05d}.md" + ("" if whole else "#Bound") for i in range(n)]
        sections = read_sections(root, targets, (), max_bytes=limit)
        adopt_sections(r, sections, words=WORDS, by=BY)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "adopt")
    return time.perf_counter() - start


def _run(cmd: list[str], cwd: Path) -> tuple[float, int]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, check=False)
    return time.perf_counter() - start, proc.returncode


_PY = {"python": sys.executable}  # the interpreter whose forest-files records (c)


def _stage(root: Path, case: str, run: int = 0) -> None:
    """Stage ``case``'s change; ``run`` makes each edit's text new, so no cache keyed by
    content (the parse cache, a cached view) answers a repeated run."""
    git(root, "reset", "-q", "--hard")
    git(root, "clean", "-fdq")  # untracked only: .git/forest (index, caches) stays
    big = root / "docs" / "d00000.md"
    if case == "a":
        (root / "unbound.txt").write_text("not bound\n", encoding="utf-8")
        git(root, "add", "unbound.txt")
    elif case == "b":
        text = big.read_text(encoding="utf-8")
        edit = f"## Bound\n\nAn edit, number {run}.\n\n"
        big.write_text(text.replace("## Bound\n\n", edit, 1), "utf-8")
        git(root, "add", "docs/d00000.md")
    elif case == "b'":
        appendix = f"\nAn appendix, number {run}.\n"
        big.write_text(big.read_text(encoding="utf-8") + appendix, "utf-8")
        git(root, "add", "docs/d00000.md")
    else:  # (c): the bound section edited AND superseded; segment and file staged
        text = big.read_text(encoding="utf-8")
        edit = f"## Bound\n\nA superseding edit, number {run}.\n\n"
        big.write_text(text.replace("## Bound\n\n", edit, 1), "utf-8")
        cli = "from forest_files.doors.cli import main; main()"
        words = ["--words", f"Amended, number {run}", "--as", BY]
        subprocess.run(
            [_PY["python"], "-c", cli, "supersede", "docs/d00000.md#Bound", *words],
            cwd=root,
            env=_env(),
            check=True,
            capture_output=True,
        )
        git(root, "add", "-A")


CASES = {
    "a": ("unbound new file staged", 0),
    "b": ("bound section of the 20 KiB file edited", 1),
    "b'": ("20 KiB file edited outside its section", 0),
    "c": ("bound section edited and superseded, segment staged with it", 0),
}


def baselines(py: str) -> dict[str, list[str]]:
    return {
        "python -c pass": [py, "-c", "pass"],
        "git status --porcelain": ["git", "status", "--porcelain"],
        "git diff --cached --quiet": ["git", "diff", "--cached", "--quiet"],
    }


def install_hooks(root: Path, py: str) -> list[str]:
    """``forest hooks install`` with ``py``; returns the command git runs on commit."""
    code = "from forest_files.doors.cli import main; main()"
    subprocess.run([py, "-c", code, "hooks", "install"], cwd=root, env=_env(), check=True)
    return [str(root / ".git" / "hooks" / "pre-commit")]


def measure(root: Path, repeat: int, py: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    hook = install_hooks(root, py)
    _PY["python"] = py
    views = root / ".git" / "forest" / "views"
    for case, (label, want) in CASES.items():
        _stage(root, case)
        shutil.rmtree(views, ignore_errors=True)
        cold, code = _run(hook, root)
        if code != want:
            raise SystemExit(f"case {case}: hook exited {code}, expected {want}")
        if case == "c":  # HEAD's view again (the cold run replaced the cache): what a
            _stage(root, "a")  # hook after an ordinary commit leaves behind
            _run(hook, root)
        row: dict[str, Any] = {"label": label, "hook_exit": code, "hook_cold": cold}
        commands = {**baselines(py), "hook": hook}
        times: dict[str, list[float]] = {name: [] for name in commands}
        # Interleaved: each round runs every command once, so a load change on a
        # shared machine weighs on the hook and its yardsticks alike.
        for run in range(repeat):
            if case != "a":
                _stage(root, case, run + 1)  # a new edit each round, outside the timing
            for name, cmd in commands.items():
                seconds, code = _run(cmd, root)
                if name == "hook" and code != want:
                    raise SystemExit(f"case {case}: hook exited {code}, expected {want}")
                times[name].append(seconds)
        for name, values in times.items():
            row[name] = statistics.median(values)
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
    ap.add_argument(
        "--editable",
        action="store_true",
        help="measure this venv's editable install instead of a wheel installed in a temp venv",
    )
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="hook-bench-"))
    results: dict[str, Any] = {"repeat": args.repeat, "sizes": {}}
    try:
        py = PY if args.editable else str(user_install(base))
        results["install"] = "editable (development venv)" if args.editable else "wheel"
        for n in sizes:
            root = base / f"repo-{n}"
            if root.exists():
                shutil.rmtree(root)
            built = build(root, n)
            print(f"built {n} bindings in {built:.1f}s", file=sys.stderr)
            results["sizes"][str(n)] = {"build_s": built, "cases": measure(root, args.repeat, py)}
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
