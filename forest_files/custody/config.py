"""forest.toml: the committed project id, policies and authority map.

Stores: nothing (``render_config`` returns text; ``forest init`` writes it).
Refuses: a missing file, bad TOML, unknown tables or keys, wrong types,
values out of bounds, globs the one glob syntax cannot honour (kernel/globs.py:
``{a,b}``, ``!``, an unclosed ``[`` … — refused, never matched literally),
holders that are empty, carry control characters or stray spaces at either end —
each as ConfigError naming the file, the table, the key and the fix.
Returns: ForestConfig; holders of a path; whether a signature may act on it.
Test: tests/custody/test_config.py, tests/gate/test_signing.py (the signing keys,
      custody/signers.py), tests/custody/test_bind_defaults.py ([bind]: bindconf.py)

Kept free of pydantic on purpose: every command, the pre-commit hook
included, reads this file, and the hook must start fast.
"""

from __future__ import annotations

import posixpath
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from forest_files.custody.bindconf import BindRule, parse_bind
from forest_files.custody.signers import (
    NO_SIGNING,
    SigningSettings,
    parse_settings,
    render_settings,
)
from forest_files.custody.watchpolicy import WatchRule, parse_watch
from forest_files.kernel.bounds import (
    DEFAULT_MAX_BODY_BYTES,
    MAX_BODY_BYTES_LIMIT,
    MAX_CONFIG_BYTES,
    MAX_PROJECT_ID_CHARS,
    MAX_REQUIRE_EXCEPT,
    MAX_REQUIRE_GLOB_CHARS,
    MAX_REQUIRE_RULES,
    MAX_WHEN_CHARS,
    MAX_WHEN_KEYS,
    MAX_WHEN_VALUES,
)
from forest_files.kernel.errors import ForestError, UnusableConfig
from forest_files.kernel.globs import Glob, GlobError
from forest_files.kernel.globs import compile_glob as compile_glob  # re-exported
from forest_files.kernel.paths import CONFIG_NAME as CONFIG_NAME  # re-exported

REQUIRE_BINDS = ("file", "headings")

_TABLES: dict[str, frozenset[str] | None] = {
    "project": frozenset({"id"}),
    "policy": frozenset({"max_body_bytes", "allowed_signers", "signed"}),
    "authority": None,  # keys are globs
    "signing": None,  # keys are globs
    "gpg": None,  # keys are holders
    "require": None,  # keys are globs (coverage: files that must be bound)
    "watch": None,  # keys are globs (what the watcher does with drift: custody/watchpolicy.py)
    "retention": None,  # keys are RETENTION_KINDS (checked with their own message)
    "bind": None,  # keys are globs (default exclusions: custody/bindconf.py)
}
# What ``forest expire`` may remove (local, never adopted), and its bounds in days.
RETENTION_KINDS = ("captures", "proposals")
# Kept only by a library store (governance/retention.py): refused here, with why.
LIBRARY_RETENTION_KINDS = ("pairs", "retrieval_log", "scrolls")
MAX_RETENTION_DAYS = 36500
_REQUIRE_KEYS = frozenset({"bind", "level", "when", "except"})
WHEN_KEY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
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


# --- reading -------------------------------------------------------------------


def load_config(path: Path | str) -> ForestConfig:
    """Read ``forest.toml`` (or ``<dir>/forest.toml``)."""
    file = Path(path)
    if file.name != CONFIG_NAME and file.is_dir():
        file = file / CONFIG_NAME
    raw = _read_bounded(file)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigBroken(f"{file}: not UTF-8; save it as UTF-8") from None
    return parse_config_text(text, str(file))


def _read_bounded(file: Path) -> bytes:
    """The bytes of ``file``, a regular file of at most MAX_CONFIG_BYTES; a directory,
    a fifo or device, a dangling link or an unreadable file is refused (never read)."""
    restore = f"restore it with `git checkout -- {CONFIG_NAME}`"
    if not file.exists():
        if file.is_symlink():
            raise ConfigBroken(f"{file}: a symbolic link to nothing; {restore}")
        raise ConfigError(f"{file}: not a forest-files repository: run `forest init`")
    if not file.is_file():
        raise ConfigBroken(f"{file}: not a regular file; remove it, then {restore}")
    try:
        with file.open("rb") as handle:
            raw = handle.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        why = f"cannot be read ({exc.strerror}); fix its permissions"
        raise ConfigBroken(f"{file}: {why}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigBroken(f"{file}: over the {MAX_CONFIG_BYTES}-byte limit; {restore}")
    return raw


def parse_config_text(text: str, source_name: str) -> ForestConfig:
    """Validate forest.toml text; ``source_name`` names it in errors (a path,
    or e.g. ``"forest.toml at <merge-base>"`` for a blob)."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_CONFIG_BYTES:
        raise ConfigBroken(f"{source_name}: over the {MAX_CONFIG_BYTES}-byte limit")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigBroken(f"{source_name}: not valid TOML: {exc}; fix that line") from None
    except RecursionError:  # arrays or inline tables nested thousands deep
        raise ConfigBroken(
            f"{source_name}: nested too deeply to read; forest.toml needs tables one level deep"
        ) from None
    return _Validator(source_name).config(data)


class _Validator:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, problem: str, fix: str) -> ConfigError:
        return ConfigBroken(f"{self.source}: {key}: {problem}; {fix}")

    def table(self, data: dict[str, Any], name: str, required: bool) -> dict[str, Any]:
        value = data.get(name)
        if value is None:
            if required:
                raise self.fail(f"[{name}]", "missing", f"add a [{name}] table")
            return {}
        if not isinstance(value, dict):
            raise self.fail(name, "must be a table", f"write it as [{name}]")
        allowed = _TABLES[name]
        for key in value:
            if allowed is not None and key not in allowed:
                known = ", ".join(sorted(allowed))
                raise self.fail(f"[{name}] {key}", "unknown key", f"known keys: {known}")
        return value

    def config(self, data: dict[str, Any]) -> ForestConfig:
        for name in data:
            if name not in _TABLES:
                known = ", ".join(f"[{t}]" for t in _TABLES)
                raise self.fail(name, "unknown table or key", f"known tables: {known}")
        project = self.table(data, "project", required=True)
        policy = self.table(data, "policy", required=False)
        authority = self.table(data, "authority", required=False)
        signing = parse_settings(
            policy,
            self.table(data, "signing", required=False),
            self.table(data, "gpg", required=False),
            self.fail,
            compile_glob,
        )
        return ForestConfig(
            project_id=self.project_id(project),
            max_body_bytes=self.max_body_bytes(policy),
            authority=tuple(self.rule(g, h) for g, h in authority.items()),
            signing=signing,
            require=self.requirements(self.table(data, "require", required=False)),
            watch=parse_watch(self.table(data, "watch", required=False), self.fail, compile_glob),
            retention=self.retention(self.table(data, "retention", required=False)),
            bind=parse_bind(
                self.table(data, "bind", required=False),
                self.fail,
                lambda key, glob: self.glob(key, glob, 'e.g. [bind."docs/adr/*.md"]'),
            ),
        )

    def retention(self, table: dict[str, Any]) -> tuple[tuple[str, int], ...]:
        out = []
        for kind, days in sorted(table.items()):
            key = f"[retention] {kind}"
            if kind not in RETENTION_KINDS:
                why = "ground never expires" if kind in ("ground", "ledger") else "unknown key"
                if kind in LIBRARY_RETENTION_KINDS:
                    why = (
                        "a repository keeps none (library stores only: "
                        "forest_files.governance.retention)"
                    )
                raise self.fail(key, why, f"known keys: {', '.join(RETENTION_KINDS)}")
            if isinstance(days, bool) or not isinstance(days, int):
                raise self.fail(key, "must be an integer (days)", f"e.g. {kind} = 30")
            if not 1 <= days <= MAX_RETENTION_DAYS:
                raise self.fail(key, f"{days} is out of range", f"use 1 to {MAX_RETENTION_DAYS}")
            out.append((kind, days))
        return tuple(out)

    def requirements(self, table: dict[str, Any]) -> tuple[RequireRule, ...]:
        if len(table) > MAX_REQUIRE_RULES:
            raise self.fail(
                "[require]",
                f"{len(table)} globs, over the limit of {MAX_REQUIRE_RULES}",
                "use fewer, wider globs (e.g. 'docs/adr/**')",
            )
        return tuple(self.requirement(glob, value) for glob, value in table.items())

    def glob(self, key: str, glob: str, example: str) -> Glob:
        """``glob`` compiled by the one glob syntax, or a ConfigError naming ``key``."""
        if len(glob) > MAX_REQUIRE_GLOB_CHARS:
            raise self.fail(key, f"glob longer than {MAX_REQUIRE_GLOB_CHARS} characters", example)
        try:
            return compile_glob(glob)
        except GlobError as exc:
            raise self.fail(key, f"bad path glob: {exc}", example) from None

    def require_glob(self, key: str, glob: str) -> Glob:
        return self.glob(key, glob, 'e.g. "docs/adr/*.md" = "file"')

    def requirement(self, glob: str, value: Any) -> RequireRule:
        key = f"[require] {_toml_str(glob)}"
        pattern = self.require_glob(key, glob)
        if isinstance(value, str):
            if value != "file":
                raise self.fail(
                    key,
                    f"unknown requirement {value!r}",
                    'write "file", or { bind = "headings", level = 2 }',
                )
            return RequireRule(glob, "file", pattern=pattern)
        if not isinstance(value, dict):
            raise self.fail(key, 'must be "file" or an inline table', 'e.g. { bind = "file" }')
        for name in value:
            if name not in _REQUIRE_KEYS:
                known = ", ".join(sorted(_REQUIRE_KEYS))
                raise self.fail(f"{key} {name}", "unknown key", f"known keys: {known}")
        bind = value.get("bind")
        if bind not in REQUIRE_BINDS:
            raise self.fail(
                f"{key} bind", f"must be one of {', '.join(REQUIRE_BINDS)}", 'e.g. bind = "file"'
            )
        level = self.require_level(key, bind, value.get("level"))
        when = self.require_when(key, value.get("when", {}))
        excepted, patterns = self.require_except(key, value.get("except", []))
        return RequireRule(glob, bind, level, when, excepted, pattern, patterns)

    def require_level(self, key: str, bind: str, level: Any) -> int | None:
        if bind == "file":
            if level is not None:
                raise self.fail(f"{key} level", 'only for bind = "headings"', "remove it")
            return None
        fix = "give the heading level to cover, 1 to 6 (e.g. level = 2)"
        if isinstance(level, bool) or not isinstance(level, int):
            raise self.fail(f"{key} level", "must be an integer", fix)
        if not 1 <= level <= 6:
            raise self.fail(f"{key} level", f"{level} is out of range", fix)
        return level

    def require_when(self, key: str, when: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
        fix = 'e.g. when = { status = "accepted" } or { status = ["accepted", "final"] }'
        if not isinstance(when, dict):
            raise self.fail(f"{key} when", "must be an inline table", fix)
        if len(when) > MAX_WHEN_KEYS:
            raise self.fail(f"{key} when", f"more than {MAX_WHEN_KEYS} keys", fix)
        out: list[tuple[str, tuple[str, ...]]] = []
        for name, wanted in when.items():
            where = f"{key} when.{name}"
            if not WHEN_KEY.fullmatch(name) or len(name) > MAX_WHEN_CHARS:
                raise self.fail(where, "not a plain front-matter key", fix)
            values = wanted if isinstance(wanted, list) else [wanted]
            if not values or len(values) > MAX_WHEN_VALUES:
                raise self.fail(where, f"give 1 to {MAX_WHEN_VALUES} values", fix)
            for v in values:
                if not isinstance(v, str) or not v.strip() or len(v) > MAX_WHEN_CHARS:
                    raise self.fail(
                        where, f"{v!r} is not a non-empty string of at most {MAX_WHEN_CHARS}", fix
                    )
                if _CONTROL.search(v):
                    raise self.fail(where, f"{v!r} contains control characters", fix)
            out.append((name, tuple(v.strip() for v in values)))
        return tuple(out)

    def require_except(self, key: str, globs: Any) -> tuple[tuple[str, ...], tuple[Glob, ...]]:
        fix = 'e.g. except = ["docs/adr/0000-template.md"]'
        if not isinstance(globs, list) or len(globs) > MAX_REQUIRE_EXCEPT:
            raise self.fail(f"{key} except", f"must be a list of at most {MAX_REQUIRE_EXCEPT}", fix)
        patterns = []
        for glob in globs:
            if not isinstance(glob, str):
                raise self.fail(f"{key} except", f"{glob!r} is not a string", fix)
            patterns.append(self.require_glob(f"{key} except", glob))
        return tuple(globs), tuple(patterns)

    def project_id(self, project: dict[str, Any]) -> str:
        key = "[project] id"
        value = project.get("id")
        fix = "set it to the id `forest init` generated (a uuid4 hex string)"
        if value is None:
            raise self.fail(key, "missing", fix)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, "must be a non-empty string", fix)
        if value != value.strip() or _CONTROL.search(value) or " " in value:
            raise self.fail(key, "must not contain spaces or control characters", fix)
        if len(value) > MAX_PROJECT_ID_CHARS:
            raise self.fail(key, f"longer than {MAX_PROJECT_ID_CHARS} characters", fix)
        return value

    def max_body_bytes(self, policy: dict[str, Any]) -> int:
        value = policy.get("max_body_bytes", DEFAULT_MAX_BODY_BYTES)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(
                "[policy] max_body_bytes", "must be an integer", "e.g. max_body_bytes = 8388608"
            )
        if not 1 <= value <= MAX_BODY_BYTES_LIMIT:
            raise self.fail(
                "[policy] max_body_bytes",
                f"{value} is out of range",
                f"use 1 to {MAX_BODY_BYTES_LIMIT}",
            )
        return value

    def rule(self, glob: str, holders: Any) -> AuthorityRule:
        key = f"[authority] {_toml_str(glob)}"
        pattern = self.glob(key, glob, 'e.g. "docs/adr/**"')
        fix = 'give a list of holders, e.g. ["Ada Lovelace <ada@example.org>"]'
        if not isinstance(holders, list) or not holders:
            raise self.fail(key, "must be a non-empty list of holders", fix)
        for holder in holders:
            if not isinstance(holder, str) or not holder.strip():
                raise self.fail(key, f"holder {holder!r} is not a non-empty string", fix)
            if _CONTROL.search(holder):
                raise self.fail(key, f"holder {holder!r} contains control characters", fix)
            if holder != holder.strip():
                raise self.fail(
                    key,
                    f"holder {holder!r} has spaces at either end (it would never match)",
                    f"write it as {_toml_str(holder.strip())}",
                )
        return AuthorityRule(glob, tuple(holders), pattern)


# --- writing -----------------------------------------------------------------


def _toml_str(value: str) -> str:
    out = ['"']
    for ch in value:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif _CONTROL.match(ch):
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def render_config(cfg: ForestConfig) -> str:
    """forest.toml text for ``cfg``, in a stable order; ``parse_config_text``
    of the result equals ``cfg``."""
    lines = [
        "[project]",
        f"id = {_toml_str(cfg.project_id)}",
        "",
        "[policy]",
        f"max_body_bytes = {cfg.max_body_bytes}",
        *render_settings(cfg.signing, _toml_str),
    ]
    if cfg.authority:
        lines += ["", "# Last matching glob wins. '*' stays in one directory; '**' spans many."]
        lines += ["# Globs are anchored at the root (README: Path globs)."]
        lines.append("[authority]")
        for rule in cfg.authority:
            holders = ", ".join(_toml_str(h) for h in rule.holders)
            lines.append(f"{_toml_str(rule.glob)} = [{holders}]")
    if cfg.require:
        lines += ["", "# Files that must be bound (docs/coverage.md)."]
        lines.append("[require]")
        lines += [_render_requirement(rule) for rule in cfg.require]
    if cfg.watch:
        lines += ["", "# What the watcher does with drift (docs/watch.md)."]
        lines.append("[watch]")
        lines += [f"{_toml_str(r.glob)} = {_toml_str(r.policy)}" for r in cfg.watch]
    for default in cfg.bind:
        lines += ["", f"[bind.{_toml_str(default.glob)}]  # default exclusions (docs/coverage.md)"]
        if default.exclude:
            lines.append(f"exclude = [{', '.join(_toml_str(e) for e in default.exclude)}]")
        if default.normalise:  # docs/normalisation.md
            lines.append(f"normalise = [{', '.join(_toml_str(n) for n in default.normalise)}]")
    return "\n".join(lines) + "\n"


def _render_requirement(rule: RequireRule) -> str:
    key = _toml_str(rule.glob)
    if rule.bind == "file" and not rule.when and not rule.excepted:
        return f'{key} = "file"'
    parts = [f"bind = {_toml_str(rule.bind)}"]
    if rule.level is not None:
        parts.append(f"level = {rule.level}")
    if rule.when:
        conds = ", ".join(
            f"{name} = [{', '.join(_toml_str(v) for v in values)}]" for name, values in rule.when
        )
        parts.append(f"when = {{ {conds} }}")
    if rule.excepted:
        parts.append(f"except = [{', '.join(_toml_str(g) for g in rule.excepted)}]")
    return f"{key} = {{ {', '.join(parts)} }}"


def new_config(project_id: str) -> ForestConfig:
    """A fresh config (``forest init`` passes ``uuid.uuid4().hex``)."""
    return _Validator("new config").config({"project": {"id": project_id}})
