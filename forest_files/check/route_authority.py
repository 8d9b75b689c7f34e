"""Routes the one who runs them could not record: a ceremony offered to a non-holder.

``[authority]`` in forest.toml names who may record acts over a path
(custody/recording.py refuses anyone else, naming the holders). A route leaves
``--as`` out, so the identity a custody command defaults to signs it: the signing
key's identity when forest.toml asks for signatures, else git's ``user.name
<email>`` (doors/cli/options.py ``identity``). At the doors a user runs here
(check, ``--staged``, ``--rev``, status, the hooks, the watcher), a route with a step
that records an act over a path that identity holds no authority over is not
offered as a command to run here: it becomes a note that names the holders and the
command one of them runs; the hook's one route for the commit is left out (its
``--expect`` pins this index). Restores and git steps stay (they record nothing).
The CI gate's routes are left as they are (explain.py ``local``): who reads a CI
report is not the machine that ran it.

Stores: nothing.
Refuses: nothing (no identity, or a forest.toml that does not load: routes as they are).
Returns: ``governed`` (the routes of a finding, those a non-holder cannot run
turned into notes), ``governed_route`` (the same for one route over given paths:
the hook's one route for the commit, commit_plan.py), ``Signer`` (the identity and
the config, read once per command, and only when a finding failed).
Test: tests/check/test_route_authority.py
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from forest_files.check.findings import Route
from forest_files.kernel.errors import ForestError
from forest_files.kernel.paths import CONFIG_NAME
from forest_files.kernel.shellword import printable

if TYPE_CHECKING:
    from forest_files.check.engine import Finding
    from forest_files.custody.config import ForestConfig

# The forest commands that record an act (custody/recording.py judges each path).
RECORDING = frozenset(
    {"adopt", "supersede", "rebind", "retire", "resolve", "renormalise", "seal", "unseal", "forget"}
)
_SHOWN = 3  # holders named at most, as the ceremony's refusal names them


@dataclass(frozen=True)
class Signer:
    """Who a pasted route signs as, and the authority map it is judged by."""

    identity: str
    config: ForestConfig

    @classmethod
    def of(cls, root: Path) -> Signer | None:
        """The default identity and the working tree's forest.toml; None when either
        is missing or unreadable, or no ``[authority]`` rule exists (anyone may act)."""
        try:
            raw = (root / CONFIG_NAME).read_bytes()
        except OSError:
            return None
        if not any(word in raw for word in (b"authority", b"\\u", b"\\U")):
            return None  # no [authority] table (a key may spell it with escapes): no parser
        from forest_files.custody.config import load_config

        try:
            config = load_config(root / CONFIG_NAME)
        except (ForestError, OSError):
            return None
        if not config.authority:
            return None
        from forest_files.custody.signing_advice import advise
        from forest_files.gitio import user_identity

        try:
            identity = advise(root, None).identity or user_identity(root)
        except (ForestError, OSError):
            return None
        return None if not identity else cls(identity, config)

    def holders_of(self, path: str) -> tuple[str, ...] | None:
        """The holders of ``path`` when this identity may not act on it; None when it may."""
        from forest_files.custody.config import holders_for, may_act

        if may_act(self.config, path, self.identity):
            return None
        return holders_for(self.config, path) or ()


def governed(f: Finding, routes: tuple[Route, ...], signer: Signer | None) -> tuple[Route, ...]:
    """``routes`` of ``f``, each one that records an act over a path ``signer`` holds
    no authority over turned into a note for a holder."""
    if signer is None or not any(_records(r) for r in routes):
        return routes  # no holder to name (the common case): nothing parsed
    paths = paths_of([f])
    return tuple(governed_route(r, paths, signer) for r in routes)


def paths_of(findings: Iterable[Finding]) -> tuple[str, ...]:
    """The paths acts on ``findings`` touch: each file, and where a section moved to."""
    paths = (p for f in findings for p in (f.path, _path_of(f.moved_to)) if p)
    return tuple(dict.fromkeys(paths))


def governed_route(route: Route, paths: tuple[str, ...], signer: Signer | None) -> Route:
    """``route`` as it is, or, when it records an act over one of ``paths`` that
    ``signer`` holds no authority over, a note for a holder (naming the first such path)."""
    if signer is None or not _records(route):
        return route
    for path in paths:
        holders = signer.holders_of(path)
        if holders is not None:
            return _for_holder(route, holders, signer.identity, path)
    return route


def _records(route: Route) -> bool:
    return any(len(s) > 1 and s[0] == "forest" and s[1] in RECORDING for s in route.steps)


def _path_of(selector: str | None) -> str | None:
    if not selector:
        return None
    from forest_files.text.selector import parse_selector
    from forest_files.text.selector_errors import SelectorError

    try:
        return parse_selector(selector).path
    except (SelectorError, ValueError):
        return None


def _for_holder(route: Route, holders: tuple[str, ...], identity: str, path: str) -> Route:
    names = ", ".join(printable(h) for h in holders[:_SHOWN])
    if len(holders) > _SHOWN:
        names += f" and {len(holders) - _SHOWN} more"
    who = f"a holder ({names})" if names else "a holder"
    tail = f"; {route.note}" if route.note else ""
    return Route(
        f"ask {who} to {route.label.removeprefix('or ')}",
        (),
        f"{printable(identity)} holds no authority over {path} ([authority] in "
        f"forest.toml); the holder runs `{route.command}`{tail}",
    )
