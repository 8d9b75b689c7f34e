"""What is wrong with one commit's signature for one act: the judge's sentences.

Stores: nothing.
Refuses: nothing; it describes. A commit without a signature, with one in a
format forest-files cannot bind (x509, unknown), one git does not call good
(only ``G`` is: ``U``, ``X``, ``Y``, ``R``, ``E``, ``B`` are not), one by a key the
keyring does not bind to the identity the act names (its principal equals the
act's ``<email>`` exactly; a fingerprint alone binds nothing), or one by a key
whose ``valid-after``/``valid-before``/``namespaces`` forbid it at the time of
the check (``now``), whatever date the commit claims.
Each fix's ``git`` command is reached from where ``forest ci`` was typed.
Returns: ``Problem`` (code, what, the key found, how to fix it) or None.
Test: tests/gate/test_signing.py, tests/gate/test_ci_where_typed.py
"""

from __future__ import annotations

from dataclasses import dataclass

from forest_files.custody.config import names_match
from forest_files.custody.keyring import SignerKey
from forest_files.gitio.signatures import CommitSignature
from forest_files.kernel.shellword import command_text, git_step

_GOOD = frozenset({"G"})  # U (a key git's keyring does not vouch for) is not good
_STATUS = {
    "B": "a bad signature",
    "U": "a good signature by a key git could not tie to a listed signer, valid then",
    "X": "a good signature that has expired",
    "Y": "a good signature by an expired key",
    "R": "a good signature by a revoked key",
    "E": "a signature that cannot be checked (the public key is missing)",
    "N": "a signature git did not check",
}


@dataclass(frozen=True)
class Problem:
    code: str  # "unsigned" | "signer"
    text: str
    key: str  # the key found, or "none"
    fix: str


def _git(*words: str) -> str:
    """A ``git`` command a fix names, as the user runs it where ``forest ci`` was typed
    (``git -C ../repo …`` after ``forest -C ../repo ci``): built when the fix is."""
    return f"`{command_text(git_step(*words))}`"


def _resign() -> str:
    return _git("commit", "--amend", "-S", "--no-edit")


def _sign_fix(signer: str) -> str:
    return (
        f"sign it with the key bound to {signer}: {_resign()} "
        f"(or {_git('config', 'commit.gpgsign', 'true')} before committing), then push again"
    )


def problem_of(
    sig: CommitSignature,
    signer: str,
    keys: tuple[SignerKey, ...],
    gpg: tuple[tuple[str, tuple[str, ...]], ...],
    now: float,
) -> Problem | None:
    """None when ``sig`` is a good signature by a key bound to ``signer`` and usable
    at ``now`` (the time of the check)."""
    if sig.format == "none":
        return Problem("unsigned", "the commit is not signed", "none", _sign_fix(signer))
    if sig.format not in ("ssh", "openpgp"):
        return Problem(
            "unsigned",
            f"its signature is in a format ({sig.format}) no keyring here can bind",
            "none",
            f"re-sign it with SSH ({_git('config', 'gpg.format', 'ssh')}) or OpenPGP: {_resign()}",
        )
    key = sig.key or "none"
    expired = _expired(sig, keys, now)
    if expired is not None:
        return expired
    if sig.status not in _GOOD and not (sig.status == "U" and sig.format == "ssh"):
        what = _STATUS.get(sig.status, f"git's verdict {sig.status!r}")
        fix = _sign_fix(signer)
        if sig.status == "E" and sig.format == "openpgp":
            fix = "import the holder's public key into the checking gpg keyring (gpg --import)"
        return Problem("unsigned", f"it carries {what}", key, fix)
    if sig.format == "ssh":
        return _ssh_problem(sig, signer, keys) or _not_good(sig, signer)
    return _gpg_problem(sig, signer, gpg)


def _not_good(sig: CommitSignature, signer: str) -> Problem | None:
    """An SSH key listed for ``signer`` and usable now, yet git's verdict is not ``G``
    (``U``: the keyring's options forbid the key at the date the commit claims)."""
    if sig.status in _GOOD:
        return None
    text = f"it carries {_STATUS['U']} (the commit's date is outside the key's validity)"
    return Problem("signer", text, sig.key, _sign_fix(signer))


def _expired(sig: CommitSignature, keys: tuple[SignerKey, ...], now: float) -> Problem | None:
    """The keyring's options forbid every line of the signing key at ``now``."""
    mine = [k for k in keys if sig.format == "ssh" and k.fingerprint == sig.key]
    reasons = [k.unusable(now) for k in mine]
    if not mine or None in reasons:
        return None
    text = f"that key may not sign now: {reasons[0]} (keyring line {mine[0].line})"
    fix = (
        "sign with a key the keyring lists as valid now (a holder of '**' renews or "
        f"replaces the line in a change of its own), then re-sign: {_resign()}"
    )
    return Problem("signer", text, sig.key, fix)


def _unknown_key(signer: str, where: str) -> str:
    return (
        f"sign with a key {where} binds to {signer}; a new key counts only once a holder "
        "of '**' has merged it into the keyring in a change of its own"
    )


def _ssh_problem(sig: CommitSignature, signer: str, keys: tuple[SignerKey, ...]) -> Problem | None:
    mine = [k for k in keys if k.fingerprint == sig.key]  # then the principal decides
    if not mine:
        text = "that key is not in the keyring (added in this range, removed, or never listed)"
        return Problem("signer", text, sig.key, _unknown_key(signer, "the keyring"))
    if any(k.binds(signer) for k in mine):
        return None
    principals = ", ".join(sorted({p for k in mine for p in k.principals}))
    text = f"that key is bound to {principals}, not to {signer}"
    return Problem("signer", text, sig.key, _unknown_key(signer, "the keyring"))


def _gpg_problem(
    sig: CommitSignature, signer: str, gpg: tuple[tuple[str, tuple[str, ...]], ...]
) -> Problem | None:
    found = {sig.key.upper(), sig.primary_key.upper()} - {""}
    holders = [holder for holder, prints in gpg if found & set(prints)]
    if any(names_match(holder, signer) for holder in holders):
        return None
    key = sig.key or "none"
    if not holders:
        text = "that key's fingerprint is not listed in [gpg]"
        return Problem("signer", text, key, _unknown_key(signer, "forest.toml's [gpg]"))
    text = f"that key is listed in [gpg] for {', '.join(holders)}, not for {signer}"
    return Problem("signer", text, key, _unknown_key(signer, "forest.toml's [gpg]"))


def mixed_detail(commit: str, signers: list[str]) -> str:
    """The refusal of a commit bringing acts by more than one signer."""
    return (
        f"commit {commit[:12]} brings acts by {len(signers)} signers ({'; '.join(signers)}), "
        "but a commit carries one signature; split it: one commit per signer, each "
        "staging only that signer's new .forest/ledger segments and signed with that "
        f"signer's key ({_git('commit', '-S')})"
    )
