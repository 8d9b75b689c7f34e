"""Custody git holds that the work tree leaves out: refused, never read as empty.

A sparse checkout that leaves ``.forest`` out (``git sparse-checkout set --cone
docs``), the same in non-cone mode (forest.toml left out too), skip-worktree set by
hand, or a ledger deleted from the work tree: git's index still holds the ledger
(the hook and ``forest ci`` judge it), while the work tree has none. Read as it
stands, custody would be empty ("no bindings yet", "0 binding(s) checked", exit 0),
an act would write a new ledger outside the sparse set (where git never sees it),
and a missing forest.toml would be taken for a repository that never held custody
(``forest init``, which starts another project). So the working tree's doors refuse
and name the command that brings custody back:
``git sparse-checkout add -- .forest`` (cone mode: forest.toml, at the top, is
always in), ``git sparse-checkout add -- /.forest/ /forest.toml`` (non-cone mode:
patterns), the flag cleared and the files checked out (skip-worktree without a
sparse checkout), or ``git checkout -- .forest forest.toml`` (deleted).

Cost: two ``lstat``; one ``git ls-files`` only when forest.toml or the ledger
directory is absent (a repository without custody, or this fault).

Stores: nothing.
Refuses (``CustodyLeftOut``, a ``ForestError``: one line, nothing written):
forest.toml or ``.forest/ledger`` absent from the work tree while git's index holds it.
Returns: None.
Test: tests/custody/test_left_out.py
"""

from __future__ import annotations

import os
from pathlib import Path

from forest_files.kernel.errors import ForestError
from forest_files.kernel.paths import CONFIG_NAME, FOREST_DIR, LEDGER_DIR


class CustodyLeftOut(ForestError):
    """Custody git holds is not in the work tree; the message names the way in (the
    sync hooks say it as it is: ``forest sync`` cannot help)."""


def refuse_left_out(root: Path) -> None:
    """Refuse (see above) when custody git holds is not in the work tree at ``root``."""
    absent = [p for p in (CONFIG_NAME, LEDGER_DIR) if not os.path.lexists(root / p)]
    if not absent:
        return
    from forest_files import gitio

    listed = gitio.run_git(root, ["ls-files", "-v", "-z", "--full-name", "--", *absent])
    flags = {tag.upper() for tag, _, _ in (r.partition(" ") for r in gitio.split_z(listed.stdout))}
    if not flags:
        return  # git holds none of it either: no custody here (forest init's case)
    if LEDGER_DIR not in absent and "S" not in flags:
        return  # forest.toml deleted beside its ledger: custody/lost_config.py says it
    raise CustodyLeftOut(_said(root, absent, skipped="S" in flags))


def _said(root: Path, absent: list[str], *, skipped: bool) -> str:
    from forest_files.kernel.shellword import command_text

    what = f"forest-files custody ({', '.join(absent)})"
    # the whole .forest when it is gone (its .gitignore too), else the ledger alone
    whole = not os.path.lexists(root / FOREST_DIR)
    gone = [FOREST_DIR if p == LEDGER_DIR and whole else p for p in absent]
    back = command_text(("git", "checkout", "--", *gone))
    if not skipped:
        return (
            f"{what} is deleted from the work tree while git holds it; nothing was read or "
            f"written: bring it back with `{back}`"
        )
    wanted = _sparse_patterns(root, absent)
    if wanted:
        add = command_text(("git", "sparse-checkout", "add", "--", *wanted))
        return (
            f"this sparse checkout leaves out {what} while git holds it; nothing was read or "
            f"written: bring it in with `{add}`"
        )
    listed = command_text(("git", "ls-files", "-z", "--", *gone))
    clear = command_text(("git", "update-index", "-z", "--no-skip-worktree", "--stdin"))
    return (
        f"git is told to skip {what} in the work tree (skip-worktree) while git holds it; "
        f"nothing was read or written: clear the flag and bring it back with "
        f"`{listed} | {clear} && {back}`"
    )


def _sparse_patterns(root: Path, absent: list[str]) -> list[str]:
    """What ``git sparse-checkout add`` takes to bring ``absent`` in; empty without a
    sparse checkout (or a forest.toml flagged by hand in cone mode, which always holds
    the top's files)."""
    from forest_files import gitio

    if gitio.config_get(root, "core.sparseCheckout", as_type="bool") != "true":
        return []
    # cone mode (git's default) takes directories; non-cone mode takes patterns
    cone = gitio.config_get(root, "core.sparseCheckoutCone", as_type="bool") != "false"
    wanted = [FOREST_DIR if cone else f"/{FOREST_DIR}/"] if LEDGER_DIR in absent else []
    return wanted + ([] if cone or CONFIG_NAME not in absent else [f"/{CONFIG_NAME}"])
