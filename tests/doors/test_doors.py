"""The doors' one voice: routes as data, quoted for a shell; placeholders refused when
pasted; short ids; the ``forest`` console script's light path (-C, --version, -v)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files.check.findings import WORDS_PLACEHOLDER, Route
from forest_files.custody.repository import Repository
from forest_files.kernel.errors import ForestError
from tests.helpers.custody import BY, DOC, init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, pasted, write
from tests.helpers.imports import loaded
from tests.helpers.state import local_state
from tests.helpers.template import reused

HEAVY = {"typer", "pydantic", "git", "click", "rich"}


def forest(root: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The installed console script's code path (entry.main), as a user runs it."""
    env = {**os.environ, **git_env(), "FOREST_DEBUG_IMPORTS": "1"}
    code = "from forest_files.doors.entry import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd or root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _imports(proc: subprocess.CompletedProcess[str]) -> set[str]:
    return loaded(proc.stderr)


def _build_bound(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    write(root, "b.md", "# B\n\nbee\n")
    init_and_adopt(root, ["a.md#Keep", "b.md"])
    commit_all(root, "adopt")
    return root


@pytest.fixture
def bound(tmp_path: Path) -> Path:
    # A private copy of one built once per worker process (template.reused).
    return reused((__name__, "bound"), tmp_path / "repo", _build_bound)


HOSTILE = ["it's.md", "`touch pwned`.md", "$(touch pwned).md", "-dash.md", "sp ace.md", "é.md"]


@pytest.mark.parametrize("name", HOSTILE)
def test_route_command_hostile_name_pastes_as_one_word_accepted(tmp_path: Path, name: str) -> None:
    route = Route("show", (("printf", "%s\\n", name),))
    out = subprocess.run(
        ["bash", "-c", route.command], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert out.stdout == name + "\n"
    assert not (tmp_path / "pwned").exists()


def test_check_lists_only_what_needs_a_route_verbose_lists_all(bound: Path) -> None:
    clean = forest(bound, "check")
    assert clean.returncode == 0, clean.stderr
    assert clean.stdout.strip().splitlines() == [
        "2 binding(s) checked against the working tree: 0 not clean"
    ]
    verbose = forest(bound, "check", "-v")
    assert "clean a.md#Title/Keep lines 3-6" in verbose.stdout and "clean b.md" in verbose.stdout
    write(bound, "b.md", "# B\n\nwasp\n")
    drifted = forest(bound, "check")
    assert drifted.returncode == 1
    lines = drifted.stdout.splitlines()
    assert lines[0].startswith("drifted b.md") and not any("a.md#Keep" in x for x in lines)
    assert "  restore ground: forest restore b.md" in lines
    assert any(x.startswith("  adopt the change: forest supersede b.md --words '…'") for x in lines)
    assert "--as" not in drifted.stdout  # the default identity signs: no placeholder to paste


def test_console_check_and_status_load_no_cli_library_accepted(bound: Path) -> None:
    for args in (["check"], ["check", "--staged"], ["status"], ["--version"]):
        proc = forest(bound, *args)
        assert proc.returncode == 0, (args, proc.stderr)
        assert not _imports(proc) & HEAVY, (args, _imports(proc) & HEAVY)


def test_version_and_dash_c_before_the_command_accepted(bound: Path, tmp_path: Path) -> None:
    version = forest(bound, "--version")
    assert version.stdout.startswith("forest-files ")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = forest(bound, "-C", str(bound), "check", "--json", cwd=elsewhere)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"] is True
    full = forest(bound, "-C", str(bound), "log", cwd=elsewhere)  # typer path, after -C
    assert full.returncode == 0, full.stderr


def test_dash_c_missing_directory_refused(bound: Path) -> None:
    proc = forest(bound, "-C", str(bound / "nope"), "check")
    assert proc.returncode == 2 and proc.stderr.startswith("forest: cannot change to")
    assert forest(bound, "-C").returncode == 2


@pytest.mark.parametrize("words", [WORDS_PLACEHOLDER, "...", "'…'", "  ", '"…"'])
def test_placeholder_words_pasted_refused_nothing_written(bound: Path, words: str) -> None:
    write(bound, "b.md", "# B\n\nwasp\n")
    before = sorted(p.name for p in (bound / ".forest/ledger/segments").iterdir())
    proc = forest(bound, "supersede", "b.md", "--words", words)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stderr.startswith("forest: --words") and "say why" in proc.stderr
    assert sorted(p.name for p in (bound / ".forest/ledger/segments").iterdir()) == before


@pytest.mark.parametrize("signature", ["NAME", WORDS_PLACEHOLDER, "...", "'…'"])
def test_placeholder_signature_refused_nothing_written(bound: Path, signature: str) -> None:
    """``--as NAME`` from old docs, or a route's ``…`` typed as the signature: neither
    names anyone, and an act signed so was recorded as signed by ``…``."""
    write(bound, "b.md", "# B\n\nwasp\n")
    proc = forest(bound, "supersede", "b.md", "--words", "Wasps now", "--as", signature)
    assert proc.returncode == 1 and "leave --as out" in proc.stderr
    assert forest(bound, "check").returncode == 1  # still drifted: nothing recorded


def test_route_pasted_with_words_filled_in_accepted(bound: Path) -> None:
    write(bound, "b.md", "# B\n\nwasp\n")
    report = json.loads(forest(bound, "check", "--json").stdout)
    (found,) = [f for f in report["findings"] if f["kind"] != "clean"]
    adopt = next(r for r in found["routes"] if r["label"] == "adopt the change")
    command = adopt["command"].replace(shlex.quote(WORDS_PLACEHOLDER), "'Wasps, not bees'")
    pasted = subprocess.run(
        [
            "bash",
            "-c",
            command.replace(
                "forest ", f"{shlex.quote(sys.executable)} -m forest_files.doors.entry ", 1
            ),
        ],
        cwd=bound,
        env={**os.environ, **git_env()},
        capture_output=True,
        text=True,
    )
    assert pasted.returncode == 0, pasted.stderr
    assert forest(bound, "check").returncode == 0


def _route(output: str, label: str) -> str:
    """The command of the route ``label`` in a printed block, its note left off."""
    line = next(x for x in output.splitlines() if x.strip().startswith(f"{label}: "))
    return line.split(": ", 1)[1].split("  (", 1)[0]


def test_dash_c_routes_pasted_where_typed_accepted(bound: Path, tmp_path: Path) -> None:
    """``forest -C DIR check``: its routes are pasted where it was typed. Beside the
    repository they printed ``forest restore b.md`` (not a repository there); at the
    top with ``-C sub`` they printed ``git -C .. add`` (above the repository). An
    absolute ``DIR`` stays absolute."""
    write(bound, "b.md", "# B\n\nwasp\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = forest(bound, "-C", str(bound), "check", cwd=elsewhere)
    assert proc.returncode == 1, proc.stderr
    restore = _route(proc.stdout, "restore ground")
    assert restore == f"forest -C {bound.resolve()} restore b.md"  # absolute, as typed
    done = pasted(elsewhere, restore)
    assert done.returncode == 0, done.stderr
    assert forest(bound, "check").returncode == 0
    write(bound, "b.md", "# B\n\nwasp\n")
    write(bound, "sub/x.txt", "x\n")
    proc = forest(bound, "-C", "sub", "check", cwd=bound)
    adopt = _route(proc.stdout, "adopt the change")
    done = pasted(bound, adopt.replace(shlex.quote(WORDS_PLACEHOLDER), "'Wasps, not bees'"))
    assert done.returncode == 0, done.stderr
    assert ".forest/ledger/" in git(bound, "diff", "--cached", "--name-only")
    assert forest(bound, "check").returncode == 0


def _ids(root: Path) -> list[str]:
    with Repository(root) as repo:
        return [g.content_id for g in repo.ground()]


def test_short_id_shown_and_unknown_refused(bound: Path) -> None:
    cid = _ids(bound)[0]
    shown = forest(bound, "show", cid[:12], "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["content_id"] == cid
    too_short = forest(bound, "show", cid[:7])
    assert too_short.returncode == 1 and "at least 8 hex digits" in too_short.stderr
    unknown = forest(bound, "show", "0" * 12 if not cid.startswith("0" * 12) else "f" * 12)
    assert unknown.returncode == 1 and "unknown entry" in unknown.stderr


def test_short_id_ambiguous_refused_listing_candidates(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    with Repository.init(root, project_id="p") as repo:
        # 96 ids over 256 two-digit prefixes: no clash has odds of about 2e-8 (48 gave
        # ~1 %: the ids carry their adoption time, so a run without a clash was possible)
        # (one transaction: the ids still differ by their nonces)
        ids = repo.adopt_many([f"text {n}" for n in range(96)], words="adopt", by=BY)
    by_prefix: dict[str, list[str]] = {}
    for cid in ids:
        by_prefix.setdefault(cid[:2], []).append(cid)
    prefix, clash = next((p, c) for p, c in by_prefix.items() if len(c) > 1)
    with Repository(root) as repo:
        store = repo.synced()
        with pytest.raises(ForestError, match="give more digits") as refused:
            store.local_id(prefix, min_digits=2)
        assert all(cid in str(refused.value) for cid in clash)
        assert store.content_id(store.local_id(clash[0][:12])) == clash[0]


def test_hook_and_check_print_the_same_block(bound: Path) -> None:
    write(bound, "b.md", "# B\n\nwasp\n")
    git(bound, "add", "b.md")
    check = forest(bound, "check", "--staged").stdout.splitlines()
    proc = subprocess.run(
        [sys.executable, "-m", "forest_files.doors.hooks.run", "pre-commit"],
        cwd=bound,
        env={**os.environ, **git_env()},
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    block = [x for x in proc.stderr.splitlines()[2:] if x]
    # the same finding block, the index routes staging what they change
    assert block[0] == check[0]
    assert "  restore ground: forest restore b.md && git add -- b.md" in block


def test_hook_refusing_a_move_loads_no_config_parser_accepted(bound: Path) -> None:
    """forest.toml names no [require] rule: the hook refusing a move (its view of the
    staged ledger cached by the first run) never imports config (tomllib and the
    policy parsers), whose name it still knows."""
    from forest_files.check.staged import CONFIG_NAME as STAGED_CONFIG_NAME
    from forest_files.custody.config import CONFIG_NAME

    assert STAGED_CONFIG_NAME == CONFIG_NAME
    git(bound, "mv", "a.md", "c.md")
    code = (
        "import sys; from forest_files.doors.hooks.run import main; code = main(['pre-commit']); "
        "print(sorted(m for m in sys.modules if m in ('forest_files.custody.config', 'tomllib')))"
    )
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, "-c", code],
            cwd=bound,
            env={**os.environ, **git_env()},
            capture_output=True,
            text=True,
        )
    assert "moved a.md#Title/Keep" in proc.stderr
    assert proc.stdout.strip() == "[]"


def test_adoptions_of_many_grounds_one_query_accepted(bound: Path) -> None:
    """Who adopted 1,200 grounds is one query: past a few dozen ids SQLite's planner
    reads every adoption record once per query, so chunks multiply that scan."""
    import sqlite3

    from forest_files.check.explain import adoptions_of
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.ground import ground_map

    with Repository(bound) as repo:
        store = repo.synced()
        grounds = sorted(
            str(g) for g, _hash, _heads in ground_map(store, all_bindings(store)).values()
        )
        conn = sqlite3.connect(f"{store.path.absolute().as_uri()}?mode=ro", uri=True)
    statements: list[str] = []
    conn.set_trace_callback(statements.append)
    try:
        found = adoptions_of(conn, [f"{n:064x}" for n in range(1200)] + grounds)
    finally:
        conn.close()
    assert len(grounds) == 2 and all(found[g][0] == BY for g in grounds)
    # one statement reads the adoption records (the other names the index's file, for
    # its ledger: store/connection.py main_file)
    assert len([s for s in statements if "FROM entries" in s]) == 1, statements


def test_status_from_remembered_verdict_equals_judged_status_accepted(bound: Path) -> None:
    from forest_files.custody import verdict

    assert forest(bound, "check").returncode == 0  # remembers the clean verdict
    assert verdict.recall(str(bound)) == 2
    remembered = forest(bound, "status", "--json")
    os.unlink(verdict.record_path(str(bound)))
    judged = forest(bound, "status", "--json")
    assert json.loads(remembered.stdout) == json.loads(judged.stdout)
    assert forest(bound, "check").returncode == 0
    write(bound, "b.md", "# B\n\nwasp\n")  # the verdict no longer holds
    rows = json.loads(forest(bound, "status", "--json").stdout)["findings"]
    assert {r["selector"]: r["kind"] for r in rows}["b.md"] == "drifted"


def test_case_only_rename_reported_as_such_detected(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    write(root, "docs/Lore.md", "# Lore\n\ntext\n")
    init_and_adopt(root, ["docs/Lore.md"])
    commit_all(root, "adopt")
    git(root, "mv", "docs/Lore.md", "docs/lore.md")
    moved = forest(root, "check")
    assert moved.returncode == 1
    assert "moved docs/Lore.md its unchanged text stands at docs/lore.md" in moved.stdout
    assert "letter case only" in moved.stdout
    write(root, "docs/lore.md", "# Lore\n\nchanged\n")
    missing = forest(root, "check")
    assert "missing docs/Lore.md the bound file is gone;" in missing.stdout
    assert "letter case only" in missing.stdout


def test_target_as_typed_at_adoption_finds_its_binding_accepted(tmp_path: Path) -> None:
    """``c.md#Notes[2]`` is recorded as ``c.md#B/Notes`` (its full path is unique); the
    target as first typed still names that binding."""
    root = make_repo(tmp_path)
    write(root, "c.md", "# A\n\n## Notes\n\na\n\n# B\n\n## Notes\n\nb\n")
    init_and_adopt(root, ["c.md#Notes[2]"])
    commit_all(root, "adopt")
    status = json.loads(forest(root, "status", "--json").stdout)["findings"]
    assert [r["selector"] for r in status] == ["c.md#B/Notes"]
    chain = forest(root, "log", "c.md#Notes[2]", "--json")
    assert chain.returncode == 0, chain.stderr
    assert json.loads(chain.stdout)["selector"] == "c.md#B/Notes"


def test_staged_check_after_head_judged_takes_the_hook_path_accepted(bound: Path) -> None:
    write(bound, "notes.txt", "unbound\n")
    git(bound, "add", "notes.txt")
    full = forest(bound, "check", "--staged")
    assert full.returncode == 0 and "2 binding(s) checked against the git index:" in full.stdout
    quick = forest(bound, "check", "--staged")
    assert quick.returncode == 0
    assert "(the staged change; HEAD judged clean)" in quick.stdout
    write(bound, "b.md", "# B\n\nwasp\n")
    git(bound, "add", "b.md")
    drifted = forest(bound, "check", "--staged")
    assert drifted.returncode == 1 and "drifted b.md" in drifted.stdout


def test_staged_check_head_committed_with_drift_never_remembered_detected(bound: Path) -> None:
    write(bound, "b.md", "# B\n\nwasp\n")
    git(bound, "commit", "-q", "--no-verify", "-am", "silent edit")
    for _ in range(2):  # a HEAD that is not clean is never taken as judged
        proc = forest(bound, "check", "--staged")
        assert proc.returncode == 1 and "drifted b.md" in proc.stdout


def _staged_hook(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "forest_files.doors.hooks.run", "pre-commit"],
        cwd=root,
        env={**os.environ, **git_env()},
        capture_output=True,
        text=True,
    )


def test_staged_view_without_bound_paths_remembers_them_from_its_map_detected(
    bound: Path,
) -> None:
    """A view whose binding map a hook derived had no bound-paths file, so every later
    hook took the slow path. It is now written from the map; drift is still caught."""
    write(bound, "b.md", "# B\n\nwasp\n")
    git(bound, "add", "b.md")
    assert _staged_hook(bound).returncode == 1  # a bound path: builds the view and its map
    write(bound, "b.md", "# B\n\nbee\n")
    git(bound, "add", "b.md")  # staged as at HEAD again
    write(bound, "notes.txt", "unbound\n")
    git(bound, "add", "notes.txt")
    views = local_state(bound) / "views"
    for remembered in views.glob("*.bound"):
        remembered.unlink()  # as a view left by a hook that derived only its map
    assert list(views.glob("*.db.bindmap-*"))
    assert _staged_hook(bound).returncode == 0
    (written,) = views.glob("*.bound")
    from forest_files.custody.viewkey import bound_paths

    assert bound_paths(written.with_suffix(".db")) == ({"a.md", "b.md"}, True)  # view: no contest
    write(bound, "b.md", "# B\n\nwasp\n")  # a bound file: the fast path must not answer
    git(bound, "add", "b.md")
    refused = _staged_hook(bound)
    assert refused.returncode == 1 and "b.md" in refused.stderr
