"""``python -m forest_files.doors.fastcheck``: the CLI's verdict without the heavy imports."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.custody import BY, DOC, init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, pasted, write
from tests.helpers.gittrace import git_commands, git_traced
from tests.helpers.imports import loaded
from tests.helpers.state import local_state

HEAVY = {"typer", "pydantic", "git", "pyromark", "markdown_it", "click", "rich"}
PY_SRC = "def f(x):\n    return x\n\n\ndef g(x):\n    return 2 * x\n"


def _repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    write(root, "m.py", PY_SRC)
    init_and_adopt(root, ["a.md#Keep", "m.py::g"])
    commit_all(root, "adopt")
    return root


def _python(root: Path, *argv: str, debug: bool = True) -> subprocess.CompletedProcess[str]:
    """This interpreter run in ``root``; ``debug`` lists its imports at exit."""
    env = {**os.environ, **git_env()}
    if debug:
        env["FOREST_DEBUG_IMPORTS"] = "1"
    return subprocess.run(
        [sys.executable, *argv], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return _python(root, "-m", *args)


def _imports(proc: subprocess.CompletedProcess[str]) -> set[str]:
    return loaded(proc.stderr)


def _forest(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return _python(
        root, "-c", "from forest_files.doors.cli import main; main()", *args, debug=False
    )


def test_no_change_loads_no_heavy_library(tmp_path: Path) -> None:
    """Cold (no caches), a Markdown section is parsed once: the file hash the ledger
    records is no evidence (check.py). Warm, nothing heavy is loaded."""
    root = _repo(tmp_path)
    cold = _run(root, "forest_files.doors.fastcheck")
    assert cold.returncode == 0, cold.stderr
    assert not _imports(cold) & (HEAVY - {"pyromark"})
    warm = _run(root, "forest_files.doors.fastcheck")
    assert warm.returncode == 0, warm.stderr
    assert "2 binding(s) checked" in warm.stdout
    assert not _imports(warm) & HEAVY


def test_whole_file_binding_cold_check_parses_nothing_accepted(tmp_path: Path) -> None:
    """A whole-file binding's section is the normalised file: a cold check hashes it
    and compares with ground, without any parser."""
    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    init_and_adopt(root, ["a.md"])
    commit_all(root, "adopt")
    cold = _run(root, "forest_files.doors.fastcheck")
    assert cold.returncode == 0, cold.stderr
    assert not _imports(cold) & HEAVY
    assert "forest_files.text.extract" not in _loaded(root)


def _loaded(root: Path) -> set[str]:
    """Every ``forest_files`` module a cold fast check (caches removed) imports."""
    shutil.rmtree(local_state(root) / "cache", ignore_errors=True)
    code = (
        "import sys; from forest_files.doors.fastcheck import run; code = run([]); "
        "print(' '.join(m for m in sys.modules if m.startswith('forest_files')))"
    )
    env = {**os.environ, **git_env()}
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return set(proc.stdout.splitlines()[-1].split())


def test_verdict_matches_forest_check(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    fast = _run(root, "forest_files.doors.fastcheck")
    cli = _forest(root, "check")
    assert (fast.returncode, cli.returncode) == (0, 0)
    assert fast.stdout.splitlines()[-1] == cli.stdout.splitlines()[-1]

    write(root, "a.md", DOC.replace("kept words", "changed words"))
    fast = _run(root, "forest_files.doors.fastcheck")
    cli = _forest(root, "check")
    assert (fast.returncode, cli.returncode) == (1, 1)
    assert fast.stdout.splitlines()[-1] == cli.stdout.splitlines()[-1]
    assert "drifted a.md#Title/Keep" in fast.stdout or "drifted" in fast.stdout

    (root / "m.py").unlink()
    fast = _run(root, "forest_files.doors.fastcheck")
    cli = _forest(root, "check")
    assert (fast.returncode, cli.returncode) == (1, 1)
    assert fast.stdout.splitlines()[-1] == cli.stdout.splitlines()[-1]
    assert "missing" in fast.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_bound_file_swapped_for_a_fifo_refused_without_hanging(tmp_path: Path) -> None:
    """A FIFO where a bound file was is not its text: unresolved, at once (reading it
    would block until some writer opened the pipe)."""
    root = _repo(tmp_path)
    (root / "m.py").unlink()
    os.mkfifo(root / "m.py")
    fast = _run(root, "forest_files.doors.fastcheck")  # _run's timeout fails a hang
    cli = _forest(root, "check")
    assert (fast.returncode, cli.returncode) == (1, 1)
    detail = "unresolved m.py::g not a regular file (fifo)"
    assert detail in fast.stdout and detail in cli.stdout


def test_bad_usage_exits_2(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    assert _run(root, "forest_files.doors.fastcheck", "--nope").returncode == 2


def _entry(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The ``forest`` console script's code path (entry.py), with its imports listed."""
    return _python(root, "-c", "from forest_files.doors.entry import main; main()", *args)


def _start_up(root: Path) -> set[str]:
    """The top-level modules this interpreter has loaded before any code runs."""
    code = "import sys; print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60
    )
    return set(proc.stdout.split())


# What a warm check or status may cost beyond the interpreter's own start-up: the
# remembered verdict answers them (verdict.py), so no finding model (dataclasses,
# inspect), no typing, no sqlite3, no json for the text output; no shell quoting (shlex,
# unicodedata: kernel/shellword.py) where no line with a command is printed.
WARM_NEVER = {
    "dataclasses",
    "inspect",
    "typing",
    "sqlite3",
    "json",
    "pathlib",
    "contextlib",
    "shlex",
    "unicodedata",
}


@pytest.mark.parametrize("command", ["check", "status"])
def test_warm_check_and_status_load_only_light_modules_accepted(
    tmp_path: Path, command: str
) -> None:
    root = _repo(tmp_path)
    first = _entry(root, command)  # judges, and remembers the clean verdict
    assert first.returncode == 0, first.stderr
    warm = _entry(root, command)
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout == first.stdout
    start_up = _start_up(root)  # an editable install's import hook loads pathlib itself
    extra = (_imports(warm) - start_up) & (HEAVY | WARM_NEVER)
    assert not extra, extra
    write(root, "a.md", DOC.replace("Keep", "Kept"))  # the verdict no longer holds
    judged = _entry(root, command)
    assert judged.returncode == (1 if command == "check" else 0), judged.stderr
    assert "unresolved a.md#Title/Keep" in judged.stdout  # judged, not remembered


@pytest.mark.parametrize("args", [["status"], ["status", "--json"], ["check", "-v"], ["log"]])
def test_reader_closing_the_pipe_exits_141_silently_refused(
    tmp_path: Path, args: list[str]
) -> None:
    """``forest status | head``: the reader leaves; no 'internal error' line, exit 141
    (128 + SIGPIPE, as git), the index untouched."""
    root = _repo(tmp_path)
    assert _entry(root, *args).returncode == 0
    index = (local_state(root) / "woods.db").read_bytes()
    env = {**os.environ, **git_env()}
    code = "import sys; from forest_files.doors.entry import main; main()"
    # The reader gone before the child starts (its read end closed first), so the first
    # flush meets EPIPE however fast the child writes: closing it after the start raced
    # a child that wrote everything first on a loaded machine (exit 0).
    reader, writer = os.pipe()
    os.close(reader)
    try:
        proc = subprocess.Popen(
            [sys.executable, "-c", code, *args],
            cwd=root,
            env=env,
            stdout=writer,
            stderr=subprocess.PIPE,
        )
    finally:
        os.close(writer)
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141, err
    assert err == ""
    assert (local_state(root) / "woods.db").read_bytes() == index


def _cold(root: Path, door: str, *args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """``door`` (``forest`` for the console entry's dispatch, ``hook`` for the pre-commit
    hook's) run with ``args`` in ``root``, and every module the process loaded."""
    call = {
        "forest": "from forest_files.doors.entry import dispatch; code = dispatch(args, typed=1)",
        "hook": "from forest_files.doors.hooks.run import main; code = main(args)",
    }[door]
    code = (
        f"import sys; args = sys.argv[1:]; {call}; "
        "print('modules: ' + ' '.join(sorted(sys.modules)), file=sys.stderr); sys.exit(code)"
    )
    proc = _python(root, "-c", code, *args, debug=False)
    line = proc.stderr.splitlines()[-1]
    assert line.startswith("modules: "), proc.stderr
    return proc, set(line.removeprefix("modules: ").split())


# A staged change judged cold reads the staged ledger's view: never a replay, its appliers
# or the Forest 0.4 store's ops (recall, walks, ceremonies), which it does not run.
REPLAY_AND_OPS = {
    "forest_files.custody.sources",
    "forest_files.custody.replay",
    "forest_files.custody.apply",
    "forest_files.store.forest",
    "forest_files.store.recall",
    "uuid",
    "msgspec",
}


@pytest.mark.parametrize("quick", [True, False])
def test_cold_staged_check_loads_no_replay_or_store_ops_accepted(
    tmp_path: Path, quick: bool
) -> None:
    """``forest check --staged`` of a change the verdict does not remember, once the
    staged ledger's view is built (the first check of a ledger replays it): clean, then
    drifted, the drift said with who adopted its ground (read from the view's rows).
    ``quick``: HEAD judged clean, only what the change can have moved is judged (as the
    hook does); else (``--json``) every binding of the staged ledger."""
    root = _repo(tmp_path)
    args = ["check", "--staged", *([] if quick else ["--json"])]
    assert _cold(root, "forest", *args)[0].returncode == 0  # the view built, HEAD judged
    write(root, "a.md", DOC.replace("## Keep", "## Zero\n\nzero words\n\n## Keep"))
    git(root, "add", "a.md")
    clean, loaded = _cold(root, "forest", *args)
    assert clean.returncode == 0, clean.stderr
    assert not loaded & REPLAY_AND_OPS, loaded & REPLAY_AND_OPS
    write(root, "a.md", DOC.replace("kept words", "changed words"))
    git(root, "add", "a.md")
    drift, loaded = _cold(root, "forest", *args)
    assert drift.returncode == 1, drift.stderr
    if quick:
        assert "drifted a.md#Title/Keep" in drift.stdout
        assert f"adopted by {BY}" in drift.stdout
    else:
        (found,) = (f for f in json.loads(drift.stdout)["findings"] if f["kind"] != "clean")
        assert (found["kind"], found["selector"]) == ("drifted", "a.md#Title/Keep")
        assert found["adopted_by"] == BY
    assert not loaded & REPLAY_AND_OPS, loaded & REPLAY_AND_OPS


# With every binding clean nothing is routed: a cold check, status or hook loads none of
# the routes' modules (check/explain_routes.py and what it imports).
ROUTES = {
    "forest_files.check.explain_routes",
    "forest_files.check.routes",
    "forest_files.check.route_authority",
    "forest_files.check.conflicts",
    "forest_files.check.rebound_texts",
}


@pytest.mark.parametrize(
    ("door", "args"),
    [
        ("forest", ["check"]),
        ("forest", ["status"]),
        ("forest", ["check", "--staged"]),
        ("hook", ["pre-commit"]),
    ],
)
def test_cold_clean_check_status_and_hook_load_no_route_module_accepted(
    tmp_path: Path, door: str, args: list[str]
) -> None:
    """An edit outside every bound section (staged for the hook and ``--staged``), judged
    cold: clean, and no module of the routes loaded; a drift still routed."""
    root = _repo(tmp_path)
    write(root, "a.md", DOC.replace("## Keep", "## Zero\n\nzero words\n\n## Keep"))
    git(root, "add", "a.md")
    clean, loaded = _cold(root, door, *args)
    assert clean.returncode == 0, clean.stderr
    assert not loaded & ROUTES, loaded & ROUTES
    write(root, "a.md", DOC.replace("kept words", "changed words"))
    git(root, "add", "a.md")
    drift, loaded = _cold(root, door, *args)
    assert drift.returncode == (0 if args == ["status"] else 1), drift.stderr
    said = drift.stdout + drift.stderr  # the hook says it on stderr
    assert re.search(r"drifted +a\.md#Title/Keep", said), said
    routed = "forest_files.check.explain_routes" in loaded  # the routes' modules, when routed
    assert routed == (args != ["status"])  # status's table prints no route: none built


def _traced(
    root: Path, monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[subprocess.CompletedProcess[str], list[str], set[str]]:
    """``forest ARGS`` run cold in ``root`` (``_cold``), with every git command it ran
    (``GIT_TRACE``) and every module it loaded."""
    trace = root.parent / "git-trace"
    trace.unlink(missing_ok=True)
    with git_traced(monkeypatch, trace):
        proc, loaded = _cold(root, "forest", *args)
    return proc, git_commands(trace), loaded


def test_staged_check_rules_that_set_no_rewrite_ask_git_nothing_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``forest check --staged`` judging every binding (``--json``) where no line of a
    ``.gitattributes`` sets an attribute by which git rewrites a file on checkout
    (forest init's line unsets them; ``eol``, a ``-ident`` override): the same git
    processes as with no ``.gitattributes`` at all, and no throwaway git directory
    (tempfile): before, a ``rev-parse`` and a ``check-attr`` in one, on every such
    check. A staged ``ident`` rule for a bound file is still found."""
    root = _repo(tmp_path)
    rules = (root / ".gitattributes").read_text() + "*.md text eol=lf\nm.py -ident !filter\n"
    write(root, ".gitattributes", rules)
    commit_all(root, "rules")
    write(root, "a.md", DOC.replace("## Keep", "## Zero\n\nzero words\n\n## Keep"))
    git(root, "add", "a.md")
    args = ("check", "--staged", "--json")
    assert _cold(root, "forest", *args)[0].returncode == 0  # the view built, a.md's blob read
    clean, asked, loaded = _traced(root, monkeypatch, *args)
    assert clean.returncode == 0, clean.stderr
    assert not [a for a in asked if "check-attr" in a or "object-format" in a], asked
    assert "tempfile" not in loaded
    git(root, "rm", "-q", "--", ".gitattributes")
    bare, none_there, _ = _traced(root, monkeypatch, *args)
    assert bare.returncode == 0, bare.stderr
    assert asked == none_there
    write(root, ".gitattributes", rules + "a.md ident\n")
    git(root, "add", "--", ".gitattributes")
    found = _traced(root, monkeypatch, *args)[0]
    assert found.returncode == 1, found.stderr
    kinds = [(f["kind"], f["path"]) for f in json.loads(found.stdout)["findings"]]
    assert ("rewritten-on-checkout", "a.md") in kinds, kinds


@pytest.mark.parametrize("case", ["drift", "conflict"])
def test_status_of_failed_bindings_builds_no_route_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    """``forest status`` prints each binding's kind and ground, never a route: on a
    drift and a missing file, or a merge stopped with a bound file in conflict, it
    builds none (no route module loaded, git not asked what routes read: attributes,
    the staged change), and each row's kind is the one ``--json`` reports beside its
    routes (a file in conflict: ``unresolved``). Before, every route was built."""
    root = _repo(tmp_path)
    if case == "drift":
        write(root, "a.md", DOC.replace("kept words", "changed words"))
        (root / "m.py").unlink()
    else:
        git(root, "checkout", "-q", "-b", "side")
        write(root, "a.md", DOC.replace("kept words", "side words"))
        commit_all(root, "side")
        git(root, "checkout", "-q", "-")
        write(root, "a.md", DOC.replace("kept words", "main words"))
        commit_all(root, "main")
        assert pasted(root, "git merge -q side").returncode != 0  # a.md in conflict
    table, asked, loaded = _traced(root, monkeypatch, "status")
    assert table.returncode == 0, table.stderr
    assert "forest_files.check.explain_routes" not in loaded
    assert not [a for a in asked if "check-attr" in a or " diff " in a], asked
    found = json.loads(_cold(root, "forest", "status", "--json")[0].stdout)["findings"]
    assert [ln.split()[:2] for ln in table.stdout.splitlines()] == [
        [f["kind"], f["selector"]] for f in found
    ]
    failed = [f for f in found if f["kind"] != "clean"]
    assert failed and all(f["routes"] for f in failed), found
    if case == "conflict":
        assert [f["kind"] for f in failed] == ["unresolved"], found
