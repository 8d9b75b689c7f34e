"""forest.toml's ``[bind]`` default exclusions (issue 26, part 5): applied by
``forest adopt``, named by every printed adopt route (check, hook) and honoured by
coverage; a conflicting or invalid list is a one-line refusal when forest.toml is read."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from forest_files.custody.bindconf import BindConflict, defaults_for
from forest_files.custody.config import ConfigError, parse_config_text, render_config
from tests.helpers import cli as in_process
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.git import pasted as paste

BIN = Path(sys.executable).parent
WORDS = "Accepted as the team agreed"
BIND = '\n[bind."docs/adr/*.md"]\nexclude = ["meta:status", "#Status"]\n'
REQUIRE = '\n[require]\n"docs/adr/*.md" = "file"\n'
HEAD = '[project]\nid = "p"\n'


def adr(status: str, heading: bool = True) -> str:
    text = f"---\nstatus: {status}\n---\n# Use Postgres\n\n## Context\n\nWhy.\n"
    return text + (f"\n## Status\n\n{status}\n" if heading else "")


def repo_with(tmp_path: Path, extra: str) -> Path:
    repo = make_repo(tmp_path)
    in_process.ok(repo, "init")
    toml = repo / "forest.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + extra, encoding="utf-8")
    commit_all(repo, "custody")
    return repo


# --- reading forest.toml ---------------------------------------------------------------


def test_bind_table_round_trip_accepted() -> None:
    cfg = parse_config_text(HEAD + BIND, "forest.toml")
    [rule] = cfg.bind
    assert rule.exclude == ("meta:status", "#Status")
    assert parse_config_text(render_config(cfg), "forest.toml") == cfg
    assert defaults_for(cfg.bind, "docs/adr/0001-x.md") == ("meta:status", "#Status")
    assert defaults_for(cfg.bind, "docs/guide.md") == ()


@pytest.mark.parametrize(
    ("table", "why"),
    [
        ('[bind."docs/adr/*.md"]\nexclude = ["Status"]\n', "cannot read exclusion 'Status'"),
        ('[bind."docs/adr/*.md"]\nexclude = []\n', "non-empty list"),
        ('[bind."docs/adr/*.md"]\nexclude = ["meta:"]\n', "invalid front-matter key"),
        ('[bind."docs/adr/*.md"]\nexclude = ["#A", "#A"]\n', "given twice"),
        ('[bind."docs/adr/*.md"]\nexcludes = ["#A"]\n', "one key, exclude"),
        ('[bind."docs/{a,b}/*.md"]\nexclude = ["#A"]\n', "bad path glob"),
    ],
)
def test_bind_exclusion_naming_nothing_valid_refused(table: str, why: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config_text(f"{HEAD}\n{table}", "forest.toml")
    message = str(info.value)
    assert why in message and "\n" not in message and message.startswith("forest.toml: ")


def test_bind_conflicting_globs_refused() -> None:
    table = (
        '[bind."docs/adr/*.md"]\nexclude = ["meta:status"]\n'
        '[bind."docs/**/*.md"]\nexclude = ["#Status"]\n'
    )
    with pytest.raises(ConfigError, match="both match one file with different exclude lists"):
        parse_config_text(f"{HEAD}\n{table}", "forest.toml")
    same = table.replace('["#Status"]', '["meta:status"]')  # the same list: no conflict
    assert len(parse_config_text(f"{HEAD}\n{same}", "forest.toml").bind) == 2
    apart = table.replace("docs/**/*.md", "guides/**/*.md")  # never meet
    assert len(parse_config_text(f"{HEAD}\n{apart}", "forest.toml").bind) == 2


def test_bind_conflict_the_examples_miss_refused_at_the_path() -> None:
    # '[0-9]*' and '*-draft.md' are not tried on each other's examples, yet meet
    table = (
        '[bind."docs/[0-9]*.md"]\nexclude = ["meta:status"]\n'
        '[bind."docs/*-draft.md"]\nexclude = ["#Status"]\n'
    )
    cfg = parse_config_text(f"{HEAD}\n{table}", "forest.toml")
    assert defaults_for(cfg.bind, "docs/1-plan.md") == ("meta:status",)
    with pytest.raises(BindConflict, match="both match one file"):
        defaults_for(cfg.bind, "docs/1-draft.md")


# --- applied by adopt, routes and coverage -----------------------------------------------


def test_bind_defaults_applied_by_adopt_status_edit_accepted(tmp_path: Path) -> None:
    repo = repo_with(tmp_path, BIND)
    write(repo, "docs/adr/0001-pg.md", adr("proposed"))
    write(repo, "docs/adr/0002-no-status.md", "# Plain\n\nNo status anywhere.\n")
    in_process.ok(repo, "adopt", "docs/adr/*.md", "--words", WORDS)  # 0002 has neither
    commit_all(repo, "adopt")
    write(repo, "docs/adr/0001-pg.md", adr("accepted"))  # Proposed -> Accepted
    assert in_process.kinds(repo) == ["clean", "clean"]
    write(repo, "docs/adr/0001-pg.md", adr("accepted").replace("Why.", "Why not."))
    assert sorted(in_process.kinds(repo)) == ["clean", "drifted"]


def test_bind_defaults_in_printed_adopt_route_pasted_accepted(tmp_path: Path) -> None:
    repo = repo_with(tmp_path, BIND + REQUIRE)
    write(repo, "docs/adr/0003-new.md", adr("proposed", heading=False))
    doc = json.loads(in_process.forest(repo, "check", "--json").stdout)
    [gap] = [f for f in doc["findings"] if f["kind"] == "unbound"]
    command = gap["routes"][0]["command"]
    assert "--exclude meta:status --exclude '#Status'" in command
    pasted = paste(repo, command.replace("'…'", "'New ADR, as proposed'"))
    assert pasted.returncode == 0, pasted.stderr  # '#Status' is not here: still adopted
    commit_all(repo, "adr 3")
    write(repo, "docs/adr/0003-new.md", adr("accepted", heading=False))
    assert in_process.kinds(repo) == ["clean"]


def test_bind_defaults_in_hook_route_detected(tmp_path: Path) -> None:
    repo = repo_with(tmp_path, BIND + REQUIRE)
    write(repo, "docs/adr/0004-staged.md", adr("proposed"))
    git(repo, "add", "-A")
    proc = in_process.forest(repo, "check", "--staged")
    assert "forest adopt docs/adr/0004-staged.md --exclude meta:status --exclude" in proc.stdout


def test_bind_coverage_excluded_heading_not_required_accepted(tmp_path: Path) -> None:
    require = '\n[require]\n"docs/adr/*.md" = { bind = "headings", level = 2 }\n'
    repo = repo_with(tmp_path, BIND + require)
    write(repo, "docs/adr/0005-h.md", adr("proposed"))
    doc = json.loads(in_process.forest(repo, "check", "--json").stdout)
    gaps = [f["selector"] for f in doc["findings"] if f["kind"] == "unbound"]
    assert gaps == ["docs/adr/0005-h.md#Use Postgres/Context"]  # Status is left out
