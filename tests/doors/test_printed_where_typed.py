"""The remaining doors' printed commands, pasted where the command was typed: ``forest
adr``'s glob route, ``forest audit``'s next page, ``forest fsck``'s rebuild, a lost
forest.toml's checkout, a rebind proposal's route and an unknown proposal's listing,
the shallow clone's ``git fetch --unshallow``, the signing advice, and the rename of
a required file whose name holds a control character. Each from a subfolder of the
repository and from beside it (``forest -C ../repo …``), through kernel/shellword.py."""

from __future__ import annotations

import re
import subprocess
import threading
from pathlib import Path

import pytest

from tests.helpers.cli import console
from tests.helpers.custody import age_files, feature_upstream, init_and_adopt
from tests.helpers.git import AUTHOR_EMAIL, commit_all, git, make_repo, pasted, write

# The slow lane (.ci/run runs it; the README's fast command leaves it out):
# every command pasted in a subfolder and beside the repository: dozens of processes.
pytestmark = pytest.mark.slow

forest = console  # typed in a directory, through entry.main


def _repo(tmp_path: Path) -> Path:
    """a.md adopted whole, docs/adr/0001-a.md an ADR adopted, a subfolder sub/, and a
    directory beside the repository."""
    root = make_repo(tmp_path)
    write(root, "a.md", "# Canon\n\n## Elias\n\nElias keeps the lantern at the gate.\n")
    write(root, "docs/adr/0001-a.md", "---\nstatus: accepted\n---\n# A\n")
    write(root, "sub/keep.md", "kept\n")
    init_and_adopt(root, ["a.md", "docs/adr/0001-a.md"])
    commit_all(root, "adopt")
    (tmp_path / "beside").mkdir()
    return root


def _places(root: Path) -> list[tuple[Path, tuple[str, ...]]]:
    """Where the user types, and the ``-C`` that reaches the repository from there."""
    return [(root / "sub", ()), (root.parent / "beside", ("-C", f"../{root.name}"))]


def _paste(where: Path, command: str) -> subprocess.CompletedProcess[str]:
    done = pasted(where, command)
    assert done.returncode == 0, (where, command, done.stdout, done.stderr)
    return done


def _backquoted(text: str, after: str) -> str:
    found = re.search(re.escape(after) + r"`([^`]+)`", text)
    assert found, text
    return found.group(1)


def test_adr_no_rule_route_pasted_where_typed_accepted(tmp_path: Path) -> None:
    """Before, ``forest -C ../repo adr log`` routed to ``forest adr log 'docs/adr/*.md'``:
    pasted beside the repository, not a git repository."""
    root = _repo(tmp_path)
    for where, here in _places(root):
        refused = forest(where, *here, "adr", "log")
        assert refused.returncode == 1, refused.stderr
        route = refused.stderr.strip().split("give their glob: ", 1)[1]
        assert route == " ".join(("forest", *here, "adr", "log", "'docs/adr/*.md'"))
        assert "adopted" in _paste(where, route).stdout


def test_audit_older_page_pasted_where_typed_same_size_accepted(tmp_path: Path) -> None:
    """Before, ``forest -C ../repo audit --limit 1`` named ``forest audit --before N``:
    beside the repository it found none, and in it the page was 50 records, not 1."""
    root = _repo(tmp_path)
    assert forest(root, "sync").returncode == 0  # a second record at least
    for where, here in _places(root):
        first = forest(where, *here, "audit", "--limit", "1")
        assert first.returncode == 0, first.stderr
        (record, older) = first.stdout.splitlines()
        seq = int(record.split()[0])
        assert older == " ".join(
            ("older: forest", *here, "audit", "--limit", "1", "--before", str(seq))
        )
        page = _paste(where, older.removeprefix("older: ")).stdout.splitlines()
        assert int(page[0].split()[0]) < seq and len(page) == 2  # one record, then older:


def test_fsck_rebuild_route_pasted_where_typed_recovers(tmp_path: Path) -> None:
    """Before, ``forest -C ../repo fsck`` said ``forest rebuild`` repairs the index."""
    from tests.helpers.state import local_state

    root = _repo(tmp_path)
    for where, here in _places(root):
        (local_state(root) / "woods.db").unlink()  # the index gone: a fault
        faults = forest(where, *here, "fsck")
        assert faults.returncode == 3, faults.stderr
        assert f"no index; run `{' '.join(('forest', *here, 'sync'))}`" in faults.stdout
        rebuild = _backquoted(faults.stderr, "fault(s); ")
        assert rebuild == " ".join(("forest", *here, "rebuild"))
        _paste(where, rebuild)
        assert forest(where, *here, "fsck").returncode == 0


def test_lost_config_checkout_pasted_where_typed_recovers(tmp_path: Path) -> None:
    """Before, ``forest check`` in sub/ named ``git checkout HEAD -- forest.toml``:
    pasted there, git looked for sub/forest.toml. ``forest -C ../repo init`` named
    the checkout and ``forest init --project-id ID`` for beside the repository."""
    root = _repo(tmp_path)
    for where, here in _places(root):
        (root / "forest.toml").unlink()
        refused = forest(where, *here, "check")
        assert refused.returncode == 2, refused.stderr
        checkout = _backquoted(refused.stderr, "put it back with ")
        _paste(where, checkout)
        assert forest(where, *here, "check").returncode == 0
    (root / "forest.toml").unlink()
    where, here = _places(root)[1]
    refused = forest(where, *here, "init")
    assert "`forest -C ../repo init --project-id p`" in refused.stderr, refused.stderr
    _paste(where, _backquoted(refused.stderr, "put it back with "))
    assert git(root, "status", "--porcelain") == ""


def test_proposal_routes_pasted_where_typed_accepted(tmp_path: Path) -> None:
    """Before, ``forest -C ../repo proposal show ID`` of a rebind proposal printed
    ``stands for: forest rebind …`` and an unknown id's refusal ``forest proposals``:
    beside the repository neither found it."""
    from forest_files.doors.watch import judge
    from forest_files.doors.watch.renames import propose_rebind

    root = make_repo(tmp_path)
    text = "# Canon\n\n## Elias\n\nElias keeps the lantern at the north gate of the city.\n"
    write(root, "a.md", text)
    init_and_adopt(root, ["a.md#Elias"])
    commit_all(root, "adopt")
    age_files(root)
    (tmp_path / "beside").mkdir()
    where, here = _places(root)[1]
    unknown = forest(where, *here, "proposal", "show", "feedface")
    assert unknown.returncode == 1, unknown.stderr
    assert "0 open proposal(s)" in _paste(where, _backquoted(unknown.stderr, "; ")).stdout
    (root / "a.md").write_text(text.replace("## Elias", "## Elias the Keeper"))
    (item,) = judge.check(root, ("a.md",), threading.Event())
    done = propose_rebind(root, item, (), frozenset())
    assert done is not None
    shown = forest(where, *here, "proposal", "show", done[0])
    (route,) = [line for line in shown.stdout.splitlines() if "stands for: " in line]
    route = route.split("stands for: ", 1)[1]
    assert route.startswith("forest -C ../repo rebind 'a.md#Canon/Elias' ")
    _paste(where, route.replace("'…'", "'Elias earned his title'"))
    assert forest(root, "check").returncode == 0  # the binding follows the heading


def test_shallow_clone_fetch_pasted_where_typed_recovers(tmp_path: Path) -> None:
    """Before, ``forest -C ../clone ci --base origin/main`` in a shallow clone said
    ``git fetch --unshallow``: pasted beside the clone, not a git repository."""
    up = feature_upstream(tmp_path)
    for n, (sub, how) in enumerate((("docs", ()), ("", ("-C", "../clone1")))):
        clone = tmp_path / f"clone{n}"
        git(tmp_path, "clone", "-q", "--depth", "1", "--no-single-branch", "--branch", "feat",
            f"file://{up}", str(clone))  # fmt: skip
        where = clone / sub if sub else tmp_path / "beside"
        where.mkdir(exist_ok=True)
        refused = forest(where, *how, "ci", "--base", "origin/main")
        assert refused.returncode == 1 and "merge-base" in refused.stderr, refused.stderr
        fetch = _backquoted(refused.stderr, "elsewhere: ")
        assert fetch == (
            "git -C .. fetch --unshallow" if sub else "git -C ../clone1 fetch --unshallow"
        )
        _paste(where, fetch)
        ran = forest(where, *how, "ci", "--base", "origin/main")
        assert ran.returncode == 0, ran.stdout + ran.stderr


def test_signing_advice_pasted_where_typed_accepted(tmp_path: Path) -> None:
    """Before, an act recorded with ``forest -C ../repo`` under ``signed = "required"``
    advised ``git config commit.gpgsign true``: pasted beside the repository, no
    repository took it."""
    root = _repo(tmp_path)
    key = tmp_path / "key"
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "t", "-f", str(key)], check=True
    )
    config = (root / "forest.toml").read_text()
    config = config.replace("[policy]\n", '[policy]\nallowed_signers = ".forest/signers"\n')
    write(root, "forest.toml", config.replace("[policy]\n", '[policy]\nsigned = "required"\n'))
    blob = " ".join(key.with_suffix(".pub").read_text().split()[:2])
    write(root, ".forest/signers", f'{AUTHOR_EMAIL} namespaces="git" {blob}\n')
    git(root, "config", "gpg.format", "ssh")
    git(root, "config", "user.signingkey", str(key))
    write(root, "b.md", "# B\n\nbee\n")
    where, here = _places(root)[1]
    done = forest(where, *here, "adopt", "b.md", "--words", "the bee")
    assert done.returncode == 0, done.stderr
    advice = _backquoted(done.stderr, "must be signed: `git -C ../repo commit -S`, or ")
    assert advice == "git -C ../repo config commit.gpgsign true"
    _paste(where, advice)
    assert git(root, "config", "commit.gpgsign") == "true"


@pytest.mark.parametrize("place", [0, 1], ids=["subfolder", "beside"])
@pytest.mark.parametrize("tracked", [False, True], ids=["untracked-mv", "tracked-git-mv"])
def test_control_character_required_name_rename_pasted_where_typed_accepted(
    tmp_path: Path, tracked: bool, place: int
) -> None:
    """Before, a file ``[require]`` asks for, named with an escape sequence, was routed
    to "rename it first: with git mv" and no command. Now the rename is printed, the
    name quoted as ``$'\\033'`` (no control character printed), and pasted where
    ``forest check`` was typed it renames the file; the check then routes its adopt."""
    root = _repo(tmp_path)
    config = root / "forest.toml"
    config.write_text(config.read_text() + '\n[require]\n"notes/*.md" = { bind = "file" }\n')
    write(root, "notes/b\x1b[31m.md", "# B\n\nbee\n")
    git(root, "add", "forest.toml", *(["notes"] if tracked else []))
    git(root, "commit", "-q", "-m", "a required file")
    where, here = _places(root)[place]
    checked = forest(where, *here, "check")
    assert checked.returncode == 1 and "\x1b" not in checked.stdout, checked.stdout
    (line,) = [s for s in checked.stdout.splitlines() if "rename it first: " in s]
    rename, note = line.split("rename it first: ", 1)[1].split("  (", 1)
    assert "$'\\033'" in rename and rename.startswith("git -C " if tracked else "mv -- ")
    _paste(where, rename)
    assert [p.name for p in (root / "notes").iterdir()] == ["b_[31m.md"]
    check = _backquoted(note, "then ")
    assert check == " ".join(("forest", *here, "check"))
    assert "adopt it: " in pasted(where, check).stdout


def test_refusal_named_commands_pasted_where_typed_accepted(tmp_path: Path) -> None:
    """Refusals naming a command in backquotes: ``forest review`` off a terminal
    (``forest proposals``), ``forest check`` of a path no binding holds (``forest
    status``), ``supersede --staged`` without ``--expect`` (``forest check
    --staged``), beside the repository; forest.toml a dangling link, in sub/ (``git
    checkout -- forest.toml``, which looked for sub/forest.toml)."""
    root = _repo(tmp_path)
    where, here = _places(root)[1]
    for argv, after in (
        (("review",), "; use `forest -C ../repo check --show-diff`, "),
        (("check", "nope.md"), "required target; "),
        (("supersede", "--staged", "--words", "x"), "paste the route "),
    ):
        refused = forest(where, *here, *argv)
        assert refused.returncode in (1, 2), refused.stderr
        named = _backquoted(refused.stderr, after)
        assert named.startswith("forest -C ../repo "), named
        _paste(where, named)
    sub = root / "sub"
    saved = (root / "forest.toml").read_bytes()
    (root / "forest.toml").unlink()
    (root / "forest.toml").symlink_to("nowhere.toml")
    refused = forest(sub, "check")
    assert refused.returncode == 2, refused.stderr
    _paste(sub, _backquoted(refused.stderr, "restore it with "))
    assert (root / "forest.toml").read_bytes() == saved
