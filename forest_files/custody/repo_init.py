"""Setting a git repository up for custody: forest.toml, the ledger directory, and
the ignore and attribute lines.

Stores: ``forest.toml`` (a new project id), ``.forest/ledger/``,
``.forest/.gitignore`` and a ``.gitattributes`` line (added once).
Refuses: ``init`` where forest.toml exists (``ConfigError`` naming ``forest sync``);
a ledger directory, ``.forest/.gitignore`` or ``.gitattributes`` that is a symlink
(custody/ledger_dirs.py; nothing is written through a link).
Returns: nothing; ``Repository.init`` then opens the repository and syncs its index.
Test: tests/custody/test_repository.py
"""

from __future__ import annotations

import uuid
from pathlib import Path

from forest_files.custody.config import CONFIG_NAME, ConfigError, new_config, render_config
from forest_files.custody.ledger_dirs import refuse_linked_ledger
from forest_files.kernel.errors import ForestError
from forest_files.kernel.paths import FOREST_DIR, GITATTRIBUTES_LINE, GITIGNORE_LINES, LEDGER_DIR
from forest_files.kernel.shellword import shell_word


def lay_out(root: Path, project_id: str | None) -> None:
    """Create forest.toml, the ledger directory and the ignore/attribute lines."""
    config_path = root / CONFIG_NAME
    if config_path.exists():
        raise ConfigError(
            f"{config_path} exists: this repository is already initialised; "
            "use `forest sync` (or `forest rebuild`)"
        )
    cfg = new_config(project_id or uuid.uuid4().hex)
    refuse_linked_ledger(root)  # never laid out through a committed link
    for written in (root / FOREST_DIR / ".gitignore", root / ".gitattributes"):
        if written.is_symlink():
            raise ForestError(
                f"{written.relative_to(root)} is a symlink; forest init writes it and "
                f"follows no link: remove it (rm -- {shell_word(str(written.relative_to(root)))}"
                ") and run forest init again"
            )
    (root / LEDGER_DIR).mkdir(parents=True, exist_ok=True)
    (root / FOREST_DIR / ".gitignore").write_text(
        "".join(f"{line}\n" for line in GITIGNORE_LINES), encoding="utf-8"
    )
    _append_line(root / ".gitattributes", GITATTRIBUTES_LINE)
    config_path.write_text(render_config(cfg), encoding="utf-8")


def _append_line(path: Path, line: str) -> None:
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if line in text.splitlines():
        return
    if text and not text.endswith("\n"):
        text += "\n"
    path.write_text(text + line + "\n", encoding="utf-8")
