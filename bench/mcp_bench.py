"""MCP benchmark: ``forest mcp`` start to first tool answer, and p50/p95 of ``recall``
and ``read_ground``, driven by the SDK's own stdio client (issue 27's table).

Builds the seeded repository of doors_bench (N files, one bound section each,
adopted and committed), then:

  start          launching ``python -m forest_files.doors.mcp -C ROOT`` through
                 initialise to the first ``read_ground`` answer (median of --starts)
  sdk floor      the same for a server written with the same SDK's low-level
                 ``Server`` and its own ``stdio_server``, one tool answering a fixed
                 text, nothing read: what any Python MCP server over this SDK costs
                 to start; ``start / sdk floor`` is what forest-files adds
  read_ground    --calls calls on bindings drawn at random, one session, p50/p95
  recall         --calls calls of two words of the corpus (its vocabulary is small:
                 each word is in thousands of sections), one session, p50/p95
  recall floor   the same queries' full-text ranking alone (the index's FTS5
                 ``MATCH … ORDER BY rank``), in process, on the server's own index:
                 what any recall over this corpus costs before a packet is built

Each call is timed at the client: JSON-RPC over the pipes included.
Goals: start <= 1 s; p95 <= 50 ms.

Run:  .venv/bin/python bench/mcp_bench.py [--n 10000] [--calls 100] [--starts 3]
      [--keep DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent))

from check_bench import _WORDS as CORPUS_WORDS  # noqa: E402
from doors_bench import build  # noqa: E402
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

_SDK_FLOOR = """
import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

server = Server("floor")


@server.list_tools()
async def tools() -> list[types.Tool]:
    schema = {"type": "object", "properties": {"binding": {"type": "string"}}}
    return [types.Tool(name="read_ground", description="a fixed text", inputSchema=schema)]


@server.call_tool()
async def call(name: str, arguments: dict) -> list[types.TextContent]:
    return [types.TextContent(type="text", text="ground")]


async def main() -> None:
    async with stdio_server() as (r, w):
        await server.run(r, w, server.create_initialization_options())


anyio.run(main)
"""


def _params(root: Path) -> StdioServerParameters:
    args = ["-m", "forest_files.doors.mcp", "-C", str(root)]
    return StdioServerParameters(command=sys.executable, args=args)


def _floor_params(script: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[str(script)])


def _selectors(root: Path) -> list[str]:
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.repository import Repository

    with Repository(root) as repo:
        return [b.selector for b in all_bindings(repo.synced())]


async def _start(params: StdioServerParameters, selector: str) -> float:
    began = time.perf_counter()
    async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        result = await s.call_tool("read_ground", {"binding": selector})
        took = time.perf_counter() - began
        assert not result.isError, result.content[0].text
    return took


async def _timed(root: Path, calls: list[tuple[str, dict[str, Any]]]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    async with stdio_client(_params(root)) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        await s.call_tool("read_ground", {"binding": calls[0][1].get("binding", "x")})
        for name, args in calls:
            began = time.perf_counter()
            result = await s.call_tool(name, args)
            out.setdefault(name, []).append(time.perf_counter() - began)
            assert not result.isError, (name, result.content[0].text)
    return out


def _floor(root: Path, queries: list[str]) -> list[float]:
    """The FTS ranking alone for each query, in process, on the server's index."""
    import sqlite3

    from forest_files.kernel.state import worktree_dir

    index = worktree_dir(root, create=False) / "woods.db"
    conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
    sql = "SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rank, rowid LIMIT 22"
    out = []
    for query in queries:
        expression = " ".join(f'"{word}"' for word in query.split())
        began = time.perf_counter()
        conn.execute(sql, (expression,)).fetchall()
        out.append(time.perf_counter() - began)
    conn.close()
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--calls", type=int, default=100)
    ap.add_argument("--starts", type=int, default=3)
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--keep", type=Path, default=None, help="Build here (reused if built).")
    a = ap.parse_args()
    base = a.keep or Path(tempfile.mkdtemp(prefix="mcp-bench-"))
    root = base / "repo"
    began = time.perf_counter()
    if not (root / "forest.toml").exists():
        build(root, a.n, a.seed)
    built = time.perf_counter() - began
    selectors = _selectors(root)
    rng = random.Random(a.seed)
    calls: list[tuple[str, dict[str, Any]]] = []
    for _ in range(a.calls):
        calls.append(("read_ground", {"binding": rng.choice(selectors)}))
        query = " ".join(rng.sample(CORPUS_WORDS, 2))
        calls.append(("recall", {"query": query, "limit": 10}))
    script = base / "sdk_floor.py"
    script.write_text(_SDK_FLOOR, encoding="utf-8")
    starts, floors = [], []
    for _ in range(a.starts):  # interleaved: a load that comes and goes falls on both
        starts.append(asyncio.run(_start(_params(root), selectors[0])))
        floors.append(asyncio.run(_start(_floor_params(script), selectors[0])))
    timed = asyncio.run(_timed(root, calls))
    timed["recall_floor"] = _floor(root, [str(a["query"]) for n, a in calls if n == "recall"])
    report: dict[str, Any] = {
        "bindings": len(selectors),
        "build_s": round(built, 1),
        "start_to_first_answer_s": round(statistics.median(starts), 3),
        "sdk_floor_start_s": round(statistics.median(floors), 3),
    }
    for name, values in sorted(timed.items()):
        report[f"{name}_p50_ms"] = round(1000 * _pct(values, 0.5), 1)
        report[f"{name}_p95_ms"] = round(1000 * _pct(values, 0.95), 1)
    report["load_average"] = [round(x, 1) for x in os.getloadavg()]
    start, floor = report["start_to_first_answer_s"], report["sdk_floor_start_s"]
    print(f"mcp bench: {len(selectors)} bindings, medians of {a.starts} starts, {a.calls} calls")
    ratio = start / floor
    print(f"  start        {start:.3f}s   {ratio:.2f}x sdk floor ({floor:.3f}s; goal <= 1 s)")
    for name in ("read_ground", "recall"):
        p50, p95 = report[f"{name}_p50_ms"], report[f"{name}_p95_ms"]
        print(f"  {name:<12} p50 {p50:.1f} ms  p95 {p95:.1f} ms (goal p95 <= 50 ms)")
    fp50 = report["recall_floor_p50_ms"]
    print(f"  recall p50 = {report['recall_p50_ms'] / fp50:.2f}x its FTS floor ({fp50:.1f} ms)")
    print(json.dumps(report, indent=2))
    if a.keep is None:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
