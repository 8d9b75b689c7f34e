"""``forest seal`` / ``forest unseal``: reachable ceremonies, gated like supersede.

A sealed ground's text leaves every read (show, check's diff, the MCP door) and
its binding reports ``unresolved`` with the unseal route; unseal makes it ground
again; a non-holder is refused with nothing written; seal is the prerequisite
``forest forget`` names, so a sealed ground can then be forgotten.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from forest_files.custody.repository import Repository
from forest_files.doors.cli import app
from tests.helpers.cli import forest, ok, runner
from tests.helpers.git import commit_all, make_repo, pasted, write
from tests.helpers.template import copied_from

ADA = "Ada Lovelace <ada@example.org>"
MALLORY = "Mallory <mallory@example.org>"
PROJECT = "p-seal"
TEXT = "The vault code is kept in the ops binder."
TARGET = "docs/ops.md#Keys"


def _build(where: Path) -> Path:
    root = make_repo(where)
    Repository.init(root, project_id=PROJECT).close()
    write(root, "forest.toml", f'[project]\nid = "{PROJECT}"\n\n[authority]\n"**" = ["{ADA}"]\n')
    write(root, "docs/ops.md", f"# Ops\n\n## Keys\n\n{TEXT}\n")
    ok(root, "adopt", TARGET, "--words", "the ops notes as agreed", "--as", ADA)
    commit_all(root, "ops under custody")
    return root


repo = copied_from(_build)


def _ground(repo: Path) -> str:
    with Repository(repo) as r:
        [ground] = r.ground()
        return ground.content_id


def _ledger_files(repo: Path) -> list[str]:
    return sorted(str(p) for p in (repo / ".forest" / "ledger").rglob("*"))


def test_seal_target_text_withheld_unseal_restores_accepted(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cid = _ground(repo)
    sealed = ok(repo, "seal", TARGET, "--words", "withheld while we check it", "--as", ADA)
    assert f"sealed {cid[:12]}" in sealed.stdout and TEXT not in sealed.stdout
    assert f"forest forget {cid}" in sealed.stdout
    shown = ok(repo, "show", cid).stdout
    assert "[sealed]" in shown and TEXT not in shown
    found = json.loads(forest(repo, "check", "--json").stdout)["findings"]
    [finding] = [f for f in found if f["selector"].endswith("Keys")]
    assert finding["kind"] == "unresolved" and TEXT not in json.dumps(found)
    unseal = f"forest unseal {shlex.quote(finding['selector'])}"
    notes = [route["note"] for route in finding["routes"] if route["command"] is None]
    assert any(f"the holder runs `{unseal}" in n for n in notes)  # the test author holds none
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Ada Lovelace")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "ada@example.org")
    found = json.loads(forest(repo, "check", "--json").stdout)["findings"]
    [finding] = [f for f in found if f["selector"].endswith("Keys")]
    commands = [route["command"] or "" for route in finding["routes"]]
    assert any(c.startswith(unseal) for c in commands)
    unsealed = ok(repo, "unseal", TARGET, "--words", "checked; it stays", "--as", ADA, "--json")
    report = json.loads(unsealed.stdout)
    assert report["content_id"] == cid and report["sealed"] is False and report["act_id"]
    assert TEXT in ok(repo, "show", cid).stdout
    assert forest(repo, "check").exit_code == 0


def test_seal_by_non_holder_refused(repo: Path) -> None:
    cid = _ground(repo)
    before = _ledger_files(repo)
    for given in (cid, TARGET):
        result = forest(repo, "seal", given, "--words", "hide it", "--as", MALLORY)
        assert result.exit_code == 1, result.stdout
        assert result.stderr.startswith("forest:") and len(result.stderr.splitlines()) == 1
        assert "docs/ops.md" in result.stderr and TEXT not in result.stderr
    assert _ledger_files(repo) == before
    ok(repo, "seal", cid, "--words", "withheld", "--as", ADA)
    result = forest(repo, "unseal", cid, "--words", "show it again", "--as", MALLORY)
    assert result.exit_code == 1 and "docs/ops.md" in result.stderr


def test_seal_twice_and_unseal_unsealed_refused(repo: Path) -> None:
    cid = _ground(repo)
    result = forest(repo, "unseal", cid, "--words", "nothing to do", "--as", ADA)
    assert result.exit_code == 1 and "not sealed" in result.stderr
    ok(repo, "seal", cid, "--words", "withheld", "--as", ADA)
    before = _ledger_files(repo)
    for given in (cid, TARGET):
        result = forest(repo, "seal", given, "--words", "again", "--as", ADA)
        assert result.exit_code == 1 and "already sealed" in result.stderr
        assert "forest unseal" in result.stderr
    assert _ledger_files(repo) == before


@pytest.mark.parametrize(
    ("given", "words", "problem"),
    [
        ("docs/ops.md#Nowhere", "why", "no binding"),
        ("deadbeefdeadbeef", "why", "unknown entry"),
        (TARGET, "…", "…"),
        (TARGET, "Great!", "praise"),
    ],
)
def test_seal_bad_input_refused(repo: Path, given: str, words: str, problem: str) -> None:
    before = _ledger_files(repo)
    result = forest(repo, "seal", given, "--words", words, "--as", ADA)
    assert result.exit_code == 1, result.stdout
    assert result.stderr.startswith("forest:") and len(result.stderr.splitlines()) == 1
    assert problem in result.stderr and TEXT not in result.stderr
    assert _ledger_files(repo) == before


def test_seal_ceremony_record_refused(repo: Path) -> None:
    cid = _ground(repo)
    sealed = json.loads(ok(repo, "seal", cid, "--words", "withheld", "--as", ADA, "--json").stdout)
    result = forest(repo, "seal", sealed["record"], "--words", "seal the seal", "--as", ADA)
    assert result.exit_code == 1 and "sealing_record" in result.stderr


def test_seal_then_forget_erases_bound_ground_accepted(repo: Path) -> None:
    """forget needs ground "superseded or sealed": refused on live ground, accepted
    once it is sealed."""
    cid = _ground(repo)
    live = forest(repo, "forget", cid, "--words", "a secret was pasted here", "--as", ADA)
    assert live.exit_code == 1 and TEXT not in live.stderr
    assert f"forest seal {cid} --words" in live.stderr
    ok(repo, "seal", TARGET, "--words", "withheld before it is erased", "--as", ADA)
    ok(repo, "forget", cid, "--words", "a secret was pasted here", "--as", ADA)
    assert "[erased]" in ok(repo, "show", cid).stdout or TEXT not in ok(repo, "show", cid).stdout
    ledger = repo / ".forest" / "ledger"
    assert not any(TEXT in p.read_text(encoding="utf-8") for p in ledger.rglob("*.txt"))


def test_unseal_of_a_forgotten_ground_says_nothing_is_readable_detected(repo: Path) -> None:
    """Sealed, then forgotten, then unsealed: the door said "its text is readable
    again" and offered ``forest show``, though forget had erased the body. It now says
    the text was erased, and ``forest check`` names the finding with its routes."""
    cid = _ground(repo)
    ok(repo, "seal", TARGET, "--words", "withheld before it is erased", "--as", ADA)
    ok(repo, "forget", cid, "--words", "a secret was pasted here", "--as", ADA)
    out = ok(repo, "unseal", TARGET, "--words", "let the binding be judged", "--as", ADA)
    assert "readable again" in out.stdout and "its text was erased (forest forget)" in out.stdout
    assert "nothing is readable again" in out.stdout and "forest show" not in out.stdout
    data = json.loads(forest(repo, "check", "--json").stdout)["findings"]
    [finding] = [f for f in data if f["selector"].endswith("Keys")]
    assert finding["kind"] == "erased-content"
    assert TEXT not in out.stdout


def test_seal_of_sealed_target_named_with_dash_printed_unseal_pasted_recovers(
    tmp_path: Path,
) -> None:
    """A bound file named ``-x.md``: the "already sealed" refusal printed ``forest
    unseal '-x.md#…'``, which reads the target as an option. It now puts it after
    ``--``; pasted (words filled in), it unseals."""
    root = make_repo(tmp_path)
    Repository.init(root, project_id=PROJECT).close()
    write(root, "forest.toml", f'[project]\nid = "{PROJECT}"\n\n[authority]\n"**" = ["{ADA}"]\n')
    write(root, "-x.md", f"# Ops\n\n## Keys\n\n{TEXT}\n")
    target = "-x.md#Ops/Keys"
    who = ("--as", ADA, "--repo", str(root))
    adopted = runner.invoke(app, ["adopt", "--words", "the notes", *who, "--", target])
    assert adopted.exit_code == 0, adopted.output
    sealed = runner.invoke(app, ["seal", "--words", "withheld", *who, "--", target])
    assert sealed.exit_code == 0, sealed.output
    result = runner.invoke(app, ["seal", "--words", "again", *who, "--", target])
    assert result.exit_code == 1, result.output
    command = result.stderr.split("to read it again: ", 1)[1].strip()
    assert command == "forest unseal --words '…' -- '-x.md#Ops/Keys'"
    pasted_ok = pasted(root, command.replace("'…'", f"'read again' --as {shlex.quote(ADA)}"))
    assert pasted_ok.returncode == 0, pasted_ok.stdout + pasted_ok.stderr
    assert "readable again" in pasted_ok.stdout
