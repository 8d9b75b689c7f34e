"""Where a rebind's bindings land: each read at its new place, a heading's bound
subtree carried, and a move onto a section another binding holds refused.

Stores: nothing.
Refuses: a rebind onto a section another live binding holds (by the same selector,
or a heading by another name: its id or its heading path; ``refuse_bound_targets``).
Returns: each binding with its new place as the working tree holds it
(``read_moves``); the bound descendants a heading's rebind carries
(``descendants``).
Test: tests/check/test_moves.py, tests/check/test_renames.py,
tests/check/test_commit_plan_held.py, tests/check/test_commit_rebind.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.custody.bindings import Binding
from forest_files.custody.heading_names import same_heading
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import shell_word
from forest_files.text.selector import Selector, parse_selector, render

if TYPE_CHECKING:
    from forest_files.custody.record import SectionText


def read_moves(
    root: Path, pairs: list[tuple[Binding, str]], *, max_bytes: int
) -> list[tuple[Binding, SectionText]]:
    """Each binding with its new location as the working tree holds it (read with the
    binding's exclusions; one git call for submodules and filters per exclusion set)."""
    from forest_files.custody.targets import read_sections

    groups: dict[tuple[str, ...], list[int]] = {}
    for pos, (binding, _) in enumerate(pairs):
        groups.setdefault(binding.excludes, []).append(pos)
    found: dict[int, SectionText] = {}
    for excludes, positions in groups.items():
        specs = [pairs[p][1] for p in positions]
        sections = read_sections(root, specs, excludes, max_bytes=max_bytes)
        found.update(zip(positions, sections, strict=True))
    return [(binding, found[pos]) for pos, (binding, _) in enumerate(pairs)]


def descendants(
    bindings: list[Binding], parent: Binding, new_selector: str
) -> list[tuple[Binding, str]]:
    """The live bindings under heading ``parent`` in its file (``A/B`` under ``A``), each
    with the selector it has under the heading's new selector: a rebind of a heading
    carries its bound subtree. None for a heading selector with an ``[n]`` (its
    children's paths do not follow it) or a target that is no heading."""
    old, new = parse_selector(parent.selector), parse_selector(new_selector)
    if old.kind != "heading" or new.kind != "heading" or old.index or new.index:
        return []
    depth = len(old.parts)
    out: list[tuple[Binding, str]] = []
    for b in bindings:
        if b.retired or b.path != parent.path or b.bind_act == parent.bind_act:
            continue
        sel = parse_selector(b.selector)
        if sel.kind == "heading" and len(sel.parts) > depth and sel.parts[:depth] == old.parts:
            child = Selector(new.path, "heading", (*new.parts, *sel.parts[depth:]), sel.index)
            out.append((b, render(child)))
    return out


def refuse_bound_targets(
    bindings: list[Binding], moves: list[tuple[Binding, SectionText]], root: Path | None = None
) -> None:
    """Refuse a rebind onto a section another live binding holds (two bindings of one
    section would be a contest); a binding that moves in the same command is free.
    With ``root``, a heading held under another name (its id, its heading path) is
    held too."""
    moving = {b.bind_act for b, _ in moves}
    held = {b.selector: b for b in bindings if not b.retired and b.bind_act not in moving}
    seen: dict[str, Binding] = {}
    for binding, section in moves:
        other = held.get(section.selector) or seen.get(section.selector)
        if other is None and root is not None:
            other = _held_by_another_name(root, held, section)
        if other is not None and other.bind_act != binding.bind_act:
            raise ForestError(
                f"{section.selector} is bound already (binding {other.bind_act[:12]}); "
                "rebind to another section, or end that binding first with `forest retire "
                f"{shell_word(other.selector)} --binding {other.bind_act[:12]} --words '…'`"
            )
        seen[section.selector] = binding


def _held_by_another_name(
    root: Path, held: dict[str, Binding], section: SectionText
) -> Binding | None:
    """The live binding whose selector names the heading ``section`` stands at under
    another name (``file.md#{id}`` and ``file.md#A/B`` are one heading), if any."""
    others = [b for b in held.values() if b.path == section.path]
    same = same_heading(root, parse_selector(section.selector), others)
    return same[0] if same else None
