"""``forest status``'s table: each selector escaped only when the column holds a
character a terminal would obey or hide (kernel/shellword.py ``printable``), the work
counted, the table the same warm (remembered verdict) and judged.

Test: forest_files/doors/faststatus.py
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_files.check.opening import remembered_rows
from forest_files.doors.faststatus import status_command
from forest_files.kernel import shellword
from tests.helpers.custody import age_files, init_and_adopt, two_bound_files
from tests.helpers.git import commit_all, make_repo, write


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text ``printable`` is asked to escape, the real escaper still answering."""
    asked: list[str] = []
    real = shellword.printable

    def counting(text: str, *, keep: str = "") -> str:
        asked.append(text)
        return real(text, keep=keep)

    monkeypatch.setattr(shellword, "printable", counting)
    return asked


def _status(root: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert status_command(str(root), False) == 0
    return capsys.readouterr().out


def test_warm_status_of_plain_selectors_escapes_none_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = two_bound_files(tmp_path)
    judged = _status(root, capsys)  # judges, and remembers the clean verdict
    assert remembered_rows(str(root)) is not None
    asked = _counted(monkeypatch)
    warm = _status(root, capsys)
    assert asked == []  # one test of the whole column, not one call a binding
    assert warm == judged
    first, second = warm.splitlines()
    assert first.startswith("clean      a.md#Title/Keep  ")
    assert second.startswith("clean      b.md#Title/Keep  ")


def test_status_escapes_a_hidden_character_of_a_selector_detected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_repo(tmp_path)
    write(root, "f.md", "# Kep\u200bt\n\nwords\n\n# Plain\n\nmore\n")
    init_and_adopt(root, ["f.md#Kep\u200bt", "f.md#Plain"])
    commit_all(root, "adopt")
    age_files(root)
    judged = _status(root, capsys)
    assert remembered_rows(str(root)) is not None
    asked = _counted(monkeypatch)
    warm = _status(root, capsys)
    assert warm == judged
    assert sorted(asked) == ["f.md#Kep\u200bt", "f.md#Plain"]
    kept, plain = warm.splitlines()
    assert kept.startswith("clean      f.md#Kep<U+200B>t  ")
    assert plain.startswith("clean      f.md#Plain  ")
