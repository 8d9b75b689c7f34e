"""A ``.gitattributes`` rule that converts the ledger on checkout is named.

``forest init`` writes ``.forest/ledger/** -text …``; a later rule such as
``.forest/ledger/** text eol=crlf`` makes every clone check the segments out with
CRLF line ends, so their bytes no longer hash to their names. The refusal says so,
and names the command that shows the rule (ledger/segments.py ``segment_faults``),
the file that holds it (``.git/info/attributes`` outranks every ``.gitattributes``),
the line to add there and the checkout again, each pasteable where it was typed
(custody/ledger_conversion.py ``checkout_note``). A rule converting the body files
alone (``*.txt``) is named by ``forest verify``'s body fault the same way, in place of
"(edited?)", which stays when no rule converts the body's path (``checkout_faults``);
``forest status`` names the body file by its path with the same rule (``with_checkout_note``).
With no attribute rule for the ledger at all, ``core.autocrlf=true`` is named instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from forest_files.custody.ledger_conversion import checkout_faults
from forest_files.ledger.verify import verify_ledger
from tests.helpers.cli import FOREST, forest
from tests.helpers.custody import init_and_adopt
from tests.helpers.git import commit_all, git, git_env, make_repo, pasted, write


def test_crlf_checkout_of_the_ledger_named_refused(tmp_path: Path) -> None:
    clone = _clone_with_attributes(tmp_path, ".forest/ledger/** text eol=crlf")
    proc = subprocess.run(
        [FOREST, "status"],
        cwd=clone,
        env={**os.environ, **git_env()},
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 3, proc.stderr
    assert "its lines end in CRLF" in proc.stderr and proc.stderr.count("forest:") == 1
    assert "(`forest verify` lists every fault of the ledger)" in proc.stderr
    assert "a rule in .gitattributes converts it (eol=crlf, text;" in proc.stderr
    attrs = pasted(clone, _steps(proc.stderr)[0])
    assert "eol: crlf" in attrs.stdout, attrs


def _steps(line: str) -> list[str]:
    """The commands a refusal line quotes between backticks."""
    return line.split("`")[1::2]


@pytest.mark.slow  # a clone, four `forest` processes and three pasted steps
def test_crlf_checkout_by_an_info_attributes_rule_named_there_pasted_recovers(
    tmp_path: Path,
) -> None:
    """A rule in ``.git/info/attributes`` converts the ledger as a fresh checkout writes
    it: that file outranks every ``.gitattributes``, so the fault said of a
    ``.gitattributes`` rule named a fix that changes nothing. ``forest status`` (typed
    beside the clone with ``-C``, and in a subdirectory) names the file, the line to add
    there and the checkout again; pasted where it was typed, they bring the ledger
    back, and status and verify pass. ``forest verify`` before them names the same
    file and steps."""
    clone = _clone_with_info_rules(tmp_path, ".forest/** text eol=crlf\n")
    (clone / "sub").mkdir()
    env = {**os.environ, **git_env()}
    beside = subprocess.run(
        [FOREST, "-C", "clone", "status"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert beside.returncode == 3, beside.stderr
    assert "a rule in clone/.git/info/attributes (which outranks .gitattributes)" in beside.stderr
    below = subprocess.run(
        [FOREST, "status"], cwd=clone / "sub", env=env, capture_output=True, text=True
    )
    assert below.returncode == 3 and below.stderr.count("forest:") == 1, below.stderr
    assert "a rule in ../.git/info/attributes (which outranks" in below.stderr, below.stderr
    shown, add, again, _ = _steps(below.stderr)
    # forest verify lists the fault with the same rule's file and steps, and its last
    # line sends the user to them, not to "restore the damaged files".
    listed = subprocess.run(
        [FOREST, "verify"], cwd=clone / "sub", env=env, capture_output=True, text=True
    )
    assert listed.returncode == 3, listed.stderr
    fault = next(x for x in listed.stdout.splitlines() if x.startswith("segment-name:"))
    assert "a rule in ../.git/info/attributes (which outranks" in fault, fault
    assert _steps(fault)[:3] == [shown, add, again], fault
    assert "restore the damaged files" not in listed.stderr, listed.stderr
    assert "the conversion named above" in listed.stderr, listed.stderr
    assert "eol: crlf" in pasted(clone / "sub", shown).stdout
    assert add.endswith(">> ../.git/info/attributes"), add
    for step in (add, again):
        done = pasted(clone / "sub", step)
        assert done.returncode == 0, (step, done.stderr)
    assert b"\r\n" not in next((clone / ".forest/ledger/segments").iterdir()).read_bytes()
    for args in (["status"], ["verify"]):
        proc = subprocess.run(
            [FOREST, *args], cwd=clone / "sub", env=env, capture_output=True, text=True
        )
        assert proc.returncode == 0, (args, proc.stderr)


def _verify(where: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env()}
    return subprocess.run(
        [FOREST, *args, "verify"], cwd=where, env=env, capture_output=True, text=True
    )


def _body_fault(out: str) -> str:
    return next(x for x in out.splitlines() if x.startswith("body-hash:"))


@pytest.mark.slow  # a clone, two `forest verify` processes and three pasted steps
def test_crlf_checkout_of_a_body_file_names_the_rule_pasted_recovers(tmp_path: Path) -> None:
    """A ``.gitattributes`` rule for ``*.txt`` (after ``forest init``'s line) checks the
    body files out with CRLF, the segments (``.jsonl``) as they are: ``forest verify``'s
    body fault said only "(edited?)"; it names the rule, the line to add and the
    checkout again, as the segment's fault does, each pasteable where it was typed;
    pasted, verify passes."""
    clone = _clone_with_crlf_bodies(tmp_path)
    proc = _verify(clone / "sub")
    assert proc.returncode == 3, proc.stderr
    fault = _body_fault(proc.stdout)
    assert "(edited?)" not in fault and "segment-name" not in proc.stdout, proc.stdout
    assert "(a rule in ../.gitattributes converts it (eol=crlf, text;" in fault, fault
    assert "the conversion named above" in proc.stderr, proc.stderr
    shown, add, again = _steps(fault)
    assert "eol: crlf" in pasted(clone / "sub", shown).stdout
    assert add.endswith(">> ../.gitattributes"), add
    for step in (add, "git add ../.gitattributes && git commit -q -m 'ledger unconverted'", again):
        done = pasted(clone / "sub", step)
        assert done.returncode == 0, (step, done.stderr)
    assert _verify(clone / "sub").returncode == 0


@pytest.mark.slow  # a clone and a `forest verify` process
def test_crlf_checkout_of_a_body_file_by_info_attributes_named_there_refused(
    tmp_path: Path,
) -> None:
    """``* text=auto`` in ``.git/info/attributes`` (which outranks forest init's line)
    with ``core.autocrlf=true``: the body file checked out with CRLF is blamed on that
    file's rule, not on "(edited?)"; ``-C`` typed beside the clone reaches it."""
    _clone_with_info_rules(tmp_path, "*.txt text=auto\n", autocrlf=True)
    proc = _verify(tmp_path, "-C", "clone")
    assert proc.returncode == 3, proc.stderr
    fault = _body_fault(proc.stdout)
    assert "(edited?)" not in fault, fault
    assert "a rule in clone/.git/info/attributes (which outranks .gitattributes)" in fault
    assert "text=auto" in fault and "git -C clone checkout -- .forest/ledger" in fault, fault


@pytest.mark.slow  # a clone, three `forest` runs and three pasted steps
def test_core_autocrlf_checkout_of_a_body_file_named_pasted_recovers(tmp_path: Path) -> None:
    """No attribute rule at all for the ledger (a repository without forest init's
    ``.gitattributes`` line) and ``core.autocrlf=true``: git checks the body files out
    with CRLF. ``forest verify``'s body fault said "(edited?)"; it names the setting
    (and the ``git config`` that shows where it is set), forest init's line to add and
    the checkout again; pasted, verify passes. ``forest status`` names it too."""
    origin = make_repo(tmp_path, "origin")
    write(origin, "canon.md", "# Canon\n\nThe rule.\n")
    init_and_adopt(origin, ["canon.md"])
    write(origin, ".gitattributes", "")
    commit_all(origin, "adopt, with no attribute rule for the ledger")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "-c", "core.autocrlf=true", str(origin), str(clone))
    proc = forest(clone, "verify")
    assert proc.exit_code == 3, proc.output
    fault = _body_fault(proc.stdout)
    assert "(edited?)" not in fault, fault
    assert "(core.autocrlf=true converts it, as no attribute rule" in fault, fault
    assert "keep the ledger out of the conversion named above" in proc.stderr, proc.stderr
    shown, add, again = _steps(fault)
    assert pasted(clone, shown).stdout.startswith("file:.git/config\ttrue")
    assert add.endswith(">> .gitattributes"), add
    for step in (add, "git add .gitattributes && git commit -q -m 'ledger unconverted'", again):
        done = pasted(clone, step)
        assert done.returncode == 0, (step, done.stderr)
    assert forest(clone, "verify").exit_code == 0
    assert forest(clone, "status").exit_code == 0


def test_core_autocrlf_set_but_ledger_marked_keeps_edited_accepted(tmp_path: Path) -> None:
    """``core.autocrlf=true`` with forest init's ``-text`` line in place converts no
    ledger file: a body edited by hand to CRLF keeps "(edited?)", never the setting."""
    root, _ = _body_edited_to_crlf(tmp_path)
    git(root, "config", "core.autocrlf", "true")
    faults, converted = checkout_faults(root, verify_ledger(root / ".forest" / "ledger").faults)
    (fault,) = faults
    assert fault.detail.endswith("(edited?)") and not converted, fault.detail


def test_body_file_edited_in_the_working_tree_keeps_edited_accepted(tmp_path: Path) -> None:
    """A body file edited by hand, no rule converting its path (a rule for other files
    only): the fault keeps "(edited?)" and names no rule."""
    root, _ = _body_edited_to_crlf(tmp_path)
    faults, converted = checkout_faults(root, verify_ledger(root / ".forest" / "ledger").faults)
    (fault,) = faults
    assert fault.code == "body-hash" and not converted
    assert fault.detail.endswith("does not hash to its name (edited?)"), fault.detail


@pytest.mark.slow  # a clone, two `forest status` processes and three pasted steps
def test_status_of_a_body_file_a_rule_converts_names_path_and_rule_pasted_recovers(
    tmp_path: Path,
) -> None:
    """``forest status`` (the index built from the ledger) said only "body file HASH does
    not hash to its name" and sent the user to ``forest verify``: it now names the body's
    path where the user stands, the rule that converts it and the fix, as verify does;
    pasted where typed, status passes."""
    clone = _clone_with_crlf_bodies(tmp_path)
    env = {**os.environ, **git_env()}
    proc = subprocess.run(
        [FOREST, "status"], cwd=clone / "sub", env=env, capture_output=True, text=True
    )
    assert proc.returncode == 3 and proc.stderr.count("forest:") == 1, proc.stderr
    named = proc.stderr.partition("body file ")[2].partition(" does not hash to its name")[0]
    assert named.startswith("../.forest/ledger/bodies/"), proc.stderr
    assert (clone / "sub" / named).is_file(), named  # the path, reached from where typed
    assert "(a rule in ../.gitattributes converts it (eol=crlf, text;" in proc.stderr
    assert "(edited?)" not in proc.stderr, proc.stderr
    shown, add, again, _ = _steps(proc.stderr)
    assert "eol: crlf" in pasted(clone / "sub", shown).stdout
    for step in (add, "git add ../.gitattributes && git commit -q -m 'ledger unconverted'", again):
        done = pasted(clone / "sub", step)
        assert done.returncode == 0, (step, done.stderr)
    proc = subprocess.run(
        [FOREST, "status"], cwd=clone / "sub", env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr


def test_status_of_a_body_file_edited_by_hand_names_path_keeps_edited_refused(
    tmp_path: Path,
) -> None:
    """A body file edited by hand, no rule converting its path: status names the file
    and keeps "(edited?)", naming no rule."""
    root, body = _body_edited_to_crlf(tmp_path)
    shutil.rmtree(root / ".git" / "forest")  # the index built again reads every body
    proc = forest(root, "status")
    assert proc.exit_code == 3, proc.output
    rel = f".forest/ledger/bodies/{body.parent.name}/{body.name}"
    assert f"body file {rel} does not hash to its name (edited?)" in proc.stderr, proc.stderr
    assert "a rule in" not in proc.stderr, proc.stderr


def _body_edited_to_crlf(tmp_path: Path) -> tuple[Path, Path]:
    """A repository whose one body file was given CRLF line ends by hand, with no rule
    converting its path (a rule for other files only): the repository and the body."""
    root = make_repo(tmp_path)
    write(root, ".gitattributes", "*.md text eol=crlf\n")
    write(root, "canon.md", "# Canon\n\nThe rule.\n")
    init_and_adopt(root, ["canon.md"])
    commit_all(root, "adopt")
    (body,) = [
        p
        for p in (root / ".forest" / "ledger" / "bodies").rglob("*.txt")
        if b"The rule." in p.read_bytes()
    ]
    body.write_bytes(body.read_bytes().replace(b"\n", b"\r\n"))
    return root, body


def _clone_with_info_rules(tmp_path: Path, rules: str, *, autocrlf: bool = False) -> Path:
    """A clone of an adopted repository checked out with ``rules`` in its
    ``.git/info/attributes`` (which outranks forest init's line), and with
    ``core.autocrlf=true`` when asked."""
    origin = make_repo(tmp_path, "origin")
    write(origin, "canon.md", "# Canon\n\nThe rule.\n")
    init_and_adopt(origin, ["canon.md"])
    commit_all(origin, "adopt")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--no-checkout", str(origin), str(clone))
    (clone / ".git" / "info").mkdir(exist_ok=True)
    (clone / ".git" / "info" / "attributes").write_text(rules)
    if autocrlf:
        git(clone, "config", "core.autocrlf", "true")
    git(clone, "checkout", "-q", "main")
    return clone


def _clone_with_attributes(tmp_path: Path, rule: str) -> Path:
    """A clone of a repository with ``canon.md`` adopted, whose ``.gitattributes`` ends
    (after ``forest init``'s line) with ``rule``, committed before the clone."""
    origin = make_repo(tmp_path, "origin")
    write(origin, "canon.md", "# Canon\n\nThe rule.\n")
    init_and_adopt(origin, ["canon.md"])
    commit_all(origin, "adopt")
    with (origin / ".gitattributes").open("a") as fh:
        fh.write(rule + "\n")
    commit_all(origin, "line ends")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    return clone


def _clone_with_crlf_bodies(tmp_path: Path) -> Path:
    """A clone whose ``.gitattributes`` checks the body files out with CRLF, the
    segments as they are; with a ``sub`` folder to type commands in."""
    clone = _clone_with_attributes(tmp_path, "*.txt text eol=crlf")
    (clone / "sub").mkdir()
    return clone
