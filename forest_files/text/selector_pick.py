"""Choosing one section among those a selector matches: unique, or the n-th.

Stores: nothing.
Refuses: a selector that matches several sections with no ``[n]``
(``AmbiguousSelector`` listing every match by full path, with its line, at most
``MAX_SHOWN`` of them named; a match that is no choice is said to be one, and left
out of its ``candidates``).
Returns: ``pick``, the position chosen and its canonical ``[n]`` (counted the way
the recorded selector will resolve), or None when nothing (or no n-th) matches.
Test: tests/text/test_selectors.py, tests/text/test_selector_rules.py
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from forest_files.text.selector_errors import AmbiguousSelector

Label = Callable[[tuple[str, ...], int | None], str]
Same = Callable[[tuple[str, ...]], Sequence[int]]
MAX_SHOWN = 20  # candidates named in one refusal; ``candidates`` holds them all


def pick(
    full_paths: Sequence[tuple[str, ...]],
    matching: Sequence[int],
    index: int | None,
    label: Label,
    query: str,
    *,
    lines: Sequence[int] | None = None,
    same: Same | None = None,
    dead: Sequence[str] | None = None,
) -> tuple[int, int | None] | None:
    """Choose one of ``matching`` (positions in ``full_paths``, document order).

    With ``index`` the n-th match is chosen; without it exactly one must
    match, else ``AmbiguousSelector`` lists every match by full path (with
    its line from ``lines``), each with ``[n]`` when its full path alone
    would match more than once. ``same(full_path)`` gives the positions a
    selector naming that full path matches (default: equal full paths; a
    heading path matches as a tail, so there it is the tail matcher) — the
    canonical index counts among those, so the recorded selector resolves to
    the same section. Returns ``(position, canonical_index)`` (``None`` when
    the full path alone is unique), or ``None`` when nothing (or no n-th
    thing) matches. ``dead[p]``, when not empty, says why the section at ``p`` is
    no choice (a Python definition replaced later): said beside it, and left out of
    the candidates.
    """
    if not matching or (index is not None and index > len(matching)):
        return None
    if index is None and len(matching) > 1:
        peers: dict[tuple[str, ...], list[int]] = {}
        for p in matching:  # one ``same`` call per distinct full path
            fp = full_paths[p]
            if fp not in peers:
                peers[fp] = _peers(full_paths, fp, same)
        shown = [label(full_paths[p], _ordinal(peers[full_paths[p]], p)) for p in matching]
        why = [dead[p] if dead is not None else "" for p in matching]
        where = [
            f"{text} (line {lines[p]}{note and ', ' + note})" if lines is not None else text
            for text, p, note in zip(shown, matching, why, strict=True)
        ]
        more = f" and {len(where) - MAX_SHOWN} more" if len(where) > MAX_SHOWN else ""
        raise AmbiguousSelector(
            f"{query} matches {len(matching)} sections: {', '.join(where[:MAX_SHOWN])}{more}; "
            "choose one of them (a binding records the full path)",
            [text for text, note in zip(shown, why, strict=True) if not note],
        )
    pos = matching[0 if index is None else index - 1]
    return pos, _canonical(full_paths, pos, same)[1]


def _peers(
    full_paths: Sequence[tuple[str, ...]], fp: tuple[str, ...], same: Same | None
) -> list[int]:
    if same is None:
        return [k for k, other in enumerate(full_paths) if other == fp]
    return list(same(fp))


def _ordinal(peers: list[int], pos: int) -> int | None:
    return peers.index(pos) + 1 if len(peers) > 1 else None


def _canonical(
    full_paths: Sequence[tuple[str, ...]], pos: int, same: Same | None
) -> tuple[tuple[str, ...], int | None]:
    """The full path of ``pos`` and its index among what that full path matches."""
    fp = full_paths[pos]
    return fp, _ordinal(_peers(full_paths, fp, same), pos)
