"""``forest log TARGET`` shows every field of a chain as the ledger declares it: a
link's time was read from its index row, unproven (the index proof sees grounds, not
the entries they superseded, nor any row's time): a time rewritten behind the
triggers showed the forged time (and could reorder the chain). The time is the
act's, the chain in the order the acts claim."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.cli import forest
from tests.helpers.forgetting import cleaned_and_synced
from tests.helpers.state import behind_the_triggers

KEYS = "doc.md#Ops/Keys"
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
