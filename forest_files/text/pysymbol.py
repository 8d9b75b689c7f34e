"""Python symbol resolution with the standard library's ``ast``.

Section boundaries (exact): whole lines from the first decorator of the
``class``/``def``/``async def`` (its ``def`` line when undecorated) through the
last line of its body as ``ast`` reports it (``end_lineno``). Comments and
blank lines after the last statement, and comments above the first
decorator, are outside. A symbol is named by its dotted path of enclosing
classes and functions (``Class.method``, ``outer.inner``); definitions inside
``if``/``try``/``with``/``for``/``while``/``match`` blocks keep the
enclosing name. The full dotted path must match; when it occurs more than
once (a property setter, a conditional redefinition) ``[n]`` picks the n-th
in source order.

``typing.overload`` stubs never match: a ``def`` decorated ``@overload``,
``@typing.overload`` or ``@typing_extensions.overload`` (any ``@X.overload``
where ``X`` is a plain name) is a declaration for type checkers, not the
code, so adding one before a bound implementation leaves the binding where
it was, and a restore can only ever write into the implementation. ``[n]``
counts implementations only. An older binding whose ``[n]`` counted stubs
(``::Context.invoke[3]`` for two stubs and the code) still resolves while
its n-th definition, stubs counted, is an implementation; once that n-th
definition is a stub it is refused (``OverloadStub``, naming the selector to
rebind to), never moved onto the stub. Nested definitions inside a stub
are not collected either.

Stores: nothing.
Refuses: source that is not valid Python (``SymbolSourceError``, naming the
line and never echoing source text); ``SectionNotFound`` listing nearby
names; ``AmbiguousSelector`` listing ``::Name[n]`` candidates with their
lines; ``OverloadStub`` (above).
Returns: the resolved ``Symbol`` and the canonical selector.
Test: tests/text/test_selectors.py, tests/text/test_selector_rules.py
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, replace

from forest_files.text.selector import (
    SectionNotFound,
    Selector,
    SelectorError,
    render,
)
from forest_files.text.selector_pick import pick

_DEFS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


class SymbolSourceError(SelectorError):
    """The bound file does not parse as Python, so no symbol can be found."""


class OverloadStub(SectionNotFound):
    """An older ``[n]`` (stubs counted) now lands on an ``@overload`` stub."""


@dataclass(frozen=True)
class Symbol:
    """One definition: dotted path and its inclusive 1-based line range."""

    path: tuple[str, ...]
    start_line: int
    end_line: int
    stub: bool = False  # an ``@overload`` declaration: listed, never matched


def symbols(text: str, path: str) -> list[Symbol]:
    """Every class and function definition of ``text``, in source order."""
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as exc:
        # exc.text would echo source; name the place only.
        raise SymbolSourceError(
            f"{path}: not valid Python (line {exc.lineno}: {exc.msg}); "
            "fix the syntax error before binding a symbol in it"
        ) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise SymbolSourceError(
            f"{path}: cannot be parsed as Python ({type(exc).__name__})"
        ) from None
    found: list[Symbol] = []
    _collect(tree, (), found)
    found.sort(key=lambda s: s.start_line)
    return found


def _collect(node: ast.AST, prefix: tuple[str, ...], out: list[Symbol]) -> None:
    for child in _statements(node):
        if isinstance(child, _DEFS):
            name = (*prefix, child.name)
            start = min([d.lineno for d in child.decorator_list] + [child.lineno])
            stub = _is_overload(child)
            out.append(Symbol(name, start, child.end_lineno or child.lineno, stub))
            if not stub:
                _collect(child, name, out)
        elif isinstance(child, _COMPOUND):  # simple statements hold no definitions
            _collect(child, prefix, out)


def _is_overload(node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """``@overload`` or ``@X.overload`` (``typing``, ``typing_extensions``, an alias)."""
    if isinstance(node, ast.ClassDef):
        return False
    for dec in node.decorator_list:
        if isinstance(dec, ast.Name) and dec.id == "overload":
            return True
        if (
            isinstance(dec, ast.Attribute)
            and dec.attr == "overload"
            and isinstance(dec.value, ast.Name)
        ):
            return True
    return False


# Statements that hold statements (besides definitions), and the fields that
# hold them, in the order the AST declares them.
_COMPOUND = (
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.TryStar,
    ast.Match,
)
_BLOCKS = ("body", "handlers", "orelse", "finalbody", "cases")


def _statements(node: ast.AST) -> Iterator[ast.AST]:
    """Statements directly inside ``node``, looking through handlers and cases.

    Only block fields are read: expressions never hold statements, so a
    definition-finder need not walk them (a third of the time on real files).
    """
    for name in _BLOCKS:
        for child in getattr(node, name, ()):
            if isinstance(child, ast.stmt):
                yield child
            elif isinstance(child, ast.ExceptHandler | ast.match_case):
                yield from child.body


def resolve_symbol(
    text: str, sel: Selector, every: list[Symbol] | None = None
) -> tuple[Symbol, Selector]:
    """The definition ``sel`` names and its canonical selector (``every``: the
    ``symbols`` of ``text``, when already parsed)."""
    every = symbols(text, sel.path) if every is None else every
    found = [s for s in every if not s.stub]
    full_paths = [s.path for s in found]
    hits = [pos for pos, s in enumerate(found) if s.path == sel.parts]
    if sel.index is not None and sel.index > len(hits):
        legacy = _legacy_index(every, sel)
        if legacy is not None:
            hits, sel = [found.index(legacy)], replace(sel, index=None)
    chosen = pick(
        full_paths,
        hits,
        sel.index,
        lambda parts, n: render(replace(sel, parts=parts, index=n)),
        f"symbol selector {render(sel)!r}",
        lines=[s.start_line for s in found],
    )
    if chosen is None:
        names = sorted({".".join(p) for p in full_paths})
        import difflib  # only when a selector misses: suggestions

        near = difflib.get_close_matches(".".join(sel.parts), names, n=5, cutoff=0.5)
        what = f"only {len(hits)} match, so [{sel.index}] does not exist" if hits else "no match"
        listed = ", ".join(near or names[:5]) or "(no classes or functions)"
        raise SectionNotFound(f"{render(sel)}: {what}; nearby symbols: {listed}")
    pos, index = chosen
    return found[pos], replace(sel, parts=found[pos].path, index=index)


def _legacy_index(every: list[Symbol], sel: Selector) -> Symbol | None:
    """The n-th definition of ``sel``'s path counting ``@overload`` stubs, as
    selectors recorded before stubs were skipped counted them; refused when it is
    a stub, so an old binding is never moved onto one."""
    same = [s for s in every if s.path == sel.parts]
    if sel.index is None or sel.index > len(same) or not any(s.stub for s in same):
        return None
    chosen = same[sel.index - 1]
    if chosen.stub:
        real = [s for s in same if not s.stub]
        where = ", ".join(f"line {s.start_line}" for s in real) or "none"
        raise OverloadStub(
            f"{render(sel)}: the definition at line {chosen.start_line} is an @overload "
            f"stub (this [n] counts stubs, as older bindings did); implementations: {where}; "
            f"rebind to `{render(replace(sel, index=None))}` (stubs are never bound)"
        )
    return chosen
