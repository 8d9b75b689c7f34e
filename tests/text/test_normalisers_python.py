"""py-comments and py-docstrings at their edges: comments and docstrings pass, code,
names, numbers and every other string stay drift; read by tokenize/ast, not regexes."""

from __future__ import annotations

from forest_files.text.extract import extract
from forest_files.text.normalisers import py_comments, py_docstrings
from forest_files.text.selector import parse_selector

FUNC = 'def area(w, h):\n    """Width times height."""\n    return w * h  # the area\n'


def test_py_comments_removed_accepted() -> None:
    a = "def f(x):\n    # explain\n    return x + 1  # one\n"
    b = "def f(x):\n    return x + 1\n"
    assert py_comments(a) == py_comments(b) == b


def test_py_comments_hash_in_string_kept_detected() -> None:
    """A ``#`` inside a string is not a comment: changing it is drift."""
    a = 'def f():\n    return "# one"\n'
    assert py_comments(a) == a
    assert py_comments(a) != py_comments(a.replace("one", "two"))


def test_py_comments_code_name_and_number_change_detected() -> None:
    a = "def f(x):\n    return x + 1  # c\n"
    assert py_comments(a) != py_comments(a.replace("x + 1", "x + 2"))
    assert py_comments(a) != py_comments(a.replace("def f", "def g"))


def test_py_comments_unreadable_text_kept_detected() -> None:
    broken = 'def f():\n    s = """open\n# c\n'
    assert py_comments(broken) == broken


def test_py_docstrings_edit_add_remove_accepted() -> None:
    bare = "def area(w, h):\n    return w * h  # the area\n"
    assert py_docstrings(FUNC) == bare
    edited = FUNC.replace("Width times height.", "The area.\n\n    More lines.\n    ")
    assert py_docstrings(edited) == bare


def test_py_docstrings_method_indented_accepted() -> None:
    method = '    def m(self):\n        """Doc."""\n        return 1\n'
    assert py_docstrings(method) == "    def m(self):\n        return 1\n"


def test_py_docstrings_other_strings_kept_detected() -> None:
    """Only a body's first statement, a string alone on its lines, is a docstring."""
    code = 'def f():\n    x = "value"\n    "not first"\n    return x\n'
    assert py_docstrings(code) == code
    assert py_docstrings(FUNC) != py_docstrings(FUNC.replace("w * h", "w * h * 2"))
    same_line = 'def f(): "d"; return 1\n'
    assert py_docstrings(same_line) == same_line


def test_py_docstrings_nested_class_and_function_accepted() -> None:
    a = 'class A:\n    """A."""\n\n    def f(self):\n        """F."""\n        return 1\n'
    assert py_docstrings(a) == "class A:\n\n    def f(self):\n        return 1\n"


def test_extract_symbol_with_both_accepted() -> None:
    text = "import os\n\n" + FUNC
    sel = parse_selector("m.py::area")
    rules = ("normalise:py-docstrings", "normalise:py-comments", "normalise:trailing-whitespace")
    assert extract(text, sel, rules).text == "def area(w, h):\n    return w * h\n"


def test_py_docstrings_second_bare_string_kept_detected() -> None:
    """A bare string after the docstring never becomes one: the docstring is kept, so
    the second string's edit stays drift and the result reads the same again."""
    code = 'def f():\n    """Doc."""\n    "second"\n    return 1\n'
    assert py_docstrings(code) == code
    assert py_docstrings(py_docstrings(FUNC)) == py_docstrings(FUNC)
    assert py_docstrings(code) != py_docstrings(code.replace("second", "third"))


# A form feed (a ^L page break) or U+2028 is no line end to Python: tokenize and ast
# number lines by LF only, so the normalisers must cut the same lines.
PAGED = (
    "class A:\n"
    "    def f(self):\n"
    "        return 1\n"
    "\x0c\n"
    "    # helper\n"
    "    def g(self):\n"
    "        x = 1\n"
    "        # note\n"
    "        return x\n"
)


def test_py_comments_after_form_feed_code_change_detected() -> None:
    """A ^L page break above a comment made the comment's column cut the line above
    it: ``x = 1`` was dropped, so ``x = 2`` passed unseen."""
    assert "x = 1" in py_comments(PAGED)
    assert py_comments(PAGED) != py_comments(PAGED.replace("x = 1", "x = 2"))
    assert "\x0c" in py_comments(PAGED)


def test_py_docstrings_after_line_separator_accepted() -> None:
    """A U+2028 in a string above a nested docstring shifted ast's line numbers
    against the lines cut: the docstring stayed (and a line above it that looked
    alone at its columns would have been dropped instead)."""
    text = (
        "def f():\n"
        '    s = "a\u2028b"\n'
        "    def g():\n"
        '        """doc"""\n'
        "        return s\n"
        "    return g\n"
    )
    assert py_docstrings(text) == text.replace('        """doc"""\n', "")
