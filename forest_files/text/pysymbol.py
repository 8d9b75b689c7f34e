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

Stores: nothing.
Refuses: source that is not valid Python (``SymbolSourceError``, naming the
line and never echoing source text), and source whose coding declaration makes
Python read it otherwise than as the UTF-8 it is hashed as (pycoding.py; the same
error, naming the declaration's line and encoding); ``SectionNotFound`` listing nearby
names; ``AmbiguousSelector`` listing ``::Name[n]`` candidates with their
lines; ``OverloadStub`` and ``ReplacedSymbol`` (above). ``SymbolSourceError.where`` and
``ReplacedSymbol.line``/``.by`` carry, as values, what a check's routes act on
(``.fix``, what to do first, a restore's refusal: restore_splice.py).
Returns: the resolved ``Symbol`` and the canonical selector.
Test: tests/text/test_selectors.py, tests/text/test_selector_rules.py
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, replace

from forest_files.text.pycoding import read_otherwise
from forest_files.text.pyrebind import later_bindings, replaced_in
from forest_files.text.selector import (
    SectionNotFound,
    Selector,
    SelectorError,
    render,
)
from forest_files.text.selector_pick import pick

_DEFS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


class SymbolSourceError(SelectorError):
    """The bound file does not parse as Python, so no symbol can be found. ``where``:
    the error's line and what is wrong there ("": it names none); ``fix``: what to do
    first (the message says before binding; a restore words it for itself)."""

    def __init__(self, message: str, where: str = "", fix: str = "") -> None:
        super().__init__(message)
        self.where, self.fix = where, fix


class OverloadStub(SectionNotFound):
    """An older ``[n]`` (stubs counted) now lands on an ``@overload`` stub."""


class ReplacedSymbol(SectionNotFound):
    """The definition a selector names is bound again later in its block: dead code.
    ``line``: where the name is bound anew; ``by``: what binds it ("a `del`", "a later
    def of the same name")."""

    def __init__(self, message: str, line: int = 0, by: str = "") -> None:
        super().__init__(message)
        self.line, self.by = line, by


@dataclass(frozen=True)
class Symbol:
    """One definition: dotted path and its inclusive 1-based line range."""

    path: tuple[str, ...]
    start_line: int
    end_line: int
    stub: bool = False  # an ``@overload`` declaration: listed, never matched
    replaced_at: int | None = None  # a later statement binding the name again
    replaced_by: str = ""  # what binds it again there ("def", "assignment", ...)


def symbols(text: str, path: str) -> list[Symbol]:
    """Every class and function definition of ``text``, in source order."""
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as exc:
        # exc.text would echo source; name the place only.
        where, fix = f"line {exc.lineno}: {exc.msg}", "fix the syntax error"
        raise SymbolSourceError(
            f"{path}: not valid Python ({where}); {fix} before binding a symbol in it",
            where,
            fix,
        ) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise SymbolSourceError(
            f"{path}: cannot be parsed as Python ({type(exc).__name__})"
        ) from None
    declared = read_otherwise(text)
    if declared is not None:
        line, name = declared
        where = (
            f"line {line}: it declares the source encoding {name!r}, so Python reads the "
            "file otherwise than the UTF-8 forest reads and hashes"
        )
        fix = "fix the declaration (remove it, or declare utf-8)"
        raise SymbolSourceError(
            f"{path}: not valid Python ({where}); {fix} before binding a symbol in it",
            where,
            fix,
        )
    found: list[Symbol] = []
    _collect(tree, (), found)
    found.sort(key=lambda s: s.start_line)
    return found


def _collect(
    node: ast.AST,
    prefix: tuple[str, ...],
    out: list[Symbol],
    after: dict[str, tuple[int, str]] | None = None,
) -> None:
    """Definitions under ``node``; ``after``: for a branch's blocks, the first statement
    after the branch (in the blocks holding it, same scope) binding each name anew."""
    for block in _blocks(node):
        replaced = replaced_in(block)
        branches = {p for p, c in enumerate(block) if isinstance(c, _COMPOUND)}
        nested = _branch_names(block[p] for p in branches) if branches else set()
        later = later_bindings(block, nested, branches) if nested else {}
        for pos, child in enumerate(block):
            if isinstance(child, _DEFS):
                name = (*prefix, child.name)
                start = min([d.lineno for d in child.decorator_list] + [child.lineno])
                stub = _is_overload(child)
                at, by = replaced[pos] or (after or {}).get(child.name) or (None, "")
                out.append(Symbol(name, start, child.end_lineno or child.lineno, stub, at, by))
                if not stub:
                    _collect(child, name, out)  # a new scope: nothing handed down
            elif isinstance(child, _COMPOUND):  # simple statements hold no definitions
                _collect(child, prefix, out, {**(after or {}), **later.get(pos, {})})


def _branch_names(compounds: Iterator[ast.stmt]) -> set[str]:
    """Names defined in the blocks of ``compounds`` (and their branches, not inside
    a definition): those a later statement of the enclosing block may replace."""
    names: set[str] = set()
    for stmt in compounds:
        for block in _blocks(stmt):
            names.update(c.name for c in block if isinstance(c, _DEFS))
            names |= _branch_names(c for c in block if isinstance(c, _COMPOUND))
    return names


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


def _blocks(node: ast.AST) -> Iterator[list[ast.stmt]]:
    """Each statement list directly inside ``node`` (a body, a branch, a handler's
    or a case's body), apart: a name bound again in one list replaces it there.

    Only block fields are read: expressions never hold statements, so a
    definition-finder need not walk them (a third of the time on real files).
    """
    for name in _BLOCKS:
        stmts = getattr(node, name, ())
        if stmts and isinstance(stmts[0], ast.ExceptHandler | ast.match_case):
            for part in stmts:
                yield part.body
        elif stmts:
            yield stmts


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
