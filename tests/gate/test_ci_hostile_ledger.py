"""Hostile: hand-written ledger lines against the gate. A hash from the ledger is a claim.

A real custody history (init, adopt two sections, supersede one, rebind the other to
another file, retire the first) is committed; then one hostile mutation of the
committed ledger (tests/gate/hostile_ledger.py: a line flipped, deleted, duplicated or
reordered, one JSON value changed with its ids recomputed or not, a key added, a
string re-encoded with ``\\u`` escapes, a body file's bytes changed, a segment renamed,
a new segment of correct ids naming a parent no ledger holds or an act of another
branch) is committed with ``--no-verify``. ``forest ci --base`` and ``forest verify``
are run in a fresh clone, the mutation a commit on top of the history (``on-top``) or
the whole history and its mutation one commit on the first (``whole``).

The property: exit 3 with a ledger fault naming a ledger file, or exit 1 with a
finding, or exit 0 only for a mutation that leaves a ledger a holder could have
written (every id recomputed, the act well formed, signed by the holder); never an
internal error, a crash log or a traceback.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forest_files.custody.bindings import all_bindings
from forest_files.custody.lookup import find_binding
from forest_files.custody.record import adopt_sections, rebind_section
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from tests.gate.hostile_ledger import Ledger, Mutation, mutations, segments_of, signed
from tests.helpers.cli import forest
from tests.helpers.custody import BY, MAX, retire, supersede_as_it_stands
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import reused

PROJECT = "p-hostile"
CONFIG = f'[project]\nid = "{PROJECT}"\n\n[authority]\n"**" = ["{BY}"]\n'
DOC = "# Doc\n\n## Keep\n\nkept words\n\n## Other\n\nother words\n"


def _history(tmp: Path) -> Path:
    """main: the history, HEAD at the retire; ``side``: one supersede more, off main."""
    root = make_repo(tmp)
    Repository.init(root, project_id=PROJECT).close()
    write(root, "forest.toml", CONFIG)
    commit_all(root, "init")
    write(root, "a.md", DOC)
    with Repository(root) as repo:
        sections = [read_section(root, t, (), max_bytes=MAX) for t in ("a.md#Keep", "a.md#Other")]
        adopt_sections(repo, sections, words="adopt both", by=BY)
    commit_all(root, "adopt")
    write(root, "a.md", DOC.replace("kept words", "kept words, amended"))
    supersede_as_it_stands(root, "a.md#Doc/Keep")
    commit_all(root, "supersede")
    write(root, "a.md", "# Doc\n\n## Keep\n\nkept words, amended\n\n")
    write(root, "b.md", "# Doc\n\n## Other\n\nother words\n")
    with Repository(root) as repo:
        binding = find_binding(all_bindings(repo.synced()), "a.md#Doc/Other")
        moved = read_section(root, "b.md#Doc/Other", (), max_bytes=MAX)
        rebind_section(repo, binding, moved, by=BY)
    commit_all(root, "rebind")
    retire(root, "a.md#Doc/Keep")
    commit_all(root, "retire")
    git(root, "checkout", "-q", "-b", "side")
    write(root, "b.md", "# Doc\n\n## Other\n\nother words, on the side\n")
    supersede_as_it_stands(root, "b.md#Doc/Other")
    commit_all(root, "side")
    git(root, "checkout", "-q", "main")
    return root


def _foreign(root: Path) -> str:
    """The id of the act ``side`` holds and main does not."""
    out = git(root, "diff", "--name-only", "main", "side", "--", ".forest/ledger/segments")
    (segment,) = out.splitlines()
    (line,) = git(root, "show", f"side:{segment}").splitlines()
    return str(json.loads(line)["id"])


def _judged(scratch: Path, m: Mutation, whole: bool) -> None:
    root = reused((__name__, "history"), scratch / "repo", _history)
    foreign = _foreign(root)
    if whole:  # the history and its damage arrive in one commit on the first
        git(root, "reset", "-q", "--soft", git(root, "rev-list", "--max-parents=0", "HEAD"))
    base = git(root, "rev-parse", "HEAD")
    done = Ledger(root).apply(m, foreign=foreign)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "--allow-empty", "-m", "hand-written ledger")
    clone = scratch / "clone"
    git(scratch, "clone", "-q", "--no-local", str(root), str(clone))
    for args in (("ci", "--base", base), ("verify",)):
        result = forest(clone, *args)
        said = result.stdout + result.stderr
        assert result.exit_code in (0, 1, 3), (args, said)
        assert result.exception is None or isinstance(result.exception, SystemExit), said
        assert "Traceback" not in said and "internal error" not in said, (args, said)
        assert not (clone / ".git" / "forest" / "crash").exists(), (args, said)
        if result.exit_code == 0:  # verify alone judges the files, ci the custody too
            assert done.well_formed if args == ("verify",) else done.consistent, (str(m), said)
        elif result.exit_code == 3:
            named = any(Path(f).stem in said for f in done.files)
            assert named or "dangling-dep" in said, (str(m), args, said)
            assert result.stderr.count("forest:") == 1, (str(m), args, said)
        else:  # a refusal: a finding of the gate (verify --base is not run here)
            assert args[0] == "ci" and "finding(s)" in result.stdout, (str(m), args, said)
            assert result.stderr.count("forest:") == 1, (str(m), args, said)


_SETTINGS = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
}


@settings(max_examples=12, **_SETTINGS)  # type: ignore[arg-type]
@given(m=mutations, whole=st.booleans())
def test_ci_hand_written_ledger_detected(tmp_path: Path, m: Mutation, whole: bool) -> None:
    with tempfile.TemporaryDirectory(dir=tmp_path) as scratch:
        _judged(Path(scratch), m, whole)


@pytest.mark.slow
@settings(max_examples=80, **_SETTINGS)  # type: ignore[arg-type]
@given(m=mutations, whole=st.booleans())
def test_ci_hand_written_ledger_many_detected(tmp_path: Path, m: Mutation, whole: bool) -> None:
    with tempfile.TemporaryDirectory(dir=tmp_path) as scratch:
        _judged(Path(scratch), m, whole)


def test_ci_supersede_entry_field_edited_content_id_kept_refused(tmp_path: Path) -> None:
    """The supersede's entry record says ``jurisdiction`` "wild"; its content id (the
    hash of those fields) and the act id recomputed, the segment renamed: a ledger
    whose record claims fields its own content id does not hash. The applier built the
    entry itself and checked only the content id, so the claim passed unread."""
    root = reused((__name__, "history"), tmp_path / "repo", _history)
    git(root, "reset", "-q", "--soft", git(root, "rev-list", "--max-parents=0", "HEAD"))
    base = git(root, "rev-parse", "HEAD")
    ledger = Ledger(root)
    (seg,) = [s for s in segments_of(ledger.ledger) if b'"kind":"supersede"' in s.read_bytes()]
    obj = json.loads(seg.read_bytes())
    obj["entry"]["jurisdiction"] = "wild"
    seg.write_text(signed(obj) + "\n", encoding="utf-8")
    name = hashlib.sha256(seg.read_bytes()).hexdigest()
    seg.rename(seg.with_name(f"{name}.jsonl"))
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "hand-written ledger")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--no-local", str(root), str(clone))
    result = forest(clone, "ci", "--base", base)
    assert result.exit_code == 3, result.stdout + result.stderr
    assert "id-mismatch" in result.stdout and f"segments/{name}.jsonl" in result.stdout
    assert result.stderr.count("forest:") == 1
    rebuilt = forest(clone, "rebuild")
    assert rebuilt.exit_code == 3 and "its own fields do not hash to" in rebuilt.stderr
