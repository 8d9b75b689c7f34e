"""A user's exported pathspec variables change no door's verdict.

``GIT_GLOB_PATHSPECS``, ``GIT_ICASE_PATHSPECS``, ``GIT_NOGLOB_PATHSPECS`` and
``GIT_LITERAL_PATHSPECS=0`` say how git reads the pathspecs a user types. Every path
forest hands git is a literal name (``--literal-pathspecs`` on every call), so forest's
own git calls drop them. The doors of tests/gitio/user_config_repo.py (the hook
through a real ``git commit``, git's own run, with the variable exported too), plus
``forest check`` limited to paths a glob or a case-blind reading would widen: each
gives the same output as without the variable.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.gitio.user_config_repo import Run, built, doors
from tests.helpers.cli import forest
from tests.helpers.template import isolated, reused

# forest check limited to a folder, to a glob and to a case-blind spelling of it.
LIMITED = (("check", "docs"), ("check", "docs/*.md"), ("check", "DOCS"))

CASES = {
    "GIT_GLOB_PATHSPECS": "1",
    "GIT_ICASE_PATHSPECS": "1",
    "GIT_NOGLOB_PATHSPECS": "1",
    "GIT_LITERAL_PATHSPECS": "0",
}


def every_door(root: Path, env: dict[str, str]) -> Run:
    """``doors`` and then each of ``LIMITED``, as (door, exit code, stdout, stderr)."""
    out = doors(root, env)
    for args in LIMITED:
        done = forest(root, *args)
        out.append((" ".join(args), done.exit_code, done.stdout, done.stderr))
    return out


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Run:
    with isolated():
        root = reused(("user_config",), tmp_path_factory.mktemp("clean") / "repo", built)
        return every_door(root, {})


@pytest.mark.parametrize(("name", "value"), list(CASES.items()), ids=list(CASES))
def test_user_exported_pathspec_variable_same_outputs_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean: Run, name: str, value: str
) -> None:
    """Before: ``GIT_GLOB_PATHSPECS=1`` or ``GIT_ICASE_PATHSPECS=1`` made git refuse
    every call ("global 'literal' pathspec setting is incompatible with all other
    global pathspec settings"): every door failed, ``ci`` saying the base "does not
    name a tree", the hook refusing every commit."""
    root = reused(("user_config",), tmp_path / "repo", built)
    monkeypatch.setenv(name, value)
    got = every_door(root, {name: value})
    assert [door for door, *_ in got] == [door for door, *_ in clean]
    assert [row for row, want in zip(got, clean, strict=True) if row != want] == []
