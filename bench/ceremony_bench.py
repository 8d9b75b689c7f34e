"""Ceremony benchmark: the custody acts a writer's canon needs, before and after issue 26.

Replays ``tests/data/canon-history`` (a world bible of 36 nested headings and a
scripted history: a typo, new lore, a versioned H1, a parent heading renamed,
a section moved under another parent, two sections merged, two reviewed
releases, a heading renamed with no text change) in a throwaway git
repository with forest-files' pre-commit hook installed, once per way of
working:

  before   the per-binding ceremonies that existed before issue 26: one
           ``forest adopt FILE#Heading`` per heading, one ``forest rebind`` per
           binding whose selector changed (descendants each their own, deepest
           first, so nothing is carried), one ``forest supersede SEL`` per
           drifted binding, one ``forest retire`` per ended chain; each taken
           from that binding's own route in ``forest check --staged --json``.
  after    what the tool offers now: ``forest adopt FILES --headings
           --skip-bound --yes`` for new headings, and otherwise only the
           routes the hook PRINTS, pasted through ``bash -c``: the one route
           for the whole commit (``forest supersede --staged --expect
           DIGEST``: every drift, and every section standing at exactly one
           new place rebound there with its bound descendants) when the hook
           prints one, else the outermost rename or move's first route (a
           rebind carries its bound descendants), else the one drift's.
  anchors  as ``after``, but every heading is bound by its stable id
           (``FILE#{id}`` from the canon's ``{ #id }`` attribute lists), named
           one by one in one ``forest adopt`` (``--headings`` now binds a
           heading by its id too, so ``after`` and ``anchors`` record the same
           selectors; ``before`` binds heading paths, as it did).

Every step ends with ``git commit`` passing the hook and ``forest check``
clean. A ceremony is a forest command that records an act; it is a
*decision about text* (adopt, supersede, retire, a rebind with ``--words``:
the section's text changed and its new text is adopted) or it *follows a
heading* (a rebind without ``--words``: the text is unchanged, only the
selector moved). Goals (issue 26): no step needs more ceremonies after than
before, no release more than one command after, and no ceremony after that
only follows a heading.

Run:  .venv/bin/python bench/ceremony_bench.py [-v] [--keep DIR] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "canon-history"
MODES = ("before", "after", "anchors")
LEDGER_ROUTE = "&& git add -- .forest/ledger"
_ROUTE = re.compile(r"^  [a-z][^:]*: (forest .*)$")
_ALL = re.compile(
    r"^or (?:adopt all \d+ drifted sections|record the whole commit) at once(?: \([^()]*\))?: "
    r"(forest .*)$"
)
_ID = re.compile(r"^#{1,6} .*\{ #([A-Za-z0-9_][A-Za-z0-9_:.-]*) \}$")
_KINDS = ("drifted", "moved", "unresolved", "missing", "contested")
_NOTE = re.compile(r"  \((replace|refused) [^()]*\)$")
_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Writer",
    "GIT_AUTHOR_EMAIL": "writer@example.org",
    "GIT_COMMITTER_NAME": "Writer",
    "GIT_COMMITTER_EMAIL": "writer@example.org",
    "LC_ALL": "C.UTF-8",
}


@dataclass
class Ceremony:
    command: str
    follows: bool  # a rebind that only follows a heading (no text decision)


@dataclass
class StepResult:
    label: str
    release: bool
    ceremonies: list[Ceremony] = field(default_factory=list)
    acts: int = 0  # ledger acts the step's ceremonies recorded

    @property
    def count(self) -> int:
        return len(self.ceremonies)

    @property
    def follows(self) -> int:
        return sum(c.follows for c in self.ceremonies)


Done = subprocess.CompletedProcess[str]


class Replay:
    """One throwaway repository and the commands a user types in it."""

    def __init__(self, root: Path, mode: str, bin_dir: Path) -> None:
        self.root, self.mode = root, mode
        path = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
        base = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        self.env = {**base, **_ENV, "PATH": path}

    def run(
        self, argv: list[str], *, ok: tuple[int, ...] = (0,)
    ) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run(
            argv, cwd=self.root, env=self.env, capture_output=True, text=True, check=False
        )
        if proc.returncode not in ok:
            raise SystemExit(
                f"{self.mode}: {shlex.join(argv)} exited {proc.returncode}\n"
                f"{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
            )
        return proc

    def paste(self, command: str) -> None:
        """A printed command as a user pastes it (``bash -c``)."""
        self.run(["bash", "-c", command])

    def setup(self) -> None:
        self.root.mkdir(parents=True)
        self.run(["git", "init", "-q", "-b", "main"])
        self.run(["forest", "init"])
        self.run(["forest", "hooks", "install"])
        self.run(["git", "add", "-A"])
        self.run(["git", "commit", "-q", "-m", "forest init"])

    def acts(self) -> int:
        segs = self.root / ".forest" / "ledger" / "segments"
        return sum(len(p.read_bytes().splitlines()) for p in segs.glob("*.jsonl"))


def load_history(data: Path = DATA) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = tomllib.loads((data / "steps.toml").read_text("utf-8"))["step"]
    return steps


def apply_step(root: Path, step: dict[str, Any], data: Path = DATA) -> None:
    for w in step.get("write", []):
        dest = root / w["path"]
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(data / w["from"], dest)
    for e in step.get("edit", []):
        path = root / e["path"]
        text = path.read_text("utf-8")
        if text.count(e["old"]) != 1:
            raise SystemExit(f"{step['label']}: {e['old'][:40]!r} is not once in {e['path']}")
        path.write_text(text.replace(e["old"], e["new"]), "utf-8")


def with_words(command: str, words: str) -> str:
    """The printed route with the adopting words filled in (what a user types)."""
    if "--words '…'" not in command:
        return command
    return command.replace("--words '…'", f"--words {shlex.quote(words)}")


def classify(command: str) -> bool:
    """True when the command only follows a heading: a rebind recording no new text."""
    argv = shlex.split(command.split("&&")[0])
    return argv[:2] == ["forest", "rebind"] and "--words" not in argv


def depth(command: str) -> int:
    """How deep the selector a route acts on sits (``#A/B/C`` is 3)."""
    argv = shlex.split(command.split("&&")[0])
    sel = next((a for a in argv[2:] if not a.startswith("-")), "")
    _, _, heading = sel.partition("#")
    return heading.count("/") + 1 if heading else 0


def _recording(command: str | None) -> bool:
    return command is not None and command.startswith("forest ") and LEDGER_ROUTE in command


def before_round(rep: Replay) -> list[str]:
    """One round of per-binding routes from ``forest check --staged --json``:
    renames and moves first, deepest first; else one supersede per drift."""
    proc = rep.run(["forest", "check", "--staged", "--json"], ok=(0, 1))
    findings = json.loads(proc.stdout)["findings"]
    chosen = []
    for f in findings:
        if f["kind"] == "clean":
            continue
        routes = [r["command"] for r in f["routes"] if _recording(r["command"])]
        if not routes:
            raise SystemExit(f"before: no recording route for {f['kind']} {f['selector']}")
        chosen.append((f["kind"] != "drifted", routes[0]))
    moves = [c for moving, c in chosen if moving]
    if moves:
        return sorted(moves, key=depth, reverse=True)
    return [c for _, c in chosen]


def printed_blocks(text: str) -> tuple[list[tuple[str, list[str]]], str | None]:
    """The hook's findings as printed: (kind, its recording routes) per finding, and
    the one route for the whole commit when it printed one."""
    blocks: list[tuple[str, list[str]]] = []
    whole = None
    for raw in text.splitlines():
        line = _NOTE.sub("", raw)
        if m := _ALL.match(line):
            whole = m.group(1)
        elif line.split(" ", 1)[0] in _KINDS:
            blocks.append((line.split(" ", 1)[0], []))
        elif blocks and (m := _ROUTE.match(line)) and _recording(m.group(1)):
            blocks[-1][1].append(m.group(1))
    return blocks, whole


def after_round(rep: Replay, hook: list[str]) -> list[str]:
    """The next route the hook prints: the one route for the whole commit when it
    printed one (it takes in every drift and every section that stands at one new
    place), else the outermost rename or move (its first route), else the one
    drift's."""
    proc = rep.run(hook, ok=(0, 1))
    if proc.returncode == 0:
        return []
    blocks, whole = printed_blocks(proc.stdout + proc.stderr)
    stuck = [kind for kind, routes in blocks if not routes]
    if stuck:
        raise SystemExit(f"after: a {stuck[0]} finding printed no route to paste\n{proc.stderr}")
    if whole:
        return [whole]
    moves = [routes[0] for kind, routes in blocks if kind != "drifted"]
    if moves:
        return [min(moves, key=depth)]
    drifts = [routes[0] for kind, routes in blocks if kind == "drifted" and routes]
    if drifts:
        return drifts[:1]
    raise SystemExit(f"after: the hook refused with no route to paste\n{proc.stderr[-3000:]}")


def unbound_headings(rep: Replay, files: list[str]) -> list[str]:
    """The headings of ``files`` no binding holds (the list ``adopt --headings
    --skip-bound`` shows before it asks; nothing is recorded here)."""
    argv = ["forest", "adopt", *files, "--headings", "--skip-bound", "--words", "-"]
    proc = subprocess.run(
        argv, cwd=rep.root, env=rep.env, capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    lines = (proc.stdout + proc.stderr).splitlines()
    if not any(line.startswith("to adopt (") for line in lines):
        if proc.returncode != 0 or "nothing new to adopt" not in proc.stdout + proc.stderr:
            raise SystemExit(f"listing unbound headings failed: {proc.stderr[-2000:]}")
        return []
    return [line.strip() for line in lines if line.startswith("  ")]


def unbound_paths(rep: Replay, files: list[str]) -> list[str]:
    """Every heading of ``files`` no binding holds, by its full heading path: how
    headings were bound before ``--headings`` named a heading by its own id (the
    project's own outline, so the list is what ``--headings`` listed then)."""
    from forest_files.check.coverage import canonical_paths
    from forest_files.text.extract import Document
    from forest_files.text.selector import Selector, render

    proc = rep.run(["forest", "status", "--json"])
    bound = {f["selector"] for f in json.loads(proc.stdout)["findings"]}
    out = []
    for name in files:
        heads = Document((rep.root / name).read_text("utf-8")).headings()
        for parts, index in canonical_paths(heads):
            sel = render(Selector(name, "heading", parts, index))
            if sel not in bound:
                out.append(sel)
    return out


def unbound_anchors(rep: Replay, files: list[str]) -> list[str]:
    """``FILE#{id}`` for every heading id of ``files`` no binding holds."""
    proc = rep.run(["forest", "status", "--json"])
    bound = {f["selector"] for f in json.loads(proc.stdout)["findings"]}
    out = []
    for name in files:
        for line in (rep.root / name).read_text("utf-8").splitlines():
            if (m := _ID.match(line)) and f"{name}#{{{m.group(1)}}}" not in bound:
                out.append(f"{name}#{{{m.group(1)}}}")
    return out


def adopt_new(rep: Replay, words: str) -> list[str]:
    """Bind every heading no binding holds yet (the writer's policy)."""
    files = sorted(str(p.relative_to(rep.root)) for p in (rep.root / "canon").glob("*.md"))
    if rep.mode == "anchors":
        ids = unbound_anchors(rep, files)
        return [f"forest adopt {shlex.join(ids)} --words {shlex.quote(words)}"] if ids else []
    w = shlex.quote(words)
    if rep.mode == "before":
        return [f"forest adopt {shlex.quote(sel)} --words {w}" for sel in unbound_paths(rep, files)]
    if not unbound_headings(rep, files):
        return []
    return [f"forest adopt {shlex.join(files)} --headings --skip-bound --yes --words {w}"]


def run_step(rep: Replay, step: dict[str, Any], hook: list[str], data: Path = DATA) -> StepResult:
    out = StepResult(step["label"], bool(step.get("release", False)))
    start = rep.acts()
    apply_step(rep.root, step, data)
    rep.run(["git", "add", "-A"])
    words = f"{step['label']}: reviewed and right"
    for _ in range(60):
        batch = before_round(rep) if rep.mode == "before" else after_round(rep, hook)
        if not batch:
            break
        for command in batch:
            typed = with_words(command, words)
            rep.paste(typed)
            out.ceremonies.append(Ceremony(typed, classify(typed)))
    else:
        raise SystemExit(f"{rep.mode}: {step['label']} never came clean")
    for command in adopt_new(rep, words):
        rep.paste(f"{command} && git add -- .forest/ledger")
        out.ceremonies.append(Ceremony(command, False))
    rep.run(["git", "add", "-A"])
    rep.run(["git", "commit", "-q", "-m", step["message"]])  # the hook must pass
    rep.run(["forest", "check"])  # and the tree is clean
    out.acts = rep.acts() - start
    return out


def replay(
    mode: str, root: Path, data: Path = DATA, bin_dir: Path | None = None
) -> list[StepResult]:
    """The whole history in a new repository at ``root``, one way of working."""
    rep = Replay(root, mode, bin_dir or Path(sys.executable).parent)
    rep.setup()
    hook = [str(root / ".git" / "hooks" / "pre-commit")]
    return [run_step(rep, step, hook, data) for step in load_history(data)]


def replay_all(base: Path, data: Path = DATA) -> dict[str, list[StepResult]]:
    """Every way of working, each in its own repository under ``base``, side by side
    (they wait on git and forest processes, not on each other)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(len(MODES)) as pool:
        runs = {mode: pool.submit(replay, mode, base / mode, data) for mode in MODES}
        return {mode: run.result() for mode, run in runs.items()}


def table(results: dict[str, list[StepResult]]) -> str:
    """One row per step: ceremonies per way of working, those that only follow a
    heading, ledger acts recorded, and a release's command count after."""
    head = (
        f"{'step':<14} {'before':>6} {'after':>6} {'anchors':>7}  {'follows b/a/n':>13}"
        f"  {'acts b/a/n':>10}  release (after/anchors)"
    )
    rows = [head, "-" * len(head)]
    for b, a, n in zip(*(results[m] for m in MODES), strict=True):
        rel = f"{a.count} / {n.count} command(s)" if a.release else ""
        rows.append(
            f"{b.label:<14} {b.count:>6} {a.count:>6} {n.count:>7}"
            f"  {f'{b.follows}/{a.follows}/{n.follows}':>13}"
            f"  {f'{b.acts}/{a.acts}/{n.acts}':>10}  {rel}"
        )
    tot = [sum(s.count for s in results[m]) for m in MODES]
    fol = "/".join(str(sum(s.follows for s in results[m])) for m in MODES)
    rows.append("-" * len(head))
    rows.append(f"{'total':<14} {tot[0]:>6} {tot[1]:>6} {tot[2]:>7}  {fol:>13}")
    return "\n".join(rows)


def goals(results: dict[str, list[StepResult]], mode: str) -> list[str]:
    """The goal lines for one way of working: each met, or the steps that miss it."""
    before, now = results["before"], results[mode]
    more = [a.label for b, a in zip(before, now, strict=True) if a.count > b.count]
    releases = [f"{a.label} ({a.count})" for a in now if a.release and a.count > 1]
    follows = [f"{a.label}: {c.command}" for a in now for c in a.ceremonies if c.follows]
    return [
        f"{mode}: <= before at every step: {'met' if not more else 'MISSED at ' + ', '.join(more)}",
        f"{mode}: every release one command: "
        + ("met" if not releases else "MISSED: " + ", ".join(releases)),
        f"{mode}: no ceremony that only follows a heading: "
        + ("met" if not follows else f"MISSED ({len(follows)}):\n    " + "\n    ".join(follows)),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--keep", help="build the repositories under this directory and keep them")
    ap.add_argument("--json", dest="json_out", help="write every ceremony to this file")
    ap.add_argument("-v", "--verbose", action="store_true", help="list the commands typed")
    args = ap.parse_args(argv)
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="ceremony-bench-"))
    try:
        results = replay_all(base)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    if args.verbose:
        for mode, steps in results.items():
            for s in steps:
                for c in s.ceremonies:
                    print(f"{mode:<7} {s.label:<14} {'F' if c.follows else 'D'} {c.command}")
    print(f"ceremonies per step ({DATA.relative_to(REPO)}; follows = a rebind that only")
    print("follows a heading; acts = ledger acts recorded)")
    print(table(results))
    for mode in MODES[1:]:
        print("\n".join(goals(results, mode)))
    print("reproduce: .venv/bin/python bench/ceremony_bench.py [-v] [--keep DIR] [--json out.json]")
    if args.json_out:
        dump = {m: [asdict(s) for s in steps] for m, steps in results.items()}
        Path(args.json_out).write_text(json.dumps(dump, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
