"""The Python normalisations: comments and docstrings of a Python symbol's text.

Read with ``tokenize`` (comments) and ``ast`` (docstrings), never a regular
expression; text either cannot read is kept as written. Registered, named and
versioned in normalisers.py; what each lets through: docs/normalisation.md.

Stores: nothing.
Refuses: nothing.
Returns: normalised text.
Test: tests/text/test_normalisers_python.py
"""

from __future__ import annotations


def py_comments(text: str, _whole: str = "") -> str:
    """Comments removed, with the spaces before them; a line that held only a
    comment is dropped. Strings (docstrings included) are never touched. Text
    ``tokenize`` cannot read is kept as it is."""
    import io
    import tokenize

    if "#" not in text:
        return text
    cuts: dict[int, int] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                cuts[tok.start[0]] = tok.start[1]
    except (tokenize.TokenError, SyntaxError):
        return text
    out: list[str] = []
    for number, line in enumerate(_lines(text), 1):
        col = cuts.get(number)
        if col is None:
            out.append(line)
            continue
        kept = line[:col].rstrip(" \t")
        if kept.strip():
            out.append(kept + ("\n" if line.endswith("\n") else ""))
    return "".join(out)


def py_docstrings(text: str, _whole: str = "") -> str:
    """The docstring of each function, class (and module) in the section removed:
    the lines of a first statement that is a string literal alone on its lines (kept
    when a second bare string follows it, so the result reads the same again).
    Every other string is kept; text ``ast`` cannot parse is kept as it is."""
    import ast

    if '"' not in text and "'" not in text:
        return text
    shift, source = 0, text
    if text[:1] in (" ", "\t"):  # a method: parse it inside a block
        shift, source = 1, "if 1:\n" + text
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return text
    lines = _lines(text)
    drop: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if not body or not _bare_string(body[0]):
            continue
        if len(body) > 1 and _bare_string(body[1]):
            continue  # kept: removing it would make the next string a docstring
        assert isinstance(body[0], ast.Expr)
        first, last = body[0].lineno - shift, (body[0].end_lineno or 0) - shift
        if _alone(lines, first, last, body[0].col_offset, body[0].end_col_offset):
            drop.update(range(first, last + 1))
    return "".join(line for n, line in enumerate(lines, 1) if n not in drop)


def _lines(text: str) -> list[str]:
    """``text``'s lines, each with its LF, split on LF only: tokenize and ast number
    lines so, and ``str.splitlines`` also ends one at a form feed (a ^L page break) or
    U+2028, which would cut the line above the one they name."""
    import io

    return io.StringIO(text, newline="\n").readlines()


def _bare_string(node: object) -> bool:
    """A statement that is a string literal alone (what a docstring is)."""
    import ast

    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _alone(lines: list[str], first: int, last: int, col: int, end_col: int | None) -> bool:
    """Whether the statement spans whole lines: only indentation before it, nothing
    after it (ast columns are UTF-8 byte offsets)."""
    if first < 1 or last > len(lines) or end_col is None:
        return False
    head = lines[first - 1].encode("utf-8")[:col]
    tail = lines[last - 1].encode("utf-8")[end_col:]
    return not head.strip() and not tail.strip()
