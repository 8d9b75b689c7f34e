"""Changing a binding's normalisations is a recorded act by a holder (``forest
renormalise``: a format-3 rebind in place): checks read the new list from that act
on, a rebuild from the ledger agrees, text that reads differently needs words, and a
non-holder is refused with the ledger unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.custody.bindings import all_bindings
from forest_files.custody.repository import Repository
from forest_files.ledger import read_ledger
from forest_files.ledger.kinds import RebindAct
from tests.helpers import cli as in_process
from tests.helpers.git import commit_all, make_repo, write

ADA = "Ada Lovelace <ada@example.org>"
MALLORY = "Mallory <mallory@example.org>"
WORDS = "Adopted as the canon stands today"
TARGET = "canon/a.md#Canon"
DOC = "# Canon\n\nElias keeps the _lighthouse_.\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """canon/** held by Ada; one bound heading without normalisations."""
    path = make_repo(tmp_path)
    in_process.ok(path, "init")
    toml = path / "forest.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8") + f'\n[authority]\n"**" = ["{ADA}"]\n', encoding="utf-8"
    )
    write(path, "canon/a.md", DOC)
    in_process.ok(path, "adopt", TARGET, "--words", WORDS, "--as", ADA)
    commit_all(path, "canon")
    return path


def _ledger(repo: Path) -> dict[str, bytes]:
    root = repo / ".forest" / "ledger"
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _rules(repo: Path) -> tuple[str, ...]:
    with Repository(repo) as r:
        [b] = all_bindings(r.synced())
        return b.excludes


def test_renormalise_by_holder_accepted(repo: Path) -> None:
    write(repo, "canon/a.md", DOC.replace("Canon\n", "Canon   \n"))
    assert in_process.kinds(repo) == ["drifted"]
    out = in_process.ok(repo, "renormalise", TARGET, "--normalise", "trailing-whitespace",
                        "--as", ADA)  # fmt: skip
    assert "now reads with: trailing-whitespace@1" in out.stdout
    [act] = [a for a in read_ledger(repo / ".forest/ledger").ordered() if a.kind == "rebind"]
    assert act.version == 3 and isinstance(act.payload, RebindAct)
    assert act.payload.normalise == ("trailing-whitespace@1",) and act.payload.supersede is None
    assert in_process.kinds(repo) == ["clean"]
    assert _rules(repo) == ("normalise:trailing-whitespace@1",)
    with Repository(repo) as r:  # every clone: the index rebuilt from the ledger agrees
        r.rebuild()
    assert _rules(repo) == ("normalise:trailing-whitespace@1",)
    assert in_process.kinds(repo) == ["clean"]


def test_renormalise_text_reads_differently_needs_words_refused(repo: Path) -> None:
    """Under ``emphasis`` the ground text reads otherwise (``_x_`` is ``*x*``): a new
    ground, so words; with them one act supersedes in place."""
    before = _ledger(repo)
    result = in_process.forest(repo, "renormalise", TARGET, "--normalise", "emphasis",
                               "--as", ADA)  # fmt: skip
    assert result.exit_code != 0 and "add --words" in result.stderr
    assert _ledger(repo) == before
    in_process.ok(repo, "renormalise", TARGET, "--normalise", "emphasis", "--as", ADA,
                  "--words", "Emphasis style is free")  # fmt: skip
    [act] = [a for a in read_ledger(repo / ".forest/ledger").ordered() if a.kind == "rebind"]
    assert isinstance(act.payload, RebindAct) and act.payload.supersede is not None
    write(repo, "canon/a.md", DOC.replace("_lighthouse_", "*lighthouse*"))
    assert in_process.kinds(repo) == ["clean"]
    in_process.ok(repo, "renormalise", TARGET, "--none", "--as", ADA,
                  "--words", "Back to exact text")  # fmt: skip
    assert _rules(repo) == ()


def test_renormalise_by_non_holder_refused(repo: Path) -> None:
    before = _ledger(repo)
    result = in_process.forest(repo, "renormalise", TARGET, "--normalise", "trailing-whitespace",
                               "--as", MALLORY)  # fmt: skip
    assert result.exit_code != 0
    assert result.stderr.startswith("forest: ") and "Mallory" in result.stderr
    assert _ledger(repo) == before


def test_renormalise_same_list_or_bad_name_refused(repo: Path) -> None:
    before = _ledger(repo)
    same = in_process.forest(repo, "renormalise", TARGET, "--none", "--as", ADA)
    assert same.exit_code != 0 and "nothing to record" in same.stderr
    bad = in_process.forest(repo, "renormalise", TARGET, "--normalise", "tidy", "--as", ADA)
    assert bad.exit_code != 0 and "known: blank-lines, emphasis" in bad.stderr
    wrong = in_process.forest(repo, "renormalise", TARGET, "--normalise", "py-docstrings",
                              "--as", ADA)  # fmt: skip
    assert wrong.exit_code != 0 and "Python symbols" in wrong.stderr
    assert _ledger(repo) == before
