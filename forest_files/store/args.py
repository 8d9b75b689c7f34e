"""The shape of the library face's arguments, checked at the op before any work.

Stores: nothing.
Refuses (``BoundsRefused``, a ``ForestError``, naming the op and the argument):
a word of a closed vocabulary (a bucket, a jurisdiction, an edge kind) that is not
a str, or not in its vocabulary; a text (a signature, adopting words, a hash) that
is not a str, which 0.4 refused as if blank ("unsigned insert refused"); a path
that is not a str or ``os.PathLike``; an item that is not a pair; a flag that
is not a bool, a count that is not an int; a list
argument (``origins``, ``open_buckets``) that is a str, bytes, a mapping, an
iterator or no collection at all; ``meta``
that is not a mapping; a ``limit`` that is not an int (a bool, a float, a str),
or beyond SQLite's integer range. Forest 0.4 let each of these reach a
``set`` lookup, ``dict()``, ``int()`` or SQL, and raised a raw ``TypeError``,
``ValueError`` or ``OverflowError`` from deep inside, or (a str as
``open_buckets``, an unknown bucket) silently matched nothing. Values are never
echoed (a secret may be in one); an item is named by its position.
Returns: the checked value (a collection as a list; a list of words once each, in
the order first given).
Test: tests/store/test_store_arguments.py
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from typing import Any, Literal, overload

from forest_files.kernel import bounds


def _refuse(what: str, field: str, rule: str) -> bounds.BoundsRefused:
    return bounds.BoundsRefused(f"{what}: {field}", rule)


def name(what: str, field: str, value: object, vocab: Collection[str]) -> str:
    """``value`` if it is a str (whether it is in ``vocab`` is the caller's to say)."""
    if not isinstance(value, str):
        kind = type(value).__name__
        choices = ", ".join(sorted(vocab))
        raise _refuse(what, field, f"must be a str, not {kind}; use one of: {choices}")
    return value


@overload
def text(
    what: str, field: str, value: object, example: str, *, optional: Literal[False] = False
) -> str: ...
@overload
def text(what: str, field: str, value: object, example: str, *, optional: bool) -> str | None: ...
def text(
    what: str, field: str, value: object, example: str, *, optional: bool = False
) -> str | None:
    """``value`` if it is a str (or None, when ``optional``); whether a blank one will
    do is the caller's to say."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        kind = type(value).__name__
        shape = "a str or None" if optional else "a str"
        raise _refuse(what, field, f"must be {shape}, not {kind}; e.g. {field}={example}")
    return value


def path(what: str, field: str, value: object, example: str) -> str:
    """``value`` as a str if it is a str or a path (``os.PathLike`` giving a str);
    ``Path(None)`` and ``Path([...])`` raised a bare ``TypeError``."""
    given = os.fspath(value) if isinstance(value, os.PathLike) else value
    if not isinstance(given, str):
        kind = type(value).__name__
        raise _refuse(what, field, f"must be a str or a Path, not {kind}; e.g. {field}={example}")
    return given


def pair(what: str, field: str, value: object, example: str) -> tuple[Any, Any]:
    """The two items of ``value`` if it is a tuple or list of two (unpacking anything
    else raised a bare ``ValueError`` or ``TypeError``)."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        kind = type(value).__name__
        if isinstance(value, (tuple, list)):
            kind = f"a {kind} of {len(value)}"
        raise _refuse(what, field, f"must be a pair, not {kind}; e.g. {example}")
    return value[0], value[1]


def flag(what: str, field: str, value: object) -> bool:
    """``value`` if it is a bool (None: False, as not given); ``shallower="no"`` was
    taken as True."""
    if value is None:
        return False
    if not isinstance(value, bool):
        kind = type(value).__name__
        raise _refuse(what, field, f"must be True or False, not {kind}; e.g. {field}=True")
    return value


def integer(what: str, field: str, value: object, example: str) -> int:
    """``value`` if it is an int (never a bool, a float or a str)."""
    if isinstance(value, bool) or not isinstance(value, int):
        kind = type(value).__name__
        raise _refuse(what, field, f"must be an int, not {kind}; e.g. {field}={example}")
    return value


def word(what: str, field: str, value: object, vocab: Collection[str]) -> str:
    """``value`` if it is a str of ``vocab``."""
    if name(what, field, value, vocab) not in vocab:
        choices = ", ".join(sorted(vocab))
        raise _refuse(what, field, f"is not one of the known names; use one of: {choices}")
    return str(value)


def collection(what: str, field: str, value: object, example: str) -> list[Any]:
    """The items of ``value`` if it is a list, tuple or set (never a str, whose
    characters 0.4 took for items, nor a mapping or a one-shot iterator)."""
    if isinstance(value, (str, bytes, bytearray, Mapping)) or not isinstance(value, Collection):
        kind = type(value).__name__
        raise _refuse(what, field, f"must be a list, not {kind}; e.g. {field}={example}")
    return list(value)


def words(what: str, field: str, value: object, vocab: Collection[str]) -> list[str]:
    """The names of ``value`` (None: none) if it is a collection of strs of ``vocab``,
    each once (a name given twice asks for nothing more than once)."""
    if value is None:
        return []
    items = collection(what, field, value, "['note']")
    for i, item in enumerate(items):
        word(what, f"{field}[{i}]", item, vocab)
    return list(dict.fromkeys(items))


def mapping(what: str, field: str, value: object) -> dict[str, Any]:
    """A copy of ``value`` (None: empty) if it is a mapping."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        kind = type(value).__name__
        raise _refuse(what, field, f"must be a mapping (a dict) or None, not {kind}")
    return dict(value)


def limit(what: str, value: object) -> int | None:
    """How many results ``value`` asks for: None for no limit (None, or a negative int,
    SQLite's rule kept from 0.4); refused unless an int SQLite can hold."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        kind = type(value).__name__
        raise _refuse(what, "limit", f"must be an int or None, not {kind}; e.g. limit=20")
    if not -(2**63) <= value <= bounds.MAX_ENTRY_ID:
        raise _refuse(what, "limit", "is beyond SQLite's integer range; give None for no limit")
    return None if value < 0 else value
