"""Coverage: forest.toml's ``[require]`` and the ``unbound`` finding in every door —
``forest check``, the pre-commit hook (a warning), ``forest ci`` (a failure at HEAD
only) — and its config validation, governance and shell-safe adopt route."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.check.coverage import unbound
from forest_files.custody.config import (
    MAX_REQUIRE_GLOB_CHARS,
    MAX_REQUIRE_RULES,
    ConfigError,
    RequireRule,
    parse_config_text,
    render_config,
)
from forest_files.doors import hooks as githooks
from forest_files.gate.ci import run_gate
from forest_files.gate.range import check_range
from tests.helpers import cli as in_process
from tests.helpers.cli import FOREST
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import reused

BIN = Path(sys.executable).parent
WORDS = "Adopted as the team agreed"
ADR = "docs/adr/0002-use-postgres.md"
ADR_TEXT = "# 2. Use Postgres\n\nDate: 2024-01-01\n\n## Decision\n\nPostgres.\n"
REQUIRE_FILE = '\n[require]\n"docs/adr/*.md" = "file"\n'
# Ada holds '**'; the committer (Test Author) may adopt under docs/ but not change forest.toml.
GOVERNED = (
    '\n[authority]\n"**" = ["Ada Lovelace <ada@example.org>"]\n'
    '"docs/**" = ["Test Author <author@example.org>"]\n'
)


def run(cwd: Path, *cmd: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(list(cmd), cwd=cwd, env=env, capture_output=True, text=True, check=False)


def forest(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run(repo, FOREST, *args)


def custody(tmp_path: Path, require: str = REQUIRE_FILE, name: str = "repo") -> Path:
    """``forest init`` with ``require`` appended to forest.toml, one adopted file,
    committed on ``main``: a private copy of one built once per worker process."""
    return reused((__name__, require), tmp_path / name, lambda d: _custody(d, require))


def _custody(tmp_path: Path, require: str) -> Path:
    repo = make_repo(tmp_path)
    in_process.ok(repo, "init")  # the set-up, in process: the doors under test run below
    toml = repo / "forest.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + require, encoding="utf-8")
    write(repo, "docs/adr/0001-record.md", "# 1. Record decisions\n\nWe record them.\n")
    in_process.ok(repo, "adopt", "docs/adr/0001-record.md", "--words", WORDS)
    commit_all(repo, "base")
    return repo


def adr(status: str | None, title: str = "Use Postgres") -> str:
    head = f"---\nstatus: {status}\n---\n" if status is not None else ""
    return f"{head}# {title}\n\n## Context\n\nWhy.\n\n## Decision\n\nWhat.\n"


def rule(glob: str = "docs/adr/*.md", value: str = '"file"') -> RequireRule:
    text = f'[project]\nid = "p"\n\n[require]\n"{glob}" = {value}\n'
    [found] = parse_config_text(text, "forest.toml").require
    return found


# --- forest check ---------------------------------------------------------------------


def test_check_required_file_unbound_detected_with_adopt_route(tmp_path: Path) -> None:
    repo = custody(tmp_path)
    assert forest(repo, "check").returncode == 0
    write(repo, ADR, ADR_TEXT)
    proc = forest(repo, "check")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"unbound {ADR} required by [require] 'docs/adr/*.md'" in proc.stdout
    assert f"forest adopt {ADR} --words '…'" in proc.stdout
    assert "1 required target(s) unbound" in proc.stdout
    doc = json.loads(forest(repo, "check", "--json").stdout)
    [gap] = [f for f in doc["findings"] if f["kind"] == "unbound"]
    assert gap["selector"] == ADR and gap["routes"][0]["argv"][0][:3] == ["forest", "adopt", ADR]
    assert forest(repo, "adopt", ADR, "--words", WORDS).returncode == 0
    assert forest(repo, "check").returncode == 0


def test_check_rev_required_file_unbound_detected(tmp_path: Path) -> None:
    repo = custody(tmp_path)
    write(repo, ADR, ADR_TEXT)
    commit_all(repo, "draft")
    proc = forest(repo, "check", "--rev", "HEAD")
    assert proc.returncode == 1 and f"unbound {ADR}" in proc.stdout
    assert forest(repo, "check", "--rev", "HEAD~1").returncode == 0


def test_check_remembered_clean_verdict_does_not_hide_a_new_required_file(
    tmp_path: Path,
) -> None:
    repo = custody(tmp_path)
    for _ in range(2):  # a second clean check could answer from a remembered verdict
        assert forest(repo, "check").returncode == 0
    write(repo, ADR, ADR_TEXT)
    assert forest(repo, "check").returncode == 1


def test_check_when_condition_proposed_accepted_detected(tmp_path: Path) -> None:
    require = '\n[require]\n"docs/adr/*.md" = { bind = "file", when = { status = "accepted" } }\n'
    repo = custody(tmp_path, require)
    write(repo, ADR, adr("proposed"))
    assert forest(repo, "check").returncode == 0  # a proposal is not yet required
    write(repo, ADR, adr("Accepted"))  # front-matter values compare case-insensitively
    proc = forest(repo, "check")
    assert proc.returncode == 1 and f"unbound {ADR}" in proc.stdout


def test_check_headings_level_rule_names_each_unbound_heading(tmp_path: Path) -> None:
    require = '\n[require]\n"docs/guide/*.md" = { bind = "headings", level = 2 }\n'
    repo = custody(tmp_path, require)
    write(repo, "docs/guide/g.md", "# Guide\n\n## One\n\none\n\n### Deep\n\nd\n\n## Two\n\ntwo\n")
    assert forest(repo, "adopt", "docs/guide/g.md#Guide/One", "--words", WORDS).returncode == 0
    proc = forest(repo, "check")
    assert proc.returncode == 1
    assert "unbound docs/guide/g.md#Guide/Two lines 11-13" in proc.stdout
    assert "#Guide/One" not in proc.stdout.replace("clean", "")  # covered
    assert "Deep" not in proc.stdout  # level 3 is not required
    assert forest(repo, "adopt", "docs/guide/g.md", "--words", WORDS).returncode == 0
    assert forest(repo, "check").returncode == 0  # the whole file covers every heading


# --- the hook --------------------------------------------------------------------------


def test_hook_required_file_unbound_commit_accepted_with_warning(tmp_path: Path) -> None:
    repo = custody(tmp_path)
    githooks.install(repo)
    write(repo, ADR, ADR_TEXT)
    git(repo, "add", ADR)
    before = git(repo, "rev-parse", "HEAD")
    proc = run(repo, "git", "commit", "-m", "draft ADR")
    assert proc.returncode == 0, proc.stderr
    assert git(repo, "rev-parse", "HEAD") != before
    assert f"warning: unbound {ADR}" in proc.stderr
    assert f"forest adopt {ADR} --words '…' && git add -- .forest/ledger" in proc.stderr
    staged = forest(repo, "check", "--staged", "--json")
    assert json.loads(staged.stdout)["warnings"][0]["kind"] == "unbound"
    assert staged.returncode == 0


def test_hook_unbound_only_among_staged_paths_accepted(tmp_path: Path) -> None:
    repo = custody(tmp_path)
    githooks.install(repo)
    write(repo, ADR, ADR_TEXT)  # untracked, not staged: not this commit's business
    write(repo, "notes.txt", "unrelated\n")
    git(repo, "add", "notes.txt")
    proc = run(repo, "git", "commit", "-m", "notes")
    assert proc.returncode == 0 and "unbound" not in proc.stderr, proc.stderr


def test_hook_adopted_in_the_same_commit_no_warning(tmp_path: Path) -> None:
    repo = custody(tmp_path)
    githooks.install(repo)
    write(repo, ADR, ADR_TEXT)
    assert forest(repo, "adopt", ADR, "--words", WORDS).returncode == 0
    git(repo, "add", "-A")
    proc = run(repo, "git", "commit", "-m", "adopted ADR")
    assert proc.returncode == 0 and "unbound" not in proc.stderr, proc.stderr


# --- forest ci -------------------------------------------------------------------------


def test_ci_unbound_at_head_refused_adopted_next_commit_accepted(tmp_path: Path) -> None:
    repo = custody(tmp_path)
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo, ADR, ADR_TEXT)
    commit_all(repo, "add the ADR")
    report = run_gate(repo, "main")
    assert [(f.kind, f.selector, f.commit) for f in report.findings] == [("unbound", ADR, None)]
    proc = forest(repo, "ci", "--base", "main")
    assert proc.returncode == 1 and f"unbound {ADR} " in proc.stdout
    assert f"forest adopt {ADR} --words" in proc.stdout
    assert forest(repo, "adopt", ADR, "--words", WORDS).returncode == 0
    commit_all(repo, "adopt the ADR")
    proc = forest(repo, "ci", "--base", "main")
    assert proc.returncode == 0, proc.stdout  # judged at HEAD, not at each commit
    sarif = json.loads(forest(repo, "ci", "--format", "sarif").stdout)
    assert sarif["runs"][0]["results"] == []


def test_ci_removing_a_requirement_by_non_holder_refused(tmp_path: Path) -> None:
    repo = custody(tmp_path, GOVERNED + REQUIRE_FILE)
    git(repo, "checkout", "-q", "-b", "feature")
    toml = repo / "forest.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace('"docs/adr/*.md" = "file"\n', ""),
        encoding="utf-8",
    )
    write(repo, ADR, ADR_TEXT)
    commit_all(repo, "drop the requirement, sneak the ADR in")
    [fault] = check_range(repo, "main").faults
    assert fault.code == "config-governance" and "[require]" in fault.detail
    report = run_gate(repo, "main")
    assert "config-governance" in {f.kind for f in report.findings}


def test_ci_requirement_written_differently_same_meaning_accepted(tmp_path: Path) -> None:
    repo = custody(tmp_path, GOVERNED + REQUIRE_FILE)
    git(repo, "checkout", "-q", "-b", "feature")
    toml = repo / "forest.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace('= "file"', '= { bind = "file" }'), encoding="utf-8")
    commit_all(repo, "same rule, inline form")
    assert check_range(repo, "main").faults == ()


# --- the printed route, pasted ---------------------------------------------------------


# A quote and a command substitution in the fast lane; the other names in the slow lane.
@pytest.mark.parametrize(
    "name",
    [
        "it's mine.md",
        pytest.param("two  spaces.md", marks=pytest.mark.slow),
        "$(touch pwned).md",
        pytest.param("`touch pwned2`.md", marks=pytest.mark.slow),
        pytest.param("-dash.md", marks=pytest.mark.slow),
    ],
)
def test_adopt_route_pasted_through_bash_accepted(tmp_path: Path, name: str) -> None:
    repo = custody(tmp_path)
    path = f"docs/adr/{name}"
    write(repo, path, ADR_TEXT)
    doc = json.loads(forest(repo, "check", "--json").stdout)
    [gap] = [f for f in doc["findings"] if f["kind"] == "unbound"]
    assert gap["path"] == path
    command = gap["routes"][0]["command"]
    assert "--words '…'" in command
    as_printed = run(repo, "bash", "-c", command)  # the placeholder: refused, one line
    assert as_printed.returncode == 1 and as_printed.stderr.startswith("forest: --words '…'")
    assert len(as_printed.stderr.strip().splitlines()) == 1
    pasted = command.replace("'…'", "'Adopted after review'")
    proc = run(repo, "bash", "-c", pasted)
    assert proc.returncode == 0, (pasted, proc.stdout, proc.stderr)
    assert not (repo / "pwned").exists() and not (repo / "pwned2").exists()
    assert forest(repo, "check").returncode == 0


def test_hook_route_pasted_through_bash_accepted(tmp_path: Path) -> None:
    repo = custody(tmp_path)
    githooks.install(repo)
    path = "docs/adr/it's $(touch pwned).md"
    write(repo, path, ADR_TEXT)
    git(repo, "add", "-A")
    proc = run(repo, "git", "commit", "-m", "draft")
    assert proc.returncode == 0, proc.stderr
    [line] = [x for x in proc.stderr.splitlines() if "adopt it: " in x]
    command = line.split("adopt it: ", 1)[1].split("  (", 1)[0]
    pasted = command.replace("'…'", "'Adopted after review'")
    done = run(repo, "bash", "-c", pasted)
    assert done.returncode == 0, (pasted, done.stderr)
    assert not (repo / "pwned").exists()
    assert run(repo, "git", "commit", "-m", "adopt").returncode == 0
    assert forest(repo, "ci").returncode == 0


# --- forest.toml -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "fragments"),
    [
        ('"headings"', ["unknown requirement 'headings'", "level = 2"]),
        ('"files"', ["unknown requirement 'files'"]),
        ("true", ["must be", "inline table"]),
        ('{ bind = "file", colour = 1 }', ["colour", "unknown key", "known keys"]),
        ('{ bind = "chapters" }', ["bind", "must be one of file, headings"]),
        ("{ level = 2 }", ["bind", "must be one of"]),
        ('{ bind = "headings" }', ["level", "must be an integer"]),
        ('{ bind = "headings", level = 7 }', ["level", "7 is out of range"]),
        ('{ bind = "headings", level = 0 }', ["0 is out of range"]),
        ('{ bind = "headings", level = true }', ["must be an integer"]),
        ('{ bind = "file", level = 2 }', ["only for bind"]),
        ('{ bind = "file", when = "accepted" }', ["when", "must be an inline table"]),
        ('{ bind = "file", when = { status = 1 } }', ["when.status", "non-empty string"]),
        ('{ bind = "file", when = { status = "" } }', ["when.status", "non-empty string"]),
        ('{ bind = "file", when = { status = [] } }', ["when.status", "give 1 to 16"]),
        ('{ bind = "file", when = { "a:b" = "x" } }', ["not a plain front-matter key"]),
        ('{ bind = "file", except = "x.md" }', ["except", "must be a list"]),
        ('{ bind = "file", except = ["../x"] }', ["except", "bad path glob"]),
    ],
)
def test_require_malformed_value_refused(value: str, fragments: list[str]) -> None:
    text = f'[project]\nid = "p"\n\n[require]\n"docs/adr/*.md" = {value}\n'
    with pytest.raises(ConfigError) as err:
        parse_config_text(text, "forest.toml")
    message = str(err.value)
    assert message.startswith("forest.toml: [require]") and "\n" not in message
    for fragment in fragments:
        assert fragment in message, message


@pytest.mark.parametrize("glob", ["/abs/*.md", "docs/../x.md", "docs/a**b.md", "docs/", "a\\b"])
def test_require_bad_glob_refused(glob: str) -> None:
    text = f'[project]\nid = "p"\n\n[require]\n{json.dumps(glob)} = "file"\n'
    with pytest.raises(ConfigError, match="bad path glob"):
        parse_config_text(text, "forest.toml")


def test_require_glob_count_limit_n_accepted_n_plus_1_refused() -> None:
    def config(n: int) -> str:
        lines = "".join(f'"docs/{i}/*.md" = "file"\n' for i in range(n))
        return f'[project]\nid = "p"\n\n[require]\n{lines}'

    assert len(parse_config_text(config(MAX_REQUIRE_RULES), "t").require) == MAX_REQUIRE_RULES
    with pytest.raises(ConfigError, match="over the limit"):
        parse_config_text(config(MAX_REQUIRE_RULES + 1), "t")


def test_require_glob_length_limit_n_accepted_n_plus_1_refused() -> None:
    def config(n: int) -> str:
        return f'[project]\nid = "p"\n\n[require]\n"{"a" * (n - 3)}.md" = "file"\n'

    assert parse_config_text(config(MAX_REQUIRE_GLOB_CHARS), "t").require
    with pytest.raises(ConfigError, match="longer than"):
        parse_config_text(config(MAX_REQUIRE_GLOB_CHARS + 1), "t")


def test_require_render_round_trips() -> None:
    text = (
        '[project]\nid = "p"\n\n[require]\n"docs/adr/*.md" = "file"\n'
        '"docs/x/**" = { bind = "headings", level = 2, when = { status = ["accepted", '
        '"final"], kind = "it\'s" }, except = ["docs/x/template.md"] }\n'
    )
    cfg = parse_config_text(text, "t")
    assert parse_config_text(render_config(cfg), "again") == cfg
    assert cfg.require[1].matches("docs/x/a/b.md")
    assert not cfg.require[1].matches("docs/x/template.md")


def test_check_malformed_require_refused_in_one_forest_line(tmp_path: Path) -> None:
    repo = custody(tmp_path)
    toml = repo / "forest.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + '"x/*.md" = "chapter"\n', "utf-8")
    proc = forest(repo, "check")
    assert proc.returncode != 0
    [line] = proc.stderr.strip().splitlines()
    assert line.startswith("forest: ") and "unknown requirement 'chapter'" in line


# --- the pure module -------------------------------------------------------------------


class _Bound:
    def __init__(self, path: str, selector: str) -> None:
        self.path, self.selector, self.excludes = path, selector, ()


def test_unbound_reads_only_matching_unbound_files_accepted() -> None:
    reads: list[str] = []
    files = {"docs/adr/a.md": b"# A\n", "docs/adr/b.md": b"# B\n", "src/x.py": b"x = 1\n"}

    def read(path: str) -> bytes | None:
        reads.append(path)
        return files.get(path)

    found = unbound([rule()], files, read, [_Bound("docs/adr/a.md", "docs/adr/a.md")])
    assert [(f.kind, f.selector) for f in found] == [("unbound", "docs/adr/b.md")]
    assert reads == ["docs/adr/b.md"]  # the bound file and the unmatched one never read
    assert unbound([], files, read, []) == []


def test_unbound_escaped_selector_and_front_matter_forms_detected() -> None:
    when = '{ bind = "file", when = { status = ["accepted", "final"] } }'
    files = {
        "docs/adr/a#b.md": adr('"accepted"').encode(),
        "docs/adr/c.md": adr("final # after review").encode(),
        "docs/adr/d.md": adr("proposed").encode(),
        "docs/adr/e.md": adr(None).encode(),  # no front matter: the condition fails
        "docs/adr/f.md": b"---\nstatus: proposed\nstatus: accepted\n---\n# F\n",  # ambiguous
        "docs/adr/g.md": b"\xff\xfe not text",  # cannot be judged: held to the rule
    }
    found = unbound([rule(value=when)], files, files.get, [])
    assert [f.selector for f in found] == [
        "docs/adr/a\\#b.md",
        "docs/adr/c.md",
        "docs/adr/f.md",
        "docs/adr/g.md",
    ]


def test_unbound_headings_duplicates_and_nesting_detected() -> None:
    doc = b"# T\n\n## Same\n\na\n\n## Same\n\nb\n\n## Kept\n\n### Inner\n\nc\n"
    files = {"g.md": doc}
    headings = rule("*.md", '{ bind = "headings", level = 2 }')
    deep = rule("*.md", '{ bind = "headings", level = 3 }')
    found = unbound([headings, deep], files, files.get, [_Bound("g.md", "g.md#T/Kept")])
    assert [(f.selector, f.start_line) for f in found] == [
        ("g.md#T/Same[1]", 3),
        ("g.md#T/Same[2]", 7),
    ]  # Inner lies inside the bound Kept


def test_required_name_with_backslash_routes_a_rename_never_another_file_recovers(
    tmp_path: Path,
) -> None:
    """``x\\#y.md`` beside ``x#y.md``: no selector names the first (a backslash), and
    the route printed for it adopted the second. It now renames it first; pasted,
    the next check routes the adoption of the renamed file."""
    from tests.helpers.git import pasted

    repo = make_repo(tmp_path)
    write(repo, "x\\#y.md", "# T\n\nbackslash file\n")
    write(repo, "x#y.md", "# T\n\nhash file\n")
    assert in_process.forest(repo, "init").exit_code == 0
    with (repo / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[require]\n"*.md" = "file"\n')
    commit_all(repo, "init")
    out = in_process.forest(repo, "check").stdout
    (line,) = [ln for ln in out.splitlines() if "no selector can name it" in ln]
    assert "(the path contains a backslash)" in line and "control character" not in line
    (rename,) = [ln for ln in out.splitlines() if ln.startswith("  rename it first: ")]
    command = rename.removeprefix("  rename it first: ").rsplit("  (", 1)[0]
    assert command == "git --literal-pathspecs mv -- 'x\\#y.md' 'x_#y.md'", command
    assert pasted(repo, command).returncode == 0
    assert (repo / "x_#y.md").read_text(encoding="utf-8").endswith("backslash file\n")
    assert (repo / "x#y.md").read_text(encoding="utf-8").endswith("hash file\n")
    after = in_process.forest(repo, "check").stdout
    assert "no selector can name it" not in after and "adopt it: forest adopt 'x_\\#y.md'" in after


def test_required_name_with_control_c1_and_separator_rename_pasted_recovers(
    tmp_path: Path,
) -> None:
    """A required name holding ESC, CR and BEL beside a C1 CSI (U+009B) and U+2028: the
    text shows it through the one escaper (kernel ``printable``), each escaped; the
    finding (``--json``) carries the exact name; its rename, pasted, moves that file to
    one a selector can name; the next check routes its adopt."""
    from tests.helpers.git import pasted

    name = "n\x1b[2J\r\x07\x9b\u2028.md"
    repo = make_repo(tmp_path)
    write(repo, name, "# T\n\ncontrol file\n")
    assert in_process.forest(repo, "init").exit_code == 0
    with (repo / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[require]\n"*.md" = "file"\n')
    commit_all(repo, "init")
    shown = "n\\x1b[2J\\x0d\\x07\\x9b\\u2028.md"
    assert [f["path"] for f in in_process.findings(repo)] == [name]  # exact: JSON escapes it
    out = in_process.forest(repo, "check").stdout
    assert shown in out, out
    assert not [c for c in out if c in "\r\x07\x9b\u2028"], out
    (rename,) = [ln for ln in out.splitlines() if ln.startswith("  rename it first: ")]
    command = rename.removeprefix("  rename it first: ").rsplit("  (", 1)[0]
    assert pasted(repo, command).returncode == 0, command
    assert sorted(p.name for p in repo.glob("n*.md")) == ["n_[2J__\x9b\u2028.md"]
    after = in_process.forest(repo, "check").stdout
    assert "control character" not in after and "adopt it: forest adopt" in after, after
