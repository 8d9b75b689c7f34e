"""Which later statement of a Python block binds a definition's name anew.

Python keeps the last binding of a name in a block: a ``def`` (or ``class``, an
assignment, an import, a ``del``) of the same name later in the same statement
list replaces a definition, so the name no longer holds its code. A later
definition whose decorators read the name (``@x.setter``, ``@f.register``), or an
assignment whose value reads it (``f = cache(f)``), builds on it and replaces
nothing; statements inside a nested ``if``/``try`` branch are another block
(conditional) and are not looked at. A definition inside such a branch is replaced,
whichever branch ran, by a statement after the branch's compound statement in a
block that holds it (same scope): ``later_bindings`` hands those down, the nearest
block first. pydefs.py marks what this finds.

Stores: nothing.
Refuses: nothing.
Returns: ``replaced_in``: per statement of a block, (line, what) of the statement
that replaces it, or None; ``later_bindings``: per statement, the first later
statement of the block binding each of some names anew.
Test: tests/text/test_replaced_symbol.py
"""

from __future__ import annotations

import ast

DEFS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def replaced_in(block: list[ast.stmt]) -> list[tuple[int, str] | None]:
    """For each definition of ``block``, (line, what) of the first later statement of
    the block that binds its name anew; None when none does (or not a definition).
    One pass from the end, whatever the block's length."""
    defined = {stmt.name for stmt in block if isinstance(stmt, DEFS)}
    out: list[tuple[int, str] | None] = [None] * len(block)
    if not defined:
        return out
    first: dict[str, tuple[int, str]] = {}
    for pos in range(len(block) - 1, -1, -1):
        stmt = block[pos]
        if isinstance(stmt, DEFS):
            out[pos] = first.get(stmt.name)
        decorated = getattr(stmt, "decorator_list", ())
        line = min([d.lineno for d in decorated] + [stmt.lineno])
        for name, what in _bound_anew(stmt, defined):
            first[name] = (line, what)
    return out


def later_bindings(
    block: list[ast.stmt], names: set[str], at: set[int]
) -> dict[int, dict[str, tuple[int, str]]]:
    """For each position of ``at`` in ``block``, the (line, what) of the first statement
    after it that binds each name of ``names`` anew (as ``replaced_in`` judges)."""
    out: dict[int, dict[str, tuple[int, str]]] = {}
    first: dict[str, tuple[int, str]] = {}
    for pos in range(len(block) - 1, -1, -1):
        if pos in at:
            out[pos] = dict(first)
        stmt = block[pos]
        decorated = getattr(stmt, "decorator_list", ())
        line = min([d.lineno for d in decorated] + [stmt.lineno])
        for name, what in _bound_anew(stmt, names):
            first[name] = (line, what)
    return out


def _bound_anew(stmt: ast.stmt, defined: set[str]) -> list[tuple[str, str]]:
    """(name, what) for each name of ``defined`` that ``stmt`` binds to something that
    does not build on what the name held (a setter's decorator, ``f = cache(f)`` read
    it); other names are never looked at (a module's big literals are not walked)."""
    if isinstance(stmt, DEFS):
        if any(_reads(d, stmt.name) for d in stmt.decorator_list):  # builds on it
            return []
        return [(stmt.name, "class" if isinstance(stmt, ast.ClassDef) else "def")]
    if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        names = [n for t in targets for n in _names(t) if n in defined]
        return [(n, "assignment") for n in names if not _reads(stmt.value, n)]
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        bound = (a.asname or a.name.split(".")[0] for a in stmt.names)
        return [(n, "import") for n in bound if n in defined]
    if isinstance(stmt, ast.Delete):
        return [(n, "del") for t in stmt.targets for n in _names(t) if n in defined]
    return []


def _names(target: ast.expr) -> list[str]:
    """The plain names an assignment (or ``del``) target binds."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Starred):
        return _names(target.value)
    if isinstance(target, ast.Tuple | ast.List):
        return [n for t in target.elts for n in _names(t)]
    return []


def _reads(expr: ast.expr, name: str) -> bool:
    """True when ``expr`` mentions the plain name ``name`` anywhere."""
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(expr))
