"""Check benchmark: ``forest check`` on a generated corpus against hashing and git baselines.

Builds, for each N in --sizes, a seeded git repository of N files (~80% Markdown of
2-20 KiB with headings, ~20% Python), binds one heading section per Markdown file
and one function per Python file in ONE ``adopt_sections`` call (the bulk-adopt
figure), commits, and then times each command as a whole process (subprocess),
--repeat times, reporting medians:

  sha256sum -c        coreutils over every file (the cold-check yardstick)
  git status          ``git status --porcelain`` (the warm-check yardstick)
  hashlib             one Python process re-hashing every file
  forest 0.4 drift    Forest 0.4's check_file_drift looped over the files (its store
                      built with write + root_to_ground of each whole file, build cut
                      at --cap seconds: then the loop covers the files built, a bound)
  adopt               read_section of every target + one adopt_sections (repeated on a
                      reset ``.forest``)
  adopt floor         the work any bulk adoption must do, nothing recorded: read and
                      normalise every file, parse it (pulldown-cmark / ast), write one
                      body file per section (temp + rename), one FTS5 batch
  cold / cold+10%     ``python -m forest_files.doors.fastcheck`` and ``forest check`` with
                      ``.git/forest/cache`` and ``views`` emptied before each run
                      (index present); +10%: a tenth of the files edited outside their bound section
  warm                the same with the stat cache present and nothing changed
  ... whole           the same files bound whole (no parse), in a copy of the repository,
                      against ``sha256sum -c`` of them: cold ``fastcheck`` and ``forest
                      check`` (the command as installed), warm ``fastcheck``

Run:  .venv/bin/python bench/check_bench.py [--sizes 1000,10000] [--quick] [--repeat 5]
      [--cap 60] [--json out.json] [--keep DIR]
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
HERE = Path(__file__).resolve()
_WORDS = [
    "river",
    "stone",
    "ledger",
    "winter",
    "treaty",
    "harbor",
    "lantern",
    "orchard",
    "signal",
    "archive",
    "bees",
    "honey",
    "summer",
    "valley",
    "witness",
    "chapter",
    "measure",
    "copper",
    "meadow",
    "thread",
    "anchor",
    "scroll",
    "timber",
    "glacier",
    "festival",
    "brother",
    "promise",
    "quiet",
    "northern",
    "garden",
    "letter",
    "custody",
    "version",
    "bridge",
    "market",
    "evening",
    "salt",
    "compass",
    "window",
    "orbit",
    "cedar",
    "marble",
    "ferry",
    "island",
]
BOUND_HEADING = "Section 2"
BOUND_FUNCTION = "func_1"


# -- corpus --------------------------------------------------------------------------
def _para(rng: random.Random) -> str:
    return " ".join(rng.choices(_WORDS, k=rng.randint(30, 90))) + ".\n\n"


def markdown_file(i: int, rng: random.Random) -> str:
    """A document of 2-20 KiB: a title and 3-8 ``##`` sections of paragraphs."""
    target = rng.randint(2 * 1024, 20 * 1024)
    count = rng.randint(3, 8)
    bodies = [[_para(rng)] for _ in range(count)]
    size = sum(len(b[0]) for b in bodies)
    while size < target:
        para = _para(rng)
        bodies[rng.randrange(count)].append(para)
        size += len(para)
    parts = [f"# Document {i}\n\n"]
    for k, body in enumerate(bodies, start=1):
        parts.append(f"## Section {k}\n\n")
        parts.extend(body)
    return "".join(parts)


def python_file(i: int, rng: random.Random) -> str:
    """A module of 4-12 small functions."""
    out = [f'"""Module {i}."""\n\n']
    for k in range(1, rng.randint(4, 12) + 1):
        lines = [f"def func_{k}(x):\n", f'    """{" ".join(rng.choices(_WORDS, k=8))}."""\n']
        for j in range(rng.randint(3, 12)):
            lines.append(f"    x = x * {rng.randint(2, 99)} + {j}  # {rng.choice(_WORDS)}\n")
        lines.append("    return x\n\n\n")
        out.extend(lines)
    return "".join(out).rstrip("\n") + "\n"


def make_corpus(root: Path, n: int, seed: int) -> list[str]:
    """Write the files; returns one adoption target per file."""
    rng = random.Random(seed)
    targets: list[str] = []
    for i in range(n):
        folder = root / f"d{i % 100:02d}"
        folder.mkdir(exist_ok=True)
        if rng.random() < 0.8:
            rel = f"d{i % 100:02d}/doc{i}.md"
            (root / rel).write_text(markdown_file(i, rng), encoding="utf-8")
            targets.append(f"{rel}#{BOUND_HEADING}")
        else:
            rel = f"d{i % 100:02d}/mod{i}.py"
            (root / rel).write_text(python_file(i, rng), encoding="utf-8")
            targets.append(f"{rel}::{BOUND_FUNCTION}")
    return targets


def edit_outside(root: Path, paths: list[str]) -> None:
    """Append to the end of each file: past the bound section (it is never the last)."""
    for rel in paths:
        with open(root / rel, "a", encoding="utf-8") as fh:
            fh.write(
                "\nAn appended paragraph.\n"
                if rel.endswith(".md")
                else "\n\ndef appended(x):\n    return x\n"
            )


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout


# -- workers (each runs as its own process) --------------------------------------------
def worker_adopt(root: Path, listing: str = "targets.json") -> None:
    from forest_files.custody.record import adopt_sections
    from forest_files.custody.repository import Repository
    from forest_files.custody.targets import read_sections

    targets = json.loads((root.parent / listing).read_text(encoding="utf-8"))
    with Repository(root) as repo:
        limit = repo.config.max_body_bytes
        sections = read_sections(repo.root, targets, (), max_bytes=limit)
        adopt_sections(repo, sections, words="bench bulk adoption", by="bench <b@example.org>")


def worker_adopt_floor(root: Path) -> None:
    """The work any bulk adoption of these sections must do, with nothing recorded.

    Prints JSON phase times (s): read (bytes -> normalised text, file hash),
    parse (an outline of every Markdown file, ``ast.parse`` of every Python file),
    bodies (one body file per section, temp file + rename, one sync), fts (one
    FTS5 batch over the section texts). The parser and the body layout are those
    forest-files uses; the section texts are whole files cut to the bench's
    section length, so no selector logic is counted.
    """
    import ast
    import hashlib
    import sqlite3

    from forest_files.text.markdown import outline
    from forest_files.text.normalise import decode_bytes, normalise_text

    files = json.loads((root.parent / "files.json").read_text(encoding="utf-8"))
    phases: dict[str, float] = {}
    start = time.perf_counter()
    texts = []
    for rel in files:
        with open(root / rel, "rb") as fh:
            text = normalise_text(decode_bytes(fh.read(), rel))
        hashlib.sha256(text.encode("utf-8")).hexdigest()
        texts.append((rel, text))
    phases["read"] = time.perf_counter() - start
    start = time.perf_counter()
    for rel, text in texts:
        if rel.endswith(".md"):
            outline(text)
        else:
            ast.parse(text, filename=rel)
    phases["parse"] = time.perf_counter() - start
    sections = [text[:2000] for _, text in texts]
    scratch = Path(tempfile.mkdtemp(prefix="floor-", dir=root.parent))
    start = time.perf_counter()
    for body in sections:
        data = body.encode("utf-8")
        name = hashlib.sha256(data).hexdigest()
        folder = scratch / name[:2]
        folder.mkdir(exist_ok=True)
        tmp = folder / f".tmp-{name}.part"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, data)
        os.close(fd)
        os.replace(tmp, folder / f"{name}.txt")
    os.sync()
    phases["bodies"] = time.perf_counter() - start
    conn = sqlite3.connect(scratch / "fts.db", isolation_level=None)
    conn.execute("CREATE TABLE e (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(body, content='e', content_rowid='id')")
    start = time.perf_counter()
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO e (body) VALUES (?)", [(b,) for b in sections])
    conn.execute("INSERT INTO f (rowid, body) SELECT id, body FROM e")
    conn.execute("COMMIT")
    phases["fts"] = time.perf_counter() - start
    conn.close()
    shutil.rmtree(scratch)
    print(json.dumps(phases))


def worker_forest04_build(root: Path, db: Path, cap: float) -> None:
    """Forest 0.4's store: write + root_to_ground of each whole file, cut at ``cap`` s."""
    import forest_memory as fm

    files = json.loads((root.parent / "files.json").read_text(encoding="utf-8"))
    store = fm.ForestStore(db)
    store.init_schema()
    anchor = int(store.write_pair("seed", scroll_ptr={"path": "s.scroll", "offset": 0}))
    pairs: list[tuple[str, int]] = []
    start = time.perf_counter()
    for rel in files:
        body = (root / rel).read_text(encoding="utf-8")
        entry = store.write(
            body=body, bucket="note", signature="bench", origins=[(anchor, "derived_from")]
        )
        record = fm.root_to_ground(
            store,
            entry_id=entry,
            adopting_words="root this exactly as displayed",
            adopting_signature="bench",
            expected_body_hash=str(store.get(entry)["body_hash"]),  # as Forest stored it
        )
        pairs.append((rel, int(record)))
        if time.perf_counter() - start > cap:
            break
    store.conn.commit()
    (db.parent / "forest04_pairs.json").write_text(json.dumps(pairs), encoding="utf-8")


def worker_forest04_check(root: Path, db: Path) -> None:
    from forest_memory.core import ForestStore
    from forest_memory.drift import check_file_drift

    pairs = json.loads((db.parent / "forest04_pairs.json").read_text(encoding="utf-8"))
    store = ForestStore(db)
    warned = sum(len(check_file_drift(root / rel, store, rec)) for rel, rec in pairs)
    if warned:
        sys.exit(1)


def worker_hashlib(root: Path) -> None:
    import hashlib

    for rel in json.loads((root.parent / "files.json").read_text(encoding="utf-8")):
        with open(root / rel, "rb") as fh:
            hashlib.sha256(fh.read()).hexdigest()


# -- timing ----------------------------------------------------------------------------
def run_once(cmd: list[str], cwd: Path, ok: tuple[int, ...] = (0,)) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if proc.returncode not in ok:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr[-2000:]!r}")
    return elapsed


def median_of(
    cmd: list[str], cwd: Path, repeat: int, before: Any = None, ok: tuple[int, ...] = (0,)
) -> float:
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        times.append(run_once(cmd, cwd, ok))
    return statistics.median(times)


def clear_cache(root: Path) -> None:
    state = root / ".git" / "forest"  # local state lives in the git directory
    for name in ("cache", "views"):  # caches and views emptied; the index stays
        shutil.rmtree(state / name, ignore_errors=True)


def measure(n: int, args: argparse.Namespace, base: Path) -> dict[str, Any]:
    work = base / f"n{n}"
    root = work / "repo"
    root.mkdir(parents=True)
    env_root = ["git", "-c", "init.defaultBranch=main"]
    subprocess.run([*env_root, "init", "-q", str(root)], check=True)
    git(root, "config", "user.name", "bench")
    git(root, "config", "user.email", "b@example.org")
    git(root, "config", "commit.gpgsign", "false")
    targets = make_corpus(root, n, args.seed)
    files = [t.split("#")[0].split("::")[0] for t in targets]
    (work / "targets.json").write_text(json.dumps(targets), encoding="utf-8")
    (work / "files.json").write_text(json.dumps(files), encoding="utf-8")
    with open(work / "SUMS", "w", encoding="utf-8") as fh:
        subprocess.run(["sha256sum", *files], cwd=root, stdout=fh, check=True)
    from forest_files.custody.repository import Repository

    Repository.init(root, project_id="bench").close()
    git(root, "add", "-A")
    git(root, "commit", "-qm", "corpus")
    me = [PY, str(HERE)]
    res: dict[str, Any] = {"n": n, "bytes": sum((root / f).stat().st_size for f in files)}

    def reset_forest() -> None:
        git(root, "clean", "-fdxq", ".forest")
        shutil.rmtree(root / ".git" / "forest", ignore_errors=True)  # index and caches

    adopt_times = []
    reps = max(1, args.adopt_repeat)
    for i in range(reps):
        adopt_times.append(run_once([*me, "--worker", "adopt", str(root)], root))
        if i < reps - 1:
            reset_forest()
    res["adopt"] = statistics.median(adopt_times)
    floors = []
    for _ in range(reps):
        start = time.perf_counter()
        out = subprocess.run(
            [*me, "--worker", "adopt-floor", str(root)], check=True, capture_output=True, text=True
        ).stdout
        floors.append((time.perf_counter() - start, json.loads(out)))
    floors.sort(key=lambda f: f[0])
    res["adopt floor"], res["adopt floor phases"] = floors[len(floors) // 2]
    git(root, "add", "-A")
    git(root, "commit", "-qm", "adopt")

    r = args.repeat
    sums = str(work / "SUMS")
    fast = [PY, "-m", "forest_files.doors.fastcheck"]
    cli = [str(Path(PY).parent / "forest"), "check"]
    run_once(["git", "status", "--porcelain"], root)
    run_once(fast, root)  # brings the index in step once (index present from here on)
    # Interleaved rounds: each runs every figure once (cold ones right after the
    # cache is emptied, warm ones right after a cold run left it), so a load change
    # on a shared machine weighs on our figures and their yardsticks alike.
    rounds: dict[str, list[float]] = {}
    for _ in range(r):
        for name, cmd, cold in (
            ("sha256sum -c", ["sha256sum", "-c", "--quiet", sums], False),
            ("git status", ["git", "status", "--porcelain"], False),
            ("hashlib", [*me, "--worker", "hashlib", str(root)], False),
            ("cold fast", fast, True),
            ("warm fast", fast, False),
            ("cold cli", cli, True),
            ("warm cli", cli, False),
        ):
            if cold:
                clear_cache(root)
            rounds.setdefault(name, []).append(run_once(cmd, root))
    for name, times in rounds.items():
        res[name] = statistics.median(times)

    res.update(_whole_file_figures(work, root, files, r))
    edited = sorted(random.Random(args.seed + 1).sample(files, max(1, n // 10)))
    edit_outside(root, edited)
    res["cold+10% fast"] = median_of(fast, root, r, before=lambda: clear_cache(root))
    res["cold+10% cli"] = median_of(cli, root, r, before=lambda: clear_cache(root))
    git(root, "checkout", "--", ".")

    db = work / "forest04.db"
    run_once([*me, "--worker", "forest04-build", str(root), str(db), str(args.cap)], root)
    built = len(json.loads((work / "forest04_pairs.json").read_text(encoding="utf-8")))
    res["forest04 files"] = built
    res["forest 0.4 drift"] = median_of(
        [*me, "--worker", "forest04-check", str(root), str(db)], root, r, ok=(0, 1)
    )
    return res


def _whole_file_figures(work: Path, root: Path, files: list[str], r: int) -> dict[str, float]:
    """The same files bound whole (no section, no parse needed), in a copy of the
    repository: a cold check there is bounded by hashing; interleaved with
    ``sha256sum -c`` of the same files."""
    from forest_files.custody.repository import Repository

    whole = work / "whole" / "repo"
    whole.parent.mkdir()
    (whole.parent / "files.json").write_text(json.dumps(files), encoding="utf-8")
    subprocess.run(["git", "-c", "init.defaultBranch=main", "init", "-q", str(whole)], check=True)
    for rel in files:
        (whole / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / rel, whole / rel)
    Repository.init(whole, project_id="bench-whole").close()
    run_once([PY, str(HERE), "--worker", "adopt", str(whole), "files.json"], whole)
    fast = [PY, "-m", "forest_files.doors.fastcheck"]
    cli = [str(Path(PY).parent / "forest"), "check"]  # the user's command, as installed
    run_once(fast, whole)
    sums = str(work / "SUMS")
    rounds: dict[str, list[float]] = {}
    for _ in range(r):
        for name, cmd, cold in (
            ("sha256sum -c (whole)", ["sha256sum", "-c", "--quiet", sums], False),
            ("cold fast whole", fast, True),
            ("warm fast whole", fast, False),
            ("cold cli whole", cli, True),
        ):
            if cold:
                clear_cache(whole)
            rounds.setdefault(name, []).append(run_once(cmd, whole))
    return {name: statistics.median(times) for name, times in rounds.items()}


FIGURES = (
    "sha256sum -c",
    "git status",
    "hashlib",
    "forest 0.4 drift",
    "adopt",
    "adopt floor",
    "cold fast",
    "cold cli",
    "cold+10% fast",
    "cold+10% cli",
    "warm fast",
    "warm cli",
    "sha256sum -c (whole)",
    "cold fast whole",
    "warm fast whole",
    "cold cli whole",
)


def report(results: list[dict[str, Any]]) -> None:
    sizes = [r["n"] for r in results]
    head = f"{'figure':<18}" + "".join(
        f"{'N=' + str(n) + ' ms':>12}{'/sha256':>9}{'/git':>8}" for n in sizes
    )
    print(head)
    print("-" * len(head))
    for fig in FIGURES:
        line = f"{fig:<18}"
        for r in results:
            t = r[fig]
            capped = fig == "forest 0.4 drift" and r["forest04 files"] < r["n"]
            mark = ">=" if capped else ""
            line += f"{mark + format(t * 1000, '.0f'):>12}"
            line += f"{t / r['sha256sum -c']:>9.2f}{t / r['git status']:>8.2f}"
        print(line)
    for r in results:
        if r["forest04 files"] < r["n"]:
            print(
                f"note: N={r['n']}: Forest 0.4's store build was cut at {r['forest04 files']} "
                "files (--cap); its drift figure covers only those, a lower bound for all N"
            )
    for r in results:
        parts = ", ".join(f"{k} {v * 1000:.0f}" for k, v in r["adopt floor phases"].items())
        print(f"adopt floor N={r['n']} (ms, the rest is start-up): {parts}")
    if len(results) > 1:
        a, b = results[0], results[-1]
        print(
            f"adopt scaling N={b['n']}/N={a['n']}: {b['adopt'] / a['adopt']:.1f}x "
            f"(linear would be {b['n'] / a['n']:.0f}x)"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--quick", action="store_true", help="N=1,000 only")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--adopt-repeat", type=int, default=3)
    ap.add_argument("--cap", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--keep", type=Path, help="build the corpora under DIR and keep them")
    ap.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        kind, *rest = args.worker
        if kind == "adopt":
            worker_adopt(Path(rest[0]), *rest[1:])
        elif kind == "adopt-floor":
            worker_adopt_floor(Path(rest[0]))
        elif kind == "hashlib":
            worker_hashlib(Path(rest[0]))
        elif kind == "forest04-build":
            worker_forest04_build(Path(rest[0]), Path(rest[1]), float(rest[2]))
        elif kind == "forest04-check":
            worker_forest04_check(Path(rest[0]), Path(rest[1]))
        return
    sizes = [1000] if args.quick else [int(s) for s in args.sizes.split(",")]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpu(s), repeat={args.repeat}")
    with tempfile.TemporaryDirectory(prefix="check-bench-") as tmp:
        base = args.keep or Path(tmp)
        results = [measure(n, args, base) for n in sizes]
    report(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
