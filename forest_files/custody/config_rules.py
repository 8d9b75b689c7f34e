"""forest.toml validated: parsed TOML data checked table by table into a ForestConfig.

Stores: nothing.
Refuses: unknown tables or keys, wrong types, values out of bounds, globs the one
glob syntax cannot honour (kernel/globs.py: ``{a,b}``, ``!``, an unclosed ``[`` …),
holders that are empty, carry control characters or stray spaces at either end —
each as ConfigBroken naming the source, the table, the key and the fix.
Returns: ``validate_config(data, source)``, a ForestConfig.
Test: tests/custody/test_config.py, tests/check/test_coverage.py ([require]),
      tests/custody/test_expire.py ([retention]), tests/kernel/test_globs.py
"""

from __future__ import annotations

from typing import Any

from forest_files.custody.bindconf import parse_bind
from forest_files.custody.config_model import (
    CONTROL,
    LIBRARY_RETENTION_KINDS,
    MAX_RETENTION_DAYS,
    REQUIRE_BINDS,
    RETENTION_KINDS,
    WHEN_KEY,
    AuthorityRule,
    ConfigBroken,
    ConfigError,
    ForestConfig,
    RequireRule,
)
from forest_files.custody.config_render import toml_str
from forest_files.custody.signers import parse_settings
from forest_files.custody.watchpolicy import parse_watch
from forest_files.kernel.bounds import (
    DEFAULT_MAX_BODY_BYTES,
    MAX_BODY_BYTES_LIMIT,
    MAX_PROJECT_ID_CHARS,
    MAX_REQUIRE_EXCEPT,
    MAX_REQUIRE_GLOB_CHARS,
    MAX_REQUIRE_RULES,
    MAX_WHEN_CHARS,
    MAX_WHEN_KEYS,
    MAX_WHEN_VALUES,
)
from forest_files.kernel.globs import Glob, GlobError, compile_glob

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
_REQUIRE_KEYS = frozenset({"bind", "level", "when", "except"})


def validate_config(data: dict[str, Any], source: str) -> ForestConfig:
    """The ForestConfig of parsed forest.toml ``data``; ``source`` names it in errors."""
    return _Validator(source).config(data)


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
        key = f"[require] {toml_str(glob)}"
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
                if CONTROL.search(v):
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
        if value != value.strip() or CONTROL.search(value) or " " in value:
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
        key = f"[authority] {toml_str(glob)}"
        pattern = self.glob(key, glob, 'e.g. "docs/adr/**"')
        fix = 'give a list of holders, e.g. ["Ada Lovelace <ada@example.org>"]'
        if not isinstance(holders, list) or not holders:
            raise self.fail(key, "must be a non-empty list of holders", fix)
        for holder in holders:
            if not isinstance(holder, str) or not holder.strip():
                raise self.fail(key, f"holder {holder!r} is not a non-empty string", fix)
            if CONTROL.search(holder):
                raise self.fail(key, f"holder {holder!r} contains control characters", fix)
            if holder != holder.strip():
                raise self.fail(
                    key,
                    f"holder {holder!r} has spaces at either end (it would never match)",
                    f"write it as {toml_str(holder.strip())}",
                )
        return AuthorityRule(glob, tuple(holders), pattern)
