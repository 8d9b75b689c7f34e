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

Stores: nothing.
Refuses: source that is not valid Python (``SymbolSourceError``, naming the
line and never echoing source text); ``SectionNotFound`` listing nearby
names; ``AmbiguousSelector`` listing ``::Name[n]`` candidates.
Returns: the resolved ``Symbol`` and the canonical selector.
Test: tests/test_selectors.py
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, replace

from forest_files.files.selector import (
    SectionNotFound,
    Selector,
    SelectorError,
    pick,
    render,
)

_DEFS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


class SymbolSourceError(SelectorError):
    """The bound file does not parse as Python, so no symbol can be found."""


@dataclass(frozen=True)
class Symbol:
    """One definition: dotted path and its inclusive 1-based line range."""

    path: tuple[str, ...]
    start_line: int
    end_line: int


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
            out.append(Symbol(name, start, child.end_lineno or child.lineno))
            _collect(child, name, out)
        elif isinstance(child, _COMPOUND):  # simple statements hold no definitions
            _collect(child, prefix, out)


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


def resolve_symbol(text: str, sel: Selector) -> tuple[Symbol, Selector]:
    """The definition ``sel`` names and its canonical selector."""
    found = symbols(text, sel.path)
    full_paths = [s.path for s in found]
    hits = [pos for pos, s in enumerate(found) if s.path == sel.parts]
    chosen = pick(
        full_paths,
        hits,
        sel.index,
        lambda parts, n: render(replace(sel, parts=parts, index=n)),
        f"symbol selector {render(sel)!r}",
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
