"""Thousands of adoption targets read in parts by child processes
(``files/parallel_read``): the same sections as one reader, in target order, the
same refusal (the first bad target in order, its type and message), and a child
that cannot start or dies changes nothing but the time taken."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from forest_files.custody import parallel_read
from forest_files.custody.repository import Repository
from forest_files.custody.target_refusals import TargetRefused
from forest_files.custody.targets import read_sections
from forest_files.kernel import spawn as childproc
from tests.helpers.children import observe_results
from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, isolate, make_repo, write

MB = 8 << 20
MD = "# Doc {n}\n\nIntro {n}.\n\n## Part\n\nwords of doc {n} — ü\n\n## Tail\n\nend {n}\n"
PY = (
    "import os\n\n\ndef func_{n}(x):\n    return x + {n}\n\n\n"
    "class K{n}:\n    def m(self):\n        return {n}\n"
)


@pytest.fixture(autouse=True)
def _setup(monkeypatch: pytest.MonkeyPatch) -> None:
    isolate(monkeypatch)
    # Parts from a handful of targets, on two CPUs at least, whatever the machine.
    monkeypatch.setattr(parallel_read, "PARALLEL_MIN", 4)
    monkeypatch.setattr(childproc, "usable_cpus", lambda: 3)


def corpus(tmp_path: Path, files: int = 24) -> tuple[Path, list[str]]:
    root = make_repo(tmp_path)
    specs = []
    for n in range(files):
        if n % 4 == 3:
            write(root, f"src/m{n}.py", PY.format(n=n))
            specs.append(f"src/m{n}.py::K{n}.m" if n % 8 == 3 else f"src/m{n}.py::func_{n}")
        else:
            write(root, f"docs/d{n:02}.md", MD.format(n=n))
            specs.append(f"docs/d{n:02}.md#Part" if n % 2 else f"docs/d{n:02}.md")
    Repository.init(root, project_id="p").close()
    commit_all(root, "corpus")
    return root, specs


def observe_children(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """How many sections each child handed back (None: its part was read here again)."""
    return observe_results(monkeypatch, parallel_read._Child)


def test_parts_read_what_one_reader_reads_in_order_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, specs = corpus(tmp_path)
    told: list[int] = []
    handed = observe_children(monkeypatch)
    assert parallel_read.parts_for(len(specs), childproc.usable_cpus()) == 3
    got = read_sections(root, specs, (), max_bytes=MB, progress=told.append)
    assert got == read_sections(root, specs, (), max_bytes=MB, parallel=False)
    assert [s.selector for s in got][:2] == ["docs/d00.md", "docs/d01.md#Doc 1/Part"]
    assert sum(told) == len(specs)
    assert handed == [8, 8]  # both children read their parts: nothing was read twice


@pytest.mark.parametrize("bad_at", [2, 13, 22])  # in this process's part, or a child's
def test_first_bad_target_in_order_refused_as_one_reader_would_refused(
    tmp_path: Path, bad_at: int
) -> None:
    root, specs = corpus(tmp_path)
    specs[bad_at] = "docs/missing.md#Part"
    specs[23] = "docs/d00.md#No such heading"  # a later refusal, in the last part
    with pytest.raises(TargetRefused) as serial:
        read_sections(root, specs, (), max_bytes=MB, parallel=False)
    with pytest.raises(TargetRefused) as parts:
        read_sections(root, specs, (), max_bytes=MB)
    assert str(parts.value) == str(serial.value)
    assert "docs/missing.md" in str(parts.value)


def test_refusal_of_another_type_keeps_its_type_refused(tmp_path: Path) -> None:
    """A child's refusal is never relayed: this process reads the part again and
    raises what it meets (here the section resolver's, not TargetRefused)."""
    root, specs = corpus(tmp_path)
    specs[20] = "docs/d00.md#No such heading"
    with pytest.raises(Exception) as serial:
        read_sections(root, specs, (), max_bytes=MB, parallel=False)
    with pytest.raises(Exception) as parts:
        read_sections(root, specs, (), max_bytes=MB)
    assert type(parts.value) is type(serial.value) and str(parts.value) == str(serial.value)


@pytest.mark.parametrize("interpreter", ["", "false"])  # none to start; one that dies
def test_children_that_cannot_read_change_nothing_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, interpreter: str
) -> None:
    root, specs = corpus(tmp_path)
    expected = read_sections(root, specs, (), max_bytes=MB, parallel=False)
    if interpreter:
        false = "/bin/false" if os.path.exists("/bin/false") else "/usr/bin/false"
        monkeypatch.setattr(sys, "executable", false)
    else:
        monkeypatch.setattr(sys, "executable", "")
    assert read_sections(root, specs, (), max_bytes=MB) == expected


def test_exclusions_keep_one_reader_and_their_tally_refused(tmp_path: Path) -> None:
    """An exclusion must match in at least one target of the adoption: judged over
    the whole list, so a list with exclusions is read by this process alone."""
    root, specs = corpus(tmp_path)
    md = [s for s in specs if s.endswith(".md")]
    assert parallel_read.parts_for(len(md), childproc.usable_cpus()) > 1
    with pytest.raises(Exception, match="Nowhere"):
        read_sections(root, md, ("#Nowhere",), max_bytes=MB)
    kept = read_sections(root, md, ("#Tail",), max_bytes=MB)
    assert all("end " not in s.text for s in kept)


def test_forest_adopt_with_parts_binds_as_one_reader_accepted(tmp_path: Path) -> None:
    root, specs = corpus(tmp_path)
    done = json.loads(ok(root, "adopt", *specs, "--words", "All of it", "--json").stdout)
    expected = read_sections(root, specs, (), max_bytes=MB, parallel=False)
    assert [b["selector"] for b in done] == [s.selector for s in expected]
    status = json.loads(ok(root, "status", "--json").stdout)["findings"]
    assert len(status) == len(specs)
    assert forest(root, "check").exit_code == 0


def test_children_never_import_from_the_current_directory_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``json.py`` at the root of the repository being adopted (the current
    directory of ``forest adopt``) is never run by a reading child."""
    root, specs = corpus(tmp_path)
    marker = tmp_path / "imported"
    write(root, "json.py", f"open({str(marker)!r}, 'w').write('imported')\n")
    monkeypatch.chdir(root)
    handed = observe_children(monkeypatch)
    assert read_sections(root, specs, (), max_bytes=MB) == read_sections(
        root, specs, (), max_bytes=MB, parallel=False
    )
    assert handed == [8, 8] and not marker.exists()
