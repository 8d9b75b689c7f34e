"""Live help, not live enforcement: the CLI's default ``--as`` and the hook's warning.

When forest.toml asks for signatures, a custody command defaults ``--as`` to
the identity the configured signing key (``user.signingkey``, SSH) is bound
to in the working tree's keyring, warns when the claimed identity is not
bound to that key, and says the commit must be signed (and how, unless git signs
every commit there already: ``commit.gpgsign``). The pre-commit hook
warns when signing is ``required``, acts are staged and ``commit.gpgsign``
is off (not true as git reads a boolean: a bare key is true). Neither refuses
anything: the gate decides.

Stores: nothing.
Refuses: nothing (any problem reading keys or config means no advice).
Returns: ``Advice`` (an identity or None, and the lines to print on stderr).
Test: tests/gate/test_signing.py, tests/doors/test_printed_where_typed.py
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from forest_files import gitio
from forest_files.custody.config import CONFIG_NAME, ForestConfig, email_of, load_config
from forest_files.custody.keyring import (
    KEY_TYPES,
    SignerKey,
    key_blob,
    parse_keyring,
    ssh_fingerprint,
)
from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import command_text, git_step


def _git(*words: str) -> str:
    """A ``git`` step as the user runs it where they stand (kernel/shellword.py)."""
    return f"`{command_text(git_step(*words))}`"


def sign_hint(root: Path) -> str:
    """The line after an act whose commit must be signed: how to sign it, or, where
    git signs every commit here already (``commit.gpgsign``), that it will."""
    if git_signs(root):
        return (
            "forest: the commit that carries this act must be signed; git signs it "
            "(commit.gpgsign is true here)"
        )
    return (
        "forest: the commit that carries this act must be signed: "
        f"{_git('commit', '-S')}, or {_git('config', 'commit.gpgsign', 'true')}"
    )


def git_signs(root: Path) -> bool:
    """``commit.gpgsign`` is true where ``root`` is, as git reads a boolean (``yes``,
    ``on``, ``1``, a bare key); a value git cannot read as one is no."""
    try:
        return gitio.config_get(root, "commit.gpgsign", as_type="bool") == "true"
    except ForestError:  # git's "bad boolean config value": git would refuse to commit
        return False


@dataclass(frozen=True)
class Advice:
    identity: str | None
    lines: tuple[str, ...]


def _public_key(root: Path, setting: str) -> tuple[str, str] | None:
    """(key type, base64) of ``user.signingkey``: a ``key::`` literal or a key file."""
    text = setting.removeprefix("key::") if setting.startswith("key::") else None
    if text is None:
        path = Path(setting).expanduser()
        path = path if path.is_absolute() else root / path
        pub = path if path.suffix == ".pub" else path.with_name(path.name + ".pub")
        try:
            text = pub.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
    fields = text.split()
    if len(fields) < 2 or fields[0] not in KEY_TYPES:
        return None
    return fields[0], fields[1]


def _signing_key(root: Path) -> str | None:
    """The SHA256 fingerprint of the SSH key git signs with, or None."""
    if (gitio.config_get(root, "gpg.format") or "openpgp") != "ssh":
        return None
    setting = gitio.config_get(root, "user.signingkey")
    key = _public_key(root, setting) if setting else None
    blob = key_blob(*key) if key else None
    return ssh_fingerprint(blob) if blob else None


def _keys(root: Path, cfg: ForestConfig) -> tuple[SignerKey, ...]:
    path = cfg.signing.allowed_signers
    if path is None or not (root / path).is_file():
        return ()
    return parse_keyring((root / path).read_text(encoding="utf-8"), path)


def _default(root: Path, cfg: ForestConfig, principals: set[str]) -> str | None:
    """Git's own identity when the key signs as its e-mail; else a holder with it."""
    mine = gitio.user_identity(root)
    if mine and (email_of(mine) or "").casefold() in principals:
        return mine
    holders = sorted({h for r in cfg.authority for h in r.holders})
    return next((h for h in holders if (email_of(h) or "").casefold() in principals), None)


def advise(root: Path, given: str | None) -> Advice:
    """The default identity and the lines to print for a custody command."""
    try:
        cfg = load_config(root / CONFIG_NAME)
        if not cfg.signing.active:
            return Advice(None, ())
        fingerprint = _signing_key(root)
        keys = _keys(root, cfg)
    except (ForestError, OSError, UnicodeDecodeError):
        return Advice(None, ())
    lines: list[str] = []
    principals = {p.casefold() for k in keys if k.fingerprint == fingerprint for p in k.principals}
    identity = _default(root, cfg, principals) if principals else None
    if fingerprint is None and not cfg.signing.gpg:
        lines.append(
            "forest: warning: signing is on but git has no SSH signing key; "
            f"{_git('config', 'gpg.format', 'ssh')} and "
            f"`{command_text(git_step('config', 'user.signingkey'))} ~/.ssh/id_ed25519.pub`"
        )
    elif fingerprint is not None and not principals:
        lines.append(
            f"forest: warning: your signing key {fingerprint} is not in "
            f"{cfg.signing.allowed_signers}; the gate will refuse acts in commits it signs"
        )
    claimed = given or identity
    if claimed and principals and (email_of(claimed) or "").casefold() not in principals:
        lines.append(
            f"forest: warning: {claimed} is not bound to your signing key {fingerprint} "
            f"(it signs as {', '.join(sorted(principals))}); the gate will refuse this act"
        )
    return Advice(identity, (*lines, sign_hint(root)))


def hook_warning(root: Path, touched: set[str]) -> str | None:
    """The hook's warning: acts staged, signing required, ``commit.gpgsign`` off
    (``git_signs``)."""
    from forest_files.custody.config import parse_config_text
    from forest_files.custody.sources import config_text_from
    from forest_files.kernel.paths import LEDGER_PREFIX

    if not any(p.startswith(f"{LEDGER_PREFIX}segments/") for p in touched):
        return None
    try:
        text = config_text_from(root, "index", keep_index_file=True)
        if text is None:
            return None
        settings = parse_config_text(text, CONFIG_NAME).signing
    except ForestError:
        return None
    required = settings.signed == "required" or any(r.mode == "required" for r in settings.rules)
    if not required or git_signs(root):
        return None
    return (
        "forest-files: warning: this commit carries custody acts and forest.toml requires "
        f"them signed, but commit.gpgsign is off; commit with {_git('commit', '-S')} (or "
        f"{_git('config', 'commit.gpgsign', 'true')}), or the CI gate will refuse it"
    )
