"""Python definitions collected with the standard library's ``ast``: what a symbol
selector may name (text/pysymbol.py resolves one).

Section boundaries (exact): whole lines from the first decorator of the
``class``/``def``/``async def`` (its ``def`` line when undecorated) through the
last line of its body as ``ast`` reports it (``end_lineno``). Comments and
blank lines after the last statement, and comments above the first
decorator, are outside. A definition is named by its dotted path of enclosing
classes and functions (``Class.method``, ``outer.inner``); definitions inside
``if``/``try``/``with``/``for``/``while``/``match`` blocks keep the
enclosing name.

A ``def`` decorated ``@overload``, ``@typing.overload`` or
``@typing_extensions.overload`` (any ``@X.overload`` where ``X`` is a plain name)
is marked a stub (``Symbol.stub``), and the definitions nested in it are not
collected. A definition a later statement of the same statement list binds
anew (pyrebind.py: another ``def``/``class``, an assignment, an import, a ``del``;
one after the ``if``/``try`` branch holding it, in a block that holds it) is
marked ``replaced_at`` that statement's line, ``replaced_by`` what binds it.

Stores: nothing.
Refuses: source that is not valid Python (``SymbolSourceError``, naming the
line and never echoing source text), and source whose coding declaration makes
Python read it otherwise than as the UTF-8 it is hashed as (pycoding.py; the same
error, naming the declaration's line and encoding). ``SymbolSourceError.where``
and ``.fix`` carry, as values, the line and what to do first (a restore's
refusal words them: restore_splice.py).
Returns: ``symbols``: every ``Symbol`` of a text, in source order.
Test: tests/text/test_selectors.py, tests/text/test_replaced_symbol.py,
tests/text/test_python_coding.py
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from forest_files.text.pycoding import read_otherwise
from forest_files.text.pyrebind import later_bindings, replaced_in
from forest_files.text.selector_errors import SelectorError

_DEFS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


class SymbolSourceError(SelectorError):
    """The bound file does not parse as Python, so no symbol can be found. ``where``:
    the error's line and what is wrong there ("": it names none); ``fix``: what to do
    first (the message says before binding; a restore words it for itself)."""

    def __init__(self, message: str, where: str = "", fix: str = "") -> None:
        super().__init__(message)
        self.where, self.fix = where, fix


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
