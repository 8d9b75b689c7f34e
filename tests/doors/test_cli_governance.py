"""``forest forget`` on the command line: output, JSON, exit codes, no text echoed."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner, Result

import forest_files.doors.cli  # noqa: F401  (registers every command)
from forest_files.custody.repository import Repository
from forest_files.doors.cli import app
from tests.helpers.forgetting import SENTINEL, WORDS, adopted_then_cleaned, holding

runner = CliRunner()


def forest(repo: Path, *args: str) -> Result:
    result = runner.invoke(app, [*args, "--repo", str(repo)])
    assert SENTINEL not in result.output and SENTINEL not in result.stderr
    return result


def test_cli_forget_prints_what_it_cannot_do_accepted(tmp_path: Path) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    result = forest(root, "forget", old[:16], "--words", WORDS, "--as", "t <t@example.org>")
    assert result.exit_code == 0, result.stderr
    assert "filter-repo --invert-paths --path .forest/ledger/bodies/" in result.output
    assert "--replace-text" in result.output and "not cryptographic erasure" in result.output
    assert "rotate the secret" in result.output
    assert holding(root, SENTINEL) == []


def test_cli_forget_json_accepted(tmp_path: Path) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    result = forest(root, "forget", old, "--words", WORDS, "--as", "t <t@example.org>", "--json")
    assert result.exit_code == 0, result.stderr
    obj = json.loads(result.output)
    assert obj["content_id"] == old and obj["lines"] == 1 and obj["purged"]["bodies"] == 1


def test_cli_forget_live_ground_refused(tmp_path: Path) -> None:
    root, _old = adopted_then_cleaned(tmp_path)
    with Repository(root) as repo:
        (cid,) = [g.content_id for g in repo.ground()]
    result = forest(root, "forget", cid, "--words", WORDS, "--as", "t <t@example.org>")
    assert result.exit_code == 1 and "live ground" in result.stderr


def test_cli_forget_line_short_refused(tmp_path: Path) -> None:
    root, old = adopted_then_cleaned(tmp_path)
    result = forest(
        root, "forget", old, "--words", WORDS, "--as", "x <x@y>", "--line", SENTINEL[:9]
    )
    assert result.exit_code == 1 and "shorter than 16" in result.stderr


def test_cli_forget_help_has_example_accepted() -> None:
    result = runner.invoke(app, ["forget", "--help"])
    assert result.exit_code == 0 and "Example: forest forget" in result.output
