"""Run Forest 0.4's own published test-suite against forest_files (developer tool, not CI).

Stores: nothing in the repo; fetches/unpacks the forest-custody-memory 0.4.0 sdist into a
        temp dir and writes our own conftest.py into its tests/ (aliasing
        ``forest_memory`` -> ``forest_files`` and providing ``linked_pair``).
Refuses: an sdist without a tests/ dir; an alias run where the real forest_memory was
         imported before the alias took effect (the results would not be ours).
Returns: pytest's exit code; prints pass/fail counts and each failing test id with the
         first line of its error.
Test: none (it is the test); sanity-check the harness with --against-forest.

Run:  .venv/bin/python scripts/forest_conformance.py [--sdist PATH] [--against-forest]
      [--keep] [-- extra pytest args, e.g. -k recall]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

SPEC = "forest-custody-memory==0.4.0"
REPO = Path(__file__).resolve().parents[1]
SUBMODULES = ("core", "ceremony", "drift", "mycelium", "scroll", "schema")

CONFTEST = '''\
"""Conformance harness conftest, written by forest-files' scripts/forest_conformance.py."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

ALIAS = {alias!r}
SUBMODULES = {submodules!r}
MISSING: list[str] = []


def _alias_forest_memory() -> None:
    # Must run before any test module imports forest_memory: pytest imports this
    # conftest first, and the sys.modules entries then win over src/ on sys.path.
    already = sys.modules.get("forest_memory")
    if already is not None and not already.__name__.startswith("forest_files"):
        raise RuntimeError("the real forest_memory was imported before the alias")
    sys.modules["forest_memory"] = importlib.import_module("forest_files")
    for sub in SUBMODULES:
        try:
            module = importlib.import_module(f"forest_files.{{sub}}")
        except ModuleNotFoundError as exc:
            if exc.name != f"forest_files.{{sub}}":
                raise
            # A missing compat module fails only the tests that import it.
            MISSING.append(sub)
            continue
        sys.modules[f"forest_memory.{{sub}}"] = module


if ALIAS:
    _alias_forest_memory()


def linked_pair(store, tmp_path, text, **kwargs):
    """Write a pair backed by a real Scroll; kwargs: previous_pair_id, scrub."""
    # Imported here so an incomplete target fails per test, not at conftest load.
    from forest_memory import Scroll, commit_turn

    return commit_turn(store, Scroll(Path(tmp_path) / "s.scroll"), text, **kwargs)


def pytest_report_header(config):
    mod = importlib.import_module("forest_memory")
    where = getattr(mod, "__file__", None) or list(getattr(mod, "__path__", []))
    missing = f"; missing: {{', '.join(MISSING)}}" if MISSING else ""
    return f"conformance target: forest_memory -> {{mod.__name__}} ({{where}}){{missing}}"
'''


@dataclass(frozen=True)
class Outcome:
    node: str
    status: str  # passed | failed | error | skipped
    first_line: str


def fetch_sdist(dest: Path) -> Path:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:"]
    subprocess.run([*cmd, SPEC, "-d", str(dest), "-q"], check=True)
    found = sorted(dest.glob("forest_custody_memory-*.tar.gz"))
    if not found:
        raise SystemExit(f"pip download left no sdist in {dest}")
    return found[0]


def unpack(sdist: Path, dest: Path) -> Path:
    with tarfile.open(sdist) as tar:
        # The "data" filter refuses absolute paths and links leaving dest.
        tar.extractall(dest, filter="data")
    roots = [p for p in dest.iterdir() if (p / "tests").is_dir()]
    if len(roots) != 1:
        raise SystemExit(f"{sdist} does not unpack to one project dir with tests/")
    return roots[0]


def relink(link: Path, target: Path) -> None:
    if link.is_symlink() or link.is_file():
        link.unlink()
    elif link.is_dir():
        raise SystemExit(f"{link} is a real directory; refusing to replace it")
    link.symlink_to(target)


def prepare(root: Path, *, against_forest: bool) -> None:
    tests = root / "tests"
    conftest = CONFTEST.format(alias=not against_forest, submodules=SUBMODULES)
    (tests / "conftest.py").write_text(conftest, encoding="utf-8")
    relink(root / "examples", REPO / "examples")
    packaged = root / "src" / "forest_memory" / "schema.sql"
    if against_forest:
        # The sdist omits the repo-root copy; restore it from Forest's own packaged one.
        relink(root / "schema.sql", packaged.resolve())
    else:
        ours = REPO / "forest_files" / "schema.sql"
        relink(root / "schema.sql", ours)
        relink(packaged, ours)


def first_error_line(case: ET.Element) -> str:
    for child in case:
        if child.tag in ("failure", "error"):
            for line in (child.text or "").splitlines():
                if line.startswith("E "):
                    return line[1:].strip()
            return (child.get("message") or "").splitlines()[0] if child.get("message") else ""
    return ""


def outcomes(junit: Path) -> list[Outcome]:
    out = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        module = case.get("classname", "").replace(".", "/")
        name = str(case.get("name"))
        # Collection errors carry no classname; their name is the dotted module.
        node = f"{module}.py::{name}" if module else name.replace(".", "/") + ".py"
        tags = {child.tag for child in case}
        status = next((s for s in ("failure", "error", "skipped") if s in tags), "passed")
        status = {"failure": "failed"}.get(status, status)
        out.append(Outcome(node, status, first_error_line(case)))
    return out


def run_suite(root: Path, extra: list[str]) -> tuple[int, list[Outcome], Path]:
    junit = root / "conformance-junit.xml"
    log = root / "conformance-pytest.log"
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    # Not -q: the report header names the module actually under test.
    cmd = [sys.executable, "-m", "pytest", "tests", "-p", "no:cacheprovider"]
    cmd += ["--continue-on-collection-errors"]
    cmd += [f"--junitxml={junit}", *extra]
    with log.open("w", encoding="utf-8") as fh:
        code = subprocess.run(
            cmd, cwd=root, env=env, stdout=fh, stderr=subprocess.STDOUT
        ).returncode
    if not junit.exists():
        print(log.read_text(encoding="utf-8")[-4000:])
        return code, [], log
    return code, outcomes(junit), log


def report(target: str, code: int, results: list[Outcome], log: Path, keep: bool) -> None:
    counts: dict[str, int] = {}
    for res in results:
        counts[res.status] = counts.get(res.status, 0) + 1
    text = log.read_text(encoding="utf-8", errors="replace")
    header = [ln for ln in text.splitlines() if ln.startswith("conformance target:")]
    print(header[0] if header else f"target: {target} (no report header; see the pytest log)")
    bad = [r for r in results if r.status in ("failed", "error")]
    for res in bad:
        print(f"  {res.status.upper():6} {res.node}\n         {res.first_line[:200]}")
    if not results:
        print(f"the suite did not run (pytest exit {code}); see the output above")
        return
    order = ("passed", "failed", "error", "skipped")
    where = f"  (pytest log: {log})" if keep else ""
    print(", ".join(f"{counts.get(k, 0)} {k}" for k in order) + where)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--sdist", type=Path, help="use this sdist instead of pip download")
    ap.add_argument("--against-forest", action="store_true", help="baseline: no alias")
    ap.add_argument("--keep", action="store_true", help="keep the unpacked suite and logs")
    args, extra = ap.parse_known_args(argv)
    extra = [a for a in extra if a != "--"]
    tmp = Path(tempfile.mkdtemp(prefix="ff-conformance-"))
    try:
        sdist = args.sdist.resolve() if args.sdist else fetch_sdist(tmp / "dl")
        root = unpack(sdist, tmp / "src")
        prepare(root, against_forest=args.against_forest)
        code, results, log = run_suite(root, extra)
        target = "forest_memory 0.4.0 (real)" if args.against_forest else "forest_files (alias)"
        report(target, code, results, log, args.keep)
    finally:
        if args.keep:
            print(f"kept: {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
