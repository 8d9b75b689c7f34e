"""Python symbol selectors resolved to the definitions of a file (text/pydefs.py).

A symbol is named by its dotted path of enclosing classes and functions
(``Class.method``, ``outer.inner``); definitions inside
``if``/``try``/``with``/``for``/``while``/``match`` blocks keep the enclosing
name (pydefs.py collects them, with their exact section boundaries). The full
dotted path must match; when it occurs more than once (a property setter, a
conditional redefinition) ``[n]`` picks the n-th in source order.

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

A definition the code replaces is not the code that runs: when a later
statement of the same statement list binds the same name again (another
``def``/``class``, an assignment, an import, a ``del``), Python keeps only the
later one, so custody of the earlier text would hold code the name no longer runs (a ``def``
pasted after a bound method turns it off with its text unchanged). Such a
definition is ``replaced_at`` that statement's line and a selector never
matches it (``ReplacedSymbol``, naming the line). A later definition whose
decorators name the earlier one (``@x.setter``, ``@f.register``) or an
assignment whose value reads it (``f = cache(f)``) builds on it and does not
replace it; a redefinition inside an ``if``/``try`` branch is conditional
and does not either. A definition inside such a branch is replaced by a statement
after the branch, in a block that holds it, binding the name anew (``if v: def f``
then ``f = lambda: True``): whichever branch ran, the name no longer holds it.

This module is the one import path of symbols: ``Symbol``, ``symbols`` and
``SymbolSourceError`` are pydefs.py's, named here too.
Stores: nothing.
Refuses: pydefs.py's ``SymbolSourceError`` (source that is not valid Python, or read
otherwise than as UTF-8); ``SectionNotFound`` listing nearby names;
``AmbiguousSelector`` listing ``::Name[n]`` candidates with their lines;
``OverloadStub`` and ``ReplacedSymbol`` (above). ``ReplacedSymbol.line``/``.by``
carry, as values, what a check's routes act on.
Returns: the resolved ``Symbol`` and the canonical selector.
Test: tests/text/test_selectors.py, tests/text/test_selector_rules.py
"""

from __future__ import annotations

from dataclasses import replace

from forest_files.text.pydefs import Symbol, SymbolSourceError, symbols
from forest_files.text.selector import Selector, render
from forest_files.text.selector_errors import SectionNotFound
from forest_files.text.selector_pick import pick

__all__ = [
    "OverloadStub",
    "ReplacedSymbol",
    "Symbol",
    "SymbolSourceError",
    "resolve_symbol",
    "symbols",
]


class OverloadStub(SectionNotFound):
    """An older ``[n]`` (stubs counted) now lands on an ``@overload`` stub."""


class ReplacedSymbol(SectionNotFound):
    """The definition a selector names is bound again later in its block: dead code.
    ``line``: where the name is bound anew; ``by``: what binds it ("a `del`", "a later
    def of the same name")."""

    def __init__(self, message: str, line: int = 0, by: str = "") -> None:
        super().__init__(message)
        self.line, self.by = line, by


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
        dead=[_replaced_note(s) for s in found],
    )
    if chosen is None:
        names = sorted({".".join(p) for p in full_paths})
        import difflib  # only when a selector misses: suggestions

        near = difflib.get_close_matches(".".join(sel.parts), names, n=5, cutoff=0.5)
        what = f"only {len(hits)} match, so [{sel.index}] does not exist" if hits else "no match"
        listed = ", ".join(near or names[:5]) or "(no classes or functions)"
        raise SectionNotFound(f"{render(sel)}: {what}; nearby symbols: {listed}")
    pos, index = chosen
    symbol = found[pos]
    if symbol.replaced_at is not None:
        at, how = symbol.replaced_at, _replacer(symbol.replaced_by)
        raise ReplacedSymbol(_replaced_message(render(sel), symbol, found), at, how)
    return symbol, replace(sel, parts=symbol.path, index=index)


def _replaced_note(symbol: Symbol) -> str:
    """Beside a definition an ambiguous selector lists: replaced where, or ""."""
    if symbol.replaced_at is None:
        return ""
    return f"replaced at line {symbol.replaced_at}: the name no longer holds it"


def _replacer(what: str) -> str:
    """What binds a name anew, as a message names it."""
    return "a `del`" if what == "del" else f"a later {what} of the same name"


def _replaced_message(named: str, symbol: Symbol, found: list[Symbol]) -> str:
    """What replaces the definition ``named`` resolves to, and the way out."""
    at, what = symbol.replaced_at, symbol.replaced_by
    how = _replacer(what)
    head = (
        f"{named}: the definition at line {symbol.start_line} is replaced at line {at} by "
        f"{how} in the same block (from there on the name does not hold this code)"
    )
    same = [s for s in found if s.path == symbol.path]
    later = next((s for s in same if s.start_line == at), None)
    if later is None:
        return f"{head}; remove that {what}, or bind what the name holds instead"
    n = same.index(later) + 1
    dotted = ".".join(symbol.path)
    return f"{head}; remove the later one, or bind it (`::{dotted}[{n}]` in this file)"


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
