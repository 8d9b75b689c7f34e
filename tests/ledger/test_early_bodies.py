"""Bodies written meanwhile (``EarlyBodies``): on a thread for a small batch, by a
child process (``body_writer``) for a large one; either way every body lands
intact, a refused or abandoned batch takes back exactly the files it created,
and nothing is left in the ledger or its temp directory."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.ledger import early_bodies
from forest_files.ledger.body_writer import decode_batch, encode_batch
from forest_files.ledger.early_bodies import EarlyBodies
from forest_files.ledger.placing import temp_dir
from forest_files.ledger.segment_write import write_bodies
from forest_files.ledger.segments import body_path


def texts(n: int, tag: str = "body") -> dict[str, str]:
    out = {}
    for k in range(n):
        text = f"{tag} {k}: säge ✓ — line\nsecond line {k}\n"
        out[hash_body(text)] = text
    return out


def ledger_of(tmp_path: Path) -> Path:
    ledger = tmp_path / ".forest" / "ledger"
    ledger.mkdir(parents=True)
    return ledger


def on_disk(ledger: Path) -> set[str]:
    return {p.relative_to(ledger).as_posix() for p in ledger.rglob("*")}


def leftovers(ledger: Path) -> list[Path]:
    """What is left in the ledger's temp directory (none made: nothing left)."""
    folder = temp_dir(ledger)
    return list(folder.iterdir()) if folder.exists() else []


@pytest.fixture
def child_for_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every batch goes to the child process, however small."""
    monkeypatch.setattr(early_bodies, "PROCESS_MIN", 1)


def test_batch_codec_round_trips_and_refuses_truncation_refused() -> None:
    bodies = texts(5) | {hash_body("x"): "x"}
    blob = encode_batch(bodies)
    assert decode_batch(blob) == bodies
    for cut in (1, 40, len(blob) - 1):
        with pytest.raises(ValueError, match="the batch ends inside"):
            decode_batch(blob[:cut])


@pytest.mark.usefixtures("child_for_all")
def test_child_writes_every_body_intact_accepted(tmp_path: Path) -> None:
    ledger = ledger_of(tmp_path)
    bodies = texts(40)
    writer = EarlyBodies(ledger, bodies)
    assert writer._child is not None and writer._thread is None  # the child path
    assert writer.finish() == frozenset(bodies)
    for body_hash, text in bodies.items():
        assert body_path(ledger, body_hash).read_text(encoding="utf-8") == text
    assert leftovers(ledger) == []  # its batch and temp files are gone


@pytest.mark.usefixtures("child_for_all")
def test_child_refuses_a_body_under_another_hash_leaving_nothing_refused(
    tmp_path: Path,
) -> None:
    ledger = ledger_of(tmp_path)
    bodies = texts(10)
    bodies[hash_body("the real text")] = "a forged text"
    before = on_disk(ledger)
    writer = EarlyBodies(ledger, bodies)
    with pytest.raises(ForestError, match="does not hash to it"):
        writer.finish()
    writer.discard()
    assert on_disk(ledger) == before
    assert leftovers(ledger) == []


@pytest.mark.usefixtures("child_for_all")
def test_discard_kills_the_child_and_keeps_files_that_were_there_accepted(
    tmp_path: Path,
) -> None:
    """A discarded batch removes what it wrote, not a body the ledger already held
    (intact, or damaged and being repaired), and no prefix directory it needed."""
    ledger = ledger_of(tmp_path)
    held = texts(3, "held")
    write_bodies(ledger, held)
    damaged = next(iter(held))
    body_path(ledger, damaged).write_bytes(b"truncat")
    kept = on_disk(ledger)
    bodies = held | texts(300, "new")
    writer = EarlyBodies(ledger, bodies)
    writer.discard()  # at once: the child may be anywhere in its batch
    assert on_disk(ledger) == kept
    assert writer._child is not None and writer._child.proc.returncode is not None
    assert leftovers(ledger) == []


@pytest.mark.usefixtures("child_for_all")
def test_discard_after_finish_takes_back_the_whole_batch_accepted(tmp_path: Path) -> None:
    ledger = ledger_of(tmp_path)
    before = on_disk(ledger)
    writer = EarlyBodies(ledger, texts(25))
    writer.finish()
    writer.discard()  # the recording failed after the bodies landed
    assert on_disk(ledger) == before | {"bodies"}  # an empty bodies/ is no stray


@pytest.mark.usefixtures("child_for_all")
def test_child_that_dies_without_a_report_leaves_the_writing_here_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An interpreter that exits at once (no report) is not trusted to have written
    anything: ``finish`` writes the batch itself."""
    false = "/bin/false" if os.path.exists("/bin/false") else "/usr/bin/false"
    monkeypatch.setattr(sys, "executable", false)
    ledger = ledger_of(tmp_path)
    bodies = texts(12)
    writer = EarlyBodies(ledger, bodies)
    assert writer.finish() == frozenset(bodies)
    assert all(body_path(ledger, h).read_text(encoding="utf-8") == t for h, t in bodies.items())
    assert leftovers(ledger) == []


@pytest.mark.usefixtures("child_for_all")
def test_no_interpreter_to_start_falls_back_to_a_thread_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "executable", "")
    ledger = ledger_of(tmp_path)
    bodies = texts(8)
    writer = EarlyBodies(ledger, bodies)
    assert writer._child is None and writer._thread is not None
    assert writer.finish() == frozenset(bodies)
    assert all(body_path(ledger, h).exists() for h in bodies)


def test_small_batch_stays_on_a_thread_accepted(tmp_path: Path) -> None:
    ledger = ledger_of(tmp_path)
    writer = EarlyBodies(ledger, texts(early_bodies.PROCESS_MIN - 1))
    assert writer._child is None
    writer.finish()


def plant_trap(tmp_path: Path) -> tuple[Path, Path]:
    """A directory whose ``json.py`` and ``forest_files/`` leave a marker if imported."""
    trap, marker = tmp_path / "hostile-repo", tmp_path / "imported"
    (trap / "forest_files").mkdir(parents=True)
    code = f"open({str(marker)!r}, 'w').write('imported')\n"
    (trap / "json.py").write_text(code, encoding="utf-8")
    (trap / "forest_files" / "__init__.py").write_text(code, encoding="utf-8")
    return trap, marker


@pytest.mark.usefixtures("child_for_all")
def test_child_never_imports_from_the_current_directory_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Adopting in a repository whose root holds ``json.py`` (or a ``forest_files``
    package) runs none of it: the child interpreter is isolated (``-I``)."""
    trap, marker = plant_trap(tmp_path)
    monkeypatch.chdir(trap)
    reported: list[bool] = []
    finish = early_bodies._Child.finish

    def observed(child: early_bodies._Child) -> bool:
        reported.append(finish(child))
        return reported[-1]

    monkeypatch.setattr(early_bodies._Child, "finish", observed)
    ledger = ledger_of(tmp_path)
    bodies = texts(6)
    EarlyBodies(ledger, bodies).finish()
    assert reported == [True]  # the child wrote them, not the fallback here
    assert not marker.exists()
    assert all(body_path(ledger, h).exists() for h in bodies)


def test_child_finding_another_forest_files_does_nothing_refused(tmp_path: Path) -> None:
    """The bootstrap runs the module only from its parent's installation: pointed at
    a directory without it, it exits WRONG_PACKAGE and does nothing."""
    import subprocess

    from forest_files.kernel import spawn as childproc

    argv = childproc.command("forest_files.ledger.body_writer", str(tmp_path), "x")
    assert argv is not None
    argv[4] = str(tmp_path)  # the installation directory the child must find
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert done.returncode == childproc.WRONG_PACKAGE, done.stderr
    assert list(tmp_path.iterdir()) == []


def test_child_runs_the_parents_own_copy_of_the_package_accepted(tmp_path: Path) -> None:
    """As in CI, where the tests import the source tree while an installed copy sits
    in site-packages: the child loads forest_files from where its parent did, not
    from whatever its own path finds first."""
    import shutil
    import subprocess

    import forest_files

    copy = tmp_path / "elsewhere"
    shutil.copytree(
        Path(forest_files.__file__).parent,
        copy / "forest_files",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    marker = tmp_path / "ran-from-the-copy"
    writer = copy / "forest_files" / "ledger" / "body_writer.py"
    main = 'if __name__ == "__main__":\n'
    source = writer.read_text(encoding="utf-8")
    assert main in source
    writer.write_text(
        source.replace(main, f"{main}    open({str(marker)!r}, 'w').close()\n", 1),
        encoding="utf-8",
    )
    ledger = ledger_of(tmp_path)
    script = f"""
import sys
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
sys.path.insert(0, {str(copy)!r})
import forest_files
assert forest_files.__file__.startswith({str(copy)!r}), forest_files.__file__
from pathlib import Path
from forest_files.ledger import early_bodies
early_bodies.PROCESS_MIN = 1
writer = early_bodies.EarlyBodies(Path({str(ledger)!r}), {{"{hash_body("x")}": "x"}})
print(writer._child is not None and writer._child.finish())
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.stdout.strip() == "True", done.stderr
    assert marker.exists()
    assert body_path(ledger, hash_body("x")).read_text(encoding="utf-8") == "x"
