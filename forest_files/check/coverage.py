"""Coverage: the files (or headings) forest.toml's ``[require]`` says must be bound.

Stores: nothing.
Refuses: nothing; every gap is an ``unbound`` finding.
Returns: ``Finding(kind="unbound")`` values, one per required target no live binding
covers: ``selector`` is the target to adopt (the whole file, or one heading's full
path), ``detail`` names the ``[require]`` glob, ``excludes`` the file's default
exclusions (forest.toml's ``[bind]``: its adopt route names them) and those its peers
were adopted with (check/coverage_peers.py: ``peer-excludes``), ``reason`` a name no
selector can name (``unnameable``, ``control-name``: its route renames it). Never
section text.
Also each heading's canonical selector path (``canonical_paths``); a file's text,
headings and front matter are read through check/front_matter.py.
Test: tests/check/test_coverage.py, tests/doors/test_printed_where_typed.py,
      tests/check/test_coverage_unreadable.py, tests/check/test_require_peer_excludes.py

What covers what: a whole-file binding covers the file and every heading in it; a
heading binding covers that heading and every heading inside its section. A region
or symbol binding covers no required heading (documented in docs/coverage.md). An
anchor binding (``#{id}``) covers its heading. A heading a ``[bind]`` default
exclusion leaves out is not required.

Cheap by construction: the path list is walked once and matched against the globs;
a file is read only when no whole-file binding already covers it; Markdown is
parsed only for a ``headings`` rule and front matter read only for a ``when`` one.
A file whose front matter cannot be judged (not UTF-8, a key given twice) is held
to its rule, and one this user may not read (mode 000) stops the check with its
``chmod`` (``in_source`` asks the source's ``special``): coverage fails closed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from forest_files.check.engine import Finding
from forest_files.check.finding import Reason
from forest_files.check.front_matter import Document
from forest_files.custody.bindconf import defaults_for
from forest_files.kernel.repopath import not_utf8_reason

# text.selector is imported by the functions that name a target: a check with no
# [require] rule (the cold check's common case) never loads it.

if TYPE_CHECKING:
    from forest_files.custody.bindconf import BindRule
    from forest_files.custody.config import RequireRule
    from forest_files.custody.content import ContentSource
    from forest_files.text.markdown import Heading

Reader = Callable[[str], bytes | None]


class Bound(Protocol):
    @property
    def path(self) -> str: ...

    @property
    def selector(self) -> str: ...

    @property
    def excludes(self) -> tuple[str, ...]: ...  # how it was made: its adopt route's peers


def unbound(
    rules: Iterable[RequireRule],
    paths: Iterable[str],
    read: Reader,
    bindings: Iterable[Bound],
    bind: Sequence[BindRule] = (),
) -> list[Finding]:
    """Every required target among ``paths`` that ``bindings`` leave uncovered;
    ``bind`` (forest.toml's ``[bind]``) gives each file's default exclusions: its
    findings carry them (their adopt routes name them), and a heading they leave
    out is not asked for."""
    rules = tuple(rules)
    if not rules:
        return []
    bindings = tuple(bindings)
    by_path: dict[str, set[str]] = {}
    for b in bindings:
        by_path.setdefault(b.path, set()).add(b.selector)
    out: list[Finding] = []
    for path in sorted(set(paths)):
        matching = [r for r in rules if r.matches(path)]
        if matching:
            excludes = defaults_for(bind, path) if bind else ()
            found = _judge(path, matching, read, by_path.get(path, set()), excludes)
            found = [replace(f, excludes=excludes) for f in found] if excludes else found
            out += _as_peers(path, matching, found, bindings)
    return out


def _as_peers(
    path: str, rules: list[RequireRule], found: list[Finding], bindings: Sequence[Bound]
) -> list[Finding]:
    """``found`` with the exclusions the other files of ``rules`` were adopted with
    (check/coverage_peers.py); a name to rename first keeps its own reason."""
    if not found or all(f.reason is not None for f in found):
        return found
    from forest_files.check.coverage_peers import peer_sets, with_peers

    sets = peer_sets(path, rules, bindings)
    return [f if f.reason is not None else with_peers(f, rules, sets) for f in found]


def in_source(
    rules: Iterable[RequireRule],
    source: ContentSource,
    bindings: Iterable[Bound],
    *,
    within: Iterable[str] = (),
    bind: Sequence[BindRule] = (),
) -> list[Finding]:
    """``unbound`` over a content source's own file list (listed once, and only when a
    rule exists), limited to paths under ``within`` when given."""
    rules = tuple(rules)
    if not rules:
        return []
    from forest_files.kernel.repopath import under

    prefixes = tuple(within)
    paths = [p for p in source.paths() if not prefixes or any(under(p, x) for x in prefixes)]
    return unbound(rules, paths, _closed_read(source), bindings, bind)


def _closed_read(source: ContentSource) -> Reader:
    """``source.read`` that asks ``source.special`` of a path it could not read: a file
    this user may not read raises its PermissionError (the door names its ``chmod``)
    rather than pass as "not a regular file": coverage fails closed."""

    def read(path: str) -> bytes | None:
        data = source.read(path)
        if data is None:
            source.special(path)  # raises for a denied path; a symlink's kind is not needed
        return data

    return read


def _finding(
    path: str,
    selector: str,
    rule: RequireRule,
    lines: tuple[int, int] | None = None,
    why: str = "",
    reason: Reason | None = None,
) -> Finding:
    detail = f"required by [require] {rule.glob!r}{why}"
    return Finding(
        kind="unbound",
        path=path,
        selector=selector,
        binding="",
        ground=None,
        expected_hash=None,
        start_line=lines[0] if lines else None,
        end_line=lines[1] if lines else None,
        detail=detail,
        reason=reason,
    )


def _judge(
    path: str,
    rules: list[RequireRule],
    read: Reader,
    bound: set[str],
    excludes: tuple[str, ...] = (),
) -> list[Finding]:
    from forest_files.text.selector import Selector, render
    from forest_files.text.selector_errors import SelectorError

    try:
        whole = render(Selector(path))
    except SelectorError as exc:  # no selector can name it: its route renames it first
        if not any(ord(c) < 32 or ord(c) == 127 for c in path):  # a backslash: real name
            said = str(exc).split(";")[0]
            why = f"; no selector can name it ({said})"
            return [_finding(path, path, rules[0], why=why, reason=Reason("unnameable", said))]
        # The exact name, as every finding carries it: JSON escapes it losslessly, and
        # each door that prints it escapes it there (check/text.py, gate/render.py).
        why = "; its name holds a control character: rename it, then adopt it"
        return [_finding(path, path, rules[0], why=why, reason=Reason("control-name"))]
    if whole in bound:
        return []  # the whole file is bound: every rule is met, nothing read
    data = read(path)
    if data is None:
        return []  # not a regular file here (a symlink, a submodule): nothing to adopt
    doc = Document(path, data)
    active = [r for r in rules if doc.holds(r)]
    if active and not_utf8_reason(path) is not None:  # its route renames it first
        why = "; its name is not valid UTF-8, which the ledger cannot record"
        return [_finding(path, whole, active[0], why=why)]
    for rule in active:
        if rule.bind == "file":
            return [_finding(path, whole, rule)]
    heads = [r for r in active if r.bind == "headings"]
    if not heads:
        return []
    if doc.text is None:  # cannot be parsed: only the whole file can cover it
        return [_finding(path, whole, heads[0], why="; the file is not UTF-8 text")]
    return _uncovered_headings(path, heads, doc, bound, excludes)


def _uncovered_headings(
    path: str,
    rules: list[RequireRule],
    doc: Document,
    bound: set[str],
    excludes: tuple[str, ...],
) -> list[Finding]:
    from forest_files.text.selector import Selector, parse_selector, render
    from forest_files.text.selector_errors import SelectorError

    heads = doc.headings()
    canonical = canonical_paths(heads)
    spans = _left_out(heads, excludes, doc.lines().count)
    for sel in bound:
        try:
            parsed = parse_selector(sel)
        except SelectorError:
            continue
        if parsed.kind == "anchor":  # a stable id covers its heading's section
            spans += [(h.start_line, h.end_line) for h in heads if parsed.parts[0] in h.anchors]
            continue
        if parsed.kind != "heading":
            continue
        for h, (_, index) in zip(heads, canonical, strict=True):
            # an older binding may name the heading with its inline comments (raw_path)
            named = parsed.parts in (h.path, h.raw_path)
            if named and (parsed.index == index or (parsed.index is None and index == 1)):
                spans.append((h.start_line, h.end_line))
                break
    out: list[Finding] = []
    for h, (parts, index) in zip(heads, canonical, strict=True):
        rule = next((r for r in rules if r.level == h.level), None)
        if rule is None or not all(parts):
            continue
        if any(lo <= h.start_line <= hi for lo, hi in spans):
            continue
        sel = render(Selector(path, "heading", parts, index))
        out.append(_finding(path, sel, rule, (h.start_line, h.end_line)))
    return out


def _left_out(heads: list[Heading], excludes: tuple[str, ...], last: int) -> list[tuple[int, int]]:
    """The heading sections the default exclusions leave out of every binding."""
    from forest_files.text.exclude import heading_range, parse_exclusion
    from forest_files.text.selector_errors import SelectorError

    spans: list[tuple[int, int]] = []
    for text in excludes:
        ex = parse_exclusion(text)
        if ex.kind != "heading":
            continue
        try:
            cut = heading_range(ex, heads, 1, last, None)
        except SelectorError:  # named twice: it cuts nothing, so nothing is left out
            continue
        if cut is not None:
            spans.append(cut)
    return spans


def canonical_paths(heads: list[Heading]) -> list[tuple[tuple[str, ...], int | None]]:
    """Each heading's (full path, [n]) as a binding records it: ``[n]`` only when
    that full path occurs more than once."""
    counts: dict[tuple[str, ...], int] = {}
    for h in heads:
        counts[h.path] = counts.get(h.path, 0) + 1
    seen: dict[tuple[str, ...], int] = {}
    out: list[tuple[tuple[str, ...], int | None]] = []
    for h in heads:
        seen[h.path] = seen.get(h.path, 0) + 1
        out.append((h.path, seen[h.path] if counts[h.path] > 1 else None))
    return out
