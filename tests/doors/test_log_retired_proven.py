"""``forest log`` proves a retired binding's rows before it names them: the index proof
every door runs goes over live bindings only (a check reads no retired one), so a
retired binding's row moved to another place, pointed at another binding's entry, or a
retired binding no adopt act made, was believed (``forest log`` of the real place "no
binding", of the forged one the chain; another binding's chain under its name; the
retire act named at the forged place). The log door asks the retired bindings too
(custody/indexproof.py ``retired_faults``): the index is rebuilt from the ledger, one
``forest:`` line on stderr says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, write
from tests.helpers.state import behind_the_triggers
from tests.helpers.template import copied_from

A, B, Z = "doc.md#T/A", "doc.md#T/B", "doc.md#T/Z"
REBUILT = "rebuilt it from the ledger"
OF_A = f"bind_act = (SELECT bind_act FROM binding_events WHERE selector = '{A}')"
OF_B = f"(SELECT entry_id FROM binding_events WHERE selector = '{B}')"
FORGED = "f" * 64

FORGERIES = {
    "retired-place": f"UPDATE binding_events SET selector = '{Z}' WHERE {OF_A}",
    "retired-path": (
        f"UPDATE binding_events SET path = 'other.md', selector = 'other.md#T/A' WHERE {OF_A}"
    ),
    "retired-entry": f"UPDATE binding_events SET entry_id = {OF_B} WHERE {OF_A}",
    "retired-rules": (
        f"UPDATE binding_events SET excludes_json = '[\"x\"]' WHERE kind = 'bind' AND {OF_A}"
    ),
    # a retired binding of a place no act bound, made of B's entry
    "retired-unmade": (
        "INSERT INTO binding_events (act_id, bind_act, kind, path, selector, excludes_json, "
        "normalisation, hash_algo, section_hash, entry_id, by_sig, at) "
        f"SELECT '{FORGED}', '{FORGED}', kind, path, '{Z}', excludes_json, normalisation, "
        f"hash_algo, section_hash, entry_id, by_sig, at FROM binding_events WHERE {OF_A}"
    ),
}


def _retired(tmp_path: Path) -> Path:
    """``doc.md#T/A`` adopted ("first A") then retired ("gone"); ``#T/B`` adopted."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    write(repo, "doc.md", "# T\n\n## A\n\nalpha\n\n## B\n\nbeta\n")
    commit_all(repo, "doc")
    ok(repo, "adopt", A, "--words", "first A")
    ok(repo, "adopt", B, "--words", "first B")
    ok(repo, "retire", A, "--words", "gone")
    return repo


retired = copied_from(_retired)  # each test its own copy of one build per worker


def _rebuilt_once(stderr: str) -> None:
    (line,) = stderr.splitlines()
    assert line.startswith("forest: the index disagreed with the ledger (binding ")
    assert line.endswith(REBUILT)


def test_log_retired_chain_of_an_honest_index_accepted(retired: Path) -> None:
    done = forest(retired, "log", A, "--json")
    assert done.exit_code == 0 and done.stderr == ""
    doc = json.loads(done.stdout)
    assert (doc["selector"], doc["retired"]) == (A, True)
    assert [x["words"] for x in doc["chain"]] == ["first A"]


@pytest.mark.parametrize("how", sorted(FORGERIES))
def test_log_retired_chain_forged_index_rebuilt_detected(retired: Path, how: str) -> None:
    honest = forest(retired, "log", A)
    assert honest.exit_code == 0 and honest.stderr == ""
    behind_the_triggers(retired, FORGERIES[how])
    done = forest(retired, "log", A)
    assert done.exit_code == 0 and done.stdout == honest.stdout
    _rebuilt_once(done.stderr)
    again = forest(retired, "log", A, "--json")
    assert again.stderr == "" and json.loads(again.stdout)["chain"][0]["words"] == "first A"


@pytest.mark.parametrize("how", ["retired-place", "retired-unmade"])
def test_log_retired_chain_of_a_forged_place_refused(retired: Path, how: str) -> None:
    """The place a forged retired row names is no binding's (the rebuilt index's)."""
    behind_the_triggers(retired, FORGERIES[how])
    done = forest(retired, "log", Z)
    assert done.exit_code == 1 and f"{Z}: no binding" in done.stderr
    assert REBUILT in done.stderr.splitlines()[0]


@pytest.mark.parametrize("how", sorted(FORGERIES))
def test_log_acts_forged_retired_row_rebuilt_detected(retired: Path, how: str) -> None:
    """Plain ``forest log`` named the retire act at the place the forged row said."""
    honest = forest(retired, "log")
    assert honest.exit_code == 0 and honest.stderr == ""
    behind_the_triggers(retired, FORGERIES[how])
    done = forest(retired, "log")
    assert done.exit_code == 0 and done.stdout == honest.stdout
    _rebuilt_once(done.stderr)


def test_fsck_forged_retired_row_detected(retired: Path) -> None:
    """``forest fsck`` names what the log door rebuilds on (custody/indexproof.py
    ``index_faults``), and repairs nothing."""
    assert forest(retired, "fsck").exit_code == 0
    behind_the_triggers(retired, FORGERIES["retired-place"])
    done = forest(retired, "fsck")
    assert done.exit_code != 0 and "a place no act named" in done.stdout + done.stderr
    assert forest(retired, "fsck").exit_code == done.exit_code


def test_log_live_chain_pointed_at_another_entry_rebuilt_detected(retired: Path) -> None:
    """The live ``#T/B`` row pointed at the retired ``#T/A``'s entry (a ground still
    live, declared, never superseded) showed A's chain under B's name: the ground is
    not of the chain B's adopt act began (the proof every door runs)."""
    honest = forest(retired, "log", B)
    of_a = f"(SELECT entry_id FROM binding_events WHERE {OF_A})"
    behind_the_triggers(
        retired, f"UPDATE binding_events SET entry_id = {of_a} WHERE selector = '{B}'"
    )
    done = forest(retired, "log", B)
    assert done.exit_code == 0 and done.stdout == honest.stdout and "first B" in done.stdout
    _rebuilt_once(done.stderr)
    assert "not of the chain its adopt act began" in done.stderr
