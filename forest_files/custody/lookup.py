"""Finding a binding from what a user typed, and its custody chain.

Stores: nothing.
Refuses: a target naming a file no selector can name (so no binding can hold it:
refused with its rename, custody/target_names.py); a target that names no binding
(listing the bindings of that path,
naming the one it names but for Unicode normalisation: ``binding_twin``, or,
typed below the top, the one it names there: ``below_top``), a target two bound
files answer to (typed below the top, where a bound file of that name stands too:
``two_answer``, as adopt refuses), or one that matches several (listing them); a
directory move from a directory holding no binding, or between overlapping
directories.
Returns: the ``Binding``; the chain of entries that were its ground, oldest
first, as ``ChainLink`` values (content ids, signatures, words, hashes —
never body text); the bindings a directory move carries and where to. Where a
rebind's bindings land (read there, a subtree carried, a held place refused) is
rebind_moves.py; ``descendants`` is handed on from there for check/commit_plan.py.
Test: tests/custody/test_file_custody.py, tests/custody/test_lookup.py
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from forest_files.custody.bindings import Binding
from forest_files.custody.heading_names import same_heading
from forest_files.custody.rebind_moves import descendants as descendants
from forest_files.custody.target_names import parse_target
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import forest_text, shell_word
from forest_files.kernel.standing import standing
from forest_files.store.forest import ForestStore
from forest_files.text.selector import parse_selector, render


class NoSuchBinding(ForestError):
    """The target names no live binding."""


def _tail_of(bound: str, wanted_kind: str, wanted: tuple[str, ...], index: int | None) -> bool:
    sel = parse_selector(bound)
    if sel.kind != wanted_kind:
        return False
    if index is not None and sel.index != index:
        return False
    return sel.parts[len(sel.parts) - len(wanted) :] == wanted


def find_binding(
    bindings: list[Binding],
    target: str,
    binding_id: str | None = None,
    *,
    root: Path | None = None,
) -> Binding:
    """The binding ``target`` names: its full selector, or a unique heading-path tail.
    ``binding_id`` (a bind act id or a unique prefix) picks one of several bindings of
    one section (two branches bound it, then merged). With ``root``, a target that
    names no binding as typed (``c.md#Notes[2]`` recorded as ``c.md#B/Notes``, or a
    heading's id ``c.md#{notes}`` recorded as its path, or the other way round) is
    resolved against the working-tree file, and the binding of that section wins; a
    file no selector can name, typed as it stands, is refused with its rename."""
    every = bindings
    if binding_id:
        bindings = [b for b in bindings if b.bind_act.startswith(binding_id)]
    sel = parse_selector(target) if root is None else parse_target(root, target)
    both = two_answer(bindings, target)
    if both is not None:
        raise NoSuchBinding(f"{target}: {both}")
    full = render(sel)
    same_path = [b for b in bindings if b.path == sel.path]
    if binding_id and not same_path:  # the id names none of this file's bindings
        ids = ", ".join(f"{b.selector} ({b.bind_act[:12]})" for b in every if b.path == sel.path)
        raise NoSuchBinding(
            f"{target}: no binding with id {binding_id} (bindings of {sel.path}: "
            f"{ids or 'none'}); list them with `{forest_text('status')}`"
        )
    found = [b for b in same_path if b.selector == full]
    if not found:
        found = [
            b for b in same_path if _tail_of(b.selector, sel.kind, tuple(sel.parts), sel.index)
        ]
    if not found and root is not None:
        resolved = _resolved(root, target)
        found = [b for b in same_path if resolved is not None and b.selector == resolved]
    if not found and root is not None:  # one heading, named by its id or by its path
        found = same_heading(root, sel, same_path)
    if len(found) == 1:
        return found[0]
    if not found:
        twin = binding_twin(bindings, target)
        if twin is not None:
            raise NoSuchBinding(f"{target}: no binding; {twin}")
        below = below_top(bindings, target)
        if below is not None:
            raise NoSuchBinding(f"{target}: {below}")
        known = ", ".join(b.selector for b in same_path) or "none"
        raise NoSuchBinding(
            f"{target}: no binding (bindings of {sel.path}: {known}); "
            f"list them with `{forest_text('status')}`"
        )
    raise NoSuchBinding(
        f"{target} matches several bindings: "
        f"{', '.join(f'{b.selector} (--binding {b.bind_act[:12]})' for b in found)}; "
        "give the full selector or --binding ID"
    )


def binding_twin(bindings: list[Binding], target: str) -> str | None:
    """The clause naming the live binding ``target`` names but for Unicode
    normalisation (its full selector, or a heading-path tail), or None."""
    from forest_files.text.unicode_twin import twin_clause, twin_selector

    live = (b.selector for b in bindings if not b.retired)
    spelled = twin_selector(target, live)
    if spelled is None:
        return None
    return twin_clause(target, spelled, spelled, holder="its binding")


def below_top(bindings: list[Binding], target: str) -> str | None:
    """Typed below the top (``forest diff ch2.md`` in ``book/``, where
    ``book/ch2.md`` is bound): the clause saying every selector starts at the top
    and naming the target as given there, or None (at the top, or nothing bound
    beside the user under that name)."""
    prefix = standing()
    if not prefix:
        return None
    path = parse_selector(target).path
    if not any(b.path == prefix + path and not b.retired for b in bindings):
        return None
    return (
        "no binding at the top of the work tree, where every selector starts; "
        f"you stand in {prefix}, so give {shell_word(prefix + target)}"
    )


def two_answer(bindings: list[Binding], target: str) -> str | None:
    """Typed below the top where both files are bound (``forest restore a.md`` in
    ``docs/``, where ``a.md`` and ``docs/a.md`` are): the clause naming both, as
    ``forest adopt`` refuses it, or None. The top's file is what the selector means,
    but an act on it from beside the other could restore or supersede the wrong one."""
    prefix = standing()
    if not prefix:
        return None
    path = parse_selector(target).path
    live = {b.path for b in bindings if not b.retired}
    if path not in live or prefix + path not in live:
        return None
    return (
        f"two bound files answer to it: {path} at the top of the work tree, where every "
        f"selector starts, and {prefix + path} in {prefix}, where you stand; give "
        f"{shell_word(prefix + target)} for that one, or run the command at the top for {path}"
    )


def _resolved(root: Path, target: str) -> str | None:
    """The full selector ``target`` resolves to in the working tree (None if none)."""
    from forest_files.custody.targets import read_section

    try:
        return read_section(root, target, (), max_bytes=1 << 30).selector
    except ForestError:
        return None


@dataclass(frozen=True)
class ChainLink:
    content_id: str
    body_hash: str
    adopted_by: str
    words: str
    created_at: str
    status: str


def chain(store: ForestStore, binding: Binding) -> list[ChainLink]:
    """Every entry of the binding's supersession chain, oldest first."""
    root = store.conn.execute(
        "SELECT COALESCE(chain_root, id) FROM entries WHERE id = ?", (binding.entry_id,)
    ).fetchone()[0]
    rows = store.conn.execute(
        "SELECT * FROM entries WHERE id = ? OR chain_root = ? ORDER BY created_at, id",
        (root, root),
    ).fetchall()
    links: list[ChainLink] = []
    for row in rows:
        entry_id = int(row["id"])
        record = store.conn.execute(
            "SELECT r.signature, r.body FROM edges a JOIN entries r ON r.id = a.from_id "
            "WHERE a.to_id = ? AND a.kind = 'adopts' ORDER BY a.id DESC LIMIT 1",
            (entry_id,),
        ).fetchone()
        if store.is_ground(entry_id):
            status = "ground"
        elif store.is_contested(entry_id):
            status = "contested"
        elif store.is_sealed(entry_id):
            status = "sealed"
        else:
            status = "superseded"
        links.append(
            ChainLink(
                content_id=store.content_id(entry_id),
                body_hash=str(row["body_hash"]),
                adopted_by="" if record is None else str(record["signature"]),
                words="" if record is None else str(record["body"]),
                created_at=str(row["created_at"]),
                status=status,
            )
        )
    return links


def moves_under(bindings: list[Binding], old_dir: str, new_dir: str) -> list[tuple[Binding, str]]:
    """Every live binding under directory ``old_dir`` with the selector it has at the
    same relative path under ``new_dir`` (a directory moved: ``forest rebind a/ b/``)."""
    from dataclasses import replace

    old, new = old_dir.strip("/"), new_dir.strip("/")
    if not old or not new:
        raise ForestError(
            "a directory rebind names two directories, e.g. `forest rebind 'old/dir/' 'new/dir/'`"
        )
    if old == new or new.startswith(old + "/") or old.startswith(new + "/"):
        raise ForestError(f"{old_dir} and {new_dir} overlap; name the directory it moved to")
    out: list[tuple[Binding, str]] = []
    for b in bindings:
        if b.path.startswith(old + "/"):
            moved = new + b.path[len(old) :]
            out.append((b, render(replace(parse_selector(b.selector), path=moved))))
    if not out:
        raise NoSuchBinding(
            f"{old_dir}: no binding lies under it; list bindings with `{forest_text('status')}`"
        )
    return out
