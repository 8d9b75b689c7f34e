"""What the pre-commit hook asks git before it judges anything, in one ``rev-parse``:
the working tree's root, whether the git index or HEAD holds forest.toml, HEAD's
commit and HEAD's custody key (custody/viewkey.py ``head_custody``).

rev-parse (``--revs-only``) prints each name it resolves and stops at the first that
fails: that name and all after it are taken as paths and printed by no one. A
``--default`` name is printed at that first failure only when no name was printed
since the ``--default`` was given. The names, in order::

    --default :forest.toml  ^HEAD^{commit}
    --default :forest.toml  HEAD:forest.toml  HEAD:.forest/ledger

So, after the root's line(s):
* unborn branch (HEAD names no commit): the index's forest.toml, or nothing;
* HEAD without forest.toml: ``^`` HEAD, then the index's forest.toml or nothing;
* HEAD with forest.toml, no ledger: ``^`` HEAD, HEAD's forest.toml;
* HEAD with both: ``^`` HEAD, HEAD's forest.toml, HEAD's ledger tree.
The ``^`` (a name asked as excluded) marks HEAD's commit, telling an unborn branch with
forest.toml staged from a commit without it. The index asked is ``GIT_INDEX_FILE``'s
(``git commit -a``, ``git commit FILE…``); the working tree's forest.toml never is.

Stores: nothing.
Refuses: nothing itself: when rev-parse fails, the root is asked alone
(``gitio.toplevel``, which says why) and HEAD is left to the check to ask.
Returns: ``Committed``.
Test: tests/doors/test_hook_committed.py
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from forest_files import gitio
from forest_files.kernel.paths import CONFIG_NAME, LEDGER_DIR


class Committed(NamedTuple):
    root: Path
    held: bool  # the git index or HEAD holds forest.toml
    commit: str | None  # HEAD's commit, "" on an unborn branch; None: not asked
    head: tuple[str, str] | None  # head_custody(root): None without ledger or forest.toml


def committed_custody(cwd: Path) -> Committed:
    """``Committed`` for the repository at ``cwd``, from one git process."""
    index_config = f":{CONFIG_NAME}"
    args = ["rev-parse", "--show-toplevel", "--revs-only", "--default", index_config]
    args += ["^HEAD^{commit}", "--default", index_config, f"HEAD:{CONFIG_NAME}"]
    args.append(f"HEAD:{LEDGER_DIR}")
    proc = gitio.run_git(cwd, args, keep_index_file=True, ok_codes=(0, 128))
    if proc.returncode != 0:
        return Committed(gitio.toplevel(cwd), True, None, None)  # toplevel says why
    lines = proc.stdout.decode("utf-8", "surrogateescape").rstrip("\n").split("\n")
    return _read(lines)


def _read(lines: list[str]) -> Committed:
    for back in (1, 2, 3):  # HEAD's commit, then at most forest.toml and the ledger
        at = len(lines) - back
        if at > 0 and lines[at][:1] == "^" and _is_object_id(lines[at][1:]):
            after = lines[at + 1 :]
            if all(_is_object_id(x) for x in after):
                return _born(Path("\n".join(lines[:at])), lines[at][1:], after)
    held = len(lines) > 1 and _is_object_id(lines[-1])  # unborn: the index's forest.toml
    return Committed(Path("\n".join(lines[:-1] if held else lines)), held, "", None)


def _born(root: Path, commit: str, after: list[str]) -> Committed:
    if len(after) == 2:  # HEAD's forest.toml and ledger tree
        from forest_files.custody.viewkey import head_key

        return Committed(root, True, commit, (commit, head_key(after[1], after[0])))
    return Committed(root, bool(after), commit, None)  # HEAD's or the index's forest.toml


def _is_object_id(line: str) -> bool:
    return len(line) in (40, 64) and all(c in "0123456789abcdef" for c in line)
