"""The signing keys of forest.toml: ``[policy] allowed_signers`` / ``signed``,
``[signing]`` (mode per path glob) and ``[gpg]`` (OpenPGP fingerprints per holder).

Stores: nothing.
Refuses: a mode outside off | warn | required, a keyring path that is not a
plain repository path (or lies inside ``.forest/ledger``), a fingerprint that
is not 40 or 64 hex digits, signing switched on with no keyring to judge by —
each as the caller's ConfigError naming the key and the fix.
Returns: ``SigningSettings``; the mode of a path; forest.toml lines for them.
Test: tests/gate/test_signing.py

Standard library only: config.py (and so the pre-commit hook) imports this.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from forest_files.kernel.globs import Glob

MODES = ("off", "warn", "required")
_RANK = {mode: i for i, mode in enumerate(MODES)}
_FINGERPRINT = re.compile(r"[0-9A-F]{40}|[0-9A-F]{64}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_LEDGER = ".forest/ledger"

Fail = Callable[[str, str, str], Exception]
CompileGlob = Callable[[str], Glob]


@dataclass(frozen=True)
class SigningRule:
    """One line of ``[signing]``: a path glob and the signing mode of the acts on it."""

    glob: str
    mode: str
    pattern: Glob = field(compare=False, repr=False)


@dataclass(frozen=True)
class SigningSettings:
    allowed_signers: str | None = None
    signed: str = "off"
    rules: tuple[SigningRule, ...] = ()
    gpg: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (holder, fingerprints)

    @property
    def active(self) -> bool:
        """Some path asks for signatures (warn or required)."""
        return self.signed != "off" or any(r.mode != "off" for r in self.rules)


NO_SIGNING = SigningSettings()


def mode_for(settings: SigningSettings, path: str | None) -> str:
    """The mode of the LAST ``[signing]`` glob matching ``path``, else ``signed``.
    ``path`` None: an act tied to no path, matched by the glob ``**`` alone."""
    for rule in reversed(settings.rules):
        hit = rule.glob == "**" if path is None else bool(rule.pattern.match(path))
        if hit:
            return rule.mode
    return settings.signed


def strictest(modes: Any) -> str:
    """The strictest of ``modes`` ("off" when there are none)."""
    return max(modes, key=_RANK.__getitem__, default="off")


def _mode(value: Any, key: str, fail: Fail) -> str:
    if value not in MODES:
        raise fail(key, f"{value!r} is not a signing mode", 'use "off", "warn" or "required"')
    return str(value)


def _keyring_path(value: Any, fail: Fail) -> str | None:
    key = "[policy] allowed_signers"
    fix = 'name the committed file, e.g. allowed_signers = ".forest/allowed_signers"'
    if value is None:
        return None
    if not isinstance(value, str) or not value or _CONTROL.search(value):
        raise fail(key, "must be a non-empty repository path", fix)
    parts = value.split("/")
    if value.startswith("/") or "\\" in value or any(p in ("", ".", "..") for p in parts):
        raise fail(key, "must be a repository-relative path without '.', '..' or '//'", fix)
    if value == _LEDGER or value.startswith(_LEDGER + "/"):
        raise fail(key, "must not lie inside .forest/ledger (it would be a stray)", fix)
    return value


def _gpg(table: dict[str, Any], fail: Fail) -> tuple[tuple[str, tuple[str, ...]], ...]:
    out: list[tuple[str, tuple[str, ...]]] = []
    fix = 'e.g. "Ada <ada@example.org>" = ["<40 hex digits of `gpg --fingerprint`>"]'
    for holder, prints in table.items():
        key = f'[gpg] "{holder}"'
        if not holder.strip() or _CONTROL.search(holder):
            raise fail(key, "holder must be a non-empty name without control characters", fix)
        if not isinstance(prints, list) or not prints:
            raise fail(key, "must be a non-empty list of fingerprints", fix)
        clean: list[str] = []
        for fp in prints:
            norm = fp.replace(" ", "").upper() if isinstance(fp, str) else ""
            if not _FINGERPRINT.fullmatch(norm):
                raise fail(key, f"{fp!r} is not a 40- or 64-hex-digit fingerprint", fix)
            clean.append(norm)
        out.append((holder.strip(), tuple(clean)))
    return tuple(out)


def parse_settings(
    policy: dict[str, Any],
    signing: dict[str, Any],
    gpg: dict[str, Any],
    fail: Fail,
    compile_glob: CompileGlob,
) -> SigningSettings:
    """Validate the signing keys (``fail(key, problem, fix)`` builds the error)."""
    rules: list[SigningRule] = []
    for glob, mode in signing.items():
        key = f'[signing] "{glob}"'
        try:
            pattern = compile_glob(glob)
        except ValueError as exc:
            raise fail(key, f"bad path glob: {exc}", 'e.g. "canon/**" = "required"') from None
        rules.append(SigningRule(glob, _mode(mode, key, fail), pattern))
    settings = SigningSettings(
        allowed_signers=_keyring_path(policy.get("allowed_signers"), fail),
        signed=_mode(policy.get("signed", "off"), "[policy] signed", fail),
        rules=tuple(rules),
        gpg=_gpg(gpg, fail),
    )
    if settings.active and settings.allowed_signers is None and not settings.gpg:
        raise fail(
            "[policy] signed",
            "signing is on but no keyring is named",
            'add allowed_signers = ".forest/allowed_signers" to [policy], or a [gpg] table',
        )
    return settings


def render_settings(settings: SigningSettings, quote: Callable[[str], str]) -> list[str]:
    """forest.toml lines: first the ``[policy]`` keys, then the optional tables."""
    lines: list[str] = []
    if settings.allowed_signers is not None:
        lines.append(f"allowed_signers = {quote(settings.allowed_signers)}")
    if settings.signed != "off":
        lines.append(f"signed = {quote(settings.signed)}")
    if settings.rules:
        lines += ["", "# Signing mode per path glob; last match wins.", "[signing]"]
        lines += [f"{quote(r.glob)} = {quote(r.mode)}" for r in settings.rules]
    if settings.gpg:
        lines += ["", "[gpg]"]
        for holder, prints in settings.gpg:
            lines.append(f"{quote(holder)} = [{', '.join(quote(p) for p in prints)}]")
    return lines
