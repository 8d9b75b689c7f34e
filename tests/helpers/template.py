"""Repositories built once and copied: a module's set-up paid once, each test its own copy.

A copy is the whole directory, ``.git`` included (``shutil.copytree``, symlinks kept
as symlinks): its own objects, index, refs and local state, nothing shared with the
original or another copy. Build only what every test of the module starts from;
hooks (which record paths) are installed on the copy.

``copied_from(build)`` is the usual pair as one fixture: a test's private copy of
the repository ``build`` makes, built once per worker process. ``reused`` does the
same for a shared builder (``helpers.custody.two_bound_files`` and ``adopted_repo``,
``helpers.forgetting.adopted_then_cleaned``, ``helpers.watch.bound_repo``): built
once per worker process for each set of arguments, in a directory removed when the
process ends. A copy skips the set-up's fsyncs (store, ledger) that made up most of
its time. A copy's acts keep the time its template was built (content ids and ledger
file names included): the same for every copy of one template, never the test's own.

``reused_tree`` copies several repositories built side by side (an origin and its
clones): where git wrote the template's own path (a clone's remote, ``FETCH_HEAD``,
the reflogs' messages) the copy names its own place instead; a commit's message (a
merge's "Merge /its/path") keeps the template's, as its id does.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers.git import isolate


@contextmanager
def isolated() -> Iterator[None]:
    """The fixed git environment of ``conftest._isolated_git`` for a fixture wider
    than one test (which runs before that autouse fixture)."""
    patch = pytest.MonkeyPatch()
    isolate(patch)
    try:
        yield
    finally:
        patch.undo()


def built_once(factory: pytest.TempPathFactory, build: Callable[[Path], Path]) -> Path:
    """``build(directory)`` run once in a fresh temporary directory; the repository it returns."""
    with isolated():
        return build(factory.mktemp("template"))


def copy_repo(template: Path, dest: Path) -> Path:
    """A private copy of ``template`` at ``dest`` (which must not exist)."""
    return Path(shutil.copytree(template, dest, symlinks=True))


_BUILT: dict[tuple[object, ...], Path] = {}
_ROOT = tempfile.gettempdir()  # at import: never a directory a test points TMPDIR at


def reused(key: tuple[object, ...], dest: Path, build: Callable[[Path], Path]) -> Path:
    """A private copy at ``dest`` of the repository ``build(directory)`` returns, built
    once per worker process for ``key`` (everything the build depends on)."""
    template = _BUILT.get(key)
    if template is None or not template.is_dir():
        home = Path(tempfile.mkdtemp(prefix="forest-template-", dir=_ROOT))
        atexit.register(shutil.rmtree, home, True)
        with isolated():  # the fixed git, whatever the first caller's test changed
            template = _BUILT[key] = build(home)
    return copy_repo(template, dest)


def copied_from(build: Callable[[Path], Path], dest: str = "repo") -> Callable[[Path], Path]:
    """A test fixture (named by the module attribute it is assigned to): a private copy,
    at ``tmp_path / dest``, of the repository ``build(directory)`` returns, built once
    per worker process (``reused``)."""
    key = ("copied_from", build.__module__, build.__qualname__)

    @pytest.fixture
    def copied(tmp_path: Path) -> Path:
        return reused(key, tmp_path / dest, build)

    return copied


# The files where git writes a repository's or its neighbours' absolute paths as text.
_PATH_FILES = ("config", "FETCH_HEAD")


def _renamed(git_dir: Path, old: str, new: str) -> None:
    """``old`` (the template's directory) read ``new`` in ``git_dir``'s text files."""
    logs = git_dir / "logs"
    files = [git_dir / name for name in _PATH_FILES]
    files += [p for p in logs.rglob("*") if p.is_file()] if logs.is_dir() else []
    before, after = old.encode(), new.encode()
    for path in files:
        if path.is_file() and before in (text := path.read_bytes()):
            path.write_bytes(text.replace(before, after))


def reused_tree(key: tuple[object, ...], dest: Path, build: Callable[[Path], object]) -> Path:
    """Private copies in ``dest`` (made when missing) of every directory ``build(home)``
    makes in its ``home``, built once per worker process for ``key``: each repository
    among them names ``dest`` where the template named ``home`` (remotes, reflogs)."""
    home = _BUILT.get(("tree", *key))
    if home is None or not home.is_dir():
        home = Path(tempfile.mkdtemp(prefix="forest-template-", dir=_ROOT))
        atexit.register(shutil.rmtree, home, True)
        with isolated():
            build(home)
        _BUILT["tree", *key] = home
    dest.mkdir(parents=True, exist_ok=True)
    for child in sorted(home.iterdir()):
        copy = copy_repo(child, dest / child.name)
        if (copy / ".git").is_dir():
            _renamed(copy / ".git", str(home), str(dest))
    return dest
