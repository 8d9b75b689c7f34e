"""The cold working-tree check's short ways (issue 23, Performance): a clean whole-file
finding built without the frozen ``__init__``, trusted stat keys taken from the
prefetch's own reads, and a cold path that no longer imports the ledger's acts or
json. Each short way must give exactly what the long way gives."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files.check.engine import Finding, _whole_file_read_clean, check_all, check_binding
from forest_files.check.opening import open_custody
from forest_files.custody.bindings import Binding
from forest_files.custody.content import WorktreeSource
from forest_files.custody.ground import Ground
from tests.helpers.custody import DOC, age_files, init_and_adopt
from tests.helpers.git import commit_all, git_env, make_repo, write
from tests.helpers.state import local_state
from tests.helpers.template import reused

H = "a" * 64


def _whole_files(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    write(root, "b.md", DOC.replace("kept", "second"))
    write(root, "c.md", DOC.replace("kept", "third"))
    init_and_adopt(root, ["a.md", "b.md", "c.md#Keep"])
    commit_all(root, "adopt")
    age_files(root)
    return root


def _repo(tmp_path: Path) -> Path:
    """Two whole-file bindings and one section binding, aged, a private copy."""
    return reused(("cold_check_whole_files",), tmp_path / "repo", _whole_files)


def _only_whole(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "a.md", DOC)
    write(root, "m.py", "def f(x):\n    return x\n")
    init_and_adopt(root, ["a.md", "m.py"])
    commit_all(root, "adopt")
    age_files(root)
    return root


def _binding(**changes: object) -> Binding:
    fields: dict[str, object] = {
        "bind_act": "b" * 64,
        "path": "a.md",
        "selector": "a.md",
        "excludes": (),
        "normalisation": "utf8-nobom-lf",
        "hash_algo": "sha256",
        "section_hash": H,
        "entry_id": 1,
        "bound_by": "t <t@example.org>",
        "retired": False,
        "contested": False,
    }
    return Binding(**{**fields, **changes})  # type: ignore[arg-type]  # values of any type: test data


def test_whole_file_read_clean_equals_the_judged_finding_accepted(tmp_path: Path) -> None:
    """The short way's finding is the long way's: equal, same hash, same repr, same
    attributes in the same order (a JSON report walks none of them by ``__dict__``,
    but ``_replace`` copies it)."""
    root = _repo(tmp_path)
    shutil.rmtree(local_state(root) / "cache", ignore_errors=True)
    with open_custody(root, "worktree") as custody:
        fast = check_all(None, custody.bindings, custody.content, grounds=custody.grounds)
        slow = [
            check_binding(None, b, WorktreeSource(root), all_paths=None, grounds=custody.grounds)
            for b in custody.bindings
        ]
    assert [f.kind for f in fast] == ["clean"] * 3
    assert fast == slow
    for short, long in zip(fast, slow, strict=True):
        assert type(short) is Finding
        assert hash(short) == hash(long)
        assert repr(short) == repr(long)
        assert list(vars(short).items()) == list(vars(long).items())


@pytest.mark.parametrize(
    ("binding", "ground", "read"),
    [
        (_binding(contested=True), (H, H, ()), {"a.md": H}),
        (_binding(), (H, H, ("c" * 64, "d" * 64)), {"a.md": H}),  # two live successors
        (_binding(), (H, None, ()), {"a.md": H}),  # sealed ground
        (_binding(excludes=("#Other",)), (H, H, ()), {"a.md": H}),
        (_binding(selector="a.md#Title"), (H, H, ()), {"a.md": H}),  # a section
        (_binding(), (H, H, ()), {"a.md": "e" * 64}),  # hashed otherwise: drifted
        (_binding(), (H, H, ()), {}),  # not read this run (missing, special, racy)
        (_binding(), None, {"a.md": H}),  # no ground known
    ],
)
def test_whole_file_read_clean_leaves_every_other_binding_to_the_judge_refused(
    binding: Binding, ground: Ground | None, read: dict[str, str]
) -> None:
    """Only a whole-file binding without exclusions, of one live unsealed ground, whose
    file this run hashed to ground's hash, takes the short way; anything else is
    judged in full (contested, moved, drifted, missing, sealed…)."""
    assert _whole_file_read_clean(binding, ground, read) is None


def test_trusted_keys_from_the_prefetch_equal_the_stat_caches_accepted(tmp_path: Path) -> None:
    """The keys a remembered verdict is written with come from the prefetch's own
    reads exactly as the stat cache recorded them; a file read again by the judge
    (its entry re-recorded) is asked of the stat cache."""
    root = _repo(tmp_path)
    shutil.rmtree(local_state(root) / "cache", ignore_errors=True)
    paths = {"a.md", "b.md", "c.md"}
    source = WorktreeSource(root)
    source.prefetch_hashes(sorted(paths))
    got = source.trusted_keys(paths)
    assert got is not None and set(got) == paths
    assert got == source._cache().trusted_keys(paths)
    source.read("a.md")
    source.remember("a.md", None)  # the judge found it unreadable now: no entry
    assert source.trusted_keys(paths) is None
    assert source.trusted_keys(paths - {"a.md"}) == source._cache().trusted_keys(paths - {"a.md"})


def test_racily_clean_read_is_no_trusted_key_refused(tmp_path: Path) -> None:
    """A file written in the stamp's tick is read and hashed, but gives the verdict no
    key: the next check reads it again."""
    root = _repo(tmp_path)
    shutil.rmtree(local_state(root) / "cache", ignore_errors=True)
    source = WorktreeSource(root)
    stamp = source._cache().stamp()
    st = os.stat(root / "b.md")
    os.utime(root / "b.md", ns=(st.st_atime_ns, stamp))  # mtime at the stamp: racy
    source.prefetch_hashes(["a.md", "b.md"])
    assert "b.md" not in source.hashes_read()
    assert source.trusted_keys({"a.md", "b.md"}) is None
    assert source.trusted_keys({"a.md"}) is not None


# What a cold whole-file check no longer imports (it did before issue 23's cut): the
# binding map needs ``Binding`` only, not the ledger's act kinds; nothing parses JSON;
# no selector is parsed (a whole-file binding is clean by its file hash, and coverage
# names targets only under a [require] rule).
COLD_NEVER = {
    "forest_files.ledger.acts",
    "forest_files.ledger.kinds",
    "forest_files.text.selector",
    "json",
}


def test_cold_whole_file_check_imports_no_ledger_acts_json_or_selector_refused(
    tmp_path: Path,
) -> None:
    """Caches emptied as the bench empties them (the index and its binding map stay):
    the check judges every binding from bytes read, without those modules."""
    root = reused(("cold_check_only_whole",), tmp_path / "repo", _only_whole)
    env = {**os.environ, **git_env()}
    entry = "from forest_files.doors.entry import main; main()"
    first = subprocess.run(
        [sys.executable, "-c", entry, "check"], cwd=root, env=env, capture_output=True, text=True
    )
    assert first.returncode == 0, first.stderr
    for name in ("cache", "views"):
        shutil.rmtree(local_state(root) / name, ignore_errors=True)
    code = (
        "import sys; from forest_files.doors.fastcheck import run; code = run([]); "
        "print(code, ' '.join(sorted(sys.modules)))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    code_text, *loaded = proc.stdout.splitlines()[-1].split()
    assert code_text == "0"
    assert "forest_files.check.engine" in loaded  # judged, not remembered
    assert not COLD_NEVER & set(loaded), COLD_NEVER & set(loaded)
