"""The bindings under each heading, grouped once for the commit's route (commit_plan.py
``under``): never filed under the folders of their paths.

A rebind carries only a heading's bound descendants (custody/rebind_moves.py
``descendants``), and every heading selector holds a ``#``. ``under`` filed each
binding under every prefix of its selector that a ``/`` ends, its folders too: a
move of 2,000 bindings in ``vault/old/`` filed 4,000 entries no rebind reads. The
entries are counted; a hypothesis property proves the groups ``rebind_group`` reads
(every prefix holding a ``#``) the same as the walk over every ``/``.
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from forest_files.check.commit_plan import under
from forest_files.custody.bindings import Binding


def _binding(selector: str, n: int = 0) -> Binding:
    path = selector.split("#", 1)[0]
    return Binding(f"act{n}", path, selector, (), "n1", "sha256", "h", n, "by", False)


def _every_slash(bindings: list[Binding]) -> dict[str, list[Binding]]:
    """The walk over every ``/`` of every selector (the old ``under``)."""
    out: dict[str, list[Binding]] = {}
    for b in bindings:
        for i, ch in enumerate(b.selector):
            if ch == "/":
                out.setdefault(b.selector[:i], []).append(b)
    return out


def test_under_folder_move_files_no_binding_under_its_folders_accepted() -> None:
    flat = [_binding(f"vault/old/n{i:04d}.md#Part {k}", i) for i in range(50) for k in range(4)]
    nested = [
        _binding("vault/book.md#Book", 1),
        _binding("vault/book.md#Book/Chapter", 2),
        _binding("vault/book.md#Book/Chapter/Scene", 3),
    ]
    got = under([*flat, *nested])
    assert sum(len(v) for v in got.values()) == 3, got  # each heading ancestor once
    assert got == {
        "vault/book.md#Book": nested[1:],
        "vault/book.md#Book/Chapter": nested[2:],
    }


_SELECTOR = st.text(alphabet="ab/#\\:@[]1", max_size=14)


@settings(max_examples=300, deadline=None)
@given(st.lists(_SELECTOR, max_size=8))
@example(["a/b.md#A", "a/b.md#A/B", "a/b.md#A/B/C", "a/b.md", "a/b.md/c.md#A"])
@example(["a\\#b/c.md#H/X", "a\\#b/c.md#H", "x#y#z/w"])
def test_under_equals_every_slash_walk_on_heading_prefixes_accepted(
    selectors: list[str],
) -> None:
    bindings = [_binding(s, n) for n, s in enumerate(selectors)]
    slow = _every_slash(bindings)
    assert under(bindings) == {k: v for k, v in slow.items() if "#" in k}
