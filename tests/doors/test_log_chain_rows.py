"""``forest log TARGET`` shows every field of a chain as the ledger declares it: a
link's time, status, content id and body hash were read from its index rows, unproven (the
index proof sees grounds, not the entries they superseded, nor any row's time). A
time rewritten behind the triggers showed the forged time (and could reorder the
chain); an older link's content id or body hash changed, or a middle link cut out
of the chain, showed the forgery, and a forged ``seals`` edge showed a superseded
entry ``sealed`` (``forest fsck`` named a changed content id, the
log did not). The time is the act's, the chain in the order the acts claim; the
chain's entries, body hashes and statuses are proven against the ledger's declarations
(custody/indexproof.py ``chain_faults``), the index rebuilt from the ledger on a
disagreement, one ``forest:`` line on stderr."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.forgetting import cleaned_and_synced
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.state import behind_the_triggers

KEYS = "doc.md#Ops/Keys"
REBUILT = "rebuilt it from the ledger"
# The older link: the adopted entry the supersession superseded (its chain's root)
OLD = "bucket = 'import' AND chain_root IS NULL AND id > 1"
NEW = "bucket = 'import' AND chain_root IS NOT NULL"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """``doc.md#Ops/Keys`` adopted (words "ok"), then superseded (words "amend")."""
    return cleaned_and_synced(tmp_path)


def _log(root: Path) -> tuple[list[dict[str, str]], str, str]:
    """(each link of ``forest log KEYS --json``, the text log's stdout, stderr of both)."""
    done = forest(root, "log", KEYS, "--json")
    assert done.exit_code == 0, done.stderr
    text = forest(root, "log", KEYS)
    assert text.exit_code == 0, text.stderr
    return json.loads(done.stdout)["chain"], text.stdout, done.stderr + text.stderr


@pytest.mark.parametrize(
    "forgery",
    [
        f"UPDATE entries SET created_at = '1999-01-01T00:00:00.000Z' WHERE {OLD}",
        f"UPDATE entries SET created_at = '1999-01-01T00:00:00.000Z' WHERE {NEW}",
    ],
    ids=["older-link", "ground-before-older"],
)
def test_log_chain_created_at_forged_row_from_ledger_detected(root: Path, forgery: str) -> None:
    """A link's time is its act's, in the order the acts claim: nothing to rebuild."""
    honest = _log(root)
    assert honest[2] == ""
    behind_the_triggers(root, forgery)
    assert _log(root) == honest


FORGERIES = {
    # a superseded entry shown "sealed"
    "seals-edge": (
        f"INSERT INTO edges (from_id, to_id, kind) SELECT 1, id, 'seals' FROM entries WHERE {OLD}"
    ),
    "content-id": f"UPDATE entries SET content_id = '{'0' * 64}' WHERE {OLD}",
    "body-hash": f"UPDATE entries SET body_hash = '{'0' * 64}' WHERE {OLD}",
    # the older link cut out of the chain (the ground proof sees this one: its chain live)
    "chain-root": f"UPDATE entries SET chain_root = NULL WHERE {NEW}",
}


@pytest.mark.parametrize("how", sorted(FORGERIES))
def test_log_chain_older_link_forged_row_rebuilt_detected(root: Path, how: str) -> None:
    honest = _log(root)
    behind_the_triggers(root, FORGERIES[how])
    links, text, err = _log(root)
    assert (links, text) == honest[:2]
    (line, *_rest) = err.splitlines()
    assert line.startswith("forest: the index disagreed with the ledger (binding ")
    assert line.endswith(REBUILT) and len(err.splitlines()) == 1  # the second log: none
    assert _log(root) == honest  # rebuilt: the next log believes it


def test_log_chain_middle_link_cut_out_rebuilt_detected(tmp_path: Path) -> None:
    """A chain of three (adopted, superseded twice): the middle entry's ``chain_root``
    cleared behind the triggers left it out of the chain, the ground's proof unmoved."""
    repo = superseded_twice(tmp_path)
    honest = forest(repo, "log", "doc.md#T/A")
    assert honest.stderr == "" and honest.stdout.count("superseded") == 2
    middle = "SELECT chain_root FROM entries WHERE chain_root IS NOT NULL ORDER BY id LIMIT 1"
    behind_the_triggers(
        repo,
        "UPDATE entries SET chain_root = NULL WHERE bucket = 'import' AND chain_root IS NOT NULL"
        f" AND id = (SELECT MIN(id) FROM entries WHERE chain_root = ({middle}))",
    )
    done = forest(repo, "log", "doc.md#T/A")
    assert done.stdout == honest.stdout
    assert done.stderr.endswith(REBUILT + "\n") and "its chain is not the one" in done.stderr


def _three_links(tmp_path: Path) -> Path:
    """``doc.md#T/A`` adopted ("one") and superseded twice ("two", "three"), and
    ``doc.md#T/B`` adopted ("bee")."""
    repo = superseded_twice(tmp_path, "\n## B\n\nbee\n")
    ok(repo, "adopt", "doc.md#T/B", "--words", "bee")
    return repo


# The middle link of A's chain (the first supersession's entry), and B's adopted entry
_MIDDLE = (
    "id = (SELECT MIN(id) FROM entries WHERE bucket = 'import' AND chain_root = "
    "(SELECT MIN(chain_root) FROM entries WHERE chain_root IS NOT NULL))"
)
_B = "(SELECT MAX(id) FROM entries WHERE bucket = 'import')"


@pytest.mark.parametrize(
    "forgery",
    [
        f"UPDATE entries SET chain_root = NULL WHERE {_MIDDLE}",
        f"UPDATE entries SET chain_root = {_B} WHERE {_MIDDLE}",
    ],
    ids=["cleared", "another-binding"],
)
def test_log_acts_chain_root_forged_section_from_ledger_detected(
    tmp_path: Path, forgery: str
) -> None:
    """Plain ``forest log`` named each supersession's section from the index's
    ``chain_root`` rows, unproven: a middle entry's cleared showed its supersession
    about no section, pointed at another binding's entry showed that binding's. The
    section is the binding whose chain the ledger's acts put the entry in."""
    repo = _three_links(tmp_path)
    honest = forest(repo, "log")
    assert honest.exit_code == 0 and honest.stderr == ""
    assert [ln.split()[2] for ln in honest.stdout.splitlines()[1:3]] == ["doc.md#T/A"] * 2
    behind_the_triggers(repo, forgery)
    done = forest(repo, "log")
    assert done.exit_code == 0, done.stderr
    assert done.stdout == honest.stdout


def superseded_twice(tmp_path: Path, after: str = "") -> Path:
    """``doc.md#T/A`` adopted ("one") and superseded twice ("two", "three"), each
    committed; ``after``: the file's text after A's."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    for n, text in enumerate(("one", "two", "three")):
        write(repo, "doc.md", f"# T\n\n## A\n\n{text}\n{after}")
        commit_all(repo, text)
        ok(repo, "adopt" if n == 0 else "supersede", "doc.md#T/A", "--words", text)
    return repo
