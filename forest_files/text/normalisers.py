"""Declared normalisations: named, versioned rewrites of a section before it is hashed.

A binding may declare normalisations (``forest.toml`` ``[bind."GLOB"] normalise =
[...]`` or ``forest adopt --normalise NAME``); each is recorded with the binding as
``name@version`` (ledger format 3, ``binding.normalise``), sorted, so every clone
hashes the section the same way. ``extract`` applies them after the exclusions, in
the fixed order of ``ORDER`` (not the recorded order), and the section hash is the
hash of the result: the ground body of such a binding is its normalised text.
Each normalisation is idempotent and, where Markdown structure matters, reads it
with the project's CommonMark parser (pulldown-cmark), never a regular expression;
Python ones read ``tokenize``/``ast``. What each lets through and what stays
drift: docs/normalisation.md. In memory a normalisation rides with a binding's
exclusions as the item ``normalise:NAME@V`` (exclude.py), so every door that cuts a
section with a binding's exclusions normalises it the same way.

Stores: nothing.
Refuses (``NormaliseError``, one line listing the known names): an unknown name,
an unknown version, a normalisation on the wrong kind of target (``py-*`` only on a
Python symbol; the Markdown ones only on Markdown: fits).
Returns: canonical ``name@version`` strings, and normalised text.
Test: tests/text/test_normalisers.py, tests/text/test_normalisers_python.py
(the rewrites themselves: mdnormal.py, pynormal.py)
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from forest_files.text.mdnormal import emphasis, link_style, list_markers
from forest_files.text.pynormal import py_comments, py_docstrings
from forest_files.text.selector_errors import SelectorError


class NormaliseError(SelectorError):
    """A normalisation is unknown, of an unknown version, or does not fit the target."""


PREFIX = "normalise:"  # the in-memory item beside a binding's exclusions


@dataclass(frozen=True)
class Normaliser:
    """One named, versioned normalisation; ``targets``: any | markdown | python."""

    name: str
    version: int
    targets: str
    run: Callable[[str, str], str]  # (section text, whole file text) -> text

    @property
    def label(self) -> str:
        return f"{self.name}@{self.version}"


# --- generic text ----------------------------------------------------------------------

_TRAILING = re.compile(r"[ \t]+$", re.M)


def trailing_whitespace(text: str, _whole: str = "") -> str:
    """Spaces and tabs at the end of each line removed (nothing else)."""
    return _TRAILING.sub("", text)


def blank_lines(text: str, _whole: str = "") -> str:
    """Each run of blank lines (empty or spaces/tabs only) becomes one empty line;
    a run at the start or the end of the section is dropped."""
    out: list[str] = []
    pending = False
    # lines end at LF only, as every section is cut (str.splitlines also ends one at
    # a form feed, U+2028 and more: a paragraph split after a page break read as none)
    for line in io.StringIO(text, newline="\n").readlines() if "\n" in text else [text]:
        if not line.strip(" \t\n"):
            pending = bool(out)
            continue
        if pending:
            out.append("\n")
            pending = False
        out.append(line)
    return "".join(out)


# --- the registry ----------------------------------------------------------------------------

_ALL = (
    Normaliser("link-style", 1, "markdown", link_style),
    Normaliser("emphasis", 1, "markdown", emphasis),
    Normaliser("list-markers", 1, "markdown", list_markers),
    Normaliser("py-docstrings", 1, "python", py_docstrings),
    Normaliser("py-comments", 1, "python", py_comments),
    Normaliser("trailing-whitespace", 1, "any", trailing_whitespace),
    Normaliser("blank-lines", 1, "any", blank_lines),
)
ORDER = tuple(n.label for n in _ALL)  # the order they apply in (each version's place fixed)
REGISTRY = {n.label: n for n in _ALL}
CURRENT = {n.name: n for n in _ALL}  # the version a bare name means


def known() -> str:
    """The known names, for a refusal."""
    return ", ".join(sorted(CURRENT))


def canonical(given: str) -> str:
    """``NAME`` or ``NAME@VERSION`` as its recorded ``name@version``."""
    name, at, version = given.partition("@")
    found = CURRENT.get(name)
    if found is None:
        shown = given if len(given) <= 40 else given[:40] + "…"
        raise NormaliseError(
            f"unknown normalisation {shown!r}; known: {known()} "
            "(docs/normalisation.md says what each lets through)"
        )
    label = f"{name}@{version}" if at else found.label
    if label not in REGISTRY:
        raise NormaliseError(
            f"normalisation {name!r} has no version {version!r}; this forest-files "
            f"knows {found.label} (write {name!r} for it, or upgrade forest-files)"
        )
    return label


def canonical_list(given: Iterable[str]) -> tuple[str, ...]:
    """Each given normalisation canonical, sorted; one given twice refused."""
    out = [canonical(g) for g in given]
    twice = sorted({x for x in out if out.count(x) > 1})
    if twice:
        raise NormaliseError(f"normalisation {twice[0]!r} is given twice; give it once")
    return tuple(sorted(out))


MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown", ".mkd", ".mdx")


def fits(label: str, kind: str, path: str = "") -> bool:
    """Whether normalisation ``label`` applies to a target of selector kind ``kind`` in
    file ``path``: the ``py-*`` ones to a Python symbol only; the Markdown ones to a
    heading or anchor, or a whole file or region of a Markdown file (a ``+`` line of
    Python read as a bullet would hide a sign); the rest to every target. Without
    ``path`` only the kind is judged."""
    targets = REGISTRY[label].targets
    if targets == "python":
        return kind == "symbol"
    if targets == "any":
        return True
    if kind in ("heading", "anchor"):
        return True
    return kind != "symbol" and (not path or path.lower().endswith(MARKDOWN_SUFFIXES))


def misfit(label: str, where: str) -> NormaliseError:
    """The refusal of ``label`` on a target it does not fit."""
    name = REGISTRY[label].name
    if REGISTRY[label].targets == "python":
        fix = "py-comments and py-docstrings apply to Python symbols (FILE.py::Name) only"
    else:
        fix = (
            f"{name} reads Markdown: a heading, or a whole .md file or region "
            "(a Python symbol takes py-comments, py-docstrings)"
        )
    return NormaliseError(
        f"{where}: normalisation {name!r} does not fit this target; {fix}; "
        "trailing-whitespace and blank-lines fit every target; drop --normalise "
        f"{name} or bind another target"
    )


def apply(
    labels: Iterable[str], text: str, whole: str, kind: str, where: str, path: str = ""
) -> str:
    """``text`` under every normalisation of ``labels`` (canonical), in ``ORDER``;
    ``whole`` is the file's text (links resolve over it), ``path`` its path."""
    wanted = set(labels)
    for label in ORDER:
        if label in wanted:
            if not fits(label, kind, path):
                raise misfit(label, where)
            text = REGISTRY[label].run(text, whole)
    unknown = wanted - REGISTRY.keys()
    if unknown:
        raise NormaliseError(f"unknown normalisation {sorted(unknown)[0]!r}; known: {known()}")
    return text
