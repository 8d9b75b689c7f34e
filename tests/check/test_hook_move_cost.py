"""What the pre-commit hook pays on a commit that moves bound files, counted.

A reorganisation commit (``git mv`` of bound files) makes the hook find every moved
section and plan the one route for the commit. Counted in process, around the real
functions (monkeypatch wrappers that call through): each staged file parsed once
and each of its sections hashed once; each rebind of the route given only the
bindings under its heading (its bound descendants, carried), never every binding of
its file again; no cyclic garbage collection while the hook runs, the collector as
it was afterwards. In a fresh interpreter: a move of sections with no bound
descendant never imports the store's lookup module (``custody/lookup.py``, and the
whole store behind it); naming who adopted a moved section imports none of the
ledger's act types (``ledger.acts``, ``ledger.segments``); off a terminal no diff
module (``check.explain_diffs``); the report works out its failed findings once.
"""

from __future__ import annotations

import gc
import hashlib
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from forest_files.check import commit_plan, moves
from forest_files.custody.bindings import Binding
from forest_files.doors.hooks.run import main as hook
from forest_files.kernel import hashing
from forest_files.text import markdown
from tests.helpers.cli import forest
from tests.helpers.git import commit_all, git, git_env, make_repo, write
from tests.helpers.template import copied_from

CHAPTERS = 8
BOOK = "# Book\n\nopening\n\n" + "".join(
    f"## Chapter {k}\n\ntext of chapter {k}\n\n" + ("### Scene\n\nthe scene\n\n" if k == 1 else "")
    for k in range(1, CHAPTERS + 1)
)
FLAT = "# Flat\n\n## One\n\nfirst\n\n## Two\n\nsecond\n"


def _build(where: Path) -> Path:
    root = make_repo(where)
    write(root, "book.md", BOOK)
    write(root, "flat.md", FLAT)
    commit_all(root, "docs")
    assert forest(root, "init").exit_code == 0
    targets = [f"book.md#Book/Chapter {k}" for k in range(1, CHAPTERS + 1)]
    targets += ["book.md#Book/Chapter 1/Scene", "flat.md#Flat/One", "flat.md#Flat/Two"]
    for target in targets:
        done = forest(root, "adopt", target, "--words", "as written")
        assert done.exit_code == 0, done.stdout + done.stderr
    commit_all(root, "custody")
    return root


repo = copied_from(_build)


def _key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_hook_move_parse_hash_and_scan_once_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    parses: Counter[str] = Counter()
    hashed: Counter[str] = Counter()
    scanned: dict[str, int] = {}
    real_parse = markdown._top_level_headings
    real_hash: Callable[[str], str] = hashing.hash_body
    real_group = commit_plan.rebind_group

    def parse(text: str) -> list[markdown.Found]:
        parses[_key(text)] += 1
        return real_parse(text)

    def hash_body(body: str) -> str:
        hashed[_key(body)] += 1
        return real_hash(body)

    def group(
        binding: Binding,
        new: str,
        in_file: Sequence[Binding],
        texts: commit_plan.StagedTexts,
        known: str | None = None,
    ) -> list[commit_plan.Step]:
        scanned[binding.selector] = len(in_file)
        return real_group(binding, new, in_file, texts, known)

    monkeypatch.setattr(markdown, "_top_level_headings", parse)
    monkeypatch.setattr(moves, "hash_body", hash_body)
    monkeypatch.setattr(commit_plan, "rebind_group", group)
    git(repo, "mv", "book.md", "novel.md")
    monkeypatch.chdir(repo)
    assert hook(["pre-commit"]) == 1
    err = capsys.readouterr().err
    assert f"or record the whole commit at once ({CHAPTERS + 1} rebound" in err, err
    assert parses == Counter({_key(BOOK): 1})
    sections = 1 + CHAPTERS + 1  # the H1, every chapter, the scene: each hashed once
    assert sum(hashed.values()) == sections and set(hashed.values()) == {1}, hashed
    # each rebind looked at the bindings under its heading only: chapter 1's scene
    assert scanned == {f"book.md#Book/Chapter {k}": int(k == 1) for k in range(1, CHAPTERS + 1)}


def test_hook_move_collector_off_then_restored_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    passes: list[str] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            passes.append(phase)

    git(repo, "mv", "book.md", "novel.md")
    monkeypatch.chdir(repo)
    assert gc.isenabled()
    threshold = gc.get_threshold()
    gc.set_threshold(1)  # any collection the hook allowed would run at once
    gc.callbacks.append(seen)
    try:
        assert hook(["pre-commit"]) == 1
    finally:
        gc.callbacks.remove(seen)
        gc.set_threshold(*threshold)
    assert "moved book.md#Book/Chapter 2" in capsys.readouterr().err
    assert passes == []
    assert gc.isenabled()


def _hook_twice(repo: Path, modules: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    """The pre-commit hook run twice in a fresh interpreter (the second run: the staged
    ledger's view cached by the first); the second's exit code and which of ``modules``
    it imported on its stdout."""
    code = (
        "import sys; from forest_files.doors.hooks.run import main; code = main(['pre-commit']); "
        f"print(code, sorted(m for m in sys.modules if m in {modules!r}))"
    )
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, "-c", code],
            cwd=repo,
            env={**os.environ, **git_env()},
            capture_output=True,
            text=True,
            check=False,
        )
    return proc


def test_hook_move_flat_sections_store_lookup_never_imported_accepted(repo: Path) -> None:
    """Hostile: the rebind route of a section with no bound descendant needs nothing
    of the store's lookup module; importing it for every rebind cost the hook the
    whole store's import (custody/lookup.py -> store/forest.py)."""
    git(repo, "mv", "flat.md", "level.md")
    proc = _hook_twice(repo, ("forest_files.custody.lookup", "forest_files.store.forest"))
    assert "moved flat.md#Flat/One" in proc.stderr, proc.stderr
    assert proc.stdout.strip() == "1 []", proc.stdout


def test_hook_move_step_places_never_parsed_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The commit's one route needs only the file each rebind lands in, to learn which
    staying bindings could name the same place: no step's new selector is parsed for it
    (``selector_path``; a move of 2,000 sections parsed 2,000 selectors for their paths)."""
    from forest_files.text import selector

    parsed: Counter[str] = Counter()
    real = selector.parse_selector

    def parse(text: str) -> selector.Selector:
        parsed[text] += 1
        return real(text)

    monkeypatch.setattr(selector, "parse_selector", parse)
    git(repo, "mv", "flat.md", "level.md")
    monkeypatch.chdir(repo)
    assert hook(["pre-commit"]) == 1
    err = capsys.readouterr().err
    assert "or record the whole commit at once (2 rebound" in err, err
    assert not [t for t in parsed if t.startswith("level.md")], parsed


def test_hook_move_adopters_named_without_ledger_act_types_accepted(repo: Path) -> None:
    """Hostile: the refusal names who adopted each moved section (read from the ledger's
    segment lines that name its ground, custody/adoptions.py); that read imported the
    ledger's act types and segment reader (``ledger.acts``, ``ledger.segments``: ~30 ms)
    on every failing hook, though it decodes lines as plain JSON."""
    git(repo, "mv", "flat.md", "level.md")
    heavy = (
        "forest_files.ledger.acts",
        "forest_files.ledger.kinds",
        "forest_files.ledger.segments",
    )
    proc = _hook_twice(repo, heavy)
    assert "moved flat.md#Flat/One" in proc.stderr, proc.stderr
    assert "adopted by" in proc.stderr and "“as written”" in proc.stderr, proc.stderr
    assert proc.stdout.strip() == "1 []", proc.stdout


def test_hook_move_adopters_of_a_view_no_ledger_module_imported_accepted(repo: Path) -> None:
    """The hook names who adopted each moved section from the staged ledger's view (a
    replay of the ledger, its rows read as they are: custody/adoptions.py
    ``index_records`` alone), yet importing adoptions.py loaded what only a working
    tree's index needs to prove its rows against the ledger: the ledger's error and
    segment listing modules and the store's row module with its vocabulary."""
    git(repo, "mv", "flat.md", "level.md")
    proving = (
        "forest_files.ledger.fault",
        "forest_files.ledger.segment_files",
        "forest_files.store.entryrow",
        "forest_files.kernel.vocab",
    )
    proc = _hook_twice(repo, proving)
    assert "adopted by" in proc.stderr and "“as written”" in proc.stderr, proc.stderr
    assert proc.stdout.strip() == "1 []", proc.stdout


@pytest.mark.parametrize("ledger", [False, True], ids=["move", "ledger-staged"])
def test_hook_refused_off_a_terminal_diff_module_never_imported_accepted(
    repo: Path, ledger: bool
) -> None:
    """Hostile: off a terminal the refusal shows no diff, yet the hook imported the
    module that renders it (check/explain_diffs.py), both when only files are staged
    (a move) and when the ledger is (a supersede staged, its file not)."""
    if ledger:
        write(repo, "flat.md", FLAT.replace("first", "first, edited"))
        done = forest(repo, "supersede", "flat.md#Flat/One", "--words", "edited")
        assert done.exit_code == 0, done.stdout + done.stderr
        git(repo, "add", "--", ".forest/ledger")
    else:
        git(repo, "mv", "flat.md", "level.md")
    proc = _hook_twice(repo, ("forest_files.check.explain_diffs",))
    said = "drifted flat.md#Flat/One" if ledger else "moved flat.md#Flat/One"
    assert said in proc.stderr, proc.stderr
    assert proc.stdout.strip() == "1 []", proc.stdout


def test_hook_move_report_failed_worked_out_once_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hook's report is asked for its failed findings nine times (the commit's plan,
    the verdict, the blocks, the refusal, the record, ...): each time every finding was
    asked again whether it failed (2,000 moved findings: 18,000 questions more)."""
    from forest_files.check.finding import Finding

    asked: Counter[str] = Counter()
    real = Finding.failed

    def failed(self: Finding) -> bool:
        if sys._getframe(1).f_code.co_filename.endswith(os.path.join("check", "findings.py")):
            asked[self.selector] += 1  # asked by the report, not by a route's builder
        return bool(real.__get__(self))

    monkeypatch.setattr(Finding, "failed", property(failed))
    git(repo, "mv", "flat.md", "level.md")
    monkeypatch.chdir(repo)
    assert hook(["pre-commit"]) == 1
    assert "moved flat.md#Flat/One" in capsys.readouterr().err
    assert asked["flat.md#Flat/One"] == 1 and asked["flat.md#Flat/Two"] == 1, asked


def test_hook_move_step_paths_carried_not_split_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The commit's one route learns which files its rebinds land in from the steps
    themselves: each carries the file of the place it was given (a rendered place, its
    path judged when it was named), so no step's selector is split or judged again
    (a ``selector_paths`` once split a move's 2,000 new selectors back into its 200
    files and judged each file again: ~3 ms of the bench's hook). A heading's carried descendant
    lies in its heading's file."""
    from forest_files.text import selector

    asked: Counter[str] = Counter()
    real_path = selector.selector_path

    def selector_path(text: str) -> str:
        asked[real_path(text)] += 1
        return real_path(text)

    freed: list[commit_plan.Step] = []
    real_group = commit_plan.rebind_group

    def group(*args: Any, **kwargs: Any) -> list[commit_plan.Step]:
        made = real_group(*args, **kwargs)
        freed.extend(made)
        return made

    monkeypatch.setattr(selector, "selector_path", selector_path)
    monkeypatch.setattr(commit_plan, "rebind_group", group)
    git(repo, "mv", "book.md", "novel.md")
    monkeypatch.chdir(repo)
    assert hook(["pre-commit"]) == 1
    err = capsys.readouterr().err
    assert f"or record the whole commit at once ({CHAPTERS + 1} rebound" in err, err
    assert asked == {}, asked  # before: novel.md's path judged again by the route's split
    assert len(freed) == CHAPTERS + 1 and any(s.carried for s in freed), freed
    assert {s.path for s in freed} == {"novel.md"}, freed
