"""Installing forest-files into a repository's git hooks, respecting other hooks.

Stores: our hook scripts (marked ``forest-files-hook v2``) in the hooks directory git
uses (``git rev-parse --git-path hooks``: honours ``core.hooksPath`` and worktrees); a
foreign hook found there is kept as ``NAME.forest-chained`` and run first by ours. A
script of an older version (``v1``: its interpreter could import the repository's own
modules) is ours too: ``install`` replaces it, ``status`` names it as outdated. An
install removes the ``NAME.<pid>.tmp`` an install killed before its rename left, when
that writer is gone (kernel/cache.py ``sweep_leftovers``). With ``server=True`` the
hooks are ``pre-receive`` and ``update`` (doors/hooks/server.py), in a bare repository.
Refuses: overwriting a foreign hook with ``--force`` absent is never done — it is
chained instead; uninstall restores it. Server hooks in a repository that is not bare,
installed, removed or listed (NotARepo: a clone's hooks are the client ones; the refusal
names both installs as commands pasted where typed, the server's in the clone's remote
when that is a bare repository here: ``install_step``). A directory where a hook goes
(git runs files only). Install is all or nothing: a hook that cannot be written (a
read-only folder or file) is one ``ForestError`` naming it and kernel/access.py's fix
(its ``chmod``, the ``chown`` of another user's), after every hook already written or
moved is put back as it was.
Returns: ``HookState`` per hook name (its version, and whether it is older);
``install_step``, the install as the user pastes it (``-C`` where they typed it).
Test: tests/doors/test_hooks.py, tests/doors/test_hooks_install.py,
      tests/doors/test_hooks_install_leftovers.py, tests/custody/test_access_one_wording.py,
      tests/kernel/test_access_read_only_mount.py
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from forest_files import gitio
from forest_files.kernel import cache
from forest_files.kernel.access import access_fix
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import shell_word
from forest_files.kernel.standing import reached_dir
from forest_files.kernel.state import git_dirs

HOOKS = (
    "pre-commit",
    "pre-merge-commit",
    "post-commit",
    "post-applypatch",  # git am commits each patch without pre-commit or post-commit
    "post-merge",
    "post-checkout",
    "post-rewrite",
)
SERVER_HOOKS = ("pre-receive", "update")  # ``--server``: where pushes land (= run.py's)
VERSION = 2
_MARK = "forest-files-hook v"
MARKER = f"{_MARK}{VERSION}"
_MARK_RE = re.compile(re.escape(_MARK) + "([0-9]+)")
CHAINED = ".forest-chained"


@dataclass(frozen=True)
class HookState:
    name: str
    state: str  # "ours", "ours+chained", "altered", "foreign", "missing"
    path: str
    version: int | None = None  # of ours: the marker's; None for any other
    outdated: bool = False  # ours, of an older version: `forest hooks install` replaces it


def template(python: str | None = None) -> str:
    text = (resources.files("forest_files.doors.hooks") / "template.sh").read_text("utf-8")
    # One shell word whatever the path holds (a venv under "Bob's projects"): quoted.
    return text.replace("@PYTHON@", shlex.quote(python or sys.executable))


def _version(path: Path) -> int | None:
    """The version in our marker (``forest-files-hook vN``), None for a foreign script."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    found = _MARK_RE.search(text)
    return int(found.group(1)) if found else None


def _write_exec(path: Path, text: str) -> None:
    """An executable script at ``path``, written through the one atomic write (its
    temporary file never follows a link planted beside it, in a hooks folder that
    can arrive by a commit). A refusal names ``path``, the hook the user knows, never
    that temporary file (``pre-commit.<pid>.tmp``)."""
    try:
        cache.replace_atomically(str(path), text.encode("utf-8"), mode=0o755)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from exc


def install_step(repo: Path, *, server: bool = False) -> str:
    """``forest hooks install`` (``--server``) as the user pastes it where they typed
    the command: with ``-C`` reaching ``repo`` (a work tree's top, or a bare repository)
    unless they stand in it (kernel/standing.py ``reached_dir``)."""
    where = reached_dir(repo)
    step = ("forest", *(("-C", where) if where else ()), "hooks", "install")
    return " ".join(map(shell_word, (*step, *(("--server",) if server else ()))))


def _bare(repo: Path) -> bool:
    proc = gitio.run_git(repo, ["rev-parse", "--is-bare-repository"], ok_codes=(0, 128))
    return proc.returncode == 0 and proc.stdout.strip() == b"true"


def _bare_remotes(repo: Path) -> list[Path]:
    """The remotes of the clone ``repo`` that are bare repositories on this machine (a
    path or ``file://`` URL), ``origin``'s first: where its pushes land."""
    found = gitio.run_git(repo, ["config", "-z", "--get-regexp", r"^remote\..*\.(push)?url$"],
                          ok_codes=(0, 1))  # fmt: skip
    urls: list[tuple[bool, str]] = []
    for entry in found.stdout.decode("utf-8", "surrogateescape").split("\0"):
        key, _, url = entry.partition("\n")
        url = url.removeprefix("file://")
        if "://" in url or ":" in url.partition("/")[0] or not url:
            continue  # another machine's (https, ssh, host:path)
        urls.append((not key.startswith("remote.origin."), url))
    out: list[Path] = []
    for _, url in sorted(urls):
        path = Path(repo, url).resolve()  # git reads a relative one from the top
        if path not in out and path.is_dir() and _bare(path):
            out.append(path)
    return out


def _names(repo: Path, server: bool) -> tuple[str, ...]:
    """The hooks of one kind: the server's only in a bare repository."""
    if not server:
        return HOOKS
    if not _bare(repo):
        top = _work_tree(repo)
        bare = _bare_remotes(top) if top is not None else []
        there = (
            f"`{install_step(bare[0], server=True)}` (its remote)"
            if bare
            else "`forest hooks install --server` there (`git init --bare` makes one)"
        )
        client = install_step(top) if top is not None else "forest hooks install"
        raise gitio.NotARepo(
            f"{repo}: not a bare repository, and a clone's hooks are the client ones "
            f"(`{client}`); the server's go in the bare repository pushes land in: {there}"
        )
    return SERVER_HOOKS


def _work_tree(repo: Path) -> Path | None:
    """The top of the work tree whose git directory (or a folder in it) is ``repo``;
    None when git does not say."""
    try:
        return gitio.toplevel(repo)
    except ForestError:  # a git directory: git answers from its work tree only
        pass
    try:
        git_dir = gitio.git_dir(repo)
        shown = gitio.run_git(git_dir.parent, ["rev-parse", "--absolute-git-dir"]).stdout
        same = Path(shown.decode("utf-8", "surrogateescape").strip()) == git_dir
        return gitio.toplevel(git_dir.parent) if same else None
    except ForestError:
        return None


def install(
    repo: Path, *, force: bool = False, python: str | None = None, server: bool = False
) -> list[HookState]:
    """Install (or update) our hooks; chain foreign ones unless ``force``.
    ``server``: ``pre-receive`` and ``update``, in a bare repository."""
    names = _names(repo, server)
    folder = gitio.hooks_dir(repo)
    for name in names:  # refused before anything is written
        path = folder / name
        if path.is_dir() and not path.is_symlink():
            raise ForestError(
                f"{path} is a directory; git runs a hook from a file there: move it away "
                f"(mv -- {shell_word(str(path))} {shell_word(str(path) + '.moved')}), then "
                f"run `{install_step(repo, server=server)}` again"
            )
        chained = folder / (name + CHAINED)
        if path.exists() and _version(path) is None and not force and chained.exists():
            raise gitio.GitFailed(
                f"{path}: a foreign hook is here and {chained.name} exists too; "
                "merge them by hand or use --force (the foreign one is kept as "
                f"{name}.forest-replaced)"
            )
    undo: list[Callable[[], object]] = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in names:
            _install_one(folder, name, template(python), force, undo)
    except OSError as exc:
        for step in reversed(undo):
            with contextlib.suppress(OSError):
                step()
        where = os.fsdecode(exc.filename) if exc.filename is not None else str(folder)
        raise ForestError(
            f"{where}: cannot be written ({exc.strerror}); no hook was installed: "
            f"{access_fix(where, exc)}, then run `{install_step(repo, server=server)}` again"
        ) from None
    return status(repo, server=server)


def _install_one(
    folder: Path, name: str, text: str, force: bool, undo: list[Callable[[], object]]
) -> None:
    """One hook written (a foreign one moved aside first), with how to take each
    step back appended to ``undo``."""
    path = folder / name
    cache.sweep_leftovers(str(path))  # an install killed before its rename left these
    if path.exists() and _version(path) is None:
        aside = folder / (name + (".forest-replaced" if force else CHAINED))
        path.replace(aside)
        undo.append(lambda: aside.replace(path))
    before = path.read_bytes() if path.exists() else None
    mode = path.stat().st_mode & 0o7777 if before is not None else 0o755
    _write_exec(path, text)
    if before is None:
        undo.append(lambda: path.unlink(missing_ok=True))
    else:  # through the one atomic write too: a link planted meanwhile is replaced
        undo.append(lambda: cache.replace_atomically(str(path), before, mode=mode))


def uninstall(repo: Path, *, server: bool = False) -> list[HookState]:
    """Remove our hooks and put chained foreign hooks back."""
    names = _names(repo, server)
    folder = gitio.hooks_dir(repo)
    for name in names:
        path = folder / name
        if path.exists() and _version(path) is not None:
            path.unlink()
        chained = folder / (name + CHAINED)
        if chained.exists() and not path.exists():
            chained.replace(path)
    return status(repo, server=server)


def _altered(path: Path) -> bool:
    """A script with our current marker whose text is not the template's for the
    interpreter it names (edited by hand, or arrived by a commit in a tracked
    ``core.hooksPath``): never reported as ours."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return True
    named = [line for line in text.splitlines() if line.startswith("FOREST_PYTHON=")]
    try:
        words = shlex.split(named[0].removeprefix("FOREST_PYTHON=")) if named else []
    except ValueError:
        return True
    return len(words) != 1 or text != template(words[0])


def hooks_place(repo: Path) -> str:
    """Where git's hooks folder of the work tree ``repo`` lies: ``git`` (in the git
    directory: git's own, never tracked), ``work tree`` (a ``core.hooksPath`` such as
    ``.githooks``: its scripts can travel with commits, so a pull can change them), or
    ``outside`` (neither: a ``core.hooksPath`` such as ``~/.githooks``, often set in
    the global git config, whose scripts run for every repository naming it)."""
    try:
        top = gitio.toplevel(repo).resolve()
    except (gitio.NotARepo, gitio.BareRepo):
        return "git"  # a bare repository: its hooks are its own
    folder = gitio.hooks_dir(repo).resolve()
    inside = {p.resolve() for p in git_dirs(repo)}
    if folder in inside or any(d in folder.parents for d in inside):
        return "git"
    return "work tree" if folder == top or top in folder.parents else "outside"


def status(repo: Path, *, server: bool = False) -> list[HookState]:
    """Each hook's state; ``server`` outside a bare repository is refused as the
    install is (``_names``): a clone's ``.git/hooks`` holds no server hook to list."""
    names = _names(repo, server)
    folder = gitio.hooks_dir(repo)
    out: list[HookState] = []
    for name in names:
        path = folder / name
        version = _version(path) if path.exists() else None
        if not path.exists():
            state = "missing"
        elif version == VERSION and _altered(path):
            state = "altered"
        elif version is not None:
            state = "ours+chained" if (folder / (name + CHAINED)).exists() else "ours"
        else:
            state = "foreign"
        outdated = version is not None and version < VERSION
        out.append(HookState(name, state, str(path), version, outdated))
    return out
