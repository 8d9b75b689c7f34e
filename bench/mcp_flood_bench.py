"""MCP flood benchmark: how long a client's burst of notifications holds up its next
request in ``forest mcp``, against what reading and parsing those lines costs.

One small bound repository (one file, one bound section, adopted and committed); a
``forest mcp`` process per round, opened with ``initialize``, then sent, in one write,
``--flood`` notifications (``notifications/progress`` and an unknown method,
alternately) followed by a ``ping``. Timed from the write to the ping's answer.

  flood          the write of the notifications and the ping to the ping's answer
  ping alone     the same with no notification before the ping (the pipe's round trip)
  parse floor    ``json.loads`` of the same lines in this process: what reading any
                 of them as JSON costs before a server does anything with them

Medians of ``--repeat`` rounds; ratios to the parse floor. Before issue 23's fix
(one blocking read, on a thread of its own, per line) 100,000 notifications held the
next request about 50 s.

Run:  .venv/bin/python bench/mcp_flood_bench.py [--flood 30000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

INIT = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "flood-bench", "version": "1"},
}
PROGRESS = (
    b'{"jsonrpc":"2.0","method":"notifications/progress",'
    b'"params":{"progressToken":"t","progress":1}}\n'
)
UNKNOWN = b'{"jsonrpc":"2.0","method":"notifications/whatever","params":{"n":1}}\n'
INITIALIZED = b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
PING = b'{"jsonrpc":"2.0","id":2,"method":"ping"}\n'


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def build(root: Path) -> None:
    """One file, one bound section, adopted and committed."""
    from forest_files.custody.record import adopt_sections
    from forest_files.custody.repository import Repository
    from forest_files.custody.targets import read_sections

    root.mkdir(parents=True)
    _git(root, "-c", "init.defaultBranch=main", "init", "-q")
    _git(root, "config", "user.name", "bench")
    _git(root, "config", "user.email", "b@example.org")
    _git(root, "config", "commit.gpgsign", "false")
    (root / "a.md").write_text("# A\n\nkept words\n", encoding="utf-8")
    with Repository.init(root, project_id="bench") as repo:
        sections = read_sections(repo.root, ["a.md#A"], (), max_bytes=repo.config.max_body_bytes)
        adopt_sections(repo, sections, words="bench adoption", by="bench <b@example.org>")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "corpus")


def one_round(root: Path, burst: bytes) -> float:
    """Seconds from writing ``burst`` and a ping to the ping's answer."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "forest_files.doors.mcp", "-C", str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT}
    proc.stdin.write(json.dumps(init).encode() + b"\n" + INITIALIZED)
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1
    began = time.perf_counter()
    proc.stdin.write(burst + PING)
    proc.stdin.flush()
    answer = json.loads(proc.stdout.readline())
    took = time.perf_counter() - began
    assert answer == {"jsonrpc": "2.0", "id": 2, "result": {}}, answer
    proc.stdin.close()
    proc.wait(timeout=60)
    return took


def parse_floor(burst: bytes) -> float:
    began = time.perf_counter()
    for line in burst.splitlines():
        json.loads(line)
    return time.perf_counter() - began


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flood", type=int, default=30_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    burst = b"".join(PROGRESS if i % 2 else UNKNOWN for i in range(args.flood))
    with tempfile.TemporaryDirectory(prefix="mcp-flood-bench-") as tmp:
        root = Path(tmp) / "repo"
        build(root)
        rounds: dict[str, list[float]] = {"flood": [], "ping alone": [], "parse floor": []}
        for _ in range(args.repeat):  # interleaved, so load drifts hit every figure alike
            rounds["flood"].append(one_round(root, burst))
            rounds["ping alone"].append(one_round(root, b""))
            rounds["parse floor"].append(parse_floor(burst))
    medians = {k: statistics.median(v) for k, v in rounds.items()}
    floor = medians["parse floor"]
    print(f"mcp flood bench: {args.flood} notifications then a ping, medians of {args.repeat}")
    for name, value in medians.items():
        print(f"  {name:12} {value * 1000:8.1f} ms   {value / floor:6.2f}x parse floor")
    print(json.dumps({k: round(v, 4) for k, v in medians.items()}))


if __name__ == "__main__":
    main()
