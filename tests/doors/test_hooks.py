"""The installed git hooks in real repositories, driven by real ``git commit``.

Every refused commit is checked to leave HEAD, the working tree and the index
exactly as they were (``git diff`` and ``git diff --cached`` before/after):
the hook judges, it never stashes or rewrites.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files import gitio
from forest_files.custody.viewkey import commit_fingerprint, view_path
from forest_files.custody.viewmanifest import built_from
from forest_files.doors import hooks as githooks
from forest_files.doors.cli import app
from forest_files.kernel.paths import VIEWS_DIR
from tests.helpers.cli import FOREST
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.state import local_state
from tests.helpers.template import built_once, copy_repo

runner = CliRunner()

BIN = Path(sys.executable).parent
FOREST_HOOK = str(BIN / "forest-hook")
WORDS = "I adopt these words as written"

# The Rules section keeps unchanged lines between its first and last rule so
# that two branches editing one each merge without a git conflict.
CANON = (
    "# Canon\n\nIntro line.\n\n"
    "## Rules\n\nThe first rule stands.\n\nA middle line.\n\nThe last rule stands.\n\n"
    "## Elsewhere\n\nOther words.\n"
)
RULES = "canon.md#Canon/Rules"
OTHER = "# Other\n\n## Notes\n\nA note.\n\n## Tail\n\nTail words.\n"
NOTES = "other.md#Other/Notes"


def run(
    cwd: Path, *cmd: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A whole process with the isolated environment (no exception on failure)."""
    full = dict(os.environ)
    full.update(env or {})
    return subprocess.run(
        list(cmd),
        cwd=cwd,
        env=full,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        check=False,
    )


def forest(repo: Path, *args: str) -> Result:
    result = runner.invoke(app, [*args, "--repo", str(repo)])
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return result


def state(repo: Path) -> tuple[str, str, str, str]:
    """HEAD (or unborn), the unstaged diff, the staged diff, and porcelain status."""
    head = run(repo, "git", "rev-parse", "-q", "--verify", "HEAD").stdout.strip()
    return (
        head,
        git(repo, "diff", "--binary"),
        git(repo, "diff", "--cached", "--binary"),
        git(repo, "status", "--porcelain", "--untracked-files=all"),
    )


def refused(repo: Path, *args: str) -> str:
    """``git ARGS`` must fail and change nothing; return its stderr."""
    before = state(repo)
    proc = run(repo, "git", *args)
    assert proc.returncode != 0, (args, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert state(repo) == before
    return proc.stderr


def accepted(repo: Path, *args: str) -> str:
    """``git ARGS`` must succeed and move HEAD; return its stderr."""
    before = state(repo)[0]
    proc = run(repo, "git", *args)
    assert proc.returncode == 0, (args, proc.stdout, proc.stderr)
    assert state(repo)[0] != before
    return proc.stderr


def drift(repo: Path, path: str = "canon.md") -> None:
    target = repo / path
    text = target.read_text(encoding="utf-8")
    assert "first rule stands" in text
    target.write_text(text.replace("first rule stands", "first rule bends"), encoding="utf-8")


def edit_outside(repo: Path, path: str = "canon.md") -> None:
    target = repo / path
    target.write_text(target.read_text(encoding="utf-8") + "\nAn appendix.\n", encoding="utf-8")


def hook_script(repo: Path, name: str = "pre-commit") -> Path:
    return gitio.hooks_dir(repo) / name


def adopt(repo: Path, *targets: str) -> None:
    """``forest adopt TARGETS`` (one segment)."""
    forest(repo, "adopt", *targets, "--words", WORDS)


def _build_custody(directory: Path) -> Path:
    repo = make_repo(directory)
    forest(repo, "init")
    write(repo, "canon.md", CANON)
    write(repo, "other.md", OTHER)
    commit_all(repo, "files")
    adopt(repo, "canon.md#Rules", "other.md#Notes")
    commit_all(repo, "adopt")
    return repo


@pytest.fixture(scope="module")
def _custody_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_once(tmp_path_factory, _build_custody)


@pytest.fixture
def custody(_custody_template: Path, tmp_path: Path) -> Path:
    """canon.md#Rules and other.md#Notes adopted and committed; no hooks yet (a
    private copy of a repository built once for this module)."""
    return copy_repo(_custody_template, tmp_path / "repo")


def test_adopt_bind_act_depends_on_its_root_act(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    forest(repo, "init")
    write(repo, "canon.md", CANON)
    commit_all(repo, "file")
    for _ in range(8):  # each adoption's bind must replay after its root, whatever the ids
        adopt(repo, "canon.md#Rules")
        commit_all(repo, "adopt")
        forest(repo, "check", "--rev", "HEAD")  # in process: the replay is the subject
        forest(repo, "retire", "canon.md#Rules", "--words", "again")
        commit_all(repo, "retire")
    proc = run(repo, FOREST, "check", "--rev", "HEAD~1")  # and once through the console entry
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.fixture
def bound(custody: Path) -> Path:
    """``custody`` with our hooks installed (through the API)."""
    githooks.install(custody)
    return custody


# --- partial staging, -a, PATH, amend ------------------------------------


def test_staged_drift_clean_worktree_refused(bound: Path) -> None:
    drift(bound)
    git(bound, "add", "canon.md")
    write(bound, "canon.md", CANON)  # the working tree is back at ground
    err = refused(bound, "commit", "-m", "drift")
    assert f"drifted {RULES}" in err
    assert "commit refused" in err
    assert f"\u201c{WORDS}\u201d" in err and "adopted by " in err  # who, with which words
    assert f"forest restore '{RULES}'" in err
    # the working tree holds other text than the index: the route adopts the staged one
    assert f"forest supersede '{RULES}'" not in err
    assert "adopt the staged text: forest supersede --staged --expect " in err


def test_refusal_on_a_terminal_shows_the_diff_ground_to_staged(bound: Path) -> None:
    import pty

    drift(bound)
    git(bound, "add", "canon.md")
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run(
            ["git", "commit", "-m", "drift"],
            cwd=bound,
            env=dict(os.environ),
            stdout=subprocess.DEVNULL,
            stderr=follower,
            timeout=120,
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the terminal's other end is closed
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(leader)
    err = b"".join(chunks).decode("utf-8", "replace")
    assert proc.returncode != 0
    assert "The first rule [-stands-]{+bends+}." in err  # prose: a word diff


def test_unstaged_drift_beside_clean_index_accepted(bound: Path) -> None:
    edit_outside(bound)
    git(bound, "add", "canon.md")
    drift(bound)  # only in the working tree
    accepted(bound, "commit", "-m", "appendix")
    committed = git(bound, "show", "HEAD:canon.md")
    assert "first rule stands" in committed and "An appendix." in committed
    assert "first rule bends" in (bound / "canon.md").read_text(encoding="utf-8")
    assert run(bound, FOREST, "check", "--rev", "HEAD").returncode == 0


def test_commit_all_drift_refused_clean_accepted(bound: Path) -> None:
    drift(bound)
    err = refused(bound, "commit", "-a", "-m", "drift")
    assert f"drifted {RULES}" in err
    write(bound, "canon.md", CANON)
    edit_outside(bound)
    accepted(bound, "commit", "-a", "-m", "appendix")
    assert git(bound, "status", "--porcelain") == ""


def test_commit_path_drifted_refused(bound: Path) -> None:
    drift(bound)
    edit_outside(bound, "other.md")
    git(bound, "add", "other.md")  # the real index is clean for canon.md
    err = refused(bound, "commit", "canon.md", "-m", "drift by path")
    assert f"drifted {RULES}" in err


NAMED_ROUTE = "then commit the ledger with the files this commit names: "


def test_commit_naming_files_route_commits_the_ledger_pasted_recovers(bound: Path) -> None:
    """``git commit FILE…`` commits the named files alone: the ledger a route stages
    stays out, so the same commit was refused again with the same routes. The hook
    now names the commit that takes the ledger along; pasted, it lands (a name with
    a quote, a space and a glob character, so a pathspec would match more)."""
    name = "it's *.md"
    write(bound, name, "# Odd\n\n## Part\n\nThe first rule stands.\n")
    commit_all(bound, "odd file")
    adopt(bound, f"{name}#Odd/Part")
    commit_all(bound, "adopt odd")
    write(bound, "aside.md", "staged, not for this commit\n")
    git(bound, "add", "aside.md")
    drift(bound, name)
    err = refused(bound, "commit", "-m", "odd by path", "--", name)
    route = [line for line in err.splitlines() if line.startswith(NAMED_ROUTE)]
    assert len(route) == 1, err
    command = route[0].removeprefix(NAMED_ROUTE).split("  (")[0]
    assert command == "git --literal-pathspecs commit -- .forest/ledger 'it'\"'\"'s *.md'"
    forest(bound, "supersede", name, "--words", "The rule bends now")
    git(bound, "add", "--", ".forest/ledger", name)
    # what the user did before: the same commit again, refused again
    again = refused(bound, "commit", "-m", "odd by path", "--", name)
    assert f"drifted {name}" in again
    proc = pasted(bound, f"GIT_EDITOR='sed -i 1iodd' {command}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    committed = git(bound, "show", "--name-only", "--format=", "HEAD").splitlines()
    assert name in committed and any(p.startswith(".forest/ledger/segments/") for p in committed)
    assert "aside.md" not in committed  # what the user left out stays out
    assert git(bound, "diff", "--cached", "--name-only") == "aside.md"
    assert run(bound, FOREST, "check", "--rev", "HEAD").returncode == 0


def test_commit_naming_files_one_route_stages_them_first_pasted_recovers(bound: Path) -> None:
    """Two drifts committed by name: the one route for the whole commit read the
    repository's index (``--staged``), where the named files were not staged, and
    said "nothing staged drifts". It now stages them first; pasted with the commit
    the hook names after it, the commit lands."""
    drift(bound)
    (bound / "other.md").write_text(OTHER.replace("A note.", "A changed note."), encoding="utf-8")
    err = refused(bound, "commit", "-m", "two by path", "--", "canon.md", "other.md")
    lines = err.splitlines()
    at_once = [ln for ln in lines if ln.startswith("or adopt all 2 drifted sections at once: ")]
    assert len(at_once) == 1, err
    route = at_once[0].split(": ", 1)[1].split("  (")[0]
    assert route.startswith("git add -- canon.md other.md && forest supersede --staged ")
    proc = pasted(bound, route.replace("'…'", "'both edits are right'"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    named = [ln for ln in lines if ln.startswith(NAMED_ROUTE)]
    command = named[0].removeprefix(NAMED_ROUTE).split("  (")[0]
    assert command == "git commit -- .forest/ledger canon.md other.md"
    proc = pasted(bound, f"GIT_EDITOR='sed -i 1iboth' {command}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert run(bound, FOREST, "check", "--rev", "HEAD").returncode == 0
    assert git(bound, "status", "--porcelain") == ""


def test_commit_of_the_index_no_named_files_route_accepted(bound: Path) -> None:
    """A commit of the index (``git commit``, ``-a``) takes what a route stages: no
    such line."""
    drift(bound)
    git(bound, "add", "canon.md")
    assert NAMED_ROUTE not in refused(bound, "commit", "-m", "drift")
    err = refused(bound, "commit", "-a", "-m", "drift")
    assert f"drifted {RULES}" in err and NAMED_ROUTE not in err


def test_commit_from_a_subdirectory_routes_pasted_there_recover(bound: Path) -> None:
    """``git commit`` typed in a subdirectory: git runs the hook at the top, and the
    routes' ``git add -- .forest/ledger canon.md`` failed pasted where the user stands
    ("pathspec did not match"), after the ``forest`` half had recorded its act. The
    git steps run from the top now (``git -C ..``, from git's ``GIT_PREFIX``); pasted
    in the subdirectory, the commit lands."""
    sub = bound / "notes" / "deep"
    sub.mkdir(parents=True)
    drift(bound)
    git(bound, "add", "canon.md")
    before = state(bound)
    proc = run(sub, "git", "commit", "-m", "from below")
    assert proc.returncode != 0 and state(bound) == before, proc.stderr
    route = [ln for ln in proc.stderr.splitlines() if ln.startswith("  adopt the change: ")]
    assert len(route) == 1, proc.stderr
    command = route[0].removeprefix("  adopt the change: ").split("  (")[0]
    assert command.endswith("&& git -C ../.. add -- .forest/ledger canon.md"), command
    done = pasted(sub, command.replace("'…'", "'the rule bends now'"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert run(sub, "git", "commit", "-m", "from below").returncode == 0
    assert run(bound, FOREST, "check", "--rev", "HEAD").returncode == 0
    assert git(bound, "status", "--porcelain") == ""


@pytest.mark.slow  # three forest processes: the check, the pasted route, the hook
def test_check_adopt_route_pasted_then_commit_accepted(bound: Path) -> None:
    """``forest check``'s "adopt the change" route, pasted, then a plain ``git commit``:
    the supersede adopts the working tree's text, so the route stages that file with
    the ledger. (It staged the ledger alone; the hook then refused the commit, with
    routes that would restore or adopt the staged, older, text.)"""
    drift(bound)
    proc = run(bound, FOREST, "check")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    (line,) = [ln for ln in proc.stdout.splitlines() if ln.startswith("  adopt the change: ")]
    command = line.removeprefix("  adopt the change: ").split("  (")[0]
    done = pasted(bound, command.replace("'…'", "'the rule bends now'"))
    assert done.returncode == 0, done.stdout + done.stderr
    committed = run(bound, "git", "commit", "-q", "-m", "the rule bends")
    assert committed.returncode == 0, committed.stdout + committed.stderr
    assert git(bound, "status", "--porcelain") == ""


def test_check_from_a_subdirectory_routes_pasted_there_recover(bound: Path) -> None:
    """``forest check`` typed in a subdirectory (the light entry, and ``--json``): its
    routes' git steps run from the top, so pasted there they stage the ledger."""
    sub = bound / "notes"
    sub.mkdir()
    drift(bound)
    proc = run(sub, FOREST, "check")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    route = [ln for ln in proc.stdout.splitlines() if ln.startswith("  adopt the change: ")]
    command = route[0].removeprefix("  adopt the change: ").split("  (")[0]
    assert command.endswith("&& git -C .. add -- .forest/ledger canon.md"), command
    data = json.loads(run(sub, FOREST, "check", "--json").stdout)
    (drifted,) = [f for f in data["findings"] if f["kind"] == "drifted"]
    argv = next(r["argv"] for r in drifted["routes"] if r["label"] == "adopt the change")
    assert argv[-1] == ["git", "-C", "..", "add", "--", ".forest/ledger", "canon.md"]
    top = json.loads(run(bound, FOREST, "check", "--json").stdout)  # at the top: as it was
    (there,) = [f for f in top["findings"] if f["kind"] == "drifted"]
    assert next(r["argv"] for r in there["routes"] if r["label"] == "adopt the change")[-1] == [
        "git",
        "add",
        "--",
        ".forest/ledger",
        "canon.md",
    ]
    done = pasted(sub, command.replace("'…'", "'the rule bends now'"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert ".forest/ledger/segments/" in git(bound, "diff", "--cached", "--name-only")


@pytest.mark.slow  # a checkout through the hook, then a pasted `forest sync`
def test_sync_hook_failing_from_a_subdirectory_route_pasted_there_detected(bound: Path) -> None:
    """``git checkout`` typed in a subdirectory of a branch whose segment was edited: the
    post-checkout hook (run at the top) names ``forest sync`` as it runs where git was
    typed, with no ``-C``; pasted there it reaches the ledger and names the fault."""
    sub = bound / "notes"
    sub.mkdir()
    git(bound, "checkout", "-q", "-b", "edited")
    (segment,) = (bound / ".forest" / "ledger" / "segments").glob("*.jsonl")
    segment.write_bytes(segment.read_bytes().replace(b'"kind"', b'"kind" ', 1))
    git(bound, "commit", "-qam", "an edited segment", "--no-verify")
    git(bound, "checkout", "-q", "main")
    proc = run(sub, "git", "checkout", "-q", "edited")
    assert proc.returncode == 0, proc.stderr  # a sync hook never blocks git
    said = [ln for ln in proc.stderr.splitlines() if "index not in step" in ln]
    assert len(said) == 1, proc.stderr
    command = said[0].rsplit("`", 2)[1]
    assert command == "forest sync", said
    done = pasted(sub, command)
    assert done.returncode == 3 and segment.stem in done.stderr, done.stdout + done.stderr


AT_ONCE = "or adopt all 2 drifted sections at once: "


def _at_once(err: str) -> tuple[str, str]:
    """The one route for the whole commit as printed: (command, its note)."""
    (line,) = [ln for ln in err.splitlines() if ln.startswith(AT_ONCE)]
    command, _, note = line.removeprefix(AT_ONCE).partition("  (")
    return command, note


def test_commit_all_one_route_stages_again_pasted_recovers(bound: Path) -> None:
    """``git commit -a`` stages into the index's lock, gone once the hook refuses: the
    one route (``forest supersede --staged``) then read the index, said "nothing
    staged drifts", and the same commit was refused again. It stages the files the
    commit took first now; pasted, ``git commit -a`` lands."""
    drift(bound)
    (bound / "other.md").write_text(OTHER.replace("A note.", "A changed note."), encoding="utf-8")
    command, _ = _at_once(refused(bound, "commit", "-a", "-m", "two"))
    assert command.startswith("git add -- canon.md other.md && forest supersede --staged ")
    proc = pasted(bound, command.replace("'…'", "'both edits are right'"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    accepted(bound, "commit", "-a", "-m", "two")
    assert run(bound, FOREST, "check", "--rev", "HEAD").returncode == 0
    assert git(bound, "status", "--porcelain") == ""


@pytest.mark.slow  # three git commits through the hook and a pasted route
def test_commit_all_moved_section_route_stages_both_files_pasted_recovers(bound: Path) -> None:
    """A bound section cut from one file and pasted into another, ``git commit -a``:
    the route ``forest rebind OLD NEW && git add -- .forest/ledger`` staged the ledger
    alone (what ``-a`` staged is gone once the hook refuses), so the ``git commit``
    ``forest rebind`` then asks for carried the rebind without the move, and was
    refused: the section had "moved" back, with a route to rebind it there. The route
    stages both files the commit took now; pasted, a plain ``git commit`` lands."""
    write(bound, "other.md", OTHER.replace("## Notes\n\nA note.\n\n", ""))
    write(bound, "canon.md", CANON + "\n## Notes\n\nA note.\n\n")
    err = refused(bound, "commit", "-a", "-m", "move the notes")
    (line,) = [ln for ln in err.splitlines() if ln.startswith("  move the binding: ")]
    command = line.removeprefix("  move the binding: ")
    assert command.endswith("&& git add -- .forest/ledger canon.md other.md"), command
    proc = pasted(bound, command)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    accepted(bound, "commit", "-m", "move the notes")
    assert git(bound, "status", "--porcelain") == ""
    assert run(bound, FOREST, "check", "--rev", "HEAD").returncode == 0


def test_commit_of_the_index_one_route_stages_nothing_accepted(bound: Path) -> None:
    """A plain ``git commit`` stages nothing beyond the index: its one route is left
    as it was (staging the working tree would take unstaged edits along)."""
    drift(bound)
    (bound / "other.md").write_text(OTHER.replace("A note.", "A changed note."), encoding="utf-8")
    git(bound, "add", "canon.md", "other.md")
    edit_outside(bound, "other.md")  # not staged: must stay out
    command, note = _at_once(refused(bound, "commit", "-m", "two"))
    assert command.startswith("forest supersede --staged "), command
    assert "git add -p" not in note


def test_commit_patch_one_route_says_stage_the_parts_again_pasted_recovers(
    bound: Path,
) -> None:
    """``git commit -p`` taking some hunks of a file: the one route cannot stage them
    again by itself (``git add`` would take the whole file), so it says to stage the
    same parts with ``git add -p`` first, and stages whole what the commit took
    whole."""
    drift(bound)
    edit_outside(bound)  # a second hunk in canon.md, left out of the commit
    (bound / "other.md").write_text(OTHER.replace("A note.", "A changed note."), encoding="utf-8")
    before = state(bound)
    proc = subprocess.run(
        ["git", "commit", "-p", "-m", "parts"],
        cwd=bound,
        input="y\nn\ny\n",  # canon.md: the drift, not the appendix; other.md: yes
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert state(bound) == before
    command, note = _at_once(proc.stderr)
    assert command.startswith("git add -- other.md && forest supersede --staged "), command
    assert "first stage again the parts of canon.md this commit took (git add -p -- canon.md)" in (
        note
    )
    staged = subprocess.run(
        ["git", "add", "-p", "--", "canon.md"],
        cwd=bound,
        input="y\nn\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert staged.returncode == 0, staged.stderr
    proc2 = pasted(bound, command.replace("'…'", "'both edits are right'"))
    assert proc2.returncode == 0, proc2.stdout + proc2.stderr
    accepted(bound, "commit", "-m", "parts")
    assert "An appendix." not in git(bound, "show", "HEAD:canon.md")
    assert run(bound, FOREST, "check", "--rev", "HEAD").returncode == 0


@pytest.mark.parametrize("staged", [False, True], ids=["unstaged", "staged-in-real-index"])
def test_commit_clean_path_while_other_drifts_accepted(bound: Path, staged: bool) -> None:
    drift(bound)
    if staged:  # a hook reading .git/index instead of GIT_INDEX_FILE would refuse
        git(bound, "add", "canon.md")
    edit_outside(bound, "other.md")
    accepted(bound, "commit", "other.md", "-m", "other by path")
    assert "first rule stands" in git(bound, "show", "HEAD:canon.md")
    assert "An appendix." in git(bound, "show", "HEAD:other.md")
    assert ("canon.md" in git(bound, "diff", "--cached", "--name-only")) is staged


def test_amend_adding_drift_refused(bound: Path) -> None:
    write(bound, "unrelated.txt", "x\n")
    git(bound, "add", "unrelated.txt")
    accepted(bound, "commit", "-m", "unrelated")
    drift(bound)
    git(bound, "add", "canon.md")
    err = refused(bound, "commit", "--amend", "--no-edit")
    assert f"drifted {RULES}" in err


# --- a commit staging ledger files: only what it can move is judged -----


def _views(repo: Path) -> list[Path]:
    return sorted((local_state(repo) / "views").glob("*.db"))


def test_ledger_staged_after_a_hook_judged_head_catches_what_it_moves(bound: Path) -> None:
    edit_outside(bound)
    git(bound, "add", "canon.md")
    accepted(bound, "commit", "-m", "appendix")  # the hook built the view HEAD now has
    assert _views(bound)
    # A supersession staged without its file change: its ground moved, its file did not.
    drift(bound)
    forest(bound, "supersede", RULES, "--words", "The rule bends now")
    git(bound, "add", ".forest")
    err = refused(bound, "commit", "-m", "segment alone")
    assert f"drifted {RULES}" in err
    git(bound, "add", "canon.md")
    accepted(bound, "commit", "-m", "supersession with its file")
    # A new adoption (ledger staged) beside staged drift of another bound file.
    write(bound, "third.md", "# Third\n\n## Part\n\nThird words.\n")
    git(bound, "add", "third.md")
    accepted(bound, "commit", "-m", "third file")
    adopt(bound, "third.md#Part")
    (bound / "other.md").write_text(OTHER.replace("A note.", "A changed note."))
    git(bound, "add", "-A")
    err = refused(bound, "commit", "-m", "adoption beside drift")
    assert f"drifted {NOTES}" in err
    assert "third.md" not in err  # the new binding itself is clean


# --- a cached view is a starting point only for the same content ---------


def _cache_heads_view(repo: Path) -> str:
    """A clean hook run that builds the view of HEAD's ledger; its fingerprint."""
    edit_outside(repo)
    git(repo, "add", "canon.md")
    accepted(repo, "commit", "-m", "appendix")
    fingerprint = commit_fingerprint(repo, "HEAD")
    assert view_path(repo, fingerprint).exists()
    return fingerprint


@pytest.mark.parametrize("damage", ["reordered", "appended", "truncated"])
def test_segment_damaged_in_place_with_a_cached_view_refused(bound: Path, damage: str) -> None:
    _cache_heads_view(bound)
    [segment] = (bound / ".forest" / "ledger" / "segments").glob("*.jsonl")
    lines = segment.read_bytes().splitlines(keepends=True)
    assert len(lines) > 1
    if damage == "reordered":
        segment.write_bytes(b"".join(reversed(lines)))
    elif damage == "appended":
        segment.write_bytes(b"".join([*lines, lines[0]]))
    else:
        segment.write_bytes(b"".join(lines[:-1]))
    git(bound, "add", ".forest/ledger")
    for _ in range(2):  # every time, not only the first
        err = refused(bound, "commit", "-m", f"segment {damage} in place")
        assert segment.stem[:12] in err and "SHA-256" in err


def test_segment_staged_without_its_bodies_refused_every_time(bound: Path) -> None:
    _cache_heads_view(bound)
    drift(bound)
    forest(bound, "supersede", RULES, "--words", "The rule bends now")
    git(bound, "add", "-A")
    accepted(bound, "commit", "-m", "supersession")  # the hook saw the bodies once
    git(bound, "reset", "-q", "--soft", "HEAD~1")
    added = git(bound, "diff", "--cached", "--name-only", "--diff-filter=A", "HEAD")
    bodies = [p for p in added.splitlines() if p.startswith(".forest/ledger/bodies/")]
    assert bodies
    git(bound, "rm", "-q", "--cached", *bodies)
    for _ in range(2):
        err = refused(bound, "commit", "-m", "segment without its bodies")
        assert "missing" in err


# --- the first commit after a fresh clone ----------------------------------


def _fresh_clone(origin: Path, tmp_path: Path) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    clone = tmp_path / "fresh-clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    githooks.install(clone)
    return clone


def _built_views(repo: Path) -> list[str]:
    return sorted(p.name for p in (local_state(repo) / VIEWS_DIR).glob("*.db"))


def test_first_hook_after_clone_unbound_commit_replays_nothing_accepted(
    bound: Path, tmp_path: Path
) -> None:
    clone = _fresh_clone(bound, tmp_path)
    write(clone, "notes.md", "Unbound notes.\n")
    git(clone, "add", "notes.md")
    accepted(clone, "commit", "-m", "first commit after the clone")
    assert _built_views(clone) == []  # the acts were decoded, nothing replayed
    assert list((local_state(clone) / VIEWS_DIR).glob("*.bound"))
    drift(clone)  # the next commit touches a bound path: judged against a replay
    git(clone, "add", "canon.md")
    assert f"drifted {RULES}" in refused(clone, "commit", "-m", "drift")
    assert _built_views(clone)


def test_first_hook_after_clone_rebound_path_drift_refused(bound: Path, tmp_path: Path) -> None:
    write(bound, "moved.md", CANON)
    commit_all(bound, "the canon is copied")
    forest(bound, "rebind", RULES, "moved.md#Canon/Rules")
    git(bound, "add", "-A")
    accepted(bound, "commit", "-m", "rebound")
    clone = _fresh_clone(bound, tmp_path)
    drift(clone, "moved.md")
    git(clone, "add", "moved.md")
    assert "drifted moved.md#Canon/Rules" in refused(clone, "commit", "-m", "drift")
    clone2 = _fresh_clone(bound, tmp_path / "second")
    drift(clone2)  # canon.md is bound no more
    git(clone2, "add", "canon.md")
    accepted(clone2, "commit", "-m", "the old place is free")


def test_first_hook_after_clone_damaged_head_ledger_refused(bound: Path, tmp_path: Path) -> None:
    [segment] = (bound / ".forest" / "ledger" / "segments").glob("*.jsonl")
    lines = segment.read_bytes().splitlines(keepends=True)
    segment.write_bytes(b"".join(reversed(lines)))
    git(bound, "add", ".forest/ledger")
    git(bound, "commit", "-q", "--no-verify", "-m", "damaged past the hook")
    clone = _fresh_clone(bound, tmp_path)
    write(clone, "notes.md", "Unbound notes.\n")
    git(clone, "add", "notes.md")
    err = refused(clone, "commit", "-m", "first commit after the clone")
    assert segment.stem[:12] in err and "SHA-256" in err


def test_new_segment_after_a_cached_view_takes_the_incremental_path(bound: Path) -> None:
    before = _cache_heads_view(bound)
    drift(bound)
    forest(bound, "supersede", RULES, "--words", "The rule bends now")
    git(bound, "add", "-A")
    accepted(bound, "commit", "-m", "supersession with its file")
    view = view_path(bound, commit_fingerprint(bound, "HEAD"))
    assert built_from(view) == before  # extended from HEAD~1's view, not replayed
    assert run(bound, FOREST, "check", "--rev", "HEAD").returncode == 0


# --- supersession and its segment ----------------------------------------


def test_supersede_recorded_segment_not_staged_refused(bound: Path) -> None:
    drift(bound)
    forest(bound, "supersede", RULES, "--words", "The rule bends now")
    git(bound, "add", "canon.md")
    assert "?? .forest/ledger/" in state(bound)[3]
    err = refused(bound, "commit", "-m", "edit without its segment")
    assert f"drifted {RULES}" in err


def test_supersede_segment_staged_without_file_refused(bound: Path) -> None:
    drift(bound)
    forest(bound, "supersede", RULES, "--words", "The rule bends now")
    git(bound, "add", ".forest/ledger")
    err = refused(bound, "commit", "-m", "segment without its edit")
    assert f"drifted {RULES}" in err


def test_supersede_segment_and_section_staged_accepted(bound: Path) -> None:
    drift(bound)
    forest(bound, "supersede", RULES, "--words", "The rule bends now")
    git(bound, "add", "canon.md", ".forest/ledger")
    accepted(bound, "commit", "-m", "supersede")
    assert run(bound, FOREST, "check", "--rev", "HEAD").returncode == 0


# --- deletion and rename ---------------------------------------------------


def test_git_rm_bound_file_refused_missing(bound: Path) -> None:
    git(bound, "rm", "-q", "canon.md")
    err = refused(bound, "commit", "-m", "delete")
    assert f"missing {RULES}" in err


def test_git_mv_bound_file_refused_moved(bound: Path) -> None:
    (bound / "docs").mkdir()
    git(bound, "mv", "canon.md", "docs/canon.md")
    err = refused(bound, "commit", "-m", "rename")
    assert f"moved {RULES}" in err or f"missing {RULES}" in err
    assert "docs/canon.md" in err  # where the unchanged section went


# --- merges ----------------------------------------------------------------


def test_merge_commit_no_conflict_accepted(bound: Path) -> None:
    git(bound, "checkout", "-q", "-b", "feature")
    write(bound, "feature.txt", "feature\n")
    commit_all(bound, "feature")
    git(bound, "checkout", "-q", "main")
    write(bound, "main.txt", "main\n")
    commit_all(bound, "main")
    accepted(bound, "merge", "--no-ff", "--no-edit", "feature")
    assert len(git(bound, "rev-list", "--parents", "-n1", "HEAD").split()) == 3


def _supersede_on(repo: Path, branch: str, old: str, new: str) -> None:
    git(repo, "checkout", "-q", "-b", branch, "main")
    path = repo / "canon.md"
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    forest(repo, "supersede", RULES, "--words", f"Branch {branch} wording")
    commit_all(repo, branch)


def test_merge_of_two_supersessions_of_a_bound_section_refused_contested(bound: Path) -> None:
    _supersede_on(bound, "b", "first rule stands", "first rule bends")
    _supersede_on(bound, "c", "last rule stands", "last rule bends")
    git(bound, "checkout", "-q", "b")
    head = git(bound, "rev-parse", "HEAD")
    proc = run(bound, "git", "merge", "--no-ff", "--no-edit", "c")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert f"contested {RULES}" in proc.stderr
    assert "forest resolve" in proc.stderr
    assert "Traceback" not in proc.stderr
    # Not committed: git leaves the merge in progress (its own doing, not the hook's).
    assert git(bound, "rev-parse", "HEAD") == head
    assert (bound / ".git" / "MERGE_HEAD").exists()
    merged = (bound / "canon.md").read_text(encoding="utf-8")
    assert "first rule bends" in merged and "last rule bends" in merged
    git(bound, "merge", "--abort")
    assert state(bound)[1:] == ("", "", "")


def _adopt_text(repo: Path, text: str) -> str:
    from forest_files.custody.repository import Repository

    with Repository(repo) as r:
        return r.adopt_text(text, words=WORDS, by="Ada <ada@example.org>")


def _supersede_text(repo: Path, old: str, text: str) -> None:
    from forest_files.custody.repository import Repository
    from forest_files.kernel.hashing import hash_body

    with Repository(repo) as r:
        r.supersede(
            old, text, words=WORDS, by="Ada <ada@example.org>", expected_body_hash=hash_body(text)
        )


def test_merge_of_two_supersessions_of_unbound_ground_refused_contested(tmp_path: Path) -> None:
    origin = make_repo(tmp_path, "origin")
    forest(origin, "init")
    ground = _adopt_text(origin, "The shared ground.")
    commit_all(origin, "ground")
    b, c = tmp_path / "b", tmp_path / "c"
    git(tmp_path, "clone", "-q", str(origin), str(b))
    git(tmp_path, "clone", "-q", str(origin), str(c))
    _supersede_text(b, ground, "B's version.")
    commit_all(b, "b")
    _supersede_text(c, ground, "C's version.")
    commit_all(c, "c")
    githooks.install(b)
    git(b, "fetch", "-q", str(c), "main")
    head = git(b, "rev-parse", "HEAD")
    proc = run(b, "git", "merge", "--no-ff", "--no-edit", "FETCH_HEAD")
    assert git(b, "rev-parse", "HEAD") == head, "merge committed"
    assert proc.returncode != 0 and "contested" in proc.stderr


# --- rebase, bypass ----------------------------------------------------------


def test_rebase_clean_custody_commit_accepted_post_rewrite_runs(
    custody: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "post-rewrite-ran"
    folder = hook_script(custody, "post-rewrite").parent
    folder.mkdir(parents=True, exist_ok=True)
    foreign = folder / "post-rewrite"
    foreign.write_text(f"#!/bin/sh\necho \"$1\" >> '{marker}'\n", encoding="utf-8")
    foreign.chmod(0o755)
    githooks.install(custody)
    git(custody, "checkout", "-q", "-b", "feature")
    drift(custody)
    forest(custody, "supersede", RULES, "--words", "The rule bends now")
    commit_all(custody, "supersede")
    git(custody, "checkout", "-q", "main")
    write(custody, "main.txt", "main moved\n")
    commit_all(custody, "main moves")
    git(custody, "checkout", "-q", "feature")
    proc = run(custody, "git", "rebase", "main")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert git(custody, "rev-parse", "HEAD^") == git(custody, "rev-parse", "main")
    assert marker.read_text().split() == ["rebase"]  # ran through our post-rewrite
    assert run(custody, FOREST, "check", "--rev", "HEAD").returncode == 0
    assert run(custody, FOREST, "check").returncode == 0


def test_no_verify_bypass_caught_by_check_rev(bound: Path) -> None:
    drift(bound)
    git(bound, "add", "canon.md")
    accepted(bound, "commit", "--no-verify", "-m", "sneak")
    proc = run(bound, FOREST, "check", "--rev", "HEAD")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"drifted {RULES}" in proc.stdout
    if run(bound, FOREST, "ci", "--help").returncode == 0:
        ci = run(bound, FOREST, "ci")
        assert ci.returncode == 1, ci.stdout + ci.stderr
        assert "Traceback" not in ci.stderr


# --- foreign hooks, --force, hooksPath, status, interpreter -----------------


def _foreign(repo: Path, marker: Path, code: int, name: str = "pre-commit") -> str:
    path = hook_script(repo, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = (
        f"#!/bin/sh\necho foreign >> '{marker}'\necho 'foreign hook says {code}' >&2\nexit {code}\n"
    )
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)
    return text


def _states(repo: Path) -> dict[str, str]:
    return {s.name: s.state for s in githooks.status(repo)}


def test_foreign_hook_chained_still_runs_and_uninstall_restores(
    custody: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "marker"
    original = _foreign(custody, marker, 0)
    githooks.install(custody)
    assert _states(custody)["pre-commit"] == "ours+chained"
    chained = hook_script(custody).with_name("pre-commit.forest-chained")
    assert chained.read_text(encoding="utf-8") == original
    edit_outside(custody)
    accepted(custody, "commit", "-am", "clean")
    assert marker.read_text().count("foreign") == 1
    drift(custody)
    err = refused(custody, "commit", "-am", "drift")
    assert f"drifted {RULES}" in err
    assert marker.read_text().count("foreign") == 2  # foreign first, then ours refused
    githooks.install(custody)  # reinstalling keeps the chain
    assert _states(custody)["pre-commit"] == "ours+chained"
    githooks.uninstall(custody)
    assert hook_script(custody).read_text(encoding="utf-8") == original
    assert not chained.exists()
    assert _states(custody) == {**dict.fromkeys(githooks.HOOKS, "missing"), "pre-commit": "foreign"}


def test_foreign_hook_exiting_1_refuses_clean_commit(custody: Path, tmp_path: Path) -> None:
    _foreign(custody, tmp_path / "marker", 1)
    githooks.install(custody)
    edit_outside(custody)
    err = refused(custody, "commit", "-am", "clean but foreign says no")
    assert "foreign hook says 1" in err
    assert "forest-files" not in err  # ours never ran


def test_foreign_hook_and_chained_both_present_install_refused(
    custody: Path, tmp_path: Path
) -> None:
    _foreign(custody, tmp_path / "m", 0)
    githooks.install(custody)
    _foreign(custody, tmp_path / "m", 0)  # someone put a foreign hook back
    proc = run(custody, FOREST, "hooks", "install", "--repo", str(custody))
    assert proc.returncode != 0
    assert "--force" in proc.stderr and "Traceback" not in proc.stderr


def test_force_replaces_foreign_keeps_forest_replaced(custody: Path, tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    original = _foreign(custody, marker, 1)
    proc = run(custody, FOREST, "hooks", "install", "--force", "--repo", str(custody))
    assert proc.returncode == 0, proc.stderr
    kept = hook_script(custody).with_name("pre-commit.forest-replaced")
    assert kept.read_text(encoding="utf-8") == original
    assert _states(custody)["pre-commit"] == "ours"
    edit_outside(custody)
    accepted(custody, "commit", "-am", "clean")
    assert not marker.exists()  # the replaced hook no longer runs


def test_core_hooks_path_custom_dir_installed_and_run(custody: Path) -> None:
    git(custody, "config", "core.hooksPath", "githooks-here")
    proc = run(custody, FOREST, "hooks", "install", "--repo", str(custody))
    assert proc.returncode == 0, proc.stderr
    custom = custody / "githooks-here"
    for name in githooks.HOOKS:
        assert (custom / name).exists()
        assert not (custody / ".git" / "hooks" / name).exists()
    assert str(custom / "pre-commit") in proc.stdout
    drift(custody)
    err = refused(custody, "commit", "-am", "drift")
    assert f"drifted {RULES}" in err


def test_hooks_status_output(custody: Path, tmp_path: Path) -> None:
    before = run(custody, FOREST, "hooks", "status", "--repo", str(custody))
    assert before.returncode == 0
    lines = before.stdout.splitlines()
    assert [line.split()[:2] for line in lines] == [[h, "missing"] for h in githooks.HOOKS]
    _foreign(custody, tmp_path / "m", 0)
    run(custody, FOREST, "hooks", "install", "--repo", str(custody))
    after = run(custody, FOREST, "hooks", "status", "--repo", str(custody), "--json")
    rows = json.loads(after.stdout)
    assert {r["name"]: r["state"] for r in rows} == {
        **dict.fromkeys(githooks.HOOKS, "ours"),
        "pre-commit": "ours+chained",
    }
    assert all(Path(r["path"]).parent == hook_script(custody).parent for r in rows)


def _recorded_python(script: Path) -> str:
    for line in script.read_text(encoding="utf-8").splitlines():
        if line.startswith("FOREST_PYTHON="):
            return line.split("=", 1)[1].strip("'")
    raise AssertionError("no FOREST_PYTHON line")


def test_interpreter_recorded_in_script(custody: Path) -> None:
    proc = run(custody, FOREST, "hooks", "install", "--repo", str(custody))
    assert proc.returncode == 0, proc.stderr
    shebang = Path(FOREST).read_text(encoding="utf-8").splitlines()[0].removeprefix("#!")
    for name in githooks.HOOKS:
        script = hook_script(custody, name)
        assert os.access(script, os.X_OK)
        recorded = _recorded_python(script)
        assert os.path.realpath(recorded) == os.path.realpath(shebang.split()[0])
    assert githooks.MARKER in hook_script(custody).read_text(encoding="utf-8")


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_fail_closed_interpreter_gone(bound: Path) -> None:
    for name in ("pre-commit",):
        script = hook_script(bound, name)
        text = script.read_text(encoding="utf-8")
        script.write_text(
            text.replace(_recorded_python(script), "/nonexistent/python3"), encoding="utf-8"
        )
    edit_outside(bound)  # even a clean commit is refused
    line = _one_line(refused(bound, "commit", "-am", "clean"))
    assert "/nonexistent/python3" in line and "forest hooks install" in line


def test_fail_closed_python_without_forest_files(custody: Path, tmp_path: Path) -> None:
    system = shutil.which("python3", path="/usr/bin:/bin:/usr/local/bin")
    if system is None or Path(system).resolve() == Path(sys.executable).resolve():
        pytest.skip("no separate system python3")
    probe = run(tmp_path, system, "-c", "import forest_files")
    if probe.returncode == 0:
        pytest.skip(f"{system} can import forest_files")
    githooks.install(custody, python=system)
    edit_outside(custody)
    line = _one_line(refused(custody, "commit", "-am", "clean"))
    assert "not importable" in line and "forest hooks install" in line


# --- awkward repositories ------------------------------------------------------


def test_spaces_and_unicode_in_bound_path(tmp_path: Path) -> None:
    repo = make_repo(tmp_path, "répo with space")
    forest(repo, "init")
    path = "docs/café notes/ŝpace file.md"
    write(repo, path, CANON)
    commit_all(repo, "file")
    adopt(repo, f"{path}#Rules")
    commit_all(repo, "adopt")
    githooks.install(repo)
    drift(repo, path)
    err = refused(repo, "commit", "-am", "drift")
    assert f"drifted {path}#Canon/Rules" in err
    write(repo, path, CANON)
    edit_outside(repo, path)
    accepted(repo, "commit", "-am", "clean")
    git(repo, "mv", path, "docs/café notes/renamed ŝ.md")
    assert "renamed ŝ.md" in refused(repo, "commit", "-m", "rename")


def test_submodule_present_ignored(bound: Path, tmp_path: Path) -> None:
    sub = make_repo(tmp_path, "sub")
    write(sub, "README.md", "# Sub\n\n## Rules\n\nNot ours.\n")
    commit_all(sub, "sub")
    git(bound, "submodule", "add", "-q", str(sub), "vendor/sub")
    accepted(bound, "commit", "-m", "add submodule")
    write(sub, "README.md", "# Sub\n\n## Rules\n\nChanged upstream.\n")
    commit_all(sub, "sub moves")
    git(bound / "vendor" / "sub", "pull", "-q", "origin", "main")
    git(bound, "add", "vendor/sub")
    accepted(bound, "commit", "-m", "bump submodule")
    drift(bound)
    git(bound, "add", "canon.md")
    assert f"drifted {RULES}" in refused(bound, "commit", "-m", "drift")


def test_not_a_git_repo_one_line(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    hook = run(plain, FOREST_HOOK, "pre-commit")
    assert hook.returncode == 1
    assert "not inside a git" in _one_line(hook.stderr)
    install = run(plain, FOREST, "hooks", "install", "--repo", str(plain))
    assert install.returncode != 0
    assert "not inside a git" in _one_line(install.stderr)


def test_bare_repo_one_line(tmp_path: Path) -> None:
    bare = make_repo(tmp_path, "bare.git", bare=True)
    hook = run(bare, FOREST_HOOK, "pre-commit")
    assert hook.returncode == 1
    assert "bare repository" in _one_line(hook.stderr)
    install = run(bare, FOREST, "hooks", "install", "--repo", str(bare))
    assert install.returncode != 0
    assert "bare repository" in _one_line(install.stderr)
    assert not (bare / "hooks" / "pre-commit").exists()


def test_hook_before_forest_init_passes_everything(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    githooks.install(repo)
    write(repo, "a.txt", "a\n")
    git(repo, "add", "a.txt")
    accepted(repo, "commit", "-m", "no custody yet")


def test_unborn_branch_first_commit(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    githooks.install(repo)
    forest(repo, "init")
    write(repo, "canon.md", CANON)
    adopt(repo, "canon.md#Rules")
    drift(repo)
    git(repo, "add", "-A")
    err = refused(repo, "commit", "-m", "first, drifted")
    assert f"drifted {RULES}" in err
    assert state(repo)[0] == ""  # still unborn
    write(repo, "canon.md", CANON)
    git(repo, "add", "-A")
    accepted(repo, "commit", "-m", "first")
    tracked = git(repo, "ls-files").splitlines()
    assert "forest.toml" in tracked and "canon.md" in tracked
    assert any(p.startswith(".forest/ledger/segments/") for p in tracked)


def test_detached_head_commit(bound: Path) -> None:
    git(bound, "checkout", "-q", "--detach")
    drift(bound)
    assert f"drifted {RULES}" in refused(bound, "commit", "-am", "drift")
    write(bound, "canon.md", CANON)
    edit_outside(bound)
    accepted(bound, "commit", "-am", "clean")
    assert run(bound, "git", "symbolic-ref", "-q", "HEAD").returncode == 1


def test_index_lock_held_staged_check_clear(bound: Path) -> None:
    drift(bound)
    git(bound, "add", "canon.md")
    lock = bound / ".git" / "index.lock"
    lock.write_bytes(b"")
    before = state(bound)
    proc = run(bound, FOREST, "check", "--staged")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"drifted {RULES}" in proc.stdout
    assert "Traceback" not in proc.stderr
    hook = run(bound, FOREST_HOOK, "pre-commit")
    assert hook.returncode == 1 and f"drifted {RULES}" in hook.stderr
    assert lock.exists() and state(bound) == before  # another git's lock left alone
    lock.unlink()
