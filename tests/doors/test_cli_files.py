"""The file-custody commands as a user meets them: no section text in machine output,
one line and a non-zero exit outside a repository or before ``forest init``."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.check.findings import WORDS_PLACEHOLDER
from forest_files.doors.cli import app
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.template import reused

runner = CliRunner()

SENTINEL = "ZEBRA-SENTINEL-7731"
WORDS = "I adopt these words as written"
CANON = f"# Canon\n\nIntro.\n\n## Secret\n\nThe code is {SENTINEL}.\nKeep it.\n\n## Other\n\nx\n"


def forest(repo: Path, *args: str) -> Result:
    return runner.invoke(app, [*args, "--repo", str(repo)])


def _build_repo(tmp_path: Path) -> Path:
    path = make_repo(tmp_path)
    assert forest(path, "init").exit_code == 0
    write(path, "canon.md", CANON)
    commit_all(path, "init")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    # A private copy of one built once per worker process (template.reused).
    return reused((__name__, "repo"), tmp_path / "repo", _build_repo)


def no_sentinel(result: Result, *, exit_code: int = 0) -> Result:
    assert result.exit_code == exit_code, (result.stdout, result.stderr)
    assert SENTINEL not in result.output
    assert SENTINEL not in result.stderr
    return result


def test_machine_output_and_piped_check_carry_no_section_text(repo: Path) -> None:
    adopted = no_sentinel(forest(repo, "adopt", "canon.md#Secret", "--words", WORDS, "--json"))
    (bound,) = json.loads(adopted.stdout)
    no_sentinel(forest(repo, "check", "--json"))
    path = repo / "canon.md"
    path.write_text(path.read_text().replace("Keep it.", "Drop it."))
    for args in (
        ("check", "--json"),
        ("check",),  # stdout is not a terminal here: no diff without --show-diff
        ("status", "--json"),
        ("status",),
    ):
        no_sentinel(forest(repo, *args), exit_code=1 if args[0] == "check" else 0)
    no_sentinel(forest(repo, "check", "--staged", "--json"))  # nothing staged: no binding
    no_sentinel(forest(repo, "log", "canon.md#Secret", "--json"))
    no_sentinel(forest(repo, "show", bound["content_id"], "--json"))
    superseded = no_sentinel(
        forest(repo, "supersede", "canon.md#Secret", "--words", "ok", "--json")
    )
    ground = json.loads(superseded.stdout)["ground"]
    no_sentinel(forest(repo, "show", ground, "--json"))
    no_sentinel(forest(repo, "log", "canon.md#Secret", "--json"))


def test_log_of_all_acts_with_a_binding(repo: Path) -> None:
    assert forest(repo, "adopt", "canon.md#Secret", "--words", WORDS).exit_code == 0
    result = no_sentinel(forest(repo, "log", "--json"))
    assert json.loads(result.stdout)["acts"]


def test_show_diff_and_diff_do_show_the_text(repo: Path) -> None:
    assert forest(repo, "adopt", "canon.md#Secret", "--words", WORDS).exit_code == 0
    path = repo / "canon.md"
    path.write_text(path.read_text().replace(f"is {SENTINEL}", "is gone"))
    shown = forest(repo, "check", "--show-diff")
    assert shown.exit_code == 1
    assert f"The code is [-{SENTINEL}-]{{+gone+}}." in shown.stdout  # prose: a word diff
    diff = forest(repo, "diff", "canon.md#Secret")
    assert diff.exit_code == 0 and diff.stdout.startswith("drifted canon.md#Canon/Secret")
    assert SENTINEL in diff.stdout


@pytest.mark.slow  # two forest processes, pasted from a subdirectory
def test_diff_of_renamed_heading_names_finding_and_its_check_accepted(repo: Path) -> None:
    """A section whose heading an editor retitled has no text to diff: ``forest diff``
    says why (the nearby heading) and the check whose routes lead out, which works pasted
    from a subdirectory."""
    assert forest(repo, "adopt", "canon.md#Other", "--words", WORDS).exit_code == 0
    commit_all(repo, "adopt")
    path = repo / "canon.md"
    path.write_text(path.read_text().replace("## Other", "## Others"))
    (repo / "sub").mkdir()
    done = pasted(repo / "sub", "forest diff 'canon.md#Other'")
    assert done.returncode == 0, done.stderr
    head, note = done.stdout.splitlines()
    assert head.startswith("unresolved canon.md#Canon/Other no heading matches")
    assert "#Canon/Others" in head
    check = re.search(r"`([^`]+)`", note)
    assert check is not None and check.group(1) == "forest check canon.md"
    routes = pasted(repo / "sub", check.group(1))
    assert routes.returncode == 1 and "forest rebind 'canon.md#Canon/Other'" in routes.stdout


def test_check_text_names_both_routes(repo: Path) -> None:
    assert forest(repo, "adopt", "canon.md#Secret", "--words", WORDS).exit_code == 0
    path = repo / "canon.md"
    path.write_text(path.read_text().replace("Keep it.", "Drop it."))
    out = forest(repo, "check").stdout
    assert "drifted canon.md#Canon/Secret lines 5-9" in out
    assert "forest restore 'canon.md#Canon/Secret'" in out
    assert "forest supersede 'canon.md#Canon/Secret' --words" in out


COMMANDS: list[tuple[str, ...]] = [
    ("adopt", "canon.md", "--words", WORDS),
    ("check",),
    ("check", "--staged"),
    ("check", "--rev", "HEAD"),
    ("check", "--json"),
    ("status",),
    ("status", "--json"),
    ("diff", "canon.md"),
    ("supersede", "canon.md", "--words", WORDS),
    ("restore", "canon.md"),
    ("rebind", "canon.md", "other.md"),
    ("retire", "canon.md", "--words", WORDS),
    ("log", "canon.md"),
    ("log", "canon.md", "--json"),
    ("show", "0" * 64),
    ("show", "0" * 64, "--json"),
]


def one_line_failure(result: Result) -> None:
    assert result.exit_code not in (0, 2), (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("forest: "), result.stderr
    assert "Traceback" not in result.output
    assert "internal error" not in result.stderr, result.stderr


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a)[:30])
def test_outside_a_repository_one_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    bare = tmp_path / "plain"
    bare.mkdir()
    write(bare, "canon.md", CANON)
    one_line_failure(forest(bare, *args))


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a)[:30])
def test_before_init_one_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    path = make_repo(tmp_path)
    write(path, "canon.md", CANON)
    commit_all(path, "no forest yet")
    one_line_failure(forest(path, *args))
    assert not (path / ".forest").exists()


RULES = "# Canon\n\n## Rules\n\nThe first rule stands.\n\nmiddle\n\nThe last rule stands.\n"


def _contested(tmp_path: Path) -> Path:
    """canon.md#Rules superseded on two branches (different lines), merged: two heads."""
    root = make_repo(tmp_path)
    assert forest(root, "init").exit_code == 0
    write(root, "canon.md", RULES)
    commit_all(root, "base")
    assert forest(root, "adopt", "canon.md#Rules", "--words", WORDS).exit_code == 0
    commit_all(root, "adopt")
    for branch, old, new in (("b", "first rule", "first law"), ("c", "last rule", "last law")):
        git(root, "checkout", "-q", "-b", branch, "main")
        write(root, "canon.md", RULES.replace(old, new))
        said = forest(root, "supersede", "canon.md#Rules", "--words", f"{branch} wording")
        assert said.exit_code == 0, said.output
        commit_all(root, branch)
    git(root, "checkout", "-q", "b")
    git(root, "merge", "-q", "--no-ff", "--no-edit", "--no-verify", "c")
    return root


def test_supersede_contested_names_check_resolve_routes_recovers(tmp_path: Path) -> None:
    """``forest supersede`` of contested ground said "resolve it first" and named no
    command; it now names the resolve routes ``forest check`` prints (one builder),
    then the supersede again, each pasteable."""
    root = _contested(tmp_path)
    write(root, "canon.md", RULES.replace("first rule", "first law").replace("last", "final"))
    result = forest(root, "supersede", "canon.md#Rules", "--words", WORDS)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert "contested" in line and "nothing was superseded" in line, line
    *resolves, then = re.findall(r"`([^`]+)`", line)
    (finding,) = json.loads(forest(root, "check", "--json").stdout)["findings"]
    keeps = [r["command"] for r in finding["routes"] if r["label"].startswith("keep ")]
    assert resolves == keeps  # check's "keep X's text" routes (and one that keeps both)
    assert (
        then == f"forest supersede 'canon.md#Canon/Rules' --words {shlex.quote(WORDS_PLACEHOLDER)}"
    )
    chosen = resolves[0].replace(shlex.quote(WORDS_PLACEHOLDER), shlex.quote(WORDS))
    assert pasted(root, chosen).returncode == 0
    done = pasted(root, then.replace(shlex.quote(WORDS_PLACEHOLDER), shlex.quote(WORDS)))
    assert done.returncode == 0, done.stderr
    assert [f["kind"] for f in json.loads(forest(root, "check", "--json").stdout)["findings"]] == [
        "clean"
    ]


def test_restore_contested_names_check_resolve_routes_recovers(tmp_path: Path) -> None:
    root = _contested(tmp_path)
    result = forest(root, "restore", "canon.md")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert "contested" in line and "internal error" not in line, line
    *resolves, then = re.findall(r"`([^`]+)`", line)
    (finding,) = json.loads(forest(root, "check", "--json").stdout)["findings"]
    assert finding["kind"] == "contested"
    keeps = [r["command"] for r in finding["routes"] if r["label"].startswith("keep ")]
    assert resolves == keeps  # the one route builder
    assert then == "forest restore 'canon.md#Canon/Rules'"
    chosen = resolves[1].replace(shlex.quote(WORDS_PLACEHOLDER), shlex.quote(WORDS))
    assert pasted(root, chosen).returncode == 0
    done = pasted(root, then)
    assert done.returncode == 0, done.stderr
    assert (root / "canon.md").read_text() in (
        RULES.replace("first rule", "first law"),
        RULES.replace("last rule", "last law"),
    )
    assert [f["kind"] for f in json.loads(forest(root, "check", "--json").stdout)["findings"]] == [
        "clean"
    ]
