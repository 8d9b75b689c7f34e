"""Adoption warns when a section reads reference-link or footnote definitions from
outside its hash (check/adopt_refs.py), and its printed route, pasted, takes them
into custody; nothing the section hashes changes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write

CONTRACT = (
    "# Contract\n\n## Terms\n\nPay to [the account][acct] within 30 days.\n"
    "See the [^fee] note.\n\n## Notes\n\nanything\n\n"
    "[acct]: https://bank.example/good\n[^fee]: The fee is 1%.\n"
)


def _repo(tmp_path: Path, text: str = CONTRACT) -> Path:
    root = make_repo(tmp_path)
    write(root, "c.md", text)
    commit_all(root, "i")
    ok(root, "init")
    return root


def _tamper(root: Path) -> None:
    text = (root / "c.md").read_text(encoding="utf-8")
    text = text.replace("bank.example/good", "evil.example/steal").replace("1%", "40%")
    write(root, "c.md", text)


@pytest.mark.slow  # the printed route runs in a shell of its own
def test_adopt_section_reading_definitions_outside_warns_and_route_pasted_detected(
    tmp_path: Path,
) -> None:
    root = _repo(tmp_path)
    got = ok(root, "adopt", "c.md#Terms", "--words", "ok")
    assert "bound c.md#Contract/Terms" in got.stdout
    (line,) = got.stderr.splitlines()
    assert "c.md#Contract/Terms uses [acct] (line 12), [^fee] (line 13)" in line
    assert "not in its hash" in line and "move the definitions into the section" in line
    routes = re.findall(r"`([^`]+)`", line)
    assert routes == [
        "forest adopt 'c.md#Contract/Notes' --words '…'",
        "forest adopt c.md --words '…'",
    ]
    commit_all(root, "a")
    done = pasted(root, routes[0].replace("'…'", "'the definitions Terms reads'"))
    assert done.returncode == 0, done.stderr
    assert "uses [" not in done.stderr  # Notes holds its own definitions
    commit_all(root, "defs")
    _tamper(root)
    check = forest(root, "check")
    assert check.exit_code == 1
    assert "drifted c.md#Contract/Notes" in check.stdout
    git(root, "add", "-A")
    assert forest(root, "check", "--staged").exit_code == 1


def test_adopt_without_route_taken_tamper_still_passes_check_accepted(tmp_path: Path) -> None:
    # The limit the warning names: the section's hash is unchanged by this work.
    root = _repo(tmp_path)
    got = ok(root, "adopt", "c.md#Terms", "--words", "ok", "--json")
    (bound,) = json.loads(got.stdout)
    assert bound["warning"].startswith("c.md#Contract/Terms uses [acct] (line 12)")
    assert bound["warning"] in got.stderr
    _tamper(root)
    assert forest(root, "check").exit_code == 0


def test_adopt_headings_holding_every_definition_not_warned_accepted(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    got = ok(root, "adopt", "c.md", "--headings", "--yes", "--words", "all", "--json")
    assert all("warning" not in b for b in json.loads(got.stdout))
    assert "uses [" not in got.stderr


def test_adopt_definitions_inside_or_inline_links_not_warned_accepted(tmp_path: Path) -> None:
    text = (
        "# A\n\nSee [x][x] and [^n].\n\n[x]: /x\n[^n]: note\n\n"
        "# B\n\nSee [inline](https://b.example) and <https://c.example>.\n"
    )
    root = _repo(tmp_path, text)
    got = ok(root, "adopt", "c.md#A", "c.md#B", "--words", "both")
    assert got.stderr == ""


def test_adopt_definitions_before_any_heading_route_whole_file_only_detected(
    tmp_path: Path,
) -> None:
    root = _repo(tmp_path, "[a]: https://a.example\n\n# S\n\nSee [a].\n")
    got = ok(root, "adopt", "c.md#S", "--words", "s")
    assert "uses [a] (line 1)" in got.stderr
    assert re.findall(r"`([^`]+)`", got.stderr) == ["forest adopt c.md --words '…'"]


def test_rebind_to_section_reading_definitions_outside_warns_as_adopt_detected(
    tmp_path: Path,
) -> None:
    """``forest rebind`` to a new selector warns as ``forest adopt`` of it would: the
    same line on stderr (labels, lines, routes), the binding moved, exit 0."""
    text = "# Contract\n\n## Terms\n\nPay within 30 days.\n"
    root = _repo(tmp_path, text)
    ok(root, "adopt", "c.md#Terms", "--words", "ok")
    commit_all(root, "a")
    write(root, "c.md", CONTRACT.replace("## Terms", "## Payment"))  # renamed, links added
    got = ok(root, "rebind", "c.md#Contract/Terms", "c.md#Contract/Payment", "--words", "moved")
    assert "rebound c.md#Contract/Terms -> c.md#Contract/Payment" in got.stdout
    (line,) = got.stderr.splitlines()
    assert line.startswith("forest: c.md#Contract/Payment uses [acct] (line 12), [^fee] (line 13)")
    assert re.findall(r"`([^`]+)`", line) == [
        "forest adopt 'c.md#Contract/Notes' --words '…'",
        "forest adopt c.md --words '…'",
    ]
