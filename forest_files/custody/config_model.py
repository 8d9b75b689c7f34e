"""forest.toml's model: the config, its rules, its errors, and who may act on a path.

Stores: nothing (frozen dataclasses and constants; custody/config_rules.py builds them).
Refuses: nothing itself; ConfigError and ConfigBroken are the refusals every config
module raises (naming the file, the table, the key and the fix).
Returns: ForestConfig, AuthorityRule, RequireRule; holders of a path
(``holders_for``); whether a signature may act on it (``may_act``, ``names_match``).
Test: tests/custody/test_config.py, tests/kernel/test_globs.py (holders_for),
      tests/gate/test_signing.py (names_match, email_of)

Kept free of tomllib and pydantic: the hook names these types without reading forest.toml.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from forest_files.custody.bindconf import BindRule
from forest_files.custody.signers import NO_SIGNING, SigningSettings
from forest_files.custody.watchpolicy import WatchRule
from forest_files.kernel.bounds import DEFAULT_MAX_BODY_BYTES
from forest_files.kernel.errors import ForestError, UnusableConfig
from forest_files.kernel.globs import Glob, compile_glob

REQUIRE_BINDS = ("file", "headings")
# What ``forest expire`` may remove (local, never adopted), and its bounds in days.
RETENTION_KINDS = ("captures", "proposals")
# Kept only by a library store (governance/retention.py): refused here, with why.
LIBRARY_RETENTION_KINDS = ("pairs", "retrieval_log", "scrolls")
MAX_RETENTION_DAYS = 36500
WHEN_KEY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_EMAIL_TAIL = re.compile(r"<([^<>]+)>\s*$")


class ConfigError(ForestError):
    """forest.toml is missing or invalid; the message says where and how to fix it."""


class ConfigBroken(ConfigError, UnusableConfig):
    """forest.toml is there but cannot be used as written (exit 2, nothing written)."""


@dataclass(frozen=True)
class AuthorityRule:
    """One line of ``[authority]``: a path glob and who holds authority over it."""

    glob: str
    holders: tuple[str, ...]
    pattern: Glob = field(compare=False, repr=False)


@dataclass(frozen=True)
class RequireRule:
    """One line of ``[require]``: files matching ``glob`` (and no ``except`` glob) must
    be bound — the whole file (``bind="file"``) or every heading of ``level``
    (``bind="headings"``); with ``when``, only files whose front matter says so
    (each key equals one of its values, case-insensitively). files/coverage.py judges."""

    glob: str
    bind: str = "file"
    level: int | None = None
    when: tuple[tuple[str, tuple[str, ...]], ...] = ()
    excepted: tuple[str, ...] = ()
    pattern: Glob | None = field(default=None, compare=False, repr=False)
    except_patterns: tuple[Glob, ...] = field(default=(), compare=False, repr=False)

    def matches(self, path: str) -> bool:
        pattern = self.pattern or compile_glob(self.glob)
        if not pattern.match(path):
            return False
        return not any(p.match(path) for p in self.except_patterns)


@dataclass(frozen=True)
class ForestConfig:
    project_id: str
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    authority: tuple[AuthorityRule, ...] = ()
    signing: SigningSettings = NO_SIGNING
    require: tuple[RequireRule, ...] = ()
    watch: tuple[WatchRule, ...] = ()
    retention: tuple[tuple[str, int], ...] = ()  # (kind, days), sorted; absent: kept
    bind: tuple[BindRule, ...] = ()  # [bind]: default exclusions per glob


def _norm(repo_path: str) -> str:
    path = posixpath.normpath(repo_path.replace("\\", "/"))
    return path.lstrip("/")


# The glob an act tied to no path is judged by: it is a path only ``**`` matches.
EVERYTHING = "**"


def holders_for(cfg: ForestConfig, repo_path: str | None) -> tuple[str, ...] | None:
    """Holders of the LAST rule whose glob matches; None if no rule does. ``None``
    for the path: an act tied to no path, matched by the glob ``**`` alone."""
    if repo_path is None:
        rule = next((r for r in reversed(cfg.authority) if r.glob == EVERYTHING), None)
        return None if rule is None else rule.holders
    path = _norm(repo_path)
    for rule in reversed(cfg.authority):
        if rule.pattern.match(path):
            return rule.holders
    return None


def _is_email_only(holder: str) -> bool:
    return holder.startswith("<") and holder.endswith(">") and "<" not in holder[1:]


def email_of(signature: str) -> str | None:
    """The ``<email>`` tail of a signature, without the brackets (None if it has none)."""
    tail = _EMAIL_TAIL.search(signature.strip())
    return tail.group(1).strip() if tail else None


def names_match(holder: str, signature: str) -> bool:
    """The signature equals the holder, or a holder written as ``<email>`` equals
    the signature's ``<email>``."""
    sig = signature.strip()
    if sig == holder:
        return True
    return _is_email_only(holder) and holder[1:-1].strip() == email_of(sig)


def may_act(cfg: ForestConfig, repo_path: str | None, signature: str) -> bool:
    """Ungoverned paths: anyone. Governed: the signature matches a holder (``names_match``).
    ``repo_path`` None: an act tied to no path (``holders_for``)."""
    holders = holders_for(cfg, repo_path)
    if holders is None:
        return True
    return any(names_match(holder, signature) for holder in holders)
