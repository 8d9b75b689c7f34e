"""A file [require] asks for whose name is not UTF-8: the ledger cannot record the
name, so the printed route renames it (``git mv`` to the name its bytes read as
Latin-1), not an adopt that the next door refuses.

Real git, the route read from ``forest check --json`` and ``forest check --staged
--json`` and pasted through ``bash -c``: it renames the file (it needs no words of
the user's), and the next check routes the adopt that leaves it clean.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

from forest_files.check.findings import WORDS_PLACEHOLDER
from forest_files.check.route_names import utf8_name
from tests.helpers.cli import forest
from tests.helpers.git import commit_all, git, make_repo, pasted, write

LEGACY = os.fsdecode(b"caf\xe9.md")  # a Latin-1 name, as git's bytes decode: "caf\udce9.md"
# how every printed command spells it: the byte as $'\ooo' (kernel/shellword.py)
LEGACY_WORD = "caf$'\\351'.md"
DOC = "# Menu\n\nsoup of the day\n"


def _repo(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    (root / LEGACY).write_text(DOC, encoding="utf-8")
    write(root, "ok.md", DOC)
    commit_all(root, "docs")
    assert forest(root, "init").exit_code == 0
    with open(root / "forest.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[require]\n"*.md" = "file"\n')
    assert forest(root, "adopt", "ok.md", "--words", "the menu as agreed").exit_code == 0
    commit_all(root, "custody")
    return root


def _route(root: Path, field: str, *args: str, name: str = LEGACY) -> dict[str, object]:
    """The one route of the unbound finding (or warning: ``field``) of ``name``."""
    result = forest(root, "check", *args, "--json")
    found = [f for f in json.loads(result.stdout)[field] if f["path"] == name]
    assert [f["kind"] for f in found] == ["unbound"], result.stdout
    assert ("not valid UTF-8" in found[0]["detail"]) == (name == LEGACY), found[0]
    routes = found[0]["routes"]
    assert len(routes) == 1, routes
    return routes[0]


def test_utf8_name_reads_each_bad_byte_as_latin1() -> None:
    assert utf8_name(LEGACY) == "café.md"
    assert utf8_name(os.fsdecode(b"a/\xff\xfe.md")) == "a/ÿþ.md"
    assert utf8_name("plain/é.md") == "plain/é.md"  # a UTF-8 name is left as it is


def test_route_renames_then_check_routes_the_adopt(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    route = _route(root, "findings")
    command = str(route["command"])
    assert command == f"git mv -- {LEGACY_WORD} {shlex.quote('café.md')}", command

    done = pasted(root, command)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (root / LEGACY).exists() and (root / "café.md").read_text() == DOC
    adopt = _route(root, "findings", name="café.md")
    command = str(adopt["command"])
    assert command.startswith(f"forest adopt {shlex.quote('café.md')} "), command
    done = pasted(root, command.replace(WORDS_PLACEHOLDER, "the legacy menu, renamed"))
    assert done.returncode == 0, done.stdout + done.stderr
    after = forest(root, "check")
    assert after.exit_code == 0, after.stdout + after.stderr


def test_hook_door_warns_with_the_rename(tmp_path: Path) -> None:
    """The staged door (the hook's) warns about required files; the warning carries
    the same rename route, which stages the renamed file."""
    root = _repo(tmp_path)
    with open(root / LEGACY, "a", encoding="utf-8") as fh:
        fh.write("\nand bread\n")
    git(root, "add", "-A")
    route = _route(root, "warnings", "--staged")
    command = str(route["command"])
    assert command.startswith("git mv -- "), command
    done = pasted(root, command)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "café.md" in git(root, "diff", "--cached", "--name-only", "-z")


def test_rule_that_does_not_hold_reports_nothing(tmp_path: Path) -> None:
    """A [require] rule whose ``when`` the file does not meet asks nothing of it,
    whatever its name."""
    root = _repo(tmp_path)
    text = (root / "forest.toml").read_text(encoding="utf-8")
    text = text.replace('"*.md" = "file"', '"*.md" = { bind = "file", when = { status = "x" } }')
    (root / "forest.toml").write_text(text, encoding="utf-8")
    result = forest(root, "check", "--json")
    paths = [f["path"] for f in json.loads(result.stdout)["findings"]]
    assert LEGACY not in paths, result.stdout


def test_untracked_route_renames_then_check_routes_the_adopt(tmp_path: Path) -> None:
    """A new file [require] names, not yet known to git (the watcher's usual case: a
    file just saved): the rename is a plain ``mv`` (``git mv`` refuses an untracked
    file: "not under version control"), printed and pasted at the top and in a
    subdirectory."""
    root = _repo(tmp_path)
    (root / "d").mkdir()
    for name, where in ((os.fsdecode(b"new\xe9.md"), root), (os.fsdecode(b"n\xe9.md"), root / "d")):
        (root / name).write_text(DOC, encoding="utf-8")
        result = pasted(where, "forest check --json")
        (found,) = [f for f in json.loads(result.stdout)["findings"] if f["path"] == name]
        (route,) = found["routes"]
        command = str(route["command"])
        assert command.startswith("mv -- "), command
        done = pasted(where, command)
        assert done.returncode == 0, done.stdout + done.stderr
        assert not (root / name).exists() and (root / utf8_name(name)).read_text() == DOC
