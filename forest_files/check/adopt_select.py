"""Which targets a bulk ``forest adopt`` takes in: front matter (``--where``), every
heading of files (``--headings``), what ``[require]`` reports unbound (``--unbound``).

Stores: nothing.
Refuses (``AdoptSelectRefused``, one line naming the fix): a ``--where`` that is not
``key=value`` with a plain front-matter key (the key syntax of ``[require] when``);
a file whose front matter cannot be judged for ``--where`` (a key given twice);
``--headings`` with a selector target (``PATH#…``) or a level outside 1 to 6, or on
files with no heading (of that level). What reading a file refuses
(custody/target_refusals.py ``check_file``) is refused here too.
Returns: target specs, in order, for ``custody/targets.read_sections``; under
``--headings``, no heading an ``#Sub`` exclusion leaves out (nor one under it).
Test: tests/check/test_adopt_select.py, tests/doors/test_cli_adopt_bulk.py
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.kernel.errors import ForestError

if TYPE_CHECKING:
    from forest_files.check.front_matter import When
    from forest_files.custody.repository import Repository
    from forest_files.text.markdown import Heading

_WHERE_FIX = "write --where KEY=VALUE, e.g. --where status=accepted (VALUE may be a,b: one of)"


class AdoptSelectRefused(ForestError):
    """A bulk-adoption option that cannot be honoured."""


def parse_where(items: Sequence[str]) -> When:
    """``--where key=value`` options as a ``[require] when`` (AND-ed; ``a,b`` in a
    value means one of them), with the key and value rules of forest.toml's ``when``."""
    from forest_files.custody.config import WHEN_KEY
    from forest_files.kernel.bounds import MAX_WHEN_CHARS, MAX_WHEN_KEYS, MAX_WHEN_VALUES

    if len(items) > MAX_WHEN_KEYS:
        raise AdoptSelectRefused(f"more than {MAX_WHEN_KEYS} --where options; give fewer")
    out: list[tuple[str, tuple[str, ...]]] = []
    for item in items:
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not WHEN_KEY.fullmatch(key) or len(key) > MAX_WHEN_CHARS:
            raise AdoptSelectRefused(f"--where: not KEY=VALUE with a plain key; {_WHERE_FIX}")
        values = tuple(v.strip() for v in value.split(","))
        bad = [v for v in values if not v or len(v) > MAX_WHEN_CHARS or not v.isprintable()]
        if bad or len(values) > MAX_WHEN_VALUES:
            raise AdoptSelectRefused(
                f"--where {key}: give 1 to {MAX_WHEN_VALUES} non-empty printable values "
                f"of at most {MAX_WHEN_CHARS} characters; {_WHERE_FIX}"
            )
        out.append((key, values))
    return tuple(out)


def where_filter(
    root: Path, specs: Sequence[str], when: When, *, max_bytes: int
) -> tuple[list[str], list[str]]:
    """(targets whose file's front matter holds ``when``, the paths left out). A
    file that cannot be judged is refused: adopting it might adopt the wrong text."""
    from forest_files.check.front_matter import when_holds
    from forest_files.custody.target_refusals import RepoFacts, check_file
    from forest_files.text.selector import parse_selector

    paths = [parse_selector(spec).path for spec in specs]
    facts = RepoFacts.gather(root, sorted(set(paths)))  # git asked once, not per file
    judged: dict[str, bool] = {}
    kept: list[str] = []
    left: list[str] = []
    for spec, path in zip(specs, paths, strict=True):
        if path not in judged:
            got = when_holds(path, check_file(root, path, max_bytes, facts), when)
            if got is None:
                keys = ", ".join(k for k, _ in when)
                raise AdoptSelectRefused(
                    f"{path}: its front matter cannot be judged for --where ({keys} given "
                    "twice, or not text); fix the front matter or name the file without --where"
                )
            judged[path] = got
            if not got:
                left.append(path)
        if judged[path]:
            kept.append(spec)
    return kept, left


def heading_targets(
    root: Path,
    specs: Sequence[str],
    level: int | None,
    *,
    max_bytes: int,
    excludes: Sequence[str] = (),
    defaults: Callable[[str], Sequence[str]] | None = None,
    used: set[str] | None = None,
) -> list[str]:
    """Every heading (of ``level``) of each whole-file target, as the selector a
    binding records: the heading's own id (``file.md#{id}``, anchors.py) where it
    carries one no other heading of the file carries, so the binding survives a
    retitle as the author meant; else its full heading path (text/markdown.py's
    outline; ``[n]`` where a path repeats).

    A heading an ``#Sub`` exclusion names (matched as the exclusion matches inside
    a section: a tail of its path, ``[n]`` the n-th) is not a target, nor is any
    heading under it: ``--exclude '#Status'`` (or forest.toml's ``[bind]`` exclusions
    for the file, ``defaults``) asks for that text to stay free, which its own
    binding would freeze. ``used`` gets each of ``excludes`` that left a heading
    out: it did its work, though it may match nothing inside the targets left."""
    from forest_files.check.coverage import canonical_paths
    from forest_files.custody.target_refusals import RepoFacts, check_file
    from forest_files.text.extract import Document
    from forest_files.text.normalise import decode_bytes
    from forest_files.text.selector import Selector, parse_selector, render

    if level is not None and not 1 <= level <= 6:
        raise AdoptSelectRefused(f"--level {level}: give a heading level from 1 to 6")
    files: dict[str, None] = {}  # in order, once each
    for spec in specs:
        sel = parse_selector(spec)
        if sel.kind != "file":
            raise AdoptSelectRefused(
                f"--headings takes files, not {spec!r}; name the file ({sel.path}) alone"
            )
        files[sel.path] = None
    facts = RepoFacts.gather(root, list(files))  # git asked once, not per file
    out: list[str] = []
    for path in files:
        data = check_file(root, path, max_bytes, facts)
        heads = Document(decode_bytes(data, path)).headings()
        free = _excluded_spans(heads, excludes, used)
        free += _excluded_spans(heads, defaults(path) if defaults else (), None)
        held = Counter(a for h in heads for a in h.anchors)
        for h, (parts, index) in zip(heads, canonical_paths(heads), strict=True):
            if any(lo <= h.start_line <= hi for lo, hi in free):
                continue
            if (level is None or h.level == level) and all(parts):
                own = next((a for a in h.anchors if held[a] == 1), None)
                sel = (
                    Selector(path, "anchor", (own,))
                    if own is not None
                    else Selector(path, "heading", parts, index)
                )
                out.append(render(sel))
    if not out:
        which = "heading" if level is None else f"level-{level} heading"
        raise AdoptSelectRefused(f"no {which} in the files named; nothing to adopt")
    return out


def _excluded_spans(
    heads: Sequence[Heading], excludes: Sequence[str], used: set[str] | None
) -> list[tuple[int, int]]:
    """The line spans of the heading sections the ``#Sub`` exclusions name; each
    exclusion that names one is added to ``used`` (as the tally names it)."""
    from forest_files.text.exclude import parse_exclusion
    from forest_files.text.headingpath import matching

    spans: list[tuple[int, int]] = []
    for text in excludes:
        if not text.startswith("#"):
            continue
        ex = parse_exclusion(text)  # a bad one is refused here as reading would refuse it
        hits = matching(heads, ex.parts)
        if ex.index is not None:
            hits = hits[ex.index - 1 : ex.index] if ex.index >= 1 else []
        spans += [(heads[n].start_line, heads[n].end_line) for n in hits]
        if hits and used is not None:
            used.add(str(ex))
    return spans


def unbound_targets(repo: Repository, within: Sequence[str]) -> list[str]:
    """What ``forest check`` reports unbound under ``[require]`` (under ``within``
    when given), as adopt targets in path order."""
    from forest_files.check.coverage import in_source
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.content import WorktreeSource

    rules = repo.config.require
    if not rules:
        raise AdoptSelectRefused(
            "forest.toml has no [require] rules, so nothing is unbound; name the targets "
            "instead (docs/coverage.md)"
        )
    source = WorktreeSource(repo.root)
    found = in_source(rules, source, all_bindings(repo.synced()), within=within)
    return [f.selector for f in found]
