"""Lazy module attributes (PEP 562): a package names what it exports and where
from, and a name's module is imported on first use only — so the git hook's
fast path never pays for the store, the CLI or their imports.

Stores: each name, once loaded, in the package's namespace (no second lookup).
Refuses: unknown names, with the ``AttributeError`` Python would raise.
Returns: the package's ``__getattr__`` and ``__dir__``.
Test: tests/kernel/test_lazy.py
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing itself is not imported: every module costs the hook
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


def lazy_exports(
    namespace: dict[str, Any], exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for the package whose ``globals()`` is
    ``namespace``; ``exports`` maps each name to the module that defines it."""
    package = namespace["__name__"]

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *exports})  # a loaded name is in both: once

    return __getattr__, __dir__
