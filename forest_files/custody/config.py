"""forest.toml: the committed project id, policies and authority map.

Stores: nothing (``render_config`` returns text; ``forest init`` writes it).
Refuses: a missing file, text that is not UTF-8 (or a str holding a lone
surrogate), bad TOML, unknown tables or keys, wrong types,
values out of bounds, globs the one glob syntax cannot honour (kernel/globs.py:
``{a,b}``, ``!``, an unclosed ``[`` … — refused, never matched literally),
holders that are empty, carry control characters or stray spaces at either end —
each as ConfigError naming the file, the table, the key and the fix.
Returns: ForestConfig; holders of a path; whether a signature may act on it.
Test: tests/custody/test_config.py, tests/gate/test_signing.py (the signing keys,
      custody/signers.py), tests/custody/test_bind_defaults.py ([bind]: bindconf.py)

The one import path for forest.toml: the model (config_model.py), the checks
(config_rules.py) and the text written (config_render.py) are re-exported here.

Kept free of pydantic on purpose: every command, the pre-commit hook
included, reads this file, and the hook must start fast.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from forest_files.custody.config_model import (
    EVERYTHING,
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
    email_of,
    holders_for,
    may_act,
    names_match,
)
from forest_files.custody.config_render import render_config
from forest_files.custody.config_rules import validate_config
from forest_files.kernel.bounds import (
    DEFAULT_MAX_BODY_BYTES,
    MAX_BODY_BYTES_LIMIT,
    MAX_CONFIG_BYTES,
    MAX_PROJECT_ID_CHARS,
    MAX_REQUIRE_GLOB_CHARS,
    MAX_REQUIRE_RULES,
)
from forest_files.kernel.globs import compile_glob
from forest_files.kernel.paths import CONFIG_NAME, LEDGER_DIR

__all__ = [
    "CONFIG_NAME",
    "DEFAULT_MAX_BODY_BYTES",
    "EVERYTHING",
    "LIBRARY_RETENTION_KINDS",
    "MAX_BODY_BYTES_LIMIT",
    "MAX_CONFIG_BYTES",
    "MAX_PROJECT_ID_CHARS",
    "MAX_REQUIRE_GLOB_CHARS",
    "MAX_REQUIRE_RULES",
    "MAX_RETENTION_DAYS",
    "REQUIRE_BINDS",
    "RETENTION_KINDS",
    "WHEN_KEY",
    "AuthorityRule",
    "ConfigBroken",
    "ConfigError",
    "ForestConfig",
    "RequireRule",
    "compile_glob",
    "email_of",
    "holders_for",
    "load_config",
    "may_act",
    "names_match",
    "new_config",
    "parse_config_text",
    "render_config",
]

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
    from forest_files.kernel.shellword import command_text, forest_text, git_step

    restore = f"restore it with `{command_text(git_step('checkout', '--', CONFIG_NAME))}`"
    if not file.exists():
        if file.is_symlink():
            raise ConfigBroken(f"{file}: a symbolic link to nothing; {restore}")
        _refuse_lost(file)
        raise ConfigError(f"{file}: not a forest-files repository: run `{forest_text('init')}`")
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


def _refuse_lost(file: Path) -> None:
    """A missing forest.toml beside a ledger holding acts: refused with the way back
    (custody/lost_config.py), never with ``forest init``, which would start another
    project. Loaded only here: every door reads forest.toml, few ever miss it."""
    from forest_files.custody import lost_config

    root = file.parent
    if not lost_config.holds_ledger(root):
        removed = lost_config.removed_on_branch(root)  # a commit of this branch removed it
        if removed is not None:
            raise ConfigBroken(
                f"{file}: missing: {removed.said()} (a new `forest init` would start "
                "another project)"
            )
        return
    route = lost_config.way_back(root)
    raise ConfigBroken(
        f"{file}: missing, but the ledger ({LEDGER_DIR}) holds custody; put it back with "
        f"`{route}` (a new `forest init` would start another project)"
    )


def parse_config_text(text: str, source_name: str) -> ForestConfig:
    """Validate forest.toml text; ``source_name`` names it in errors (a path,
    or e.g. ``"forest.toml at <merge-base>"`` for a blob)."""
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as exc:  # a lone surrogate: no file holds one as UTF-8
        raise ConfigBroken(
            f"{source_name}: not valid Unicode text (unpaired surrogate at index {exc.start}); "
            "save it as UTF-8"
        ) from None
    if size > MAX_CONFIG_BYTES:
        raise ConfigBroken(f"{source_name}: over the {MAX_CONFIG_BYTES}-byte limit")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigBroken(f"{source_name}: not valid TOML: {exc}; fix that line") from None
    except RecursionError:  # arrays or inline tables nested thousands deep
        raise ConfigBroken(
            f"{source_name}: nested too deeply to read; forest.toml needs tables one level deep"
        ) from None
    return validate_config(data, source_name)


def new_config(project_id: str) -> ForestConfig:
    """A fresh config (``forest init`` passes ``uuid.uuid4().hex``)."""
    return validate_config({"project": {"id": project_id}}, "new config")
