"""A Python definition bound again later in its block is never a selector's match.

Python keeps the last binding of a name in a block: a ``def`` pasted after a bound
method (or an assignment, an import, a ``del`` of its name) leaves the bound text
unchanged and turns it off. pysymbol.py marks such a definition ``replaced_at`` and
refuses to resolve it (``ReplacedSymbol``); definitions that build on the earlier one
(a property setter, ``f = cache(f)``) or redefine it under a condition do not replace
it.
"""

from __future__ import annotations

import textwrap

import pytest

from forest_files.custody.restore import splice
from forest_files.text.extract import extract
from forest_files.text.pysymbol import ReplacedSymbol, symbols
from forest_files.text.selector import parse_selector
from forest_files.text.selector_errors import AmbiguousSelector

BOUND = textwrap.dedent(
    """\
    class Signer:
        def verify(self, sig):
            return check(sig)

        def sign(self, value):
            return value
    """
)


def _later(text: str, after: str, pasted: str) -> str:
    """``text`` with ``pasted`` (indented for the class body) after the line ``after``."""
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.strip() == after) + 1
    return "".join([*lines[:at], textwrap.indent(pasted, "    "), *lines[at:]])


@pytest.mark.parametrize(
    ("pasted", "what"),
    [
        ("\ndef verify(self, sig):\n    return True\n", "def"),
        ("\nverify = lambda self, sig: True\n", "assignment"),
        ("\nverify: object = staticmethod(print)\n", "assignment"),
        ("\nfrom os import path as verify\n", "import"),
        ("\ndel verify\n", "del"),
        ("\nclass verify:\n    pass\n", "class"),
    ],
)
def test_definition_bound_again_later_refused_hostile(pasted: str, what: str) -> None:
    text = _later(BOUND, "return check(sig)", pasted)
    first = next(s for s in symbols(text, "m.py") if s.path == ("Signer", "verify"))
    assert (first.replaced_at, first.replaced_by) == (5, what)
    selector = "m.py::Signer.verify[1]" if what in ("def", "class") else "m.py::Signer.verify"
    with pytest.raises(ReplacedSymbol) as info:
        extract(text, parse_selector(selector), ())
    message = str(info.value)
    assert "the definition at line 2 is replaced at line 5" in message
    if what == "def":
        assert "bind it (`::Signer.verify[2]` in this file)" in message
    # a restore cannot write the ground into code that never runs either
    with pytest.raises(ReplacedSymbol):
        splice(text.encode(), selector, (), "    def verify(self, sig):\n        x\n", "m.py")


def test_plain_selector_ambiguous_before_replaced_hostile() -> None:
    """Two ``def verify``: the plain selector is ambiguous first (as before), and only
    the later, live one resolves by its ``[n]``."""
    text = _later(BOUND, "return check(sig)", "\ndef verify(self, sig):\n    return True\n")
    with pytest.raises(AmbiguousSelector):
        extract(text, parse_selector("m.py::Signer.verify"), ())
    live = extract(text, parse_selector("m.py::Signer.verify[2]"), ())
    assert live.text == "    def verify(self, sig):\n        return True\n"


@pytest.mark.parametrize(
    "pasted",
    [
        "\n@verify.register\ndef verify(self, sig: int):\n    return 1\n",  # builds on it
        "\nverify = cache(verify)\n",  # wraps it
        "\nif DEBUG:\n    def verify(self, sig):\n        return True\n",  # conditional
        "\ntry:\n    verify = fast_verify\nexcept NameError:\n    pass\n",  # conditional
        "\nverified = verify\n",  # reads it, binds another name
    ],
)
def test_definition_built_on_or_redefined_conditionally_accepted(pasted: str) -> None:
    text = _later(BOUND, "return check(sig)", pasted)
    first = next(s for s in symbols(text, "m.py") if s.path == ("Signer", "verify"))
    assert first.replaced_at is None
    sel = "m.py::Signer.verify[1]" if "def verify" in pasted.split("\n", 2)[-1] else None
    got = extract(text, parse_selector(sel or "m.py::Signer.verify"), ())
    assert got.text == "    def verify(self, sig):\n        return check(sig)\n"


def test_property_setter_and_earlier_definition_accepted() -> None:
    """A getter with its setter, and a bound definition that an EARLIER one of the
    same name precedes (the bound one is the live one)."""
    text = textwrap.dedent(
        """\
        class C:
            @property
            def x(self):
                return 1

            @x.setter
            def x(self, v):
                pass

        def f():
            return 0

        def f():
            return 1
        """
    )
    assert extract(text, parse_selector("m.py::C.x[1]"), ()).text.endswith("return 1\n")
    assert extract(text, parse_selector("m.py::f[2]"), ()).text == "def f():\n    return 1\n"
    with pytest.raises(ReplacedSymbol, match=r"m\.py::f\[1\]: the definition at line 10"):
        extract(text, parse_selector("m.py::f[1]"), ())


BRANCHED = textwrap.dedent(
    """\
    import sys

    if sys.version_info >= (3, 8):
        def verify(sig):
            return check(sig)
    else:
        def verify(sig):
            return legacy(sig)
    """
)


@pytest.mark.parametrize(
    ("after", "line", "what"),
    [
        ("verify = lambda sig: True\n", 9, "assignment"),
        ("del verify\nverify = None\n", 9, "del"),  # the first after the branch
        ("from os import path as verify\n", 9, "import"),
        ("def verify(sig):\n    return True\n", 9, "def"),
    ],
)
def test_branch_definition_bound_again_after_its_branch_refused_hostile(
    after: str, line: int, what: str
) -> None:
    """``verify[1]`` in an ``if`` branch, then a statement after the ``if`` (in the
    block that holds it) binds ``verify`` again: whichever branch ran, the name no
    longer holds it. Only the block of the definition itself was looked at."""
    text = BRANCHED + after
    found = [s for s in symbols(text, "m.py") if s.path == ("verify",)]
    assert [(s.replaced_at, s.replaced_by) for s in found[:2]] == [(line, what)] * 2
    with pytest.raises(ReplacedSymbol, match=rf"is replaced at line {line}"):
        extract(text, parse_selector("m.py::verify[1]"), ())


@pytest.mark.parametrize(
    "after",
    [
        "verify = cache(verify)\n",  # builds on whichever branch ran
        "if DEBUG:\n    verify = lambda sig: True\n",  # conditional again
        "def verify_all(sigs):\n    return all(map(verify, sigs))\n",  # another name
    ],
)
def test_branch_definition_built_on_after_its_branch_accepted(after: str) -> None:
    text = BRANCHED + after
    got = extract(text, parse_selector("m.py::verify[1]"), ())
    assert got.text == "    def verify(sig):\n        return check(sig)\n"
