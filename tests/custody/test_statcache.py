"""The stat and parse caches never make a changed file look clean (statcache.py)."""

from __future__ import annotations

import marshal
import os
import random
from pathlib import Path

import pytest

from forest_files.check.engine import check_all
from forest_files.custody.bindings import all_bindings
from forest_files.custody.content import WorktreeSource
from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.statcache import PARSE_NAME, STAT_NAME, StatCache
from forest_files.custody.targets import read_section
from tests.helpers.git import make_repo, write
from tests.helpers.state import local_state

DOC = "# Title\n\n## Keep\n\nkept words here\n\n## Other\n\nother words\n"


def _bound(tmp_path: Path, files: int = 1) -> Repository:
    root = make_repo(tmp_path)
    for i in range(files):
        write(root, f"d{i}.md", DOC)
    repo = Repository.init(root, project_id="p")
    sections = [read_section(root, f"d{i}.md#Keep", (), max_bytes=1 << 20) for i in range(files)]
    adopt_sections(repo, sections, words="adopt", by="t <t@example.org>")
    return repo


def _kinds(repo: Repository) -> list[str]:
    store = repo.synced()
    return [f.kind for f in check_all(store, all_bindings(store), WorktreeSource(repo.root))]


def _age(path: Path, seconds: int = 10) -> None:
    """Put ``path``'s mtime in the past, so its cache entry is not racily clean."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - seconds * 10**9))


def test_unchanged_file_is_not_read_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _bound(tmp_path)
    _age(repo.root / "d0.md")
    assert _kinds(repo) == ["clean"]
    reads: list[str] = []
    real = WorktreeSource.read
    monkeypatch.setattr(WorktreeSource, "read", lambda s, p: reads.append(p) or real(s, p))
    assert _kinds(repo) == ["clean"]
    assert reads == []


def test_racy_entry_is_rehashed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Same-tick rewrite: every stat field equal, content changed -> still detected."""
    repo = _bound(tmp_path)
    path = repo.root / "d0.md"
    assert _kinds(repo) == ["clean"]
    frozen = os.lstat(path)
    cache = StatCache(repo.root)
    entry = cache._entries["d0.md"]
    # the recorded stamp is no later than the mtime: the entry must never be trusted
    cache._entries["d0.md"] = [*entry[:5], frozen.st_mtime_ns]
    cache._dirty = True
    cache.save()
    path.write_text(DOC.replace("kept words here", "KEPT words here"), encoding="utf-8")
    real_lstat = os.lstat
    monkeypatch.setattr(
        "forest_files.custody.statcache.os.lstat",
        lambda p: frozen if str(p) == str(path) else real_lstat(p),
    )
    assert StatCache(repo.root).hash_of("d0.md") is None
    assert _kinds(repo) == ["drifted"]


def test_stamp_precedes_mtime_rule(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()  # a working tree's git directory holds the cache
    cache = StatCache(tmp_path)
    f = tmp_path / "f"
    f.write_text("x", encoding="utf-8")
    st = os.lstat(f)
    cache.record("f", st, "h", st.st_mtime_ns)  # recorded in the file's own tick
    assert cache.lookup("f", st) is None
    cache.record("f", st, "h", st.st_mtime_ns + 1)
    assert cache.lookup("f", st) == "h"


def test_size_and_inode_change_invalidate(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()  # a working tree's git directory holds the cache
    cache = StatCache(tmp_path)
    f = tmp_path / "f"
    f.write_text("abc", encoding="utf-8")
    _age(f)
    st = os.lstat(f)
    cache.record("f", st, "h", cache.stamp())
    assert cache.hash_of("f") == "h"
    f.write_text("abcd", encoding="utf-8")  # size
    _age(f)
    assert cache.hash_of("f") is None
    cache.record("f", os.lstat(f), "h2", cache.stamp())
    assert cache.hash_of("f") == "h2"
    old = os.lstat(f)
    g = tmp_path / "g"
    g.write_text("abcd", encoding="utf-8")
    os.replace(g, f)  # new inode; force the old times back
    os.utime(f, ns=(old.st_atime_ns, old.st_mtime_ns))
    assert os.lstat(f).st_ino != old.st_ino
    assert cache.hash_of("f") is None


@pytest.mark.parametrize(
    "junk",
    [
        b"",
        b"{not marshal",
        marshal.dumps((1, {})),  # another cache version
        marshal.dumps((2, 7)),
        marshal.dumps([1, 2]),
        marshal.dumps((2, {"d0.md": [1, 2]})),  # a malformed entry
    ],
)
def test_corrupt_cache_is_ignored_and_rebuilt(tmp_path: Path, junk: bytes) -> None:
    repo = _bound(tmp_path)
    cache_file = local_state(repo.root) / "cache" / STAT_NAME
    cache_file.parent.mkdir(parents=True, exist_ok=True)
    cache_file.write_bytes(junk)
    (local_state(repo.root) / "cache" / PARSE_NAME).write_bytes(junk)
    assert _kinds(repo) == ["clean"]
    assert "d0.md" in StatCache(repo.root)._entries


def test_parse_cache_spares_a_second_parse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _bound(tmp_path)
    (repo.root / "d0.md").write_text(DOC + "\nappended\n", encoding="utf-8")
    assert _kinds(repo) == ["clean"]
    import forest_files.check.sections as check_mod

    def boom(*args: object) -> object:
        raise AssertionError("parsed again")

    monkeypatch.setattr(check_mod, "_locate", boom)
    assert _kinds(repo) == ["clean"]


def test_random_edits_never_look_clean(tmp_path: Path) -> None:
    """Property-ish: after any edit to the bound section the check says drifted."""
    repo = _bound(tmp_path, files=4)
    rng = random.Random(7)
    for _ in range(12):
        i = rng.randrange(4)
        path = repo.root / f"d{i}.md"
        text = path.read_text(encoding="utf-8")
        inside = rng.random() < 0.6
        if inside:  # same length, so only the content (and maybe the tick) differs
            word = rng.choice(["kept", "here", "words"])
            text = text.replace(word, word.upper(), 1) if word in text else text.swapcase()
        else:
            text += "tail\n"
        path.write_text(text, encoding="utf-8")
        if rng.random() < 0.5:
            _age(path, rng.randint(0, 3))
        kinds = _kinds(repo)
        truth = _kinds_uncached(repo)
        assert kinds == truth
        for j in range(4):  # put every file back to adoption state
            (repo.root / f"d{j}.md").write_text(DOC, encoding="utf-8")


def _kinds_uncached(repo: Repository) -> list[str]:
    store = repo.synced()
    source = WorktreeSource(repo.root, use_stat_cache=False)
    return [f.kind for f in check_all(store, all_bindings(store), source)]


def test_deferred_writes_held_in_process_flushed_and_never_trusted_stale(
    tmp_path: Path,
) -> None:
    """The watcher's deferral: a second save within the interval is held (the file
    on disk keeps the older entries), this process loads the held entries, and the
    flush writes them; a stale file on disk still never makes a changed file clean."""
    from forest_files.custody import cachefile

    repo = _bound(tmp_path)
    root = repo.root
    assert _kinds(repo) == ["clean"]
    path = local_state(root) / "cache" / STAT_NAME
    cachefile.defer_writes(60)
    try:
        first = StatCache(root)
        st = os.lstat(root / "d0.md")
        first.record("d0.md", st, "a" * 64, first.stamp())
        first.save()  # the first save of the interval is written
        on_disk = path.read_bytes()
        second = StatCache(root)
        second.record("d0.md", st, "b" * 64, second.stamp())
        second.save()  # held
        assert path.read_bytes() == on_disk
        assert StatCache(root)._entries["d0.md"][4] == "b" * 64  # this process sees it
        cachefile.flush_writes()
        assert path.read_bytes() != on_disk
    finally:
        cachefile.flush_writes()
        cachefile.defer_writes(0)
    from forest_files.kernel import cache

    record = cache.read(path, path.name)
    assert isinstance(record, tuple)
    assert record[1]["d0.md"][4] == "b" * 64
    write(root, "d0.md", DOC.replace("kept words", "changed words"))
    assert _kinds(repo) == ["drifted"]
