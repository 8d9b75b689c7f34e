"""A rebind of one binding given a directory (``forest rebind docs/a.md notes/``).

``git mv a.md notes/`` means ``notes/a.md``; a rebind does not guess it. Ending in
``/`` makes a rebind a directory move (every binding under OLD), so a file or section
given as OLD would be looked for as a directory and refused as holding no binding,
which named no way on. Binding ``notes/a.md`` for the user is refused too: a rebind
is an act the append-only ledger keeps for ever, and the file may stand elsewhere.

Stores: nothing.
Refuses: (``ForestError``) OLD naming one binding (not a directory holding any) with
OLD or NEW ending in ``/``, naming the command to give: NEW's file when it names
one, else the binding's file name under the directory NEW names, with OLD's section.
Refuses too: a directory given without the ``/`` (``forest rebind docs notes``, as
``git mv docs notes`` spells it), which would be looked for as a file and refused as
holding no binding: named the directory move to give, ``forest rebind docs/ notes/``
(a rebind does not guess whether NEW is the folder renamed or a folder it went into).
Refuses too: OLD or NEW naming a file no selector can name (a backslash or a control
character in its name), with the rename that frees it, as ``forest adopt`` refuses it
(target_names.py): NEW is the file the section moved to, so the rename comes first.
Returns: nothing when the arguments are a directory move (or name nothing: the
directory move refuses that).
Test: tests/custody/test_rebind_trailing_slash.py
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from forest_files.custody.bindings import Binding
from forest_files.custody.lookup import find_binding
from forest_files.custody.target_names import ADOPT, unnameable
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import command_text, forest_step
from forest_files.text.selector import parse_selector, render


def refuse_one_as_directory(bindings: list[Binding], old: str, new: str, root: Path) -> None:
    """Refuse ``old new`` when ``old`` names one binding rather than a directory."""
    folder = old.strip("/")
    if not folder or any(b.path.startswith(folder + "/") for b in bindings):
        return  # a directory move
    try:
        binding = find_binding(bindings, old.rstrip("/"), root=root)
    except ForestError:
        return
    dest = new.rstrip("/")
    if not dest:
        return
    if os.path.isdir(root / dest):  # git mv's meaning of a directory destination
        dest = f"{dest}/{binding.path.rpartition('/')[2]}"
    sel = parse_selector(binding.selector)
    try:
        given = render(replace(sel, path=parse_selector(dest).path))
    except ForestError:
        return  # NEW is no path at all: the directory move says why
    step = forest_step("rebind", binding.selector, given)
    raise ForestError(
        f"{old} -> {new}: a path ending in '/' moves every binding under a directory, "
        f"and {old.rstrip('/')} is one binding; name the place its section stands now: "
        f"`{command_text(step)}`"
    )


def refuse_unnameable(root: Path, old: str, new: str) -> None:
    """Refuse ``old new`` when either, typed as it stands, names a file no selector can
    name: the rename first, then the rebind to the new name."""
    for given, then in ((old, ADOPT), (new, "rebind to the new name")):
        refused = unnameable(root, given, then=then)
        if refused is not None:
            raise refused


def refuse_directory_as_one(bindings: list[Binding], old: str, new: str) -> None:
    """Refuse ``old new`` when ``old`` (no ``/`` at its end) is a directory holding
    bindings rather than a bound file."""
    held = sum(b.path.startswith(old + "/") for b in bindings)
    if not held or any(b.path == old for b in bindings):
        return
    step = forest_step("rebind", f"{old}/", f"{new}/")
    raise ForestError(
        f"{old} -> {new}: {old} is a directory holding {held} binding(s); a directory "
        f"move ends both paths in '/': `{command_text(step)}`"
    )
