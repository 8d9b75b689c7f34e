"""``forest adr list`` and ``forest adr log`` on the adr-gate example's real MADR and
Nygard ADRs: text, JSON and a Markdown table a team can publish."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, pasted, write
from tests.helpers.template import built_once, copy_repo

ADRS = Path(__file__).resolve().parents[2] / "examples" / "adr-gate" / "docs" / "adr"
TABLES = ADRS.parents[1] / "forest-tables.toml"
ADR1 = "docs/adr/0001-record-architecture-decisions.md"
ADR3 = "docs/adr/0003-keep-the-index-under-forest.md"
ADR4 = "docs/adr/0004-keep-the-index-in-the-git-directory.md"
HOSTILE_WORDS = "Accepted | by vote\n| --- |\n<script>x</script>"


def _build(where: Path) -> Path:
    """The adr-gate story: ADRs adopted, ADR 4 accepted supersedes ADR 3 (status
    edits pass), ADR 1 retired later."""
    repo = make_repo(where)
    ok(repo, "init")
    for f in ADRS.iterdir():
        write(repo, f"docs/adr/{f.name}", f.read_text())
    with (repo / "forest.toml").open("a") as fh:
        fh.write(TABLES.read_text())
    commit_all(repo, "start")
    ok(repo, "adopt", ADR1, "--exclude", "#Status", "--words", "Accepted in September")
    ok(
        repo, "adopt", "docs/adr/*.md", "--where", "status=accepted", "--exclude", "meta:status",
        "--exclude", "meta:date", "--words", HOSTILE_WORDS, "--as", "Ada <ada@example.org>",
    )  # fmt: skip
    for path, old, new in (
        (ADR4, "status: proposed", "status: accepted"),
        (ADR3, "status: accepted", f'status: "superseded by [ADR-0004]({ADR4[9:]})"'),
    ):
        p = repo / path
        p.write_text(p.read_text().replace(old, new))
    ok(repo, "adopt", "--unbound", "--exclude", "meta:status", "--yes", "--words", "June review")
    ok(repo, "retire", ADR1, "--words", "Replaced by ADR 2")
    commit_all(repo, "decisions")
    return repo


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    template = built_once(tmp_path_factory, _build)
    return copy_repo(template, tmp_path_factory.mktemp("adr") / "repo")


def test_adr_list_json_status_binding_successor_accepted(repo: Path) -> None:
    adrs = json.loads(ok(repo, "adr", "list", "--json").stdout)["adrs"]
    by = {a["number"]: a for a in adrs}
    assert sorted(by) == [1, 2, 3, 4]
    assert by[1]["status"] == "Accepted" and by[1]["bound"] is False  # retired
    assert by[3]["superseded_by"] == ["4"] and by[3]["bound"] is True
    assert by[4]["status"] == "accepted" and by[4]["bound"] is True
    assert by[2]["adopted_by"] == "Ada <ada@example.org>"
    assert by[2]["ground"] and by[2]["title"] == "Use MADR for new decisions"


def test_adr_list_text_and_markdown_accepted(repo: Path) -> None:
    text = ok(repo, "adr", "list").stdout
    assert "0003 Keep the local index under .forest/ [superseded by [ADR-0004]" in text
    assert "superseded by 4" in text and "(claimed)" in text
    table = ok(repo, "adr", "list", "--format", "markdown").stdout.splitlines()
    assert table[0].startswith("| ADR | Title | Status | Bound |")
    assert len(table) == 2 + 4
    assert all(line.count(" | ") == 7 for line in table[2:])


def test_adr_log_history_from_the_ledger_accepted(repo: Path) -> None:
    got = json.loads(ok(repo, "adr", "log", "--json").stdout)["decisions"]
    events = [(d["event"], d["path"].rsplit("/", 1)[1][:4]) for d in got]
    assert events == [
        ("adopted", "0001"),
        ("adopted", "0002"),
        ("adopted", "0003"),
        ("adopted", "0004"),
        ("retired", "0001"),
    ]
    assert got[-1]["words"] == "Replaced by ADR 2"
    text = ok(repo, "adr", "log").stdout
    assert "retired docs/adr/0001-record-architecture-decisions.md by" in text


def test_adr_log_markdown_hostile_words_one_row_each_refused(repo: Path) -> None:
    """Words with pipes, a table rule and HTML cannot add a row or a column."""
    table = ok(repo, "adr", "log", "--format", "markdown").stdout.splitlines()
    assert len(table) == 2 + 5
    rows = [line for line in table[2:] if "by vote" in line]
    assert len(rows) == 2
    for line in rows:
        assert line.replace("\\|", "").count("|") == 6
        assert "Accepted \\| by vote \\| --- \\|" in line


def test_adr_given_glob_outside_require_accepted(repo: Path) -> None:
    write(repo, "decisions/0001-use-x.md", "# 1. Use X\n\n## Status\n\nProposed\n")
    adrs = json.loads(ok(repo, "adr", "list", "decisions/*.md", "--json").stdout)["adrs"]
    assert [(a["number"], a["status"], a["bound"]) for a in adrs] == [(1, "Proposed", False)]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["adr", "list", "--format", "html"], 2),
        (["adr", "log", "--format", "html"], 2),
        (["adr", "list", "docs/{a,b}/*.md"], 1),
    ],
)
def test_adr_bad_format_or_glob_refused(repo: Path, args: list[str], code: int) -> None:
    """In process (no console entry) a usage error is click's block; through the console
    entry it is one line (tests/doors/test_cli_adopt_bulk.py checks that rendering)."""
    done = forest(repo, *args)
    assert done.exit_code == code, done.output
    last = done.stderr.strip().splitlines()[-1]
    assert "give one of text, json, markdown" in last or last.startswith("forest: not a glob")


def test_adr_list_no_adr_rule_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    ok(repo, "init")
    done = forest(repo, "adr", "list")
    assert done.exit_code == 1
    assert "forest adr list 'docs/adr/*.md'" in done.stderr


@pytest.mark.parametrize(("command", "shows"), [("list", "0001 A [accepted]"), ("log", "adopted")])
def test_adr_no_adr_rule_route_pasted_runs_same_command_refused(
    tmp_path: Path, command: str, shows: str
) -> None:
    # `forest adr log` without a rule routed to `forest adr list`: pasted, the
    # route printed the list, not the log asked for.
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "docs/adr/0001-a.md", "---\nstatus: accepted\n---\n# A\n")
    commit_all(repo, "adr")
    ok(repo, "adopt", "docs/adr/0001-a.md", "--words", "Accepted")
    done = forest(repo, "adr", command)
    assert done.exit_code == 1
    route = done.stderr.strip().split("give their glob: ", 1)[1]
    assert route == f"forest adr {command} 'docs/adr/*.md'"
    pasted_run = pasted(repo, route)
    assert pasted_run.returncode == 0, pasted_run.stderr
    assert shows in pasted_run.stdout


@pytest.mark.parametrize(
    "argv",
    [
        ("adr", "list", "docs/*.md"),
        ("adr", "log", "docs/*.md"),
        ("adopt", "--unbound", "--yes", "--words", "x"),
        ("adopt", "a.md", "--headings", "--yes", "--words", "x"),
        ("adopt", "a.md", "--where", "status=accepted", "--words", "x"),
    ],
)
def test_adr_and_bulk_adopt_before_init_write_nothing_refused(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    root = make_repo(tmp_path)
    write(root, "a.md", "---\nstatus: accepted\n---\n# A\n")
    commit_all(root, "a")
    done = forest(root, *argv)
    assert done.exit_code == 1, done.output
    assert "forest init" in done.stderr
    assert not (root / ".forest").exists() and not (root / ".git" / "forest").exists()


def test_adr_log_moved_names_old_and_new_place_accepted() -> None:
    """A move in the published log says where the ADR came from and where it went:
    text named only the new place, the Markdown table only the old one."""
    from forest_files.doors.adr_render import adr_log
    from forest_files.governance.adr_log import Decision

    new = "docs/decisions/0001-one.md"
    moved = Decision("2026-01-02T00:00:00.000Z", "moved", "doc/adr/0001-one.md", new, "Ada", "",
                     None, "a" * 64, new)  # fmt: skip
    both = f"doc/adr/0001-one.md to {new}"
    assert f"moved {both} by Ada" in adr_log([moved], "text")
    assert f"| 2026-01-02 | {both} | moved | Ada | - |" in adr_log([moved], "markdown")


def test_adr_no_adr_rule_route_names_the_bound_adr_folder_accepted(tmp_path: Path) -> None:
    """adr-tools keeps its ADRs in ``doc/adr``: without a rule, the route names the
    folder of the bound numbered Markdown files (it named ``docs/adr/*.md``, which,
    pasted, said "no ADRs found" and exit 0); an unnumbered bound file is no ADR."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "doc/adr/0001-record.md", "# 1. Record\n\n## Status\n\nAccepted\n")
    write(repo, "notes/a.md", "# Notes\n")
    write(repo, "notes/b.md", "# More notes\n")
    commit_all(repo, "adr")
    ok(repo, "adopt", "doc/adr/0001-record.md", "notes/a.md", "notes/b.md", "--words", "Yes")
    done = forest(repo, "adr", "list")
    assert done.exit_code == 1
    route = done.stderr.strip().split("give their glob: ", 1)[1]
    assert route == "forest adr list 'doc/adr/*.md'"
    listed = pasted(repo, route)
    assert listed.returncode == 0 and "0001 Record [Accepted]" in listed.stdout, listed


def test_adr_list_superseded_twice_names_every_successor_accepted(tmp_path: Path) -> None:
    """An ADR two later ones supersede (adr-tools' ``adr new -s 3`` twice): text, JSON
    and the Markdown table name both; they named only the first."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "doc/adr/0003-one-queue.md", (
        "# 3. One queue\n\n## Status\n\nSuperceded by [5. Per tenant](0005-per-tenant.md)\n\n"
        "Superceded by [6. Dead letters](0006-dead-letters.md)\n"
    ))  # fmt: skip
    commit_all(repo, "adr")
    text = ok(repo, "adr", "list", "doc/adr/*.md").stdout
    assert "not bound; superseded by 5, 6" in text, text
    got = json.loads(ok(repo, "adr", "list", "doc/adr/*.md", "--json").stdout)["adrs"]
    assert got[0]["superseded_by"] == ["5", "6"]
    table = ok(repo, "adr", "list", "doc/adr/*.md", "--format", "markdown").stdout
    assert table.splitlines()[2].endswith("| 5, 6 |"), table


@pytest.mark.parametrize(
    ("adr_dir", "folder"),
    [
        ("doc/architecture/decisions\n", "doc/architecture/decisions"),  # adr init DIR
        (None, "doc/adr"),  # adr-tools' default, no .adr-dir
        ("../elsewhere\n", "doc/adr"),  # out of the repository: not taken
    ],
)
def test_adr_no_rule_nothing_bound_route_names_the_work_trees_adr_folder_accepted(
    tmp_path: Path, adr_dir: str | None, folder: str
) -> None:
    """Nothing bound and no rule in an adr-tools repository: the route named
    ``docs/adr/*.md``, which, pasted, said "no ADRs found" and exit 0. It names the
    folder ``.adr-dir`` names (adr-tools writes it), else a folder ADR tools use that
    holds numbered Markdown files."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(
        repo,
        f"{folder}/0001-record-architecture-decisions.md",
        "# 1. Record\n\n## Status\n\nAccepted\n",
    )
    if adr_dir is not None:
        write(repo, ".adr-dir", adr_dir)
    commit_all(repo, "adr")
    done = forest(repo, "adr", "list")
    assert done.exit_code == 1
    route = done.stderr.strip().split("give their glob: ", 1)[1]
    assert route == f"forest adr list '{folder}/*.md'"
    listed = pasted(repo, route)
    assert listed.returncode == 0 and "0001 Record [Accepted]" in listed.stdout, listed
