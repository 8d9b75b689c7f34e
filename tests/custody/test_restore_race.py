"""``forest restore`` and ``forest supersede`` of the same files at once meet in one
order (custody/restore_gate.py, record_rebind.py ``again``).

Real repositories and real processes, no threads: the other command is run to the
end, as a ``forest`` process of its own, at the one moment the race needs it —
between the restore's choice of ground and its renames (the restore's gate,
wrapped), or between the supersede's read of the files and its recording
(``supersede_sections``, wrapped). The end state must be one that running the two
commands one after the other gives: the check clean, the edit kept (in the ledger
or in a capture).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest

import forest_files.custody.record as record_mod
import forest_files.custody.restore_gate as gate_mod
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, make_repo, pasted, write
from tests.helpers.state import shared_state

WORDS = "I adopt these words as written"
GROUND = {"a.md": "# A\n\nRule text.\n", "b.md": "# B\n\nRule text.\n"}
EDITED = {name: text.replace("Rule text", "Rule text S") for name, text in GROUND.items()}


@pytest.fixture
def edited(tmp_path: Path) -> Path:
    """a.md and b.md bound whole and committed, then both edited in the working tree."""
    repo = make_repo(tmp_path)
    ok(repo, "init")
    for name, text in GROUND.items():
        write(repo, name, text)
    commit_all(repo, "base")
    ok(repo, "adopt", "a.md", "b.md", "--words", WORDS)
    commit_all(repo, "adopt")
    for name, text in EDITED.items():
        write(repo, name, text)
    return repo


def _texts(repo: Path) -> dict[str, str]:
    return {name: (repo / name).read_text(encoding="utf-8") for name in GROUND}


def _captures(repo: Path) -> list[str]:
    folder = shared_state(repo) / "captures"
    if not folder.is_dir():
        return []
    return sorted(p.read_text(encoding="utf-8") for p in folder.iterdir())


def _segments(repo: Path) -> list[str]:
    return sorted(p.name for p in (repo / ".forest" / "ledger").rglob("*") if p.is_file())


def _run(repo: Path, command: str) -> None:
    done = pasted(repo, command)
    assert done.returncode == 0, (command, done.stdout, done.stderr)


def _before_the_renames(monkeypatch: pytest.MonkeyPatch, first: Callable[[], object]) -> None:
    """Run ``first`` (another command, an editor's save) between the restore's choice of
    ground and its renames: just before its gate (restore_gate.py) is entered."""
    real = gate_mod.grounds_held

    def late(store: Any, decided: Any) -> Callable[[], AbstractContextManager[Any]]:
        gate = real(store, decided)

        @contextmanager
        def first_then_gate() -> Iterator[Any]:
            first()
            with gate() as left:
                yield left

        return first_then_gate

    monkeypatch.setattr(gate_mod, "grounds_held", late)


@pytest.mark.slow
def test_restore_ground_superseded_before_its_renames_file_left_refused(
    edited: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The restore has chosen a.md's old ground when another process supersedes a.md:
    a.md is left holding the edit (now ground), b.md is restored, one ``forest:`` line."""
    _before_the_renames(
        monkeypatch, lambda: _run(edited, f"forest supersede a.md --words '{WORDS}'")
    )
    result = forest(edited, "restore", "a.md", "b.md")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: a.md: not restored — another forest command"), line
    assert "its file was left as found" in line and "`forest check`" in line, line
    assert result.stdout.splitlines()[0].startswith("restored b.md; the replaced text is kept")
    assert _texts(edited) == {"a.md": EDITED["a.md"], "b.md": GROUND["b.md"]}
    assert _captures(edited) == [f"# captured before `forest restore b.md`\n{EDITED['b.md']}"]
    assert not list(edited.rglob("*.forest-restore"))
    ok(edited, "check")  # what supersede-then-restore gives: nothing drifted


@pytest.mark.slow
def test_supersede_file_restored_after_its_read_refused(
    edited: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The supersede has read a.md's edit when another process restores a.md: it reads
    a.md again under the write lock, finds ground there, and records nothing."""
    real = record_mod.supersede_sections

    def late(*args: Any, **kwargs: Any) -> list[str]:
        _run(edited, "forest restore a.md")
        return real(*args, **kwargs)

    monkeypatch.setattr(record_mod, "supersede_sections", late)
    before = _segments(edited)
    result = forest(edited, "supersede", "a.md", "--words", WORDS)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: a.md: the text changed since it was shown"), line
    assert _segments(edited) == before  # nothing recorded
    assert _texts(edited)["a.md"] == GROUND["a.md"]
    # the edit is not lost: restore captured it
    assert _captures(edited) == [f"# captured before `forest restore a.md`\n{EDITED['a.md']}"]
    ok(edited, "check", "a.md")  # what restore-then-supersede gives: a.md holds ground


@pytest.mark.slow
def test_restore_binding_rebound_before_its_renames_file_left_refused(
    edited: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The restore has chosen a.md's ground when another process rebinds a.md to c.md,
    which holds that ground (no words: the ground is unchanged, only the place moved):
    a.md, no longer bound, is left holding the edit; b.md is restored."""
    write(edited, "c.md", GROUND["a.md"])
    _before_the_renames(monkeypatch, lambda: _run(edited, "forest rebind a.md c.md"))
    result = forest(edited, "restore", "a.md", "b.md")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: a.md: not restored — another forest command"), line
    assert "or moved the binding" in line, line
    assert _texts(edited) == {"a.md": EDITED["a.md"], "b.md": GROUND["b.md"]}
    assert _captures(edited) == [f"# captured before `forest restore b.md`\n{EDITED['b.md']}"]
    ok(edited, "check")  # c.md holds the ground it is bound to; a.md is no one's now


@pytest.mark.slow
def test_restore_file_saved_again_before_its_renames_save_kept_refused(
    edited: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The restore has read a.md when an editor saves it again: the second save is not
    overwritten (no capture would hold it); a.md is left holding it, b.md is restored,
    and the one ``forest:`` line says so with the command to run again."""
    saved = EDITED["a.md"].replace("Rule text S", "Rule text S, saved again")
    _before_the_renames(monkeypatch, lambda: write(edited, "a.md", saved))
    result = forest(edited, "restore", "a.md", "b.md")
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("forest: a.md: not restored — its file changed while"), line
    assert _texts(edited) == {"a.md": saved, "b.md": GROUND["b.md"]}
    assert _captures(edited) == [f"# captured before `forest restore b.md`\n{EDITED['b.md']}"]
    assert not list(edited.rglob("*.forest-restore"))
    _run(edited, line.rsplit("`", 2)[1])  # the printed command, pasted: a.md restored
    assert _texts(edited) == GROUND
    assert any(saved in c for c in _captures(edited))  # the second save is kept too
