"""The server-side hooks in a real bare repository, driven by real ``git push``.

The clone pushing has no hooks installed (a ``--no-verify`` commit, or a clone
nobody set up): only the bare repository's ``pre-receive``/``update`` stand
between a drifting branch and the server. Every refused push is checked to
leave the bare repository's refs exactly as they were.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.doors import hooks as githooks
from forest_files.doors.cli import app
from forest_files.doors.hooks.push_refusal import Refusal, accepted_lines, closing, refusal_lines
from forest_files.doors.hooks.server import parse_pre_receive, parse_update
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.signing import keygen, signer_line
from tests.helpers.template import built_once, copy_repo

runner = CliRunner()
WORDS = "I adopt these words as written"
CANON = "# Canon\n\nIntro line.\n\n## Rules\n\nThe first rule stands.\n\n## Elsewhere\n\nOther.\n"
RULES = "canon.md#Canon/Rules"
ZERO = "0" * 40
REFUSED = "forest: push refused"
_KEEP = "keep the branch: deleting it drops the acts its ledger holds, and the ledger only grows"


def forest(repo: Path, *args: str) -> None:
    result = runner.invoke(app, [*args, "--repo", str(repo)])
    assert result.exit_code == 0, (args, result.stdout, result.stderr)


def run(cwd: Path, *cmd: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(cmd), cwd=cwd, input=stdin, capture_output=True, text=True, check=False,
        env=dict(os.environ), timeout=300,
    )  # fmt: skip


def refs(bare: Path) -> str:
    return git(bare, "for-each-ref", "--format=%(refname) %(objectname)")


def push(clone: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run(clone, "git", "push", "-q", "origin", *args)


def refused(clone: Path, bare: Path, *args: str) -> str:
    """``git push ARGS`` is refused by the server and changes no ref there; its stderr."""
    before = refs(bare)
    proc = push(clone, *args)
    assert proc.returncode != 0, proc.stderr
    assert "declined" in proc.stderr and REFUSED in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert refs(bare) == before
    return proc.stderr


def landed(clone: Path, bare: Path, *args: str) -> str:
    proc = push(clone, *args)
    assert proc.returncode == 0, proc.stderr
    assert REFUSED not in proc.stderr
    return proc.stderr


def drift(clone: Path, msg: str = "drift") -> str:
    text = (clone / "canon.md").read_text(encoding="utf-8")
    write(clone, "canon.md", text.replace("first rule stands", "first rule bends"))
    git(clone, "commit", "-q", "--no-verify", "-am", msg)
    return git(clone, "rev-parse", "HEAD")


def edit_outside(clone: Path, msg: str = "outside") -> str:
    with (clone / "canon.md").open("a", encoding="utf-8") as fh:
        fh.write(f"\n{msg}\n")
    return commit_all(clone, msg)


def serve(tmp_path: Path) -> Path:
    bare = make_repo(tmp_path, "server.git", bare=True)
    githooks.install(bare, server=True)  # this interpreter: the venv's forest_files
    return bare


def _served(directory: Path) -> Path:
    bare = serve(directory)
    clone = make_repo(directory, "clone")
    forest(clone, "init")
    write(clone, "canon.md", CANON)
    commit_all(clone, "files")
    forest(clone, "adopt", "canon.md#Rules", "--words", WORDS)
    commit_all(clone, "adopt")
    git(clone, "remote", "add", "origin", str(bare))
    landed(clone, bare, "main")
    return directory


@pytest.fixture(scope="module")
def _served_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_once(tmp_path_factory, _served)


@pytest.fixture
def served(_served_template: Path, tmp_path: Path) -> tuple[Path, Path]:
    """(clone, bare): canon.md#Rules adopted in the clone and pushed to ``main`` (the
    first push judged by the server hook); private copies of a pair built once per
    module, the clone's ``origin`` pointed at its own copy of the bare repository."""
    bare = copy_repo(_served_template / "server.git", tmp_path / "server.git")
    clone = copy_repo(_served_template / "clone", tmp_path / "clone")
    git(clone, "remote", "set-url", "origin", str(bare))
    return clone, bare


def test_server_hook_drift_pushed_no_verify_refused(served: tuple[Path, Path]) -> None:
    clone, bare = served
    drift(clone)
    err = refused(clone, bare, "main")
    assert f"{REFUSED} — 1 ref: refs/heads/main" in err
    assert f"drifted {RULES}" in err
    assert f"forest restore '{RULES}'" in err and f"forest supersede '{RULES}'" in err
    assert "forest ci: 1 binding(s); range " in err  # the gate's own text
    assert WORDS not in err  # as in CI: never the adopting words


def test_server_hook_clean_push_accepted(served: tuple[Path, Path]) -> None:
    clone, bare = served
    head = edit_outside(clone)
    assert landed(clone, bare, "main") == ""  # nothing to say: the pusher reads nothing
    assert git(bare, "rev-parse", "main") == head


def test_server_hook_drift_then_restored_history_refused(served: tuple[Path, Path]) -> None:
    """A drift reverted by a later commit still reaches the server: refused, naming it."""
    clone, bare = served
    bad = drift(clone)
    write(clone, "canon.md", CANON)
    commit_all(clone, "put back")
    err = refused(clone, bare, "main")
    assert bad[:12] in err


@pytest.mark.slow  # many pushes (.ci/run runs it)
def test_server_hook_new_branch_clean_accepted_drifting_refused(
    served: tuple[Path, Path],
) -> None:
    clone, bare = served
    git(clone, "checkout", "-q", "-b", "topic")
    clean = edit_outside(clone)
    landed(clone, bare, "topic")
    assert git(bare, "rev-parse", "topic") == clean
    git(clone, "checkout", "-q", "-b", "wild")
    drift(clone)
    err = refused(clone, bare, "wild")
    assert f"{REFUSED} — 1 ref: refs/heads/wild" in err and f"drifted {RULES}" in err


@pytest.mark.slow  # many pushes (.ci/run runs it)
def test_server_hook_deleted_branch_accepted(served: tuple[Path, Path]) -> None:
    clone, bare = served
    landed(clone, bare, "main:topic")
    landed(clone, bare, ":topic")
    assert "refs/heads/topic" not in refs(bare)


def test_server_hook_deleted_default_branch_dropping_acts_refused(
    served: tuple[Path, Path],
) -> None:
    clone, bare = served
    err = refused(clone, bare, ":main")
    assert "ledger-deleted" in err and "missing at nothing" in err
    # nothing above has a route to paste: the last line says what to do instead
    assert "follow the routes" not in err and "then push again" not in err
    assert f"remote: {_KEEP}" in err


@pytest.mark.slow  # many pushes (.ci/run runs it)
def test_server_hook_head_names_no_branch_deleted_branch_dropping_acts_refused(
    served: tuple[Path, Path],
) -> None:
    """``git init --bare`` names master in HEAD while the pushes went to main: no branch
    is known as the default, so deleting main (every act of the server) was allowed.
    Every branch is guarded then, and the refusal says how to name the default."""
    clone, bare = served
    landed(clone, bare, "main:topic")
    git(bare, "symbolic-ref", "HEAD", "refs/heads/master")
    for gone in (":main", ":topic"):
        err = refused(clone, bare, gone)
        assert "missing at nothing" in err and "HEAD names refs/heads/master" in err
    git(bare, "symbolic-ref", "HEAD", "refs/heads/main")
    landed(clone, bare, ":topic")
    refused(clone, bare, ":main")


@pytest.mark.slow  # many pushes (.ci/run runs it)
def test_server_hook_force_push_dropping_act_refused(served: tuple[Path, Path]) -> None:
    clone, bare = served
    write(clone, "canon.md", CANON.replace("first rule stands", "first rule grows"))
    forest(clone, "supersede", RULES, "--words", "a second act")
    commit_all(clone, "supersede")
    landed(clone, bare, "main")
    git(clone, "reset", "-q", "--hard", "HEAD~1")
    edit_outside(clone, "elsewhere")  # diverged: the supersede act is gone
    err = refused(clone, bare, "+main")
    assert "ledger-deleted" in err and "the ledger only grows" in err


def _route(err: str, label: str) -> str:
    """The command of the route labelled ``label`` in a refusal git relayed."""
    lines = [line.removeprefix("remote:").strip() for line in err.splitlines()]
    line = next(x for x in lines if x.startswith(f"{label}"))
    return line.split(": ", 1)[1].split("  (", 1)[0]


@pytest.mark.slow  # many pushes (.ci/run runs it)
def test_server_hook_force_push_dropped_acts_route_pasted_accepted(
    served: tuple[Path, Path],
) -> None:
    """The ``ledger-deleted`` of a force push has a route: pasted in the clone it puts
    the segment and its bodies back from OLD and runs ``forest check``, which shows the
    drift against the act put back; restored and committed with it, the push lands."""
    clone, bare = served
    write(clone, "canon.md", CANON.replace("first rule stands", "first rule grows"))
    forest(clone, "supersede", RULES, "--words", "a second act")
    old = commit_all(clone, "supersede")
    landed(clone, bare, "main")
    git(clone, "reset", "-q", "--hard", "HEAD~1")
    edit_outside(clone, "elsewhere")  # diverged: the supersede act is gone
    err = refused(clone, bare, "+main")
    assert "run `forest check` before you commit them" in err
    said = [line.removeprefix("remote:").strip() for line in err.splitlines()]
    assert "in your clone follow the routes above, then push again" in said, said
    put_back = pasted(clone, _route(err, f"put the acts back from {old[:12]}"))
    assert put_back.returncode == 1 and f"drifted {RULES}" in put_back.stdout  # as the detail says
    forest(clone, "restore", RULES)
    git(clone, "add", "--", ".forest/ledger", "canon.md")
    git(clone, "commit", "-q", "-m", "put back")
    landed(clone, bare, "+main")


def test_server_hook_closing_line_worded_by_what_was_printed_accepted() -> None:
    shown = ("  drifted x",)
    assert closing([Refusal(shown, routed=True)]).endswith(
        "follow the routes above, then push again"
    )
    no_route = closing([Refusal(shown, unrouted=True)])
    assert "routes above" not in no_route and "the `forest ci` named above" in no_route
    both = closing([Refusal(shown, routed=True), Refusal(shown, deleted=True), Refusal()])
    assert "routes above" in both and "keep the branch" in both and "forest ci" not in both
    on_server = closing([Refusal(shown, on_server=True)])
    assert "push again" not in on_server and "pushing again cannot" in on_server


@pytest.mark.slow  # a push of two refs, each judged by the gate
def test_server_hook_refusal_in_the_hooks_one_order_detected(served: tuple[Path, Path]) -> None:
    """Two drifting refs in one push: the refusal reads as the pre-commit hook's does
    (check/text.py ``in_hook_order``): the one refusal line first, naming the refs, then
    each ref's findings, the way out of the whole push last (before: the refusal line
    came last, after every ref's findings)."""
    clone, bare = served
    git(clone, "checkout", "-q", "-b", "wild")
    drift(clone)
    git(clone, "branch", "wilder")
    err = refused(clone, bare, "wild", "wilder")
    lines = [line.removeprefix("remote:").strip() for line in err.splitlines()]
    said = [line for line in lines if line and not line.startswith(("To ", "!", "error:"))]
    assert said[0] == f"{REFUSED} — 2 refs: refs/heads/wild, refs/heads/wilder", said
    assert [line for line in said if REFUSED in line] == [said[0]]  # the one refusal line
    wild, wilder = said.index("refs/heads/wild:"), said.index("refs/heads/wilder:")
    assert 0 < wild < wilder and f"drifted {RULES}" in said[wild + 1]
    assert said[-1] == "in your clone follow the routes above, then push again"


def test_server_hook_notes_once_after_the_refusal_line_accepted() -> None:
    """A note (a warning that refuses nothing: signing under "warn") two refs share is
    said once, after the refusal line and before any ref's findings, as the pre-commit
    hook says its notes; an accepted ref's note too, when the push is refused (it lands
    nothing). A push every ref of which is accepted says each note once (before: it
    said nothing, so the pusher heard of an unsigned act only beside a refusal)."""
    note = "warning: unsigned: segment ab line 1: commit not signed"
    other = "warning: unsigned: segment cd line 1: commit not signed"
    main = Refusal(("  drifted x",), ref="refs/heads/main", routed=True, notes=(note,))
    topic = Refusal(("  drifted y",), ref="refs/heads/topic", routed=True, notes=(note,))
    lines = refusal_lines([main, Refusal(notes=(other,)), topic])
    assert lines == [
        f"{REFUSED} — 2 refs: refs/heads/main, refs/heads/topic",
        note,
        other,
        "refs/heads/main:",
        "  drifted x",
        "refs/heads/topic:",
        "  drifted y",
        "in your clone follow the routes above, then push again",
    ]
    accepted = [Refusal(notes=(note,)), Refusal(), Refusal(notes=(note, other))]
    assert refusal_lines(accepted) == []
    assert accepted_lines(accepted) == [note, other]
    assert accepted_lines([Refusal(), Refusal()]) == []  # nothing to say: silent
    assert accepted_lines([main, Refusal(notes=(other,))]) == []  # said by the refusal


@pytest.mark.slow  # keys made, three pushes, forest ci beside them
@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")
def test_server_hook_unsigned_act_under_warn_accepted_with_warning(tmp_path: Path) -> None:
    """An unsigned act pushed under ``signed = "warn"``: the push lands and the pusher
    reads the warning (git relays the hook's stderr as ``remote:`` lines) in the words
    ``forest ci`` prints it; a later push with nothing to say is silent."""
    bare = serve(tmp_path)
    clone = make_repo(tmp_path, "clone")
    forest(clone, "init")
    key = keygen(tmp_path, "ada")
    write(clone, ".forest/allowed_signers", signer_line("author@example.org", key))
    toml = (clone / "forest.toml").read_text(encoding="utf-8")
    signing = 'allowed_signers = ".forest/allowed_signers"\nsigned = "warn"\n'
    write(clone, "forest.toml", toml.replace("[policy]\n", f"[policy]\n{signing}"))
    write(clone, "canon.md", CANON)
    root = commit_all(clone, "files")
    forest(clone, "adopt", "canon.md#Rules", "--words", WORDS)
    commit_all(clone, "adopt, unsigned")
    git(clone, "remote", "add", "origin", str(bare))
    err = landed(clone, bare, "main")
    assert git(bare, "rev-parse", "main") == git(clone, "rev-parse", "HEAD")
    said = [line.removeprefix("remote: ").rstrip() for line in err.splitlines()]
    ci = runner.invoke(app, ["ci", "--base", root, "--repo", str(clone)])
    assert ci.exit_code == 0, ci.stdout
    warned = [line for line in ci.stdout.splitlines() if not line.startswith("forest ci:")]
    assert warned and warned[0].startswith("warning: unsigned "), ci.stdout
    assert said == warned, err  # forest ci's words, each line relayed
    edit_outside(clone)
    assert landed(clone, bare, "main") == ""  # no act, nothing to say: silent


@pytest.mark.slow  # many pushes (.ci/run runs it)
def test_server_hook_force_push_keeping_acts_accepted(served: tuple[Path, Path]) -> None:
    clone, bare = served
    edit_outside(clone, "a typo")
    landed(clone, bare, "main")
    git(clone, "commit", "-q", "--amend", "-m", "the typo fixed")  # rewritten, acts kept
    landed(clone, bare, "+main")
    assert git(bare, "rev-parse", "main") == git(clone, "rev-parse", "HEAD")


def test_server_hook_first_push_to_empty_repository_judged_from_root_refused(
    tmp_path: Path,
) -> None:
    bare = serve(tmp_path)
    clone = make_repo(tmp_path, "clone")
    forest(clone, "init")
    write(clone, "canon.md", CANON)
    commit_all(clone, "files")
    forest(clone, "adopt", "canon.md#Rules", "--words", WORDS)
    commit_all(clone, "adopt")
    drift(clone)
    write(clone, "canon.md", CANON)
    commit_all(clone, "put back")  # HEAD is clean: only history shows the drift
    git(clone, "remote", "add", "origin", str(bare))
    err = refused(clone, bare, "main")
    assert f"drifted {RULES}" in err
    assert refs(bare) == ""


@pytest.mark.slow  # many pushes (.ci/run runs it)
def test_server_hook_first_push_root_before_forest_init_accepted_drift_refused(
    tmp_path: Path,
) -> None:
    """A history that began before ``forest init`` (its root has no forest.toml) pushed
    to an empty repository: judged from the root all the same."""
    bare = serve(tmp_path)
    clone = make_repo(tmp_path, "clone")
    write(clone, "canon.md", CANON)
    commit_all(clone, "before custody")
    forest(clone, "init")
    forest(clone, "adopt", "canon.md#Rules", "--words", WORDS)
    commit_all(clone, "adopt")
    git(clone, "remote", "add", "origin", str(bare))
    git(clone, "checkout", "-q", "-b", "wild")
    drift(clone)
    err = refused(clone, bare, "wild")
    assert f"drifted {RULES}" in err
    landed(clone, bare, "main")


def test_server_hook_repository_not_under_custody_accepted(tmp_path: Path) -> None:
    bare = serve(tmp_path)
    clone = make_repo(tmp_path, "clone")
    write(clone, "notes.md", "# Notes\n")
    commit_all(clone, "no custody here")
    git(clone, "remote", "add", "origin", str(bare))
    landed(clone, bare, "main")


def test_server_hook_replace_ref_pushed_with_drift_refused(served: tuple[Path, Path]) -> None:
    """A replace ref sent along, swapping the drifting commit for a clean one, hides nothing."""
    clone, bare = served
    git(clone, "checkout", "-q", "-b", "decoy")
    decoy = edit_outside(clone, "decoy")
    git(clone, "checkout", "-q", "main")
    bad = drift(clone)
    git(clone, "replace", bad, decoy)
    err = refused(clone, bare, "main", f"refs/replace/{bad}")
    assert f"drifted {RULES}" in err


@pytest.mark.slow  # many pushes (.ci/run runs it)
def test_server_update_hook_refuses_one_ref_accepted_other(served: tuple[Path, Path]) -> None:
    clone, bare = served
    (bare / "hooks" / "pre-receive").unlink()  # only `update` judges, one ref at a time
    git(clone, "checkout", "-q", "-b", "topic")
    clean = edit_outside(clone)
    git(clone, "checkout", "-q", "-b", "wild")
    drift(clone)
    proc = push(clone, "topic", "wild")
    assert proc.returncode != 0 and f"{REFUSED} — 1 ref: refs/heads/wild" in proc.stderr
    assert "refs/heads/topic" not in proc.stderr.replace("refs/heads/topic ->", "")
    assert git(bare, "rev-parse", "topic") == clean
    assert "refs/heads/wild" not in refs(bare)


def test_server_hook_annotated_tag_on_drift_refused(served: tuple[Path, Path]) -> None:
    """A new tag (an annotated tag object) on a drifting commit no branch holds."""
    clone, bare = served
    git(clone, "checkout", "-q", "-b", "wild")
    drift(clone)
    git(clone, "tag", "-a", "-m", "release", "v1")
    err = refused(clone, bare, "refs/tags/v1")
    assert f"{REFUSED} — 1 ref: refs/tags/v1" in err and f"drifted {RULES}" in err


def test_server_gate_head_in_bare_repository_same_as_ci_in_clone_accepted(
    served: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``run_gate(bare, OLD, head=NEW)`` reports what ``forest ci --base OLD`` reports in
    a clone checked out at NEW: the same findings, rendered the same."""
    from forest_files.gate.ci import run_gate
    from forest_files.gate.render import render_text

    clone, bare = served
    old = git(clone, "rev-parse", "HEAD")
    edit_outside(clone)
    new = drift(clone)
    git(bare, "fetch", "-q", str(clone), f"{new}:refs/heads/parked")  # no hook runs
    in_clone = run_gate(clone, old)
    monkeypatch.setenv("GIT_DIR", str(bare))  # as the hook sets it (git sets "." there)
    in_bare = run_gate(bare, old, head=new)
    assert not in_clone.ok and in_bare.head == in_clone.head == new
    assert render_text(in_bare) == render_text(in_clone)
    assert in_bare.judged == in_clone.judged and in_bare.exit_code == in_clone.exit_code


@pytest.mark.slow  # many pushes (.ci/run runs it)
def test_server_update_hook_judges_only_without_our_pre_receive_accepted(
    served: tuple[Path, Path],
) -> None:
    """With our pre-receive installed git has judged every ref before ``update`` runs:
    ``update`` does not judge it twice; without it, ``update`` judges."""
    clone, bare = served
    old = git(bare, "rev-parse", "main")
    new = drift(clone)
    git(bare, "fetch", "-q", str(clone), f"{new}:refs/heads/parked")  # the objects, no hook
    args = ("update", "refs/heads/main", old, new)
    assert hook(bare, *args).returncode == 0
    (bare / "hooks" / "pre-receive").chmod(0o644)  # git would skip it: update judges
    proc = hook(bare, *args)
    assert proc.returncode == 1 and f"{REFUSED} — 1 ref: refs/heads/main" in proc.stderr


@pytest.mark.slow  # many pushes (.ci/run runs it)
def test_server_hook_hundred_commits_accepted(served: tuple[Path, Path]) -> None:
    clone, bare = served
    stream = [f"reset refs/heads/main\nfrom {git(clone, 'rev-parse', 'HEAD')}\n"]
    for n in range(100):  # one git fast-import: a hundred commits, each adding a note
        body = f"note {n}\n"
        stream.append(
            f"commit refs/heads/main\ncommitter A <a@example.org> {1700000000 + n} +0000\n"
            f"data {len(f'note {n}')}\nnote {n}\n"
            f"M 100644 inline notes/{n}.md\ndata {len(body)}\n{body}\n"
        )
    git(clone, "fast-import", "--quiet", stdin="".join(stream).encode())
    started = time.monotonic()
    landed(clone, bare, "main")
    took = time.monotonic() - started
    print(f"push of 100 commits judged in {took:.1f} s")
    assert git(bare, "rev-parse", "main") == git(clone, "rev-parse", "main")
    assert git(bare, "rev-list", "--count", "main") == "102"  # files, adopt, 100 notes


# -- the hook process itself -------------------------------------------------------------


def hook(bare: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    code = "import sys; from forest_files.doors.hooks.run import main; sys.exit(main(sys.argv[1:]))"
    return run(bare, sys.executable, "-E", "-P", "-c", code, *args, stdin=stdin)


def test_server_hook_unknown_pushed_object_refused(served: tuple[Path, Path]) -> None:
    """A line naming an object the repository lacks fails closed, in one line."""
    _, bare = served
    old = git(bare, "rev-parse", "main")
    proc = hook(bare, "pre-receive", stdin=f"{old} {'1' * 40} refs/heads/main\n")
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("forest: ") and proc.stderr.count("\n") == 1, proc.stderr


def test_server_hook_garbled_stdin_refused(served: tuple[Path, Path]) -> None:
    _, bare = served
    proc = hook(bare, "pre-receive", stdin="-x --upload-pack=evil refs/heads/main\n")
    assert proc.returncode == 1 and proc.stderr.startswith("forest: "), proc.stderr
    proc = hook(bare, "update", "refs/heads/main", ZERO)
    assert proc.returncode == 1 and proc.stderr.startswith("forest: "), proc.stderr


def test_server_hook_broken_state_fails_closed_refused(served: tuple[Path, Path]) -> None:
    """A file where the server's views directory belongs: the push is refused in one
    ``forest:`` line naming the fix, no ref moves."""
    clone, bare = served
    views = bare / "forest" / "views"
    for view in views.iterdir():
        view.unlink()
    views.rmdir()
    views.write_bytes(b"")
    edit_outside(clone)
    before = refs(bare)
    proc = push(clone, "main")
    assert proc.returncode != 0 and refs(bare) == before
    said = [x for x in proc.stderr.splitlines() if x.startswith("remote: forest: ")]
    assert len(said) == 1 and "rm -- " in said[0], proc.stderr
    assert "Traceback" not in proc.stderr


def test_server_hook_internal_error_crash_log_in_bare_repository_detected(
    served: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An internal error in a hook run by a bare repository (git sets GIT_DIR there)
    refuses, and its crash log lands in that repository's forest directory."""
    from forest_files.doors.boundary import run_guarded

    _, bare = served
    monkeypatch.chdir(bare)
    monkeypatch.setenv("GIT_DIR", ".")

    def crash() -> int:
        raise KeyError("a bug")

    assert run_guarded("hook pre-receive", crash, ["forest-hook", "pre-receive"]) == 3
    line = capsys.readouterr().err.strip()
    assert line.startswith("forest: internal error (KeyError); details in "), line
    logs = list((bare / "forest" / "crash").iterdir())
    assert len(logs) == 1 and str(logs[0]) in line


def test_server_hooks_installed_are_the_ones_run_dispatches_accepted() -> None:
    from forest_files.doors.hooks import installer, run

    assert installer.SERVER_HOOKS == run.SERVER_HOOKS


def test_server_hook_parse_lines_accepted() -> None:
    a, b = "a" * 40, "b" * 40
    got = parse_pre_receive(f"{ZERO} {a} refs/heads/new\n{a} {ZERO} refs/heads/gone\n\n")
    assert [(u.ref, u.old, u.new) for u in got] == [
        ("refs/heads/new", None, a),
        ("refs/heads/gone", a, None),
    ]
    assert parse_update(["refs/tags/v1", a, b]).new == b


def test_server_install_outside_a_bare_repository_refused(tmp_path: Path) -> None:
    clone = make_repo(tmp_path, "clone")
    result = runner.invoke(app, ["hooks", "install", "--server", "--repo", str(clone)])
    assert result.exit_code == 1
    assert "not a bare repository" in result.stderr
    assert not (clone / ".git" / "hooks" / "pre-receive").exists()


def test_server_install_cli_in_bare_repository_accepted(tmp_path: Path) -> None:
    bare = make_repo(tmp_path, "server.git", bare=True)
    result = runner.invoke(app, ["hooks", "install", "--server", "--repo", str(bare)])
    assert result.exit_code == 0, result.stderr
    assert "pre-receive" in result.stdout and "update" in result.stdout
    text = (bare / "hooks" / "pre-receive").read_text(encoding="utf-8")
    assert "-E -P" in text and os.access(bare / "hooks" / "update", os.X_OK)


def test_server_hook_chained_pre_receive_both_read_refs_refused(
    served: tuple[Path, Path], tmp_path: Path
) -> None:
    """A foreign pre-receive kept as chained sees the ref lines, and so does ours."""
    clone, bare = served
    seen = tmp_path / "seen.txt"
    foreign = bare / "hooks" / "pre-receive.forest-chained"
    foreign.write_text(f"#!/bin/sh\ncat > '{seen}'\n", encoding="utf-8")
    foreign.chmod(0o755)
    drift(clone)
    refused(clone, bare, "main")
    assert "refs/heads/main" in seen.read_text(encoding="utf-8")


def test_server_hook_config_removed_no_verify_with_drift_refused(
    served: tuple[Path, Path],
) -> None:
    clone, bare = served
    git(clone, "rm", "-q", "forest.toml")
    git(clone, "commit", "-q", "--no-verify", "-m", "drop forest.toml")
    dropper = git(clone, "rev-parse", "HEAD")
    drift(clone)
    before = refs(bare)
    proc = push(clone, "main")
    assert proc.returncode != 0 and "declined" in proc.stderr, proc.stderr
    assert refs(bare) == before
    # judged as forest ci judges it: the deleting commit is a finding, put back there
    # (a commit on top that puts it back leaves that commit in the range)
    assert f"config-governance forest.toml commit {dropper[:12]} deletes" in proc.stderr
    parent = git(clone, "rev-parse", f"{dropper}~1")
    assert f"git checkout {parent} -- forest.toml && git commit --amend" in proc.stderr
