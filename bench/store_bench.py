"""Store benchmark: the published Forest 0.4 (``forest_memory``) against ``forest_files``.

Measures, for each package in a fresh SQLite file of its own, in the same run:
  write      N ``write(bucket="note", origins=[(anchor, "derived_from")])`` calls (ops/s)
  root       ``root_to_ground`` of those N entries (ops/s)
  supersede  ``supersede`` of N/10 rooted entries (ops/s)
  recall     ``recall_similar`` latency over 200 seeded 1-2 word queries (p50/p95, ms)
Both packages go through one adapter (``Driver``), so the only difference is the store.
Forest's root is quadratic: any Forest loop is cut at --cap seconds and the figure is then
a bound (time is a lower bound, throughput an upper bound). ``--big N`` runs ours alone.

Run:  .venv/bin/python bench/store_bench.py [--sizes 1000,10000] [--big 100000] [--quick]
      [--repeat 3] [--cap 120] [--json out.json]
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import math
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

_WORD_TEXT = (
    "river stone ledger winter treaty harbor lantern orchard signal archive bees "
    "honey summer valley witness chapter measure copper meadow thread anchor scroll "
    "timber glacier festival brother promise quiet northern garden letter custody "
    "version bridge market evening salt compass window orbit cedar marble ferry "
    "island"
)
WORDS = tuple(_WORD_TEXT.split())
QUERIES = 200
FIGURES = ("write", "root", "supersede", "recall_p50_ms", "recall_p95_ms")
Store = Any  # either package's ForestStore; the adapter keeps the call shapes identical


def sentences(n: int, rng: random.Random) -> list[str]:
    """n distinct seeded sentences (the index suffix keeps root targets distinct)."""
    return [f"{' '.join(rng.choices(WORDS, k=rng.randint(6, 14)))} number {i}." for i in range(n)]


def queries(rng: random.Random) -> list[str]:
    return [" ".join(rng.sample(WORDS, rng.randint(1, 2))) for _ in range(QUERIES)]


@dataclass(frozen=True)
class Driver:
    """The one adapter both packages are driven through."""

    name: str
    mod: ModuleType
    supersede_takes_hash: bool

    def open(self, path: Path) -> Store:
        store = self.mod.ForestStore(path)
        store.init_schema()
        return store

    def seed(self, store: Store) -> int:
        return int(store.write_pair("seed", scroll_ptr={"path": "s.scroll", "offset": 0}))

    def write(self, store: Store, body: str, anchor: int) -> int:
        origins = [(anchor, "derived_from")]
        return int(store.write(body=body, bucket="note", signature="bench", origins=origins))

    def root(self, store: Store, entry_id: int, body: str) -> None:
        self.mod.root_to_ground(
            store,
            entry_id=entry_id,
            adopting_words="root this exactly as displayed",
            adopting_signature="bench",
            expected_body_hash=self.mod.hash_body(body),
        )

    def supersede(self, store: Store, old_id: int, new_body: str) -> None:
        extra = {"expected_body_hash": self.mod.hash_body(new_body)}
        store.supersede(
            old_id=old_id,
            new_body=new_body,
            adopting_words="replace with this exact text",
            **(extra if self.supersede_takes_hash else {}),
        )

    def recall(self, store: Store, query: str) -> None:
        store.recall_similar(query)


def load(name: str, module: str, takes_hash: bool) -> Driver | None:
    try:
        mod = importlib.import_module(module)
        for attr in ("ForestStore", "root_to_ground", "hash_body"):
            getattr(mod, attr)
    except (ImportError, AttributeError) as exc:
        print(f"note: {name} ({module}) not usable here, skipped: {exc}", file=sys.stderr)
        return None
    return Driver(name, mod, takes_hash)


def timed_loop(items: list[Any], op: Callable[[Any], object], cap: float) -> dict[str, Any]:
    """Run op over items; stop at cap seconds. Returns ops/s and whether it was capped."""
    gc.collect()
    done, start = 0, time.perf_counter()
    for item in items:
        op(item)
        done += 1
        if time.perf_counter() - start > cap and done < len(items):
            break
    elapsed = time.perf_counter() - start
    return {"ops_s": done / elapsed, "done": done, "of": len(items), "seconds": elapsed}


def recall_latency(drv: Driver, store: Store, qs: list[str]) -> tuple[float, float]:
    samples = []
    for q in qs:
        t0 = time.perf_counter()
        drv.recall(store, q)
        samples.append((time.perf_counter() - t0) * 1000.0)  # ms
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49], cuts[94]


def run_once(drv: Driver, n: int, cap: float, workdir: Path) -> dict[str, Any]:
    bodies = sentences(n, random.Random(42))
    store = drv.open(workdir / f"{drv.name}-{n}.db")
    try:
        anchor = drv.seed(store)
        ids: list[int] = []
        w = timed_loop(bodies, lambda b: ids.append(drv.write(store, b, anchor)), cap)
        pairs = list(zip(ids, bodies, strict=False))
        r = timed_loop(pairs, lambda p: drv.root(store, p[0], p[1]), cap)
        rooted = pairs[: min(n // 10, r["done"])]
        s = timed_loop(rooted, lambda p: drv.supersede(store, p[0], p[1] + " Revised."), cap)
        p50, p95 = recall_latency(drv, store, queries(random.Random(42)))
    finally:
        store.close()
    return {"write": w, "root": r, "supersede": s, "recall_p50_ms": p50, "recall_p95_ms": p95}


def median_run(drv: Driver, n: int, cap: float, repeat: int, workdir: Path) -> dict[str, Any]:
    """Median of each figure over `repeat` fresh runs; a loop that hit the cap stays flagged."""
    runs = []
    for i in range(repeat):
        rundir = workdir / f"r{i}"
        rundir.mkdir(exist_ok=True)
        runs.append(run_once(drv, n, cap, rundir))
    out: dict[str, Any] = {}
    for fig in FIGURES:
        vals = [run[fig] for run in runs]
        if isinstance(vals[0], dict):
            out[fig] = {
                "ops_s": statistics.median(v["ops_s"] for v in vals),
                "n": vals[0]["of"],
                "capped": any(v["done"] < v["of"] for v in vals),
                "seconds": statistics.median(v["seconds"] for v in vals),
            }
            # Time for all n; when capped a lower bound (per-op cost never falls).
            out[fig]["time_s"] = out[fig]["n"] / out[fig]["ops_s"]
        else:
            out[fig] = statistics.median(vals)
    return out


def cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, dict):
        return f"{'<=' if value['capped'] else ''}{value['ops_s']:,.0f} ops/s"
    return f"{value:.3f} ms"


def ratio(theirs: Any, ours: Any) -> str:
    """Throughput: ours/theirs (higher is better). Latency: ours/theirs (lower is better)."""
    if theirs is None or ours is None:
        return "-"
    if isinstance(ours, dict):
        bound = ">=" if theirs["capped"] else ""  # ours is never capped
        return f"{bound}{ours['ops_s'] / theirs['ops_s']:.2f}x"
    return f"{ours / theirs:.2f}x" if theirs else "-"


def table(results: dict[str, dict[int, dict[str, Any]]], sizes: list[int]) -> list[list[str]]:
    rows = [["figure", "forest 0.4", "forest-files", "ratio"]]
    for n in sizes:
        theirs = results.get("forest", {}).get(n)
        ours = results.get("forest-files", {}).get(n)
        for fig in FIGURES:
            t = theirs[fig] if theirs else None
            o = ours[fig] if ours else None
            count = n // 10 if fig == "supersede" else n
            label = f"{fig} (n={count:,})" if not fig.startswith("recall") else f"{fig} @{n:,}"
            rows.append([label, cell(t), cell(o), ratio(t, o)])
    return rows


def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--sizes", default="1000,10000", help="comma list of N for both packages")
    ap.add_argument("--big", type=int, default=0, help="also run forest-files alone at this N")
    ap.add_argument("--quick", action="store_true", help="N=1000 only, no --big")
    ap.add_argument("--repeat", type=int, default=1, help="fresh runs per figure; median kept")
    ap.add_argument("--cap", type=float, default=120.0, help="seconds before a Forest loop is cut")
    ap.add_argument("--json", type=Path, help="write the results here as JSON")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    sizes = [1000] if args.quick else [int(s) for s in args.sizes.split(",") if s.strip()]
    big = 0 if args.quick else args.big
    drivers = [
        d
        for d in (
            load("forest", "forest_memory", takes_hash=False),
            load("forest-files", "forest_files", takes_hash=True),
        )
        if d is not None
    ]
    if not drivers:
        print("neither package is importable; nothing to measure", file=sys.stderr)
        return 2
    plan = [(n, d) for n in sizes for d in drivers]
    # Forest's root is quadratic: the big size runs ours alone.
    plan += [(big, d) for d in drivers if big and d.name == "forest-files"]
    results: dict[str, dict[int, dict[str, Any]]] = {d.name: {} for d in drivers}
    with tempfile.TemporaryDirectory(prefix="ff-bench-") as tmp:
        for n, drv in plan:
            print(f"... {drv.name} n={n:,}", file=sys.stderr, flush=True)
            workdir = Path(tmp) / f"{drv.name}-{n}"
            workdir.mkdir(exist_ok=True)
            cap = args.cap if drv.name == "forest" else math.inf  # only Forest is quadratic
            results[drv.name][n] = median_run(drv, n, cap, args.repeat, workdir)
    rows = table(results, sorted({n for n, _ in plan}))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    print("ratio = forest-files / forest 0.4 (ops/s: higher is better; ms: lower is better);")
    print("'<=' marks a loop cut at --cap: throughput at most that, time for all n at least")
    print("n / that (JSON time_s).")
    if args.json:
        meta: dict[str, Any] = {"python": platform.python_version(), "repeat": args.repeat}
        meta |= {"sqlite": sqlite3.sqlite_version, "platform": platform.platform()}
        meta |= {"sizes": sizes, "big": big, "queries": QUERIES, "cap_s": args.cap}
        doc = {"meta": meta, "results": results, "table": rows}
        args.json.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
