"""Renames and moves keep the chain: rebind with words, sections moved to other files,
renamed headings, directory moves, and the rebind routes pasted through a real shell."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files import gitio
from forest_files.custody.bindings import all_bindings
from forest_files.custody.lookup import find_binding
from forest_files.custody.plan import plan_supersede
from forest_files.custody.record import rebind_section
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.doors.cli import app
from forest_files.gate.range import check_range
from forest_files.kernel.errors import AuthorityRefused
from forest_files.ledger import write_segment
from forest_files.ledger.kinds import RebindAct
from forest_files.store.clock import utc_now
from tests.helpers.cli import findings, forest, ok, runner
from tests.helpers.git import commit_all, git, git_env, make_repo, write
from tests.helpers.gittrace import git_traced
from tests.helpers.template import reused

WORDS = "Adopted as the canon stands"
DOC = "# Title\n\n## Keep\n\nkept words\n\n## Other\n\nother words\n"
BIN = Path(sys.executable).parent


def segments(repo: Path) -> list[str]:
    return sorted(p.name for p in (repo / ".forest" / "ledger" / "segments").iterdir())


def shell(repo: Path, command: str) -> subprocess.CompletedProcess[str]:
    """Paste ``command`` into a real POSIX shell in ``repo``, as a user would."""
    env = {**os.environ, **git_env(), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(
        ["bash", "-c", command], cwd=repo, env=env, capture_output=True, text=True, check=False
    )


def _build_repo(tmp_path: Path) -> Path:
    path = make_repo(tmp_path)
    ok(path, "init")
    write(path, "a.md", DOC)
    commit_all(path, "init")
    ok(path, "adopt", "a.md#Keep", "a.md#Other", "--words", WORDS)
    commit_all(path, "adopt")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    # A private copy of one built once per worker process (template.reused).
    return reused((__name__, "repo"), tmp_path / "repo", _build_repo)


def _route(finding: dict[str, Any], label_part: str) -> str:
    (route,) = [r for r in finding["routes"] if label_part in r["label"]]
    command: str = route["command"]
    return command


# --- rebind with words -----------------------------------------------------------------


def test_rebind_renamed_and_edited_with_words_keeps_chain_accepted(repo: Path) -> None:
    write(repo, "a.md", DOC.replace("## Keep\n\nkept words", "## Kept\n\nkept words, edited"))
    before = segments(repo)
    ok(repo, "rebind", "a.md#Keep", "a.md#Kept", "--words", "Renamed and amended in review")
    assert len(segments(repo)) == len(before) + 1  # one act, one segment
    assert [f["kind"] for f in findings(repo)] == ["clean", "clean"]
    log = ok(repo, "log", "a.md#Kept").stdout.splitlines()
    assert log[0] == "a.md#Title/Kept"
    assert "superseded" in log[1] and WORDS in log[1]
    assert "ground" in log[2] and "Renamed and amended in review" in log[2]
    with Repository(repo) as r:  # the replayed index holds the same chain
        r.rebuild()
    assert [f["kind"] for f in findings(repo)] == ["clean", "clean"]


def test_rebind_changed_text_without_words_refused(repo: Path) -> None:
    write(repo, "a.md", DOC.replace("## Keep\n\nkept words", "## Kept\n\nkept words, edited"))
    before = segments(repo)
    result = forest(repo, "rebind", "a.md#Keep", "a.md#Kept")
    assert result.exit_code == 1
    assert result.stderr.startswith("forest: ") and "add --words" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert segments(repo) == before


def test_rebind_supersede_by_non_holder_of_new_path_refused_live_and_in_ci(
    tmp_path: Path,
) -> None:
    ada, mallory = "Ada <ada@example.org>", "Mallory <mallory@example.org>"
    root = make_repo(tmp_path)
    Repository.init(root, project_id="p-move").close()
    write(
        root,
        "forest.toml",
        f'[project]\nid = "p-move"\n\n[authority]\n"canon/**" = ["{ada}", "{mallory}"]\n'
        f'"locked/**" = ["{ada}"]\n',
    )
    write(root, "canon/c.md", DOC)
    ok(root, "adopt", "canon/c.md#Keep", "--words", WORDS, "--as", ada)
    commit_all(root, "base")
    git(root, "checkout", "-q", "-b", "feature")
    write(root, "locked/l.md", "## Kept\n\nkept words, edited by Mallory\n")
    with Repository(root) as r:
        binding = find_binding(all_bindings(r.synced()), "canon/c.md#Keep")
        section = read_section(root, "locked/l.md#Kept", (), max_bytes=1 << 20)
        with pytest.raises(AuthorityRefused):
            rebind_section(r, binding, section, by=mallory, words="moved where I like")
        # The same act written by hand: the gate judges the new path too.
        store = r.synced()
        head = store.contest_heads(binding.entry_id)[0]
        part = plan_supersede(store, head, section.text, words="moved", by=mallory)
        payload = RebindAct(
            binding=binding.bind_act,
            path=section.path,
            selector=section.selector,
            section_hash=part.entry.body_hash,
            by=mallory,
            at=utc_now(),
            supersede=part,
        )
        forged = r.act(payload, {binding.bind_act})
        write_segment(
            r.ledger_dir,
            [forged],
            {part.entry.body_hash: section.text, part.record.body_hash: "moved"},
        )
    commit_all(root, "forged move")
    faults = check_range(root, "main").faults
    assert {(f.code, f.act_id) for f in faults} == {("authority", forged.id)}
    assert any("locked/l.md" in f.detail for f in faults)
    result = runner.invoke(app, ["ci", "-C", str(root), "--base", "main"])
    assert result.exit_code == 1


# --- moved into another file -----------------------------------------------------------


def test_section_moved_to_new_untracked_file_detected_and_route_pasted_accepted(
    repo: Path,
) -> None:
    write(repo, "a.md", DOC.replace("## Keep\n\nkept words\n\n", ""))
    write(repo, "notes/b.md", "# B\n\nintro\n\n## Keep\n\nkept words\n\n")  # untracked
    (moved, other) = findings(repo)
    assert moved["kind"] == "moved" and moved["moved_to"] == "notes/b.md#B/Keep"
    assert other["kind"] == "clean"
    command = _route(moved, "move the binding")
    assert command == (
        "forest rebind 'a.md#Title/Keep' 'notes/b.md#B/Keep' && git add -- .forest/ledger"
    )
    done = shell(repo, command)
    assert done.returncode == 0, done.stderr
    assert [f["kind"] for f in findings(repo)] == ["clean", "clean"]


def test_section_moved_where_its_path_is_another_tail_route_pasted_accepted(
    repo: Path,
) -> None:
    """``Title/Keep`` also names ``X/Title/Keep`` as a tail: the moved route carries the
    ``[1]`` a canonical selector needs, so the pasted rebind resolves."""
    write(repo, "a.md", DOC.replace("## Keep\n\nkept words\n\n", ""))
    write(
        repo, "b.md", "# Title\n\n## Keep\n\nkept words\n\n# X\n\n## Title\n\n### Keep\n\nnot it\n"
    )
    (moved, _) = findings(repo)
    assert moved["kind"] == "moved" and moved["moved_to"] == "b.md#Title/Keep[1]"
    done = shell(repo, _route(moved, "move the binding"))
    assert done.returncode == 0, done.stderr
    assert [f["kind"] for f in findings(repo)] == ["clean", "clean"]


def test_symbol_moved_after_an_overload_stub_route_names_it_canonically_accepted(
    repo: Path,
) -> None:
    """An ``@overload`` stub is never a symbol's match: the moved implementation is
    ``C.f``, not ``C.f[2]`` counted past the stub."""
    body = "    def f(self, x):\n        return x\n"
    write(repo, "src.py", f"class C:\n{body}")
    ok(repo, "adopt", "src.py::C.f", "--words", WORDS)
    commit_all(repo, "symbol")
    (repo / "src.py").unlink()
    stub = "    @overload\n    def f(self, x: int) -> int: ...\n"
    write(repo, "other.py", f"from typing import overload\n\n\nclass C:\n{stub}{body}")
    moved = next(f for f in findings(repo) if f["kind"] == "moved")
    assert moved["moved_to"] == "other.py::C.f"
    done = shell(repo, _route(moved, "move the binding"))
    assert done.returncode == 0, done.stderr
    assert {f["kind"] for f in findings(repo)} == {"clean"}


@pytest.mark.slow  # the route pasted into a real shell
def test_heading_named_like_bound_one_added_before_it_moved_route_pasted_accepted(
    repo: Path,
) -> None:
    """A second ``## Keep`` written before the bound one made its selector match twice:
    the check said "unresolved … choose one of them", with a route that was no command
    ("no heading stands where it stood"). The unchanged section is found where it
    stands now, ``Keep[2]``, as a move; the printed rebind, pasted, keeps custody."""
    write(repo, "a.md", DOC.replace("## Keep\n", "## Keep\n\nnew words\n\n## Keep\n"))
    (moved, other) = findings(repo)
    assert moved["kind"] == "moved" and moved["moved_to"] == "a.md#Title/Keep[2]", moved
    assert other["kind"] == "clean"
    done = shell(repo, _route(moved, "move the binding"))
    assert done.returncode == 0, done.stderr
    assert [f["kind"] for f in findings(repo)] == ["clean", "clean"]


def test_heading_named_like_bound_one_added_and_bound_edited_candidates_detected(
    repo: Path,
) -> None:
    """The same, with the bound section edited too: no move, but both places are
    offered as rebinds (with words)."""
    write(repo, "a.md", DOC.replace("## Keep\n", "## Keep\n\nnew words\n\n## Keep\n"))
    write(repo, "a.md", (repo / "a.md").read_text().replace("kept words", "kept words!"))
    (gone, _) = findings(repo)
    assert gone["kind"] == "unresolved", gone
    assert sorted(gone["candidates"]) == ["a.md#Title/Keep[1]", "a.md#Title/Keep[2]"]
    rebinds = [r["argv"][0] for r in gone["routes"] if "rebind" in (r["command"] or "")]
    assert sorted(argv[3] for argv in rebinds) == sorted(gone["candidates"])


def test_section_moved_to_other_file_staged_detected(repo: Path) -> None:
    from forest_files.check.staged import judge_staged

    write(repo, "a.md", DOC.replace("## Keep\n\nkept words\n\n", ""))
    write(repo, "b.md", "## Keep\n\nkept words\n\n")
    git(repo, "add", "-A")
    report = judge_staged(repo)
    (moved,) = report.failed
    assert moved.finding.kind == "moved" and moved.finding.moved_to == "b.md#Keep"
    assert moved.routes[0].steps[0] == ("forest", "rebind", "a.md#Title/Keep", "b.md#Keep")


def test_moved_search_parses_each_candidate_once(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from forest_files.check.engine import check_all
    from forest_files.custody.content import WorktreeSource
    from forest_files.text import markdown

    for n in range(5):
        write(repo, f"other{n}.md", f"# O{n}\n\n## Keep\n\nnot it {n}\n")
    write(repo, "a.md", "# Title\n")  # both bound sections gone from it
    write(repo, "b.md", "# B\n\n## Keep\n\nkept words\n\n## Other\n\nother words\n")
    parsed: list[int] = []
    real = markdown.outline

    def counting(text: str, lines: Any = None) -> Any:
        parsed.append(1)
        return real(text, lines)

    monkeypatch.setattr(markdown, "outline", counting)
    with Repository(repo) as r:
        store = r.synced()
        found = check_all(store, all_bindings(store), WorktreeSource(r.root))
    assert [(f.kind, f.moved_to) for f in found] == [
        ("moved", "b.md#B/Keep"),
        ("moved", "b.md#B/Other"),
    ]
    # a.md twice (each binding's own failed lookup, then the one index) at most;
    # every other Markdown file exactly once for both bindings.
    assert len(parsed) <= 7 + 2


def test_moved_search_hashes_known_reads_blobs_in_one_batch_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full staged check before the move taught this machine every blob's file hash;
    the moved search still needs their bytes: one ``git cat-file`` for all of them."""
    from forest_files.check.staged import judge_staged

    root = make_repo(tmp_path)
    ok(root, "init")
    for n in range(3):
        write(root, f"old/n{n}.md", DOC.replace("Title", f"Title {n}").replace("kept", f"kept {n}"))
    commit_all(root, "init")
    ok(root, "adopt", *(f"old/n{n}.md#Keep" for n in range(3)), "--words", WORDS)
    commit_all(root, "adopt")
    ok(root, "check", "--staged")  # hashes every staged blob (statcache.BlobHashCache)
    git(root, "mv", "old", "new")
    gitio.forget_read_objects()  # a hook is a new process: nothing read yet
    trace = tmp_path / "trace.txt"
    with git_traced(monkeypatch, trace):
        report = judge_staged(root)
    assert sorted(r.finding.moved_to or "" for r in report.failed) == [
        f"new/n{n}.md#Title {n}/Keep" for n in range(3)
    ]
    batches = [line for line in trace.read_text().splitlines() if "git cat-file" in line]
    assert len(batches) == 1


# --- a renamed heading -----------------------------------------------------------------


def test_unresolved_renamed_heading_route_pasted_keeps_chain_accepted(repo: Path) -> None:
    write(repo, "a.md", DOC.replace("## Keep\n\nkept words", "## Kept\n\nkept words!"))
    (gone, _) = findings(repo)
    assert gone["kind"] == "unresolved"
    assert gone["candidates"] == ["a.md#Title/Kept"] and gone["candidate_lines"] == [3]
    command = _route(gone, "renamed")
    assert command == (
        "forest rebind 'a.md#Title/Keep' 'a.md#Title/Kept' --words '…' && git add -- .forest/ledger"
    )
    done = shell(repo, command.replace("…", "The heading was renamed in review"))
    assert done.returncode == 0, done.stderr
    assert [f["kind"] for f in findings(repo)] == ["clean", "clean"]
    log = ok(repo, "log", "a.md#Kept").stdout
    assert "superseded" in log and "renamed in review" in log


def test_unresolved_several_new_headings_one_route_each_detected(repo: Path) -> None:
    write(repo, "a.md", DOC.replace("## Keep\n\nkept words", "## One\n\nx\n\n## Two\n\ny"))
    result = forest(repo, "check")
    assert result.exit_code == 1
    assert "a.md#Title/One (line 3), a.md#Title/Two (line 7)" in result.stdout
    assert " NEW " not in result.stdout
    (gone, _) = findings(repo)
    rebinds = [r["argv"][0] for r in gone["routes"] if "rebind" in (r["command"] or "")]
    assert [argv[3] for argv in rebinds] == ["a.md#Title/One", "a.md#Title/Two"]


def test_unresolved_beside_an_empty_heading_lists_the_nameable_one_detected(repo: Path) -> None:
    """An empty ``##`` heading has no selector: it is no candidate, and the check still
    reports the renamed heading beside it."""
    write(repo, "a.md", DOC.replace("## Keep\n\nkept words", "## Kept\n\nkept words!\n\n##\n\nx"))
    (gone, _) = findings(repo)
    assert gone["kind"] == "unresolved"
    assert gone["candidates"] == ["a.md#Title/Kept"] and gone["candidate_lines"] == [3]


# --- a directory moved -----------------------------------------------------------------


def test_directory_move_one_command_one_segment_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "docs/a.md", DOC)
    write(root, "docs/sub/b.md", "whole file\n")
    write(root, "docs2/keep.md", "elsewhere\n")
    commit_all(root, "init")
    ok(root, "adopt", "docs/a.md#Keep", "docs/a.md#Other", "docs/sub/b.md", "docs2/keep.md",
       "--words", WORDS)  # fmt: skip
    commit_all(root, "adopt")
    git(root, "mv", "docs", "notes")
    before = segments(root)
    result = ok(root, "rebind", "docs/", "notes/")
    assert "3 bindings moved in one segment" in result.stdout
    assert len(segments(root)) == len(before) + 1
    assert sorted((f["kind"], f["selector"]) for f in findings(root)) == [
        ("clean", "docs2/keep.md"),
        ("clean", "notes/a.md#Title/Keep"),
        ("clean", "notes/a.md#Title/Other"),
        ("clean", "notes/sub/b.md"),
    ]


def test_directory_move_missing_target_refused_nothing_written(repo: Path) -> None:
    before = segments(repo)
    result = forest(repo, "rebind", "nowhere/", "else/")
    assert result.exit_code == 1 and "no binding lies under it" in result.stderr
    git(repo, "mv", "a.md", "b.md")
    result = forest(repo, "rebind", "./", "sub/")
    assert result.exit_code != 0
    assert segments(repo) == before


# --- shell-hostile names ---------------------------------------------------------------

# A quote and a command substitution in the fast lane; the other names in the slow lane.
HOSTILE_FILES = (
    "it's.md",
    pytest.param("back`tick`.md", marks=pytest.mark.slow),
    "$(touch PWNED).md",
    pytest.param("-dash.md", marks=pytest.mark.slow),
    pytest.param("with space.md", marks=pytest.mark.slow),
    pytest.param("naïve café.md", marks=pytest.mark.slow),
)


@pytest.mark.parametrize("name", HOSTILE_FILES)
def test_hostile_names_through_moved_route_pasted_accepted(repo: Path, name: str) -> None:
    heading = "Keep `$(touch PWNED2)` it's"
    write(repo, "src.md", f"# S\n\n## {heading}\n\nhostile words\n")
    ok(repo, "adopt", f"src.md#{heading}", "--words", WORDS)
    commit_all(repo, "hostile")
    (repo / "src.md").unlink()
    write(repo, f"dir x/{name}", f"## {heading}\n\nhostile words\n")
    moved = next(f for f in findings(repo) if f["kind"] == "moved")
    command = _route(moved, "move the binding")
    done = shell(repo, command)
    assert done.returncode == 0, (command, done.stderr)
    assert not (repo / "PWNED").exists() and not (repo / "PWNED2").exists()
    assert {f["kind"] for f in findings(repo)} == {"clean"}


@pytest.mark.parametrize("name", HOSTILE_FILES)
def test_hostile_names_through_renamed_route_pasted_accepted(tmp_path: Path, name: str) -> None:
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, name, "# T\n\n## Old `x` $(y)\n\nwords\n\n")
    commit_all(root, "init")
    adopted = runner.invoke(
        app, ["adopt", "--repo", str(root), "--words", WORDS, "--", f"{name}#Old `x` $(y)"]
    )
    assert adopted.exit_code == 0, adopted.stderr
    commit_all(root, "adopt")
    write(root, name, "# T\n\n## New 'it' `$(touch PWNED)`\n\nwords, changed\n\n")
    (gone,) = findings(root)
    command = _route(gone, "renamed")
    done = shell(root, command.replace("…", "renamed"))
    assert done.returncode == 0, (command, done.stderr)
    assert not (root / "PWNED").exists()
    assert [f["kind"] for f in findings(root)] == ["clean"]


def test_moved_beside_an_identical_bound_copy_detected(tmp_path: Path) -> None:
    """A translation folder with an untranslated file (the same text as the bound
    original): the folder renamed, its file is ``moved`` to the one place no other
    binding holds. It was ``missing`` (two places hashed to ground, one of them the
    original's own), routed to a rebind with new words or a restore at the old path."""
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "en/a.md", "# A\n\nnot translated yet\n")
    write(root, "tr/a.md", "# A\n\nnot translated yet\n")
    commit_all(root, "init")
    ok(root, "adopt", "en/a.md", "tr/a.md", "--words", WORDS)
    commit_all(root, "adopt")
    git(root, "mv", "tr", "tr-TR")
    got = {f["selector"]: (f["kind"], f["moved_to"]) for f in findings(root)}
    assert got == {"en/a.md": ("clean", None), "tr/a.md": ("moved", "tr-TR/a.md")}
