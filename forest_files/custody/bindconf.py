"""forest.toml's ``[bind]`` table: default exclusions and normalisations per path glob.

``[bind."docs/adr/*.md"] exclude = ["meta:status", "#Status"]`` says every
binding of a file that glob matches leaves those parts out: ``forest adopt``
adds them to what ``--exclude`` gives (they need not match in every file: an
ADR with no ``status`` key simply has nothing to leave out), every printed
adopt route names them (``[require]``'s ``unbound`` routes, the hook's), and
coverage does not ask for a heading they leave out. A Python symbol takes no
exclusions, so a symbol binding takes no defaults. Globs are the one glob
syntax (kernel/globs.py).

``[bind."docs/**/*.md"] normalise = ["trailing-whitespace", "list-markers"]``
declares normalisations (text/normalisers.py; docs/normalisation.md) the same
way: ``forest adopt`` records them with each binding it makes (as
``name@version``), and printed adopt routes name them (``--normalise``). A
target takes those that fit it (``fitting``): a Python symbol only
trailing-whitespace, blank-lines and the ``py-*`` ones, any other target all but
the ``py-*`` ones. In memory they ride with the exclusions as
``normalise:NAME@V`` items (what extract applies).

Two rules whose globs can match one file must give the same lists: when
forest.toml is read, each glob is tried on an example path of every other
(``docs/adr/*.md`` and ``docs/**/*.md`` overlap: ``docs/adr/x.md``); a pair the
examples miss is refused when a path matches both (``defaults_for``).

Stores: nothing.
Refuses: ``ConfigError`` (one line naming the key and the fix) for a value
that is not ``{ exclude = [...], normalise = [...] }`` (either or both), an
empty list, an exclusion that names nothing valid (exclude.py's syntax) or is
given twice, an unknown normalisation or version (listing the known names), and
two globs with different lists that match one file (``BindConflict`` when only a
path shows it).
Returns: ``BindRule`` values; ``defaults_for`` (the rules of a path).
Test: tests/custody/test_bind_defaults.py, tests/custody/test_bind_normalise.py
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from forest_files.kernel.errors import ForestError
from forest_files.kernel.globs import Glob

Fail = Callable[[str, str, str], ForestError]
_EXAMPLE = 'e.g. [bind."docs/adr/*.md"] exclude = ["meta:status", "#Status"]'


class BindConflict(ForestError):
    """Two ``[bind]`` globs give one file different exclusions."""


@dataclass(frozen=True)
class BindRule:
    """One ``[bind."GLOB"]`` table: the exclusions and normalisations (canonical
    ``name@version``) every binding of a match takes."""

    glob: str
    exclude: tuple[str, ...]
    pattern: Glob = field(compare=False, repr=False)
    normalise: tuple[str, ...] = ()

    @property
    def rules(self) -> tuple[str, ...]:
        """The exclusions, then the normalisations as ``normalise:NAME@V`` items."""
        return self.exclude + tuple(f"normalise:{n}" for n in self.normalise)


def parse_bind(
    table: dict[str, Any], fail: Fail, compile_glob: Callable[[str, str], Glob]
) -> tuple[BindRule, ...]:
    """The ``[bind]`` rules of forest.toml (``compile_glob(key, glob)`` refuses a bad
    glob naming ``key``); conflicting rules refused."""
    rules = tuple(_rule(glob, value, fail, compile_glob) for glob, value in table.items())
    for k, a in enumerate(rules):
        for b in rules[k + 1 :]:
            if a.rules != b.rules and _overlap(a, b):
                raise _conflict(fail, a, b)
    return rules


def _rule(glob: str, value: Any, fail: Fail, compile_glob: Callable[[str, str], Glob]) -> BindRule:
    from forest_files.text.exclude import ExcludeError, parse_exclusions

    key = f"[bind] {glob!r}"
    pattern = compile_glob(key, glob)
    if not isinstance(value, dict) or not value or not set(value) <= {"exclude", "normalise"}:
        raise fail(key, "must be a table with one key, exclude, or normalise, or both", _EXAMPLE)
    exclude: tuple[str, ...] = ()
    if "exclude" in value:
        names = _strings(value["exclude"], fail, f"{key} exclude", "exclusions")
        if any(n.startswith("normalise:") for n in names):
            raise fail(f"{key} exclude", "holds a normalisation", "list it under normalise")
        try:
            parsed = parse_exclusions(names)
        except ExcludeError as exc:
            why = str(exc).split("; valid exclusions", 1)[0]
            fix = "write '#Heading', 'meta:key' or 'line:PREFIX'"
            raise fail(f"{key} exclude", why, fix) from None
        exclude = tuple(str(ex) for ex in parsed)
    return BindRule(glob, exclude, pattern, _normalise(value, key, fail))


def _strings(names: Any, fail: Fail, key: str, what: str) -> tuple[str, ...]:
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise fail(key, f"must be a non-empty list of {what}", _EXAMPLE)
    return tuple(names)


def _normalise(value: dict[str, Any], key: str, fail: Fail) -> tuple[str, ...]:
    """The table's ``normalise`` list, canonical (``name@version``) and sorted."""
    if "normalise" not in value:
        return ()
    from forest_files.text.normalisers import NormaliseError, canonical_list, known

    names = _strings(value["normalise"], fail, f"{key} normalise", "normalisations")
    try:
        return canonical_list(names)
    except NormaliseError as exc:
        why = str(exc).split("; ", 1)[0]
        raise fail(f"{key} normalise", why, f"write one of {known()}") from None


def _conflict(fail: Fail, a: BindRule, b: BindRule) -> ForestError:
    return fail(
        f"[bind] {a.glob!r} and {b.glob!r}",
        "both match one file with different exclude lists (or normalise lists)",
        "give them the same list, or narrow one glob so they never meet",
    )


def defaults_for(rules: Sequence[BindRule], path: str) -> tuple[str, ...]:
    """The rules ``[bind]`` gives ``path``: its exclusions, then its normalisations as
    ``normalise:NAME@V`` items (empty when no glob matches it);
    ``BindConflict`` when two globs match it with different lists."""
    found: BindRule | None = None
    for rule in rules:
        if not rule.pattern.match(path):
            continue
        if found is not None and found.rules != rule.rules:
            raise _conflict(
                lambda k, p, f: BindConflict(f"forest.toml: {k}: {p}; {f}"), found, rule
            )
        found = found or rule
    return found.rules if found is not None else ()


def fitting(rules: tuple[str, ...], kind: str, path: str = "") -> tuple[str, ...]:
    """The default rules a target of selector kind ``kind`` in ``path`` takes: a
    Python symbol no exclusion; every target the normalisations that fit it
    (normalisers.fits: the Markdown ones only on Markdown)."""
    if not any(r.startswith("normalise:") for r in rules):
        return () if kind == "symbol" else rules
    from forest_files.text.normalisers import fits

    return tuple(
        r
        for r in rules
        if (fits(r[10:], kind, path) if r.startswith("normalise:") else kind != "symbol")
    )


def bind_defaults(rules: Sequence[BindRule]) -> Callable[[str], tuple[str, ...]] | None:
    """``defaults_for`` over forest.toml's ``[bind]`` rules (None when it has none)."""
    return (lambda path: defaults_for(rules, path)) if rules else None


def _at_path(key: str, problem: str, fix: str) -> ForestError:
    return BindConflict(f"forest.toml: {key}: {problem}; {fix}")


def merged(given: tuple[str, ...], defaults: tuple[str, ...]) -> tuple[str, ...]:
    """``given`` then each default not already among them (compared canonically)."""
    if not defaults:
        return given
    from forest_files.text.exclude import parse_exclusion

    have = {str(parse_exclusion(g)) for g in given}
    return given + tuple(d for d in defaults if d not in have)


def _overlap(a: BindRule, b: BindRule) -> bool:
    """Whether an example path of either glob matches the other."""
    return any(b.pattern.match(p) for p in _examples(a)) or any(
        a.pattern.match(p) for p in _examples(b)
    )


_CLASS = re.compile(r"\[(!|\^)?(\]?[^\]]*)\]")


def _examples(rule: BindRule) -> list[str]:
    """Paths ``glob`` matches: each ``**`` as no directory and as one, each ``*`` as
    ``x`` and as nothing, ``?`` as ``x``, a class as its first member."""

    def klass(m: re.Match[str]) -> str:
        if m.group(1):  # a negated class: a character it is unlikely to exclude
            return "\x01"
        body = m.group(2)
        return body[0] if body else "x"

    glob, out = rule.glob, []
    for deep in ("", "x/"):
        for star in ("x", ""):
            segs = [s for s in glob.split("/") if s != "**" or deep]
            path = "/".join("x" if s == "**" else s for s in segs)
            path = _CLASS.sub(klass, path).replace("*", star).replace("?", "x")
            out.append(path.replace("\x01", "x") or "x")
    return [p for p in out if rule.pattern.match(p)]
