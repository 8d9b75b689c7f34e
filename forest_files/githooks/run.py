"""What the installed git hooks run. Fast path: no typer, pydantic, GitPython.

Stores: nothing on pre-commit / pre-merge-commit (the working tree and the
git index are never modified or stashed); post-merge, post-checkout and
post-rewrite bring the local index in step with the checked-out ledger.
Refuses: a commit whose staged content diverges from the staged ledger's
ground (drifted, missing, unresolved, moved, contested) — exit 1, naming the
binding, who adopted its ground and with which words, a diff ground → staged
on a terminal, and the exact restore / supersede commands.
Returns: the hook's exit code.
Test: tests/test_hooks.py

The check honours ``GIT_INDEX_FILE`` (``git commit -a`` and ``git commit
PATH`` use a temporary index). Its cost grows with the staged change: when no
ledger file is staged, the staged ledger is HEAD's (its view found through the
alias of HEAD's ledger tree id, viewkey.py), and only the staged paths'
bindings are judged, from the view's binding map (bindmap.py): SQLite is
opened only to explain a refusal.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

    from forest_files.files.bindmap import BindMap
    from forest_files.files.check import Finding, Ground
    from forest_files.files.content import ContentSource
    from forest_files.ledger.bindings import Binding
    from forest_files.store.forest import ForestStore

CHECK_HOOKS = ("pre-commit", "pre-merge-commit")
SYNC_HOOKS = ("post-merge", "post-checkout", "post-rewrite")


def _say(text: str) -> None:
    sys.stderr.write(text + "\n")


_ADOPTION = """
SELECT r.signature, r.body FROM entries e
JOIN edges a ON a.to_id = e.id AND a.kind = 'adopts'
JOIN entries r ON r.id = a.from_id
WHERE e.content_id = ? ORDER BY a.id DESC LIMIT 1
"""


def _adoption(conn: sqlite3.Connection, ground: str | None) -> str:
    row = None if ground is None else conn.execute(_ADOPTION, (ground,)).fetchone()
    return "" if row is None else f"adopted by {row[0]}: \u201c{row[1]}\u201d"


def check_staged(root: Path) -> int:
    """The pre-commit verdict for what is staged, against the staged ledger."""
    from forest_files import gitio
    from forest_files.files.viewkey import (
        bound_paths,
        commit_fingerprint,
        head_custody,
        ledger_fingerprint,
        read_alias,
        view_path,
        write_alias,
    )
    from forest_files.paths import LEDGER_PREFIX

    head = head_custody(root)
    changes = gitio.staged_changes(
        root, keep_index_file=True, head=head[0] if head is not None else None
    )
    touched = {c.path for c in changes} | {c.old_path for c in changes if c.old_path}
    ledger_staged = any(p.startswith(LEDGER_PREFIX) or p == "forest.toml" for p in touched)
    custody_uncertain = head is None or "forest.toml" in touched
    if custody_uncertain and not gitio.ls_files_stage(root, "forest.toml", keep_index_file=True):
        return 0  # the tree being committed holds no custody (yet, or any more)
    # No ledger file staged: the staged ledger is HEAD's, known by its tree id, and
    # the view of it by the alias an earlier hook wrote (no listing of the ledger).
    same_as_head = head is not None and not ledger_staged
    fingerprint = read_alias(root, head[1]) if same_as_head and head is not None else None
    if fingerprint is None:
        fingerprint = ledger_fingerprint(root, "index", keep_index_file=True)
        if same_as_head and head is not None:
            write_alias(root, head[1], fingerprint)
    if not ledger_staged:
        # Fast path: the staged ledger's view is cached with its bound paths; a commit
        # touching none of them needs no store, no parse, no replay.
        known = bound_paths(view_path(root, fingerprint))
        if known is not None and not (known & touched):
            return 0
    from forest_files.files.check import check_all

    if not ledger_staged:
        bindings, of_map, content = _touched_from_map(root, view_path(root, fingerprint), touched)
        if not bindings:
            return 0
        failed = [f for f in check_all(None, bindings, content, grounds=of_map) if f.failed]
        if not failed:
            return 0  # judged without opening the store
        import sqlite3

        view = view_path(root, fingerprint)
        conn = sqlite3.connect(f"{view.as_uri()}?mode=ro", uri=True)  # words, no store
        try:
            _refuse(conn, failed, bindings, content, view)
        finally:
            conn.close()
        return 1

    from forest_files.files.session import custody_at
    from forest_files.signing.live import hook_warning

    if (warning := hook_warning(root, touched)) is not None:  # advice only: the gate decides
        _say(warning)
    # HEAD's view (the one the previous commit's hook built, under the same
    # fingerprint) tells which bindings this ledger change can have moved.
    previous = _map_of(root, commit_fingerprint(root, head[0])) if head is not None else None
    with custody_at(root, "index", keep_index_file=True, fingerprint=fingerprint) as (
        store,
        bindings,
        content,
    ):
        grounds: dict[int, Ground] | None = None
        if previous is not None:  # judge only what the staged change can have moved
            from forest_files.files.bindmap import derive

            staged = derive(store)
            bindings, grounds = _affected(staged, previous, touched), staged.grounds
        findings = check_all(store, bindings, content, grounds=grounds)
        failed = [f for f in findings if f.failed]
        contested = _contested_unbound(store, findings)
        for cid in contested:
            _say(
                f"forest-files: commit refused — ground {cid} is contested (two successors "
                f'merged); fix: forest resolve {cid} --pick ID --words "…"'
            )
        if not failed:
            return 1 if contested else 0
        _refuse(store.conn, failed, bindings, content, store)
        return 1


def _map_of(root: Path, fingerprint: str | None) -> BindMap | None:
    """The binding map of a cached view, derived and saved if only the view is there
    (None when the view is not cached)."""
    if fingerprint is None:
        return None
    from forest_files.files import bindmap
    from forest_files.files.viewkey import view_path

    view = view_path(root, fingerprint)
    record = bindmap.view_record(str(view))
    found = bindmap.load(record, fingerprint)
    if found is None and view.exists():
        from forest_files.store.forest import ForestStore

        store = ForestStore(view)
        try:
            found = bindmap.derive(store)
        finally:
            store.close()
        bindmap.save(record, fingerprint, found)
    return found


def _affected(staged: BindMap, previous: BindMap, touched: set[str]) -> list[Binding]:
    """Bindings a commit staging ledger files can have moved off ground: those of
    staged paths, and those whose binding or ground differs from HEAD's (compared by
    content, not by local ids); with every other binding of the same section, so a
    contest names all its candidates."""

    def key(b: Binding, ground: Ground | None) -> tuple[object, ...]:
        fields = (b.path, b.selector, b.excludes, b.section_hash)
        return (*fields, b.normalisation, b.hash_algo, b.retired, b.contested, ground)

    before = {b.bind_act: key(b, previous.grounds.get(b.entry_id)) for b in previous.bindings}
    moved = {
        (b.path, b.selector)
        for b in staged.bindings
        if b.path in touched or before.get(b.bind_act) != key(b, staged.grounds.get(b.entry_id))
    }
    return [b for b in staged.bindings if (b.path, b.selector) in moved]


def _touched_from_map(
    root: Path, view: Path, touched: set[str]
) -> tuple[list[Binding], dict[int, Ground], ContentSource]:
    """Bindings of the staged paths, every ground, and the staged content: from the
    view's binding map (bindmap.py), derived and saved once per view."""
    from forest_files.files import bindmap
    from forest_files.files.content import GitTreeSource

    fingerprint = view.stem
    record = bindmap.view_record(str(view))
    found = bindmap.load(record, fingerprint, touched) if view.exists() else None
    if found is None:
        from forest_files.files.session import custody_at

        with custody_at(
            root, "index", keep_index_file=True, paths=touched, fingerprint=fingerprint
        ) as (store, _bindings, _content):
            found = bindmap.derive(store)
        bindmap.save(record, fingerprint, found)
    bindings = [b for b in found.bindings if b.path in touched]
    content = GitTreeSource(root, None, keep_index_file=True, only=tuple(sorted(touched)))
    return bindings, found.grounds, content


def _refuse(
    conn: sqlite3.Connection,
    failed: list[Finding],
    bindings: list[Binding],
    content: ContentSource,
    custody: ForestStore | Path,
) -> None:
    """Why the commit is refused: each binding, who adopted its ground with which
    words, a diff ground -> staged on a terminal (``custody``: the store, or the view
    to open only then), and the two routes."""

    excludes = {b.bind_act: b.excludes for b in bindings}
    _say(f"forest-files: commit refused — {len(failed)} bound section(s) diverge from ground")
    for f in failed:
        where = f" (lines {f.start_line}-{f.end_line})" if f.start_line else ""
        _say(f"\n{f.kind}: {f.selector}{where} {f.detail}".rstrip())
        who = _adoption(conn, f.ground)
        if who:
            _say(f"  ground {f.ground[:12] if f.ground else '-'} {who}")
        if f.kind == "contested":
            _say(
                f"  candidates: {', '.join(f.candidates) or 'two bindings'}; "
                f'fix: forest resolve ID --pick ID --words "…"'
            )
        if f.kind == "drifted" and sys.stderr.isatty():
            _say(_diff(custody, f, content, excludes.get(f.binding, ())))
        if f.detail.startswith("not a regular file"):
            _say(f"  put the bound file itself back at {f.path} (a regular file), then git add it")
        elif f.kind in ("drifted", "unresolved", "missing"):
            _say(f"  restore ground:   forest restore '{f.selector}'")
            _say(
                f"  adopt the change: forest supersede '{f.selector}' --words \"…\"  "
                "(then stage .forest/ledger with the file)"
            )
        if f.kind == "moved":
            _say(f"  {f.detail}")


def _diff(
    custody: ForestStore | Path, f: Finding, content: ContentSource, excludes: tuple[str, ...]
) -> str:
    from forest_files.files.diff import section_diff
    from forest_files.store.forest import ForestStore

    if isinstance(custody, ForestStore):
        return section_diff(custody, f, content, excludes)
    store = ForestStore(custody)
    try:
        return section_diff(store, f, content, excludes)
    finally:
        store.close()


def _contested_unbound(store: object, findings: Sequence[object]) -> list[str]:
    """Contested ground that no file binding reports (ground adopted as text only)."""
    from forest_files.ledger.views import list_view
    from forest_files.store.forest import ForestStore

    assert isinstance(store, ForestStore)
    reported = {c for f in findings for c in getattr(f, "candidates", ())}
    return [
        g.content_id for g in list_view(store, "contested_entries") if g.content_id not in reported
    ]


def sync_index(root: Path) -> int:
    from forest_files.errors import ForestError
    from forest_files.repository import Repository

    try:
        with Repository(root) as repo:
            repo.sync()
    except ForestError as exc:
        _say(f"forest-files: index not in step with the ledger ({exc}); run `forest sync`")
    return 0


def main(argv: list[str]) -> int:
    """``forest-hook HOOK [git's hook arguments]``."""
    from forest_files import gitio
    from forest_files.errors import ForestError

    if not argv:
        _say("usage: forest-hook pre-commit|pre-merge-commit|post-merge|post-checkout|post-rewrite")
        return 2
    hook = argv[0]
    try:
        root = gitio.toplevel(Path.cwd())
        if not (root / "forest.toml").exists():
            return 0  # not under custody (yet): nothing to guard
        if hook in CHECK_HOOKS:
            return check_staged(root)
        if hook in SYNC_HOOKS:
            return sync_index(root)
        _say(f"forest-files hook: unknown hook {hook!r}")
        return 2
    except ForestError as exc:
        _say(f"forest-files: {' '.join(str(exc).split())}")
        return 1 if hook in CHECK_HOOKS else 0


def console() -> None:
    """Console-script entry (``forest-hook``), used by the pre-commit framework."""
    sys.exit(main(sys.argv[1:]))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    console()
