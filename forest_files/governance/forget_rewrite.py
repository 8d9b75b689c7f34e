"""The history rewrite ``forest forget`` routes to, as one line that works pasted.

``git filter-repo`` refuses to rewrite a clone that is not fresh ("does not look like
a fresh clone": the clone ``forest forget`` ran in never is), and in the fresh clone it
rewrites it removes the ``origin`` remote, so a plain ``git push --force`` there fails.
So the route rewrites a fresh clone made beside this one (``git clone --no-local``: a
local clone's hard-linked objects fail filter-repo's check too) from the remote this
clone pushes to, and adds that remote back under its own name; a second command,
printed apart so the rewritten clone can be looked over first, force-pushes every
branch and tag. filter-repo expires the fresh clone's reflog and prunes the old
objects itself. Every step names the fresh clone with ``git -C``: no ``cd`` leaves
the shell somewhere else. The file of erased lines and the fresh clone are named by
absolute paths beside this clone (outside both work trees), so the line works pasted
in any directory. The remote is the current branch's upstream's, else the only one,
else ``origin``; a remote's name is quoted and put after ``--`` (it may hold ``$``, a
quote or a leading ``-``). The other remotes are named: they hold the old history
too. Without such a remote the fresh clone is made from this clone and takes its
place.

Stores: nothing.
Refuses: nothing.
Returns: ``RewritePlace`` (where the rewrite happens, from this clone's configuration),
``RewritePlace.steps`` (the rewrite, joined by ``&&``), ``RewritePlace.push`` (the
force-push) and ``cannot_do``: what forget
cannot do, each with the commands that do it (never a line of text).
Test: tests/governance/test_forget_rewrite.py
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from forest_files import gitio
from forest_files.kernel.paths import LEDGER_DIR
from forest_files.kernel.shellword import shell_word

# A URL that carries a password (``https://user:token@host/...``): never printed; the
# pasted line reads it from this clone's configuration instead.
_PASSWORD = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://[^/@]*:[^/@]*@")
# A URL git reads as a transport (``scheme://``) or as scp-like ``host:path``.
_TRANSPORT = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://|[^/:]+:)")


@dataclass(frozen=True)
class RewritePlace:
    """``root``: this clone's top; ``url``: the chosen remote's URL as the pasted line
    names it (a shell word or a ``$(…)`` reading it), None without one; ``remote``:
    its name; ``others``: the other remotes (they hold the old history too)."""

    root: Path
    url: str | None
    remote: str = "origin"
    others: tuple[str, ...] = ()

    @property
    def erased_file(self) -> Path:
        return self.root.parent / "erased.txt"

    @property
    def fresh(self) -> Path:
        return self.root.parent / f"{self.root.name}-rewrite"

    def steps(self, body_rel: str) -> str:
        """Clone fresh, rewrite there, and (with a remote) add the remote back."""
        source = self.url if self.url is not None else shell_word(str(self.root))
        fresh = shell_word(str(self.fresh))
        words = [
            f"git clone --no-local {source} {fresh}",
            f"git -C {fresh} filter-repo --invert-paths --path {shell_word(body_rel)} "
            f"--replace-text {shell_word(str(self.erased_file))}",
        ]
        if self.url is not None:
            words.append(f"git -C {fresh} remote add -- {shell_word(self.remote)} {self.url}")
        return " && ".join(words)

    def push(self) -> str | None:
        """The rewritten clone's force-push of every branch and tag (None without a
        remote: the user knows where the old history went)."""
        if self.url is None:
            return None
        fresh, name = shell_word(str(self.fresh)), shell_word(self.remote)
        return (
            f"git -C {fresh} push --force --all -- {name} && "
            f"git -C {fresh} push --force --tags -- {name}"
        )


def _pushed_to(top: Path) -> tuple[str | None, tuple[str, ...]]:
    """The remote this clone pushes to (the current branch's upstream's, else the only
    one, else ``origin``; None when none of them is) and the other remotes."""
    names = gitio.remote_names(top)
    upstream = gitio.upstream_remote(top)
    if upstream in names:
        chosen: str | None = upstream
    elif len(names) == 1:
        chosen = names[0]
    else:
        chosen = "origin" if "origin" in names else None
    return chosen, tuple(n for n in names if n != chosen)


def rewrite_place(root: Path) -> RewritePlace:
    """Where the rewrite of ``root``'s history happens: beside it, from the remote it
    pushes to."""
    top = Path(os.path.abspath(root))
    remote, others = _pushed_to(top)
    url = None if remote is None else gitio.config_get(top, f"remote.{remote}.url")
    if remote is None or url is None or not url.strip():
        return RewritePlace(top, None, others=tuple(n for n in (remote, *others) if n))
    if _PASSWORD.match(url):
        read = f"git -C {shell_word(str(top))} remote get-url -- {shell_word(remote)}"
        return RewritePlace(top, f'"$({read})"', remote, others)
    if not _TRANSPORT.match(url) and not os.path.isabs(url):  # a path git reads from the top
        url = os.path.normpath(top / url)
    return RewritePlace(top, shell_word(url), remote, others)


def cannot_do(body_hash: str, place: RewritePlace) -> tuple[str, ...]:
    """What forget cannot do, with the commands that do it (no text in them): the
    history rewrite as one line that works pasted (``RewritePlace.steps``)."""
    rel = f"{LEDGER_DIR}/bodies/{body_hash[:2]}/{body_hash}.txt"
    erased = shell_word(str(place.erased_file))
    fresh = shell_word(str(place.fresh))
    push = place.push()
    if push is not None:
        remote = shell_word(place.remote)
        first = f"push the forget's commit to the remote {remote}"
        why = f"so this rewrites a fresh clone of {remote} beside this one and adds it back"
        then = f"; look the rewritten clone {fresh} over, then force-push it: `{push}`"
        others = "every other clone, this one too,"
    else:
        first, why = "commit the forget", "so this rewrites a fresh clone of this one"
        then = (
            f"; then use {fresh} in place of this clone and force-push its branches and "
            "tags wherever the old history was pushed"
        )
        others = "every other clone, this one too once the fresh one replaces it,"
    if place.others:
        named = ", ".join(shell_word(n) for n in place.others)
        which = "other remotes" if push is not None else "remotes"
        then += (
            f"; the {which} of this clone ({named}) hold the old history too: "
            "force-push the rewritten branches and tags to each"
        )
    return (
        "this is not cryptographic erasure: git history, other clones, forks, CI caches "
        "and backups still hold the text",
        f"rewrite history: {first}, then put each erased line in {erased} (one per line, "
        f"outside the repository; never commit it) and run `{place.steps(rel)}` "
        f"(filter-repo rewrites only a fresh clone and drops its origin remote, {why}; "
        "--replace-text also scrubs the bound file's own history; filter-repo expires the "
        f"reflog and prunes the old objects itself){then}",
        f"purge other clones and backups: {others} still holds the text: delete each and "
        "clone again after the rewrite",
        "rotate the secret: anyone who fetched before now may hold it",
    )
