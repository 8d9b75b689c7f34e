"""Parse benchmark: one Markdown file holding hundreds of bound sections (release notes).

Builds a repository whose ``docs/releases.md`` holds --sections (default 300)
``## vX.Y.Z`` releases, each with ``### Added`` / ``### Fixed`` lists (~250 KiB in
all), every release section bound in ONE adoption, on ``main``; and two branches
of --commits commits (default 20) that each edit one release section:
``edits`` (the edit alone: the gate reports each as drifted, exit 1) and
``amends`` (each edit superseded in the same commit: exit 0). forest-files is
installed as a user gets it (a wheel of this checkout in a temporary venv, as
hook_bench.py does; ``--editable``: the development venv). Whole processes,
medians of --repeat interleaved rounds (--ci-repeat for the gate):

  python -c pass            the interpreter's floor (same venv)
  git status --porcelain    the yardstick of the hook
  hook (e)                  ``.git/hooks/pre-commit`` with one release section
                            edited and staged (a new edit each round: no cache
                            keyed by content answers it), exit 1
  hook (p)                  the preamble above every release edited, exit 0
  ci edits / ci amends      ``forest ci --base origin/main --format json`` in a
                            fresh ``git clone`` (clone time excluded), the branch
                            checked out
  parse floor               one process doing the parsing any gate must: for each
                            commit of the range and HEAD, the file's blob read
                            (one ``git cat-file --batch``), parsed once and every
                            bound section hashed

Each distinct content of the file should be parsed once per command, so the
hook costs about one parse and the gate about one per commit. Goals (the bug
this bench was written for): hook (e) <= 0.5 s at 300 sections; ci over 20
commits on a fresh clone <= 10 s.

Run:  .venv/bin/python bench/parse_bench.py [--sections 300] [--commits 20]
      [--repeat 7] [--ci-repeat 3] [--json out.json] [--keep DIR] [--editable]
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hook_bench import GIT_ENV, PY, _env, _run, _text, git, install_hooks, user_install

NOTES = "docs/releases.md"
WORDS = "I adopt these release notes as written"
BY = "Bench <bench@example.org>"


def version(k: int) -> str:
    return f"v{k // 100}.{(k // 10) % 10}.{k % 10}"


def release_notes(count: int, seed: int, marks: dict[int, str] | None = None) -> str:
    """The file: a preamble, then ``count`` releases newest first; ``marks`` adds a
    line to the ``### Added`` list of the numbered releases."""
    rng = random.Random(seed)
    marks = marks or {}
    out = ["# Release notes\n\nEvery release of the project, newest first.\n\n"]
    for k in range(count, 0, -1):
        added = _text(rng, 400).strip()
        fixed = _text(rng, 300).strip()
        extra = f"- {marks[k]}\n" if k in marks else ""
        out.append(
            f"## {version(k)}\n\n### Added\n\n- {added}\n{extra}\n### Fixed\n\n- {fixed}\n\n"
        )
    return "".join(out)


def build(root: Path, count: int, commits: int, seed: int = 5) -> float:
    """The repository and its two branches (see the module header); build seconds."""
    from forest_files.custody.record import adopt_sections
    from forest_files.custody.repository import Repository
    from forest_files.custody.targets import read_sections

    os.environ.update(GIT_ENV)
    start = time.perf_counter()
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    Repository.init(root).close()
    (root / "docs").mkdir()
    (root / NOTES).write_text(release_notes(count, seed), encoding="utf-8")
    (root / "docs" / "index.md").write_text("# Docs\n\nSee the release notes.\n", "utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "docs")
    with Repository(root) as r:
        targets = [f"{NOTES}#Release notes/{version(k)}" for k in range(count, 0, -1)]
        found = read_sections(root, targets, (), max_bytes=r.config.max_body_bytes)
        adopt_sections(r, found, words=WORDS, by=BY)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "adopt the release notes")
    for branch in ("edits", "amends"):
        git(root, "checkout", "-q", "-b", branch, "main")
        marks: dict[int, str] = {}
        for i in range(commits):
            k = count - (i * 7) % count  # spread over the file, newest first
            marks[k] = f"Amended in commit {i} of {branch}."
            (root / NOTES).write_text(release_notes(count, seed, marks), encoding="utf-8")
            if branch == "amends":
                _supersede(root, f"{NOTES}#Release notes/{version(k)}")
            git(root, "add", "-A")
            git(root, "commit", "-q", "--no-verify", "-m", f"{branch} {i}")
    git(root, "checkout", "-q", "main")
    return time.perf_counter() - start


def _supersede(root: Path, target: str) -> None:
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.lookup import find_binding
    from forest_files.custody.record import supersede_section
    from forest_files.custody.repository import Repository
    from forest_files.custody.targets import read_section
    from forest_files.kernel.hashing import hash_body

    with Repository(root) as r:
        binding = find_binding(all_bindings(r.synced()), target)
        section = read_section(root, target, (), max_bytes=r.config.max_body_bytes)
        shown = hash_body(section.text)
        supersede_section(r, binding, section, words="amend", by=BY, expected_body_hash=shown)


def _stage(root: Path, case: str, run: int) -> None:
    """Stage a new edit: inside the newest release (``e``) or in the preamble (``p``)."""
    git(root, "reset", "-q", "--hard")
    path = root / NOTES
    text = path.read_text(encoding="utf-8")
    if case == "e":
        text = text.replace("### Added\n\n- ", f"### Added\n\n- Edit {run}. ", 1)
    else:
        text = text.replace("newest first.", f"newest first (revision {run}).", 1)
    path.write_text(text, encoding="utf-8")
    git(root, "add", NOTES)


def measure_hook(root: Path, repeat: int, py: str) -> dict[str, Any]:
    hook = install_hooks(root, py)
    out: dict[str, Any] = {}
    for case, want in (("e", 1), ("p", 0)):
        commands = {
            "python -c pass": [py, "-c", "pass"],
            "git status --porcelain": ["git", "status", "--porcelain"],
            "hook": hook,
        }
        _stage(root, case, 0)
        _run(hook, root)  # the view of HEAD's ledger, as any earlier hook leaves it
        times: dict[str, list[float]] = {name: [] for name in commands}
        for run in range(repeat):
            _stage(root, case, run + 1)
            for name, cmd in commands.items():
                seconds, code = _run(cmd, root)
                if name == "hook" and code != want:
                    raise SystemExit(f"hook ({case}) exited {code}, expected {want}")
                times[name].append(seconds)
        out[case] = {name: statistics.median(v) for name, v in times.items()}
    git(root, "reset", "-q", "--hard")
    return out


def fresh_clone(origin: Path, into: Path, branch: str) -> Path:
    if into.exists():
        shutil.rmtree(into)
    subprocess.run(["git", "clone", "-q", str(origin), str(into)], check=True, env=_env())
    git(into, "checkout", "-q", branch)
    return into


def worker_floor(clone: Path, count: int) -> None:
    """Parse the file once per commit of the range and HEAD; hash every bound section."""
    import hashlib

    from forest_files.text.markdown import outline
    from forest_files.text.normalise import LineIndex, decode_bytes

    commits = git(clone, "rev-list", "origin/main..HEAD").split()
    spec = "".join(f"{c}:{NOTES}\n" for c in commits)
    proc = subprocess.run(
        ["git", "cat-file", "--batch"], cwd=clone, input=spec.encode(), capture_output=True
    )
    data, pos, hashed = proc.stdout, 0, 0
    while pos < len(data):
        header_end = data.index(b"\n", pos)
        size = int(data[pos:header_end].split()[2])
        blob = data[header_end + 1 : header_end + 1 + size]
        pos = header_end + 2 + size
        text = decode_bytes(blob, NOTES)
        lines = LineIndex(text)
        for h in outline(text, lines):
            if h.level == 2:
                lo, hi = lines.offset(h.start_line), lines.offset(h.end_line + 1)
                hashlib.sha256(text[lo:hi].encode("utf-8")).hexdigest()
                hashed += 1
    assert hashed == count * len(commits), (hashed, count, len(commits))


def measure_ci(origin: Path, work: Path, repeat: int, forest: str, count: int) -> dict[str, Any]:
    gate = [forest, "ci", "--base", "origin/main", "--format", "json"]
    times: dict[str, list[float]] = {"ci edits": [], "ci amends": [], "parse floor": []}
    found: dict[str, int] = {}
    for k in range(repeat):
        for branch, want in (("edits", 1), ("amends", 0)):
            clone = fresh_clone(origin, work / f"clone-{k}", branch)
            start = time.perf_counter()
            proc = subprocess.run(gate, cwd=clone, env=_env(), capture_output=True, check=False)
            times[f"ci {branch}"].append(time.perf_counter() - start)
            if proc.returncode != want:
                sys.stderr.write(proc.stdout.decode()[-2000:] + proc.stderr.decode()[-2000:])
                raise SystemExit(f"forest ci ({branch}) exited {proc.returncode}, expected {want}")
            report = json.loads(proc.stdout)
            found[f"{branch} findings"] = len(report["findings"])
            found[f"{branch} judged"] = len(report["range"]["judged"])
            if branch == "edits":
                floor = [sys.executable, __file__, "--worker-floor", str(clone), str(count)]
                seconds, code = _run(floor, clone)
                if code != 0:
                    raise SystemExit("the parse floor failed")
                times["parse floor"].append(seconds)
            shutil.rmtree(clone)
    return {**{name: statistics.median(v) for name, v in times.items()}, **found}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker-floor"]:
        worker_floor(Path(argv[1]), int(argv[2]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sections", type=int, default=300)
    ap.add_argument("--commits", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--ci-repeat", type=int, default=3)
    ap.add_argument("--json", dest="json_out")
    ap.add_argument("--keep", help="build under this directory and keep it")
    ap.add_argument("--editable", action="store_true", help="time the development venv")
    args = ap.parse_args(argv)
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="parse-bench-"))
    try:
        py = PY if args.editable else str(user_install(base))
        forest = str(Path(py).parent / "forest")
        origin = base / "origin"
        if origin.exists():
            shutil.rmtree(origin)
        built = build(origin, args.sections, args.commits)
        size = (origin / NOTES).stat().st_size
        print(f"built {args.sections} bound sections ({size // 1024} KiB) in {built:.1f}s",
              file=sys.stderr)  # fmt: skip
        work = base / "work"
        work.mkdir(exist_ok=True)
        res: dict[str, Any] = {"sections": args.sections, "commits": args.commits, "bytes": size}
        res["hook"] = measure_hook(origin, args.repeat, py)
        res["ci"] = measure_ci(origin, work, args.ci_repeat, forest, args.sections)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    _table(res)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(res, indent=2), encoding="utf-8")
    return 0


def _table(res: dict[str, Any]) -> None:
    print(f"{res['sections']} bound sections in one file ({res['bytes'] // 1024} KiB)")
    for case, label in (("e", "one section edited"), ("p", "preamble edited")):
        row = res["hook"][case]
        status, hook = row["git status --porcelain"], row["hook"]
        print(
            f"  hook ({case}) {label:<20} {hook * 1000:>8.0f} ms  {hook / status:>7.1f}x git status"
            f"  (git status {status * 1000:.0f} ms, python -c pass "
            f"{row['python -c pass'] * 1000:.0f} ms)"
        )
    ci = res["ci"]
    floor = ci["parse floor"]
    for branch in ("edits", "amends"):
        t = ci[f"ci {branch}"]
        print(
            f"  ci {branch:<7} {res['commits']} commits, fresh clone {t * 1000:>8.0f} ms"
            f"  {t / floor:>7.1f}x parse floor  ({ci[f'{branch} judged']} judged, "
            f"{ci[f'{branch} findings']} findings)"
        )
    print(f"  parse floor ({res['commits']} contents, one parse each) {floor * 1000:.0f} ms")
    hook, gate = res["hook"]["e"]["hook"], max(ci["ci edits"], ci["ci amends"])
    print(
        f"goals: hook (e) {hook:.2f}s <= 0.5s {'met' if hook <= 0.5 else 'MISSED'}; "
        f"ci {gate:.1f}s <= 10s {'met' if gate <= 10 else 'MISSED'}"
    )


if __name__ == "__main__":
    sys.exit(main())
