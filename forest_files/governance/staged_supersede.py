"""``forest supersede --staged --expect DIGEST``: the hook's one route for a commit.

The staged change is judged again (check/staged.py, the hook's own check); its
drifted bindings are exactly those the hook listed when their digest
(check/commit_route.py: each bind act and staged section hash) equals
``DIGEST``. Each is superseded with its section as the git index holds it (the
text being committed, not the working tree's), in one segment with one set of
words; authority is judged per binding, and nothing is recorded unless every
one may be.

Stores: one ledger segment (through ``supersede_sections``).
Refuses (``ForestError``, one line, nothing recorded): a digest that is not the
staged state's (anything staged changed since the route was printed: the fix
is to look again), nothing drifted at the index, a binding the working-tree
ledger no longer holds, a signer without authority over one of the paths.
Returns: (selector, new ground content id) per superseded binding.
Test: tests/check/test_commit_route.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    from forest_files.check.engine import Finding
    from forest_files.custody.bindings import Binding
    from forest_files.custody.content import GitTreeSource
    from forest_files.custody.record import SectionText
    from forest_files.text.extract import Document


def supersede_staged(root: Path, expect: str, *, words: str, by: str) -> list[tuple[str, str]]:
    """Supersede every drifted binding of the staged change, if ``expect`` is its digest."""
    from forest_files.check.commit_route import drifted, staged_digest
    from forest_files.check.staged import judge_staged
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.content import GitTreeSource
    from forest_files.custody.record import supersede_sections
    from forest_files.custody.repository import Repository

    report = judge_staged(root)
    listed = drifted(r.finding for r in report.failed)
    if not listed:
        raise ForestError(
            "nothing staged drifts from ground; run `forest check --staged` to see what is"
        )
    now = staged_digest((f.binding, f.actual_hash or "") for f in listed)
    if now != expect.strip().lower():
        raise ForestError(
            f"the staged sections changed since the route was printed (it covered {expect}, "
            f"the index now gives {now}); run `forest check --staged` and paste the route "
            "it prints"
        )
    with Repository(root) as r:
        bindings = {b.bind_act: b for b in all_bindings(r.synced())}
        index = GitTreeSource(r.root, only=tuple(sorted({f.path for f in listed})))
        docs: dict[str, Document] = {}  # each staged file parsed once
        items = [_item(bindings, index, f, docs) for f in listed]
        made = supersede_sections(r, items, words=words, by=by)
    return [(f.selector, new) for f, new in zip(listed, made, strict=True)]


def _item(
    bindings: dict[str, Binding], index: GitTreeSource, f: Finding, docs: dict[str, Document]
) -> tuple[Binding, SectionText, str]:
    """The binding, its section as the index holds it, and the hash the route covered."""
    binding = bindings.get(f.binding)
    if binding is None:
        raise ForestError(
            f"{f.selector}: the working-tree ledger no longer holds this binding; "
            "stage .forest/ledger as it stands, then run `forest check --staged` again"
        )
    return binding, staged_section(index, binding, docs), f.actual_hash or ""


def staged_section(
    index: GitTreeSource, binding: Binding, docs: dict[str, Document]
) -> SectionText:
    """``binding``'s section in the git index, as ``read_section`` reads a file; each
    file parsed once (``docs``, by path)."""
    from forest_files.custody.record import SectionText
    from forest_files.text.extract import HASH_ALGO, NORMALISATION, Document, extract
    from forest_files.text.normalise import decode_bytes
    from forest_files.text.selector import parse_selector, render

    doc = docs.get(binding.path)
    if doc is None:
        data = index.read(binding.path)
        if data is None:
            raise ForestError(f"{binding.path}: not in the git index; stage it, then look again")
        doc = docs[binding.path] = Document(decode_bytes(data, binding.path))
    got = extract(doc, parse_selector(binding.selector), binding.excludes)
    return SectionText(
        path=binding.path,
        selector=render(got.selector),
        excludes=binding.excludes,
        text=got.text,
        normalisation=NORMALISATION,
        hash_algo=HASH_ALGO,
    )
