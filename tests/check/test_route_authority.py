"""A route that records an act is offered as a command only to one who may record it.

``[authority]`` in forest.toml names the holders of a path; a non-holder pasting
``forest supersede`` is refused (custody/recording.py). The doors a user runs here
turn such a route into a note naming the holders and the command one of them runs;
the restore stays a command. The holder is offered the command, and it works pasted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import forest
from tests.helpers.custody import BY, init_and_adopt
from tests.helpers.git import commit_all, git, make_repo, pasted, write

DOC = "# Canon\n\n## Rules\n\nfirst rule stands\n\n## Law\n\nwater is wet\n"
BOB = ("Bob", "bob@example.org")
RECORDING = {"supersede", "rebind", "retire", "resolve", "adopt"}


def _governed(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "docs/a.md", DOC)
    init_and_adopt(root, ["docs/a.md#Canon/Rules", "docs/a.md#Canon/Law"])
    with (root / "forest.toml").open("a", encoding="utf-8") as fh:
        fh.write(f'\n[authority]\n"docs/**" = [{json.dumps(BY)}]\n')
    commit_all(root, "adopt, docs governed")
    write(root, "docs/a.md", DOC.replace("first rule", "a new rule").replace("wet", "dry"))
    return root


def _as(monkeypatch: pytest.MonkeyPatch, name: str, email: str) -> None:
    monkeypatch.setenv("GIT_AUTHOR_NAME", name)
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", email)


def _routes(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for f in doc["findings"] for r in f["routes"]]


def _records(route: dict[str, Any]) -> bool:
    return any(s[:1] == ["forest"] and s[1] in RECORDING for s in route["argv"])


def _shell(root: Path, command: str, who: tuple[str, str]) -> int:
    """``command`` pasted into bash as ``who`` (tests/helpers/git.py ``pasted``)."""
    return pasted(
        root, command, env={"GIT_AUTHOR_NAME": who[0], "GIT_AUTHOR_EMAIL": who[1]}
    ).returncode


def test_non_holder_gets_the_holders_and_their_command_not_one_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _governed(tmp_path)
    _as(monkeypatch, *BOB)
    result = forest(root, "check", "--json")
    assert result.exit_code == 1, result.stderr
    routes = _routes(json.loads(result.stdout))
    assert not [r for r in routes if _records(r)], routes  # nothing Bob would be refused
    asks = [r for r in routes if r["label"].startswith("ask a holder (")]
    assert len(asks) == 2 and all(BY in r["label"] and r["command"] is None for r in asks)
    assert all("Bob <bob@example.org> holds no authority over docs/a.md" in r["note"] for r in asks)
    assert any(r["command"] and r["command"].startswith("forest restore ") for r in routes)
    # The command the note names is the holder's: pasted by the holder, it records.
    command = asks[0]["note"].split("the holder runs `", 1)[1].split("`", 1)[0]
    name, email = BY.removesuffix(">").split(" <")
    assert _shell(root, command.replace("…", "the rule was amended"), BOB) != 0
    assert _shell(root, command.replace("…", "the rule was amended"), (name, email)) == 0
    text = forest(root, "check").stdout
    assert "forest supersede 'docs/a.md#Canon/Rules'" not in text.split("ask a holder")[0]


def test_holder_keeps_the_command_and_the_commit_route(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _governed(tmp_path)
    name, email = BY.removesuffix(">").split(" <")
    _as(monkeypatch, name, email)
    doc = json.loads(forest(root, "check", "--json").stdout)
    assert sum(_records(r) for r in _routes(doc)) == 2
    git(root, "add", "-A")
    staged = json.loads(forest(root, "check", "--staged", "--json").stdout)
    assert staged["commit_route"] is not None and "--expect" in staged["commit_route"]["command"]
    _as(monkeypatch, *BOB)
    staged = json.loads(forest(root, "check", "--staged", "--json").stdout)
    assert staged["commit_route"] is None  # its --expect pins Bob's index: no holder's route
    assert not [r for r in _routes(staged) if _records(r)]


def test_ci_routes_are_for_whoever_reads_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _governed(tmp_path)
    base = git(root, "rev-parse", "HEAD")
    commit_all(root, "drift, no hook")
    _as(monkeypatch, *BOB)
    result = forest(root, "ci", "--base", base, "--format", "json")
    assert result.exit_code == 1, result.stderr
    doc = json.loads(result.stdout)
    assert any(_records(r) for r in _routes(doc)), doc
