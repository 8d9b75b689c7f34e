"""What the watcher does with drift, per binding glob: forest.toml's ``[watch]``.

``"glob" = "notify" | "propose" | "restore"`` — the last matching glob wins,
and a path no glob matches is ``propose`` (the divergent text becomes the
binding's open proposal). ``notify`` reports only. ``restore`` first keeps the
divergent text as the proposal (nothing is lost), then writes ground back into
exactly that section by compare-and-swap (only while the file still holds the
bytes the proposal was read from); a binding restored ``RESTORE_LIMIT`` times
within ``RESTORE_WINDOW`` seconds is left as a proposal instead (an editor or
agent fighting the watcher must not lose either side). The table is local
behaviour, not custody: the gate does not judge it.

Stores: nothing.
Refuses: an unknown policy or a bad glob (through config.py's ``fail``).
Returns: ``WatchRule`` values; ``policy_for``.
Test: tests/doors/test_watch_policy.py
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from forest_files.kernel.globs import Glob

POLICIES = ("notify", "propose", "restore")
DEFAULT_POLICY = "propose"
RESTORE_LIMIT = 3
RESTORE_WINDOW = 60.0
MAX_WATCH_RULES = 256


@dataclass(frozen=True)
class WatchRule:
    glob: str
    policy: str
    pattern: Glob = field(compare=False, repr=False)


def parse_watch(
    table: dict[str, Any],
    fail: Callable[[str, str, str], Exception],
    compile_glob: Callable[[str], Glob],
) -> tuple[WatchRule, ...]:
    example = 'e.g. "canon/**" = "restore"'
    if len(table) > MAX_WATCH_RULES:
        raise fail("[watch]", f"{len(table)} globs, over the limit of {MAX_WATCH_RULES}", example)
    rules = []
    for glob, policy in table.items():
        key = f'[watch] "{glob}"'
        if policy not in POLICIES:
            raise fail(key, f"unknown policy {policy!r}", f"one of {', '.join(POLICIES)}")
        try:
            pattern = compile_glob(glob)
        except ValueError as exc:
            raise fail(key, f"bad path glob: {exc}", example) from None
        rules.append(WatchRule(glob, policy, pattern))
    return tuple(rules)


def policy_for(rules: tuple[WatchRule, ...], path: str) -> str:
    found = DEFAULT_POLICY
    for rule in rules:
        if rule.pattern.match(path):
            found = rule.policy
    return found
