"""``forest log TARGET`` runs the index proof every door runs before it believes the
index's binding rows and the chain's edges: a binding moved to another place behind the
triggers, a binding pointed at another entry, or the edge row that makes its ground
deleted, was believed (the real place "no binding", the forged one showing the chain;
no ground, or another entry's chain). The index is rebuilt from the ledger, as the
other doors rebuild it, and one ``forest:`` line on stderr says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.custody import BY
from tests.helpers.forgetting import cleaned_and_synced
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.state import behind_the_triggers

KEYS = "doc.md#Ops/Keys"
REBUILT = "rebuilt it from the ledger"
# The ground's adoption record, the one whose words are "amend"
AMEND = "(SELECT id FROM entries WHERE bucket = 'adoption_record' AND body = 'amend')"

FORGERIES = {
    "binding-place": "UPDATE binding_events SET selector = 'doc.md#Ops/Other'",
    "binding-entry": "UPDATE binding_events SET entry_id = 1",
    "ground-edge": f"DELETE FROM edges WHERE kind = 'adopts' AND from_id = {AMEND}",
    # both entries live heads: the chain read "contested" twice, nothing said
    "supersedes-edge": "DELETE FROM edges WHERE kind = 'supersedes'",
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """``doc.md#Ops/Keys`` adopted (words "ok"), then superseded (words "amend")."""
    return cleaned_and_synced(tmp_path)


def _chain(root: Path) -> tuple[str, list[tuple[str, str]], str]:
    """``forest log KEYS --json``: its selector, (status, words) of each ground, stderr."""
    done = forest(root, "log", KEYS, "--json")
    assert done.exit_code == 0, done.stderr
    doc = json.loads(done.stdout)
    return doc["selector"], [(x["status"], x["words"]) for x in doc["chain"]], done.stderr


def test_log_chain_of_an_honest_index_accepted(root: Path) -> None:
    assert _chain(root) == (KEYS, [("superseded", "ok"), ("ground", "amend")], "")


@pytest.mark.parametrize("how", sorted(FORGERIES))
def test_log_chain_forged_index_rebuilt_detected(root: Path, how: str) -> None:
    honest = forest(root, "log", KEYS).stdout
    behind_the_triggers(root, FORGERIES[how])
    selector, links, err = _chain(root)
    assert (selector, links) == (KEYS, [("superseded", "ok"), ("ground", "amend")])
    (line,) = err.splitlines()
    assert line.startswith("forest: the index disagreed with the ledger (binding ")
    assert line.endswith(REBUILT)
    behind_the_triggers(root, FORGERIES[how])
    text = forest(root, "log", KEYS)
    assert text.exit_code == 0 and text.stdout == honest
    assert REBUILT in text.stderr and len(text.stderr.splitlines()) == 1
    assert _chain(root)[2] == ""  # rebuilt: the next log believes it


def test_log_chain_of_a_forged_place_refused(root: Path) -> None:
    """The place a forged binding row names is no binding's (the rebuilt index's)."""
    behind_the_triggers(root, FORGERIES["binding-place"])
    done = forest(root, "log", "doc.md#Ops/Other")
    assert done.exit_code == 1 and "doc.md#Ops/Other: no binding" in done.stderr
    assert REBUILT in done.stderr.splitlines()[0]


DAMAGED = (
    "forest: the index lost or changed the words of 1 act (its record row); "
    "shown from the ledger; `forest fsck` names the damage, `forest rebuild` repairs it"
)
REWORDED = "renamed and reworded"


@pytest.fixture
def reworded(tmp_path: Path) -> Path:
    """``doc.md#T/A`` adopted ("first"), then renamed and reworded: a rebind to ``#T/B``
    whose supersession made its ground (words ``REWORDED``)."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "doc.md", "# T\n\n## A\n\nalpha\n")
    commit_all(repo, "doc")
    ok(repo, "adopt", "doc.md#T/A", "--words", "first")
    write(repo, "doc.md", "# T\n\n## B\n\nbeta\n")
    ok(repo, "rebind", "doc.md#T/A", "doc.md#T/B", "--words", REWORDED)
    return repo


@pytest.mark.parametrize(
    "forgery",
    [
        f"UPDATE entries SET body = 'forged words' WHERE body = '{REWORDED}'",
        f"UPDATE entries SET content_id = '{'0' * 64}' WHERE body = '{REWORDED}'",
    ],
    ids=["words-changed", "content-id-changed"],
)
def test_log_chain_rebind_supersession_words_from_ledger_detected(
    reworded: Path, forgery: str
) -> None:
    """A ground a rebind's supersession made showed its record row's words (forged),
    while the move's line beside it showed the ledger's and said the index was damaged."""
    behind_the_triggers(reworded, forgery)
    done = forest(reworded, "log", "doc.md#T/B", "--json")
    assert done.exit_code == 0 and done.stderr == DAMAGED + "\n"
    doc = json.loads(done.stdout)
    assert [x["words"] for x in doc["chain"]] == ["first", REWORDED]
    assert [m["words"] for m in doc["moves"]] == [REWORDED]
    text = forest(reworded, "log", "doc.md#T/B")
    assert "forged" not in text.stdout and text.stdout.count(f": {REWORDED}") == 2


@pytest.mark.parametrize("how", sorted(FORGERIES))
def test_log_acts_forged_index_rebuilt_detected(root: Path, how: str) -> None:
    """Plain ``forest log`` ran no proof: a binding row moved behind the triggers named
    the supersession's section as the forged place. It proves the index as ``forest log
    TARGET`` does: rebuilt, one line on stderr, every act as the ledger has it."""
    honest = forest(root, "log")
    assert honest.exit_code == 0 and honest.stderr == ""
    behind_the_triggers(root, FORGERIES[how])
    done = forest(root, "log")
    assert done.exit_code == 0 and done.stdout == honest.stdout
    (line,) = done.stderr.splitlines()
    assert line.startswith("forest: the index disagreed with the ledger (binding ")
    assert line.endswith(REBUILT)
    again = forest(root, "log", "--json")
    assert again.stderr == "" and "doc.md#Ops/Other" not in again.stdout


FORGED_BY = "Mallory <mallory@example.org>"


def _signers(root: Path, target: str) -> list[str]:
    done = forest(root, "log", target, "--json")
    assert done.exit_code == 0, done.stderr
    return [x["adopted_by"] for x in json.loads(done.stdout)["chain"]]


def test_log_chain_adopted_by_forged_record_signature_detected(root: Path) -> None:
    """A chain link's signer was its record row's signature (the index's, unproven),
    while ``forest log`` named the act's (the ledger's) beside it."""
    honest = forest(root, "log", KEYS).stdout
    assert _signers(root, KEYS) == [BY, BY] and FORGED_BY not in honest
    behind_the_triggers(
        root, "UPDATE entries SET signature = ? WHERE bucket = 'adoption_record'", FORGED_BY
    )
    assert _signers(root, KEYS) == [BY, BY]
    assert forest(root, "log", KEYS).stdout == honest


def test_log_chain_adopted_by_forged_rebind_supersession_signature_detected(
    reworded: Path,
) -> None:
    """The signer of a ground a rebind's supersession made is the rebind's record's."""
    honest = _signers(reworded, "doc.md#T/B")
    behind_the_triggers(
        reworded, f"UPDATE entries SET signature = ? WHERE body = '{REWORDED}'", FORGED_BY
    )
    assert _signers(reworded, "doc.md#T/B") == honest
    assert FORGED_BY not in forest(reworded, "log", "doc.md#T/B").stdout
