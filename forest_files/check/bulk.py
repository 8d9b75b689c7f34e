"""Bulk routes: the bindings many targets name, and what a bulk supersede would record.

Stores: nothing.
Refuses (``ForestError``, saying what to type): a target that names no binding
(a file path names every binding of that file; typed below the top, the
refusal gives the target as the top names it: custody/lookup.py ``below_top``);
a glob that matches nothing; a supersede whose targets hold no changed section; an explicitly named
section that already holds its ground; a changed section that cannot be read
(its file gone, its selector matching nothing).
Returns: the chosen ``Binding`` values, outer sections first (a file before
its headings, an H1 before its H2s); ``Change`` values for a supersede
listing — selector, line range, new hash, lines added and removed, never the
text itself.
Test: tests/check/test_bulk_routes.py, tests/check/test_bulk_cost.py
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from forest_files.check.findings import WORDS_PLACEHOLDER
from forest_files.check.route_contest import no_single_ground
from forest_files.custody.bindings import Binding
from forest_files.custody.lookup import (
    NoSuchBinding,
    below_top,
    binding_twin,
    find_binding,
    two_answer,
)
from forest_files.custody.record import SectionText, ground_body
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.kernel.shellword import forest_step, forest_text
from forest_files.store.forest import ForestStore
from forest_files.text.line_align import line_opcodes
from forest_files.text.selector import parse_selector


@dataclass(frozen=True)
class Chosen:
    binding: Binding
    explicit: bool  # named itself (not one of a file's bindings)


def choose(root: Path, bindings: list[Binding], targets: Sequence[str]) -> list[Chosen]:
    """The bindings ``targets`` name: a section selector its binding, a file path every
    binding of that file, a glob every file it matches; each once, outer first."""
    from forest_files.custody.target_globs import expand_bound

    out: dict[str, Chosen] = {}
    for spec in expand_bound(root, bindings, targets):
        sel = parse_selector(spec)
        if sel.kind == "file":
            both = two_answer(bindings, spec)
            if both is not None:
                raise NoSuchBinding(f"{spec}: {both}")
            of_file = [b for b in bindings if b.path == sel.path]
            if not of_file:
                below = below_top(bindings, spec)
                if below is not None:
                    raise NoSuchBinding(f"{spec}: {below}")
                twin = binding_twin(bindings, spec)
                how = twin or f"list bindings with `{forest_text('status')}`"
                raise NoSuchBinding(f"{spec}: no binding in this file; {how}")
            for b in of_file:
                out.setdefault(b.bind_act, Chosen(b, explicit=len(of_file) == 1))
        else:
            b = find_binding(bindings, spec, root=root)
            out[b.bind_act] = Chosen(b, explicit=True)
    return sorted(out.values(), key=lambda c: _depth(c.binding))


def _depth(b: Binding) -> tuple[str, int, str]:
    sel = parse_selector(b.selector)
    return (b.path, 0 if sel.kind == "file" else len(sel.parts), b.selector)


@dataclass(frozen=True)
class Change:
    """One section a bulk supersede would adopt, as listed before it is recorded."""

    binding: Binding
    section: SectionText
    new_hash: str
    start_line: int
    end_line: int
    added: int
    removed: int

    def line(self) -> str:
        return (
            f"{self.binding.selector} lines {self.start_line}-{self.end_line} "
            f"new {self.new_hash[:12]} +{self.added} \u2212{self.removed} lines"
        )


def changes(
    store: ForestStore, root: Path, chosen: Sequence[Chosen], *, max_bytes: int
) -> list[Change]:
    """Every chosen binding whose section differs from ground, read now."""
    from forest_files.check.diff import ground_text
    from forest_files.custody.target_refusals import RepoFacts
    from forest_files.custody.targets import read_section_at

    facts = RepoFacts.gather(root, [c.binding.path for c in chosen], tally=False)
    out: list[Change] = []
    for c in chosen:
        b = c.binding
        head, state = ground_body(store, b)
        if head is None:
            heads = tuple(sorted(store.content_id(h) for h in store.contest_heads(b.entry_id)))
            again = forest_step("supersede", b.selector, options=("--words", WORDS_PLACEHOLDER))
            why = no_single_ground(b.selector, state, heads, again, undone="nothing was superseded")
            raise ForestError(why)
        ground = ground_text(store, store.content_id(head)) or ""
        section, lines = read_section_at(
            root, b.selector, b.excludes, max_bytes=max_bytes, facts=facts
        )
        if section.text == ground:
            if c.explicit and len(chosen) == 1:
                raise ForestError(
                    f"{b.selector} already holds its ground text; nothing to supersede"
                )
            continue
        added, removed = _counts(ground, section.text)
        out.append(Change(b, section, hash_body(section.text), *lines, added, removed))
    if not out:
        raise ForestError(
            "every section these targets name holds its ground text; nothing to supersede"
        )
    return out


def _counts(old: str, new: str) -> tuple[int, int]:
    """(lines added, lines removed) from ``old`` to ``new``."""
    a, b = old.splitlines(), new.splitlines()
    added = removed = 0
    for tag, a0, a1, b0, b1 in line_opcodes(a, b):
        if tag != "equal":
            removed += a1 - a0
            added += b1 - b0
    return added, removed
