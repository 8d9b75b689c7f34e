"""Ledger rebuild and sync against a raw SQLite load of the same files.

Run: .venv/bin/python bench/ledger_bench.py [--sizes 10000,100000] [--quick] [--repeat R]
     [--json PATH]

For each size N (acts), in a temp git work tree: build a ledger of N acts with
``Repository.adopt_many`` (chunks of 1,000 adoptions = one segment of 1,000
``adopt`` acts each: ledger format 2 records one act per adoption), then
measure, side by side in this run:

* ``rebuild``: ``Repository.rebuild()`` (drop the index, read and check every
  segment, replay every act through the store's gates).
* ``raw``: read the same segment files, ``json.loads`` each line for its id,
  ``executemany`` into ``acts(id TEXT PRIMARY KEY, line TEXT)`` plus every body
  file into ``bodies(hash TEXT PRIMARY KEY, body TEXT)``, one transaction, in a
  fresh SQLite file. ``rebuild / raw`` is the ratio the goal (≤ 3x) is about.
* ``floor``: the index alone — the very rows the rebuild wrote (entries, edges,
  binding events, the applied-act tables), ``executemany``-ed into a fresh store
  with the same schema, triggers and indexes, bodies indexed in one FTS batch,
  nothing read, decoded, hashed or judged. No rebuild can cost less; when
  ``floor / raw`` is over 3 the goal sits below the work itself.
* ``verify``: the least a checking reader does per line — ``json`` decode, the
  canonical re-encoding compared with the line, the id's SHA-256 — nothing else.
  ``(floor + verify) / raw`` is the rebuild's own floor against the goal.
* ``forest rebuild``: the same rebuild as a user runs it, a ``forest rebuild``
  process (start-up included; the console script runs without the cyclic GC).
* ``sync0``: open the repository and sync with nothing new (a command's fixed cost).
* ``sync100``: the same with one new segment of 100 acts (100 adoptions made by a
  copy of the repository) copied in; the index is restored between repeats.

Every figure is repeated (default 3x) and the median printed; rebuild, raw,
floor, verify and ``forest rebuild`` run in interleaved rounds (one of each per
round), so a change of the machine's speed weighs on all of them. The last line
compares ``sync100`` at the largest size with the smallest: ~1 means sync costs
what the new acts cost, not what the ledger holds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from forest_files.custody.repository import Repository

BY = "Bench <bench@example.org>"
WORDS = "I adopt this text as written"
CHUNK = 1000  # adoptions per adopt_many call: one segment of 1,000 acts
WORDLIST = [
    *("river", "stone", "ledger", "forest", "root", "branch", "leaf", "spring"),
    *("flood", "field", "law", "custody", "ground", "seal", "record", "body"),
    *("segment", "act", "witness", "text", "north", "clay"),
]


def git_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_SYSTEM=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="Bench",
        GIT_AUTHOR_EMAIL="bench@example.org",
        GIT_COMMITTER_NAME="Bench",
        GIT_COMMITTER_EMAIL="bench@example.org",
        LC_ALL="C",
    )
    return env


def bodies(start: int, count: int) -> list[str]:
    n = len(WORDLIST)
    return [
        " ".join(WORDLIST[(i * k + k) % n] for k in range(1, 13)) + f" #{i}."
        for i in range(start, start + count)
    ]


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def median_of(repeat: int, fn: Callable[[], float]) -> float:
    return statistics.median(fn() for _ in range(repeat))


def build(root: Path, acts: int) -> Path:
    repo = root / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=git_env())
    os.environ.update({k: v for k, v in git_env().items() if k.startswith("GIT_")})
    Repository.init(repo, project_id="ledger-bench").close()
    adoptions = acts  # one adopt act each
    with Repository(repo) as r:
        for start in range(0, adoptions, CHUNK):
            r.adopt_many(bodies(start, min(CHUNK, adoptions - start)), words=WORDS, by=BY)
    return repo


def raw_load(repo: Path, db_path: Path) -> float:
    ledger = repo / ".forest" / "ledger"

    def run() -> None:
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{db_path}{suffix}").unlink(missing_ok=True)
        conn = sqlite3.connect(db_path, isolation_level=None)
        conn.execute("CREATE TABLE acts (id TEXT PRIMARY KEY, line TEXT)")
        conn.execute("CREATE TABLE bodies (hash TEXT PRIMARY KEY, body TEXT)")
        conn.execute("BEGIN")
        rows = []
        for path in sorted((ledger / "segments").iterdir()):
            for line in path.read_bytes().decode("utf-8").splitlines():
                rows.append((json.loads(line)["id"], line))
        conn.executemany("INSERT OR IGNORE INTO acts VALUES (?, ?)", rows)
        texts = [
            (p.stem, p.read_text(encoding="utf-8"))
            for d in sorted((ledger / "bodies").iterdir())
            for p in d.iterdir()
        ]
        conn.executemany("INSERT OR IGNORE INTO bodies VALUES (?, ?)", texts)
        conn.execute("COMMIT")
        conn.close()

    return timed(run)


# The custody tables a rebuild fills, in insert order (entries before what points at them).
_FLOOR_TABLES = (
    "entries", "edges", "binding_events", "ledger_applied", "ledger_entry_acts",
    "ledger_act_paths",
)  # fmt: skip


def index_floor(repo: Path, db_path: Path) -> float:
    """The index alone: the very rows a rebuild wrote, ``executemany``-ed into a fresh
    store (same schema, triggers and indexes; bodies indexed in one FTS batch, as a
    rebuild does), with nothing read, decoded, hashed or judged. A rebuild cannot
    cost less than this on the same machine."""
    return index_floor_of(repo / ".git" / "forest" / "woods.db", db_path)


def index_floor_of(source: Path, db_path: Path, *, view: bool = False) -> float:
    """``index_floor`` for the rows of any replayed store (an index or a view). ``view``:
    built as a view is (custody/viewbuild.py): no full-text index, the journal in
    memory and no fsync."""
    from forest_files.custody.applied import ensure_tables
    from forest_files.custody.bindings import ensure_table
    from forest_files.store.forest import ForestStore

    src = sqlite3.connect(source)
    tables = {t: src.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in _FLOOR_TABLES}
    src.close()

    def run() -> None:
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{db_path}{suffix}").unlink(missing_ok=True)
        store = ForestStore(db_path)
        try:
            if view:
                store.conn.execute("PRAGMA journal_mode = MEMORY")
                store.conn.execute("PRAGMA synchronous = OFF")
            store.init_schema()
            if view:
                store.drop_text_index()
            with store.atomic(), store.deferred_text_index():
                ensure_tables(store)
                ensure_table(store)
                for table, rows in tables.items():
                    if rows:
                        marks = ",".join("?" * len(rows[0]))
                        store.conn.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
        finally:
            store.close()

    return timed(run)


def verify_floor(repo: Path) -> float:
    """Decode each line, re-encode it canonically and compare, hash it without its id."""
    import hashlib

    from forest_files.kernel.hashing import canonical_json

    ledger = repo / ".forest" / "ledger"

    def run() -> None:
        for path in sorted((ledger / "segments").iterdir()):
            for line in path.read_bytes().split(b"\n")[:-1]:
                text = line.decode("utf-8")
                obj = json.loads(text)
                if canonical_json(obj) != text:
                    raise SystemExit("a bench line is not canonical")
                claimed = obj.pop("id")
                hashlib.sha256(canonical_json(obj).encode("utf-8")).hexdigest()
                del claimed

    return timed(run)


def rebuild_cli(repo: Path) -> float:
    forest = str(Path(sys.executable).parent / "forest")
    cmd = [forest, "rebuild", "--repo", str(repo)]
    return timed(lambda: subprocess.run(cmd, check=True, capture_output=True))


def rebuild(repo: Path) -> float:
    from forest_files.ledger import segments

    # A `forest rebuild` process decodes every segment; forget this process's memo of
    # decoded segments so every repeat pays that too.
    segments._DECODED.clear()
    with Repository(repo) as r:
        return timed(r.rebuild)


def sync_once(repo: Path, cpu: list[float] | None = None) -> float:
    """Wall time of one command's open + sync; appends this process's CPU time to ``cpu``
    (git's own subprocess excluded: on a loaded machine wall time mostly waits)."""
    start = time.process_time()

    def run() -> None:
        with Repository(repo) as r:
            r.sync()

    wall = timed(run)
    if cpu is not None:
        cpu.append(time.process_time() - start)
    return wall


def prepare_new_segment(root: Path, repo: Path, acts: int) -> tuple[Path, Path]:
    """A copy of ``repo`` records ``acts`` new acts; returns (segment file, bodies dir)."""
    copy = root / "copy"
    shutil.copytree(repo, copy)
    before = {p.name for p in (copy / ".forest/ledger/segments").iterdir()}
    with Repository(copy) as r:
        r.adopt_many(bodies(10**9, acts), words=WORDS, by=BY)
    [new] = [p for p in (copy / ".forest/ledger/segments").iterdir() if p.name not in before]
    return new, copy / ".forest/ledger/bodies"


def measure(size: int, repeat: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="ledger-bench-") as tmp:
        root = Path(tmp)
        t0 = time.perf_counter()
        repo = build(root, size)
        built = time.perf_counter() - t0
        print(f"  N={size:,}: built in {built:.1f}s", file=sys.stderr, flush=True)
        # One rebuild first so the page cache holds the files for both contenders.
        rebuild(repo)
        # Interleaved rounds: each runs every figure once, so a change of the shared
        # machine's speed weighs on a rebuild and its yardsticks alike.
        figures: dict[str, Callable[[], float]] = {
            "raw": lambda: raw_load(repo, root / "raw.db"),
            "floor": lambda: index_floor(repo, root / "floor.db"),
            "rebuild": lambda: rebuild(repo),
            "verify": lambda: verify_floor(repo),
            "cli": lambda: rebuild_cli(repo),
        }
        rounds: dict[str, list[float]] = {name: [] for name in figures}
        for _ in range(repeat):
            for name, run in figures.items():
                rounds[name].append(run())
        raw, floor, rebuilt, checked, by_cli = (statistics.median(rounds[name]) for name in figures)
        index = repo / ".git" / "forest" / "woods.db"
        saved = root / "woods.saved"
        shutil.copy(index, saved)
        sync0 = median_of(repeat, lambda: sync_once(repo))
        segment, new_bodies = prepare_new_segment(root, repo, 100)
        shutil.copytree(new_bodies, repo / ".forest/ledger/bodies", dirs_exist_ok=True)
        target = repo / ".forest/ledger/segments" / segment.name

        cpu: list[float] = []

        def sync_new() -> float:
            for suffix in ("-wal", "-shm"):
                Path(f"{index}{suffix}").unlink(missing_ok=True)
            shutil.copy(saved, index)
            shutil.copy(segment, target)
            return sync_once(repo, cpu)

        sync100 = median_of(repeat, sync_new)
        return {
            "acts": size,
            "build_s": built,
            "rebuild_s": rebuilt,
            "raw_s": raw,
            "rebuild_over_raw": rebuilt / raw,
            "floor_s": floor,
            "floor_over_raw": floor / raw,
            "rebuild_over_floor": rebuilt / floor,
            "rebuild_us_per_act": rebuilt / size * 1e6,
            "verify_s": checked,
            "own_floor_over_raw": (floor + checked) / raw,
            "cli_rebuild_s": by_cli,
            "cli_rebuild_over_raw": by_cli / raw,
            "sync0_ms": sync0 * 1e3,
            "sync100_ms": sync100 * 1e3,
            "sync100_cpu_ms": statistics.median(cpu) * 1e3,
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000", help="ledger sizes in acts")
    parser.add_argument("--quick", action="store_true", help="sizes 2,000 and 10,000")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--json", dest="json_path", help="write the figures here")
    args = parser.parse_args(argv)
    sizes = [2000, 10000] if args.quick else [int(s) for s in args.sizes.split(",")]
    rows = [measure(size, args.repeat) for size in sizes]
    print(
        f"{'acts':>8} {'rebuild s':>10} {'raw s':>8} {'ratio':>6} {'floor s':>8} "
        f"{'floor/raw':>9} {'rb/floor':>8} {'µs/act':>7} "
        f"{'sync0 ms':>9} {'sync100 ms':>11} {'cpu ms':>7}"
    )
    for row in rows:
        print(
            f"{row['acts']:>8,} {row['rebuild_s']:>10.2f} {row['raw_s']:>8.3f} "
            f"{row['rebuild_over_raw']:>5.1f}x {row['floor_s']:>8.3f} "
            f"{row['floor_over_raw']:>8.1f}x {row['rebuild_over_floor']:>7.1f}x "
            f"{row['rebuild_us_per_act']:>7.0f} "
            f"{row['sync0_ms']:>9.1f} {row['sync100_ms']:>11.1f} {row['sync100_cpu_ms']:>7.1f}"
        )
    for row in rows:
        print(
            f"{row['acts']:>8,}: verify floor {row['verify_s']:.3f}s, (floor + verify) / raw "
            f"{row['own_floor_over_raw']:.1f}x; `forest rebuild` process "
            f"{row['cli_rebuild_s']:.2f}s = {row['cli_rebuild_over_raw']:.1f}x raw"
        )
    summary: dict[str, Any] = {"repeat": args.repeat, "sizes": rows}
    if len(rows) > 1:
        small, big = rows[0], rows[-1]
        ratio = big["sync100_ms"] / small["sync100_ms"]
        cpu_ratio = big["sync100_cpu_ms"] / small["sync100_cpu_ms"]
        summary["sync100_big_over_small"] = ratio
        summary["sync100_cpu_big_over_small"] = cpu_ratio
        print(
            f"sync of 100 new acts: {big['acts']:,} acts / {small['acts']:,} acts = {ratio:.2f}x "
            f"wall, {cpu_ratio:.2f}x CPU (ledger {big['acts'] / small['acts']:.0f}x larger)"
        )
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
