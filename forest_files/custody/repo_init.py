"""Setting a git repository up for custody: forest.toml, the ledger directory, and
the ignore and attribute lines.

Stores: ``forest.toml`` (a new project id, or the ledger's when one stands; written
in the git directory's temp folder and renamed in, so it is whole or absent),
``.forest/ledger/``, ``.forest/.gitignore`` and a ``.gitattributes`` line (appended
once: a person's lines there are never written anew).
Refuses: ``init`` where forest.toml exists (``ConfigError`` naming ``forest sync``);
``init`` beside a ledger of another project, or with no ``--project-id`` beside a
ledger whose forest.toml git still holds, or where a commit of this branch removed
forest.toml and the ledger that a branch tip still holds (custody/lost_config.py
names the way back); a ledger directory, ``.forest/.gitignore`` or ``.gitattributes`` that is a
symlink (custody/ledger_dirs.py; nothing is written through a link); an empty
``--project-id``. Every refusal comes before the first write; a file that cannot
be written is refused after the ones written before it are taken back (its fix
free space for want of room, else kernel/access.py's ``access_fix`` for the path the
error names: its ``chmod``, or the ``chown`` of another user's).
Returns: an ``Undo`` that puts every file it wrote back as it was
(``Repository.init`` calls it when the first sync refuses the ledger).
Test: tests/custody/test_repository.py, tests/custody/test_lost_config.py,
tests/custody/test_repo_init.py, tests/custody/test_crash_matrix.py,
tests/custody/test_init_no_space.py
"""

from __future__ import annotations

import errno
import os
import uuid
from collections.abc import Callable
from pathlib import Path

from forest_files.custody import lost_config
from forest_files.custody.config import CONFIG_NAME, ConfigError, new_config, render_config
from forest_files.custody.ledger_dirs import refuse_linked_ledger
from forest_files.kernel.access import access_fix
from forest_files.kernel.errors import FREE_SPACE, ForestError, no_space
from forest_files.kernel.paths import FOREST_DIR, GITATTRIBUTES_LINE, GITIGNORE_LINES, LEDGER_DIR
from forest_files.kernel.shellword import command_text, forest_text
from forest_files.kernel.state import ensure_dir
from forest_files.ledger.placing import temp_dir

Undo = Callable[[], None]


def lay_out(root: Path, project_id: str | None) -> Undo:
    """Create forest.toml, the ledger directory and the ignore/attribute lines."""
    config_path = root / CONFIG_NAME
    if config_path.exists():
        raise ConfigError(
            f"{config_path} exists: this repository is already initialised; "
            f"use `{forest_text('sync')}` (or `{forest_text('rebuild')}`)"
        )
    if project_id is not None and not project_id.strip():
        raise ConfigError("--project-id is empty: give the id, or leave the option out")
    refuse_linked_ledger(root)  # never laid out through a committed link
    project_id = _project_beside_ledger(root, project_id)
    cfg = new_config(project_id or uuid.uuid4().hex)
    written = (root / FOREST_DIR / ".gitignore", root / ".gitattributes")
    for path in written:
        if path.is_symlink():
            rel = path.relative_to(root).as_posix()
            raise ForestError(
                f"{rel} is a symlink; forest init writes it and follows no link: remove it "
                f"({command_text(('rm', '--', rel))}) and run {forest_text('init')} again"
            )
    before = {path: path.read_bytes() if path.exists() else None for path in written}
    made = [d for d in (root / FOREST_DIR, root / LEDGER_DIR) if not d.exists()]

    def undo() -> None:
        config_path.unlink(missing_ok=True)
        for path, data in before.items():
            if data is None:
                path.unlink(missing_ok=True)
            elif path.read_bytes() != data:  # untouched: never written again
                path.write_bytes(data)
        for folder in reversed(made):
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()

    step = root / LEDGER_DIR
    try:
        step.mkdir(parents=True, exist_ok=True)
        step = written[0]
        for line in GITIGNORE_LINES:
            _append_line(step, line)  # a user's own lines there are kept
        step = written[1]
        _append_line(step, GITATTRIBUTES_LINE)
        step = config_path
        _write_whole(config_path, render_config(cfg), root / LEDGER_DIR)
    except OSError as exc:
        undo()
        raise _unwritten(root, step, exc, project_id) from None
    return undo


def _unwritten(root: Path, step: Path, exc: OSError, project_id: str | None) -> ForestError:
    """The one line for ``step``, a file init could not write, taken back: free space for
    want of room (a chmod frees none), else kernel/access.py's fix for the path the
    error names (a rename's target; a folder not made yet: its parent's); then init
    again, as typed."""
    failed = exc.filename2 if exc.filename2 is not None else exc.filename
    named = os.fsdecode(failed) if failed is not None else str(step)
    fix = FREE_SPACE if no_space(exc) else access_fix(named, exc)
    again = ("--project-id", project_id) if project_id else ()
    return ForestError(
        f"{step.relative_to(root)} cannot be written ({exc.strerror}); nothing was set up: "
        f"{fix}, then run `{forest_text('init', options=again)}` again"
    )


def _project_beside_ledger(root: Path, asked: str | None) -> str | None:
    """The project id for a forest.toml laid beside a ledger that already holds acts
    (a clone whose forest.toml was lost): the ledger's own. Without ``--project-id``,
    refused while git still holds the lost file (its authority rules come back with
    it); a different id is refused (every act would then be refused)."""
    if not lost_config.holds_ledger(root):
        removed = lost_config.removed_on_branch(root) if asked is None else None
        if removed is not None:  # a commit of this branch removed custody: not a new one
            fresh = forest_text("init", options=("--project-id", uuid.uuid4().hex))
            raise ConfigError(
                f"{removed.said()} (or start another project deliberately: `{fresh}`)"
            )
        return asked
    project = lost_config.ledger_project(root)
    if project is None or asked == project:
        return asked  # an undecodable first act: the first sync names the fault
    route = lost_config.way_back(root)
    if asked is None and route.startswith("forest "):  # its one forest step: init
        return project  # nothing to restore: the ledger says whose it is
    fresh = forest_text("init", options=("--project-id", project))
    why = f"the ledger ({LEDGER_DIR}) belongs to project {project!r}"
    if asked is not None:
        raise ConfigError(
            f"{why}, not {asked!r}: a forest.toml of another project would refuse every "
            f"act; run `{fresh}`"
        )
    raise ConfigError(
        f"{why} and git still holds its forest.toml, with its authority rules: put it "
        f"back with `{route}` (or start a new one for that project: `{fresh}`)"
    )


def _write_whole(path: Path, text: str, ledger: Path) -> None:
    """``text`` as the new file ``path``, written in the ledger's temp folder (in the git
    directory: ``placing.sweep`` removes what a killed writer left) and renamed in: a
    kill leaves no file, so init typed again completes, or the whole file. Written in
    place, a kill between the open and the write left an empty forest.toml that every
    command refused, init too. Written in place where the git directory is on another
    filesystem (no rename across; the ledger's writes refuse there)."""
    folder = temp_dir(ledger)
    ensure_dir(folder)
    tmp = folder / f"{path.name}.{os.getpid()}.part"
    tmp.unlink(missing_ok=True)  # left by a killed earlier run that had our pid
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        if exc.errno != errno.EXDEV:
            raise
        path.write_text(text, encoding="utf-8")


def _append_line(path: Path, line: str) -> None:
    """``line`` added at the end of ``path`` unless it holds it. Appended, never the
    file written anew: a kill between the truncating open and the write left a
    person's ``.gitattributes`` empty (one small write: whole, or not at all)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if line in text.splitlines():
        return
    with path.open("a", encoding="utf-8") as out:
        out.write(("\n" if text and not text.endswith("\n") else "") + line + "\n")
