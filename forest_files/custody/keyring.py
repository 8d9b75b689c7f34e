"""The committed keyring: git's allowed-signers file (``gpg.ssh.allowedSignersFile``).

One key per line: ``principals [options] keytype base64 [comment]``. The
principals are the e-mail addresses the key may sign as; the options git and
ssh-keygen honour here are ``namespaces``, ``valid-after`` and
``valid-before``, and they are honoured here too, against the time of the
check (``unusable``, ``usable_text``): a key whose ``valid-before`` has passed
or whose ``valid-after`` has not come, or whose ``namespaces`` leave out
``git``, signs nothing new. A key binds the identity an act names when one of
its principals equals that identity's ``<email>`` exactly.

Stores: nothing.
Refuses (KeyringError, naming the line and the fix, never echoing it): a
line without a key, an unknown key type, a key that is not base64 of that
type, a ``valid-after``/``valid-before`` that is not ``YYYYMMDD[HHMM[SS]][Z]``
(ssh-keygen's form; without ``Z``, local time, as ssh-keygen reads it), an
option given twice, a principal pattern (``*``, ``?``, ``!``: bound literally here, they
would mean something else to ssh-keygen), ``cert-authority`` and unknown
options, a file over the size limit or not UTF-8.
Returns: ``SignerKey`` values with their ``SHA256:`` fingerprints.
Test: tests/gate/test_signing.py
"""

from __future__ import annotations

import base64
import binascii
import calendar
import hashlib
import re
import struct
import time
from dataclasses import dataclass

from forest_files.custody.config import email_of
from forest_files.kernel.errors import ForestError

MAX_KEYRING_BYTES = 256 * 1024
KEY_TYPES = frozenset(
    {
        "ssh-ed25519",
        "ssh-rsa",
        "ecdsa-sha2-nistp256",
        "ecdsa-sha2-nistp384",
        "ecdsa-sha2-nistp521",
        "sk-ssh-ed25519@openssh.com",
        "sk-ecdsa-sha2-nistp256@openssh.com",
    }
)
_OPTIONS = frozenset({"namespaces", "valid-after", "valid-before"})
_TOKEN = re.compile(r'(?:"[^"]*"|[^\s"])+')
_PATTERN_CHARS = frozenset("*?!")
_STAMP = re.compile(r"(\d{8})(\d{4})?(\d{2})?(Z?)")
NAMESPACE = "git"  # the namespace git signs commits in


class KeyringError(ForestError):
    """The allowed-signers file is malformed; the message names the line and the fix."""


@dataclass(frozen=True)
class SignerKey:
    """One key of the keyring and the principals (e-mail addresses) it signs as."""

    principals: tuple[str, ...]
    key_type: str
    fingerprint: str  # "SHA256:…", as git's %GF prints it
    line: int
    valid_after: int | None = None  # seconds since the epoch
    valid_before: int | None = None
    namespaces: tuple[str, ...] | None = None  # None: every namespace

    def binds(self, identity: str) -> bool:
        """One principal equals ``identity``'s ``<email>``, exactly."""
        email = email_of(identity)
        if email is None:
            return False
        return email in self.principals

    def unusable(self, now: float) -> str | None:
        """Why this key signs nothing at ``now`` (None: it may sign)."""
        if self.valid_before is not None and now >= self.valid_before:
            return f"its valid-before ({_show(self.valid_before)}) has passed"
        if self.valid_after is not None and now < self.valid_after:
            return f"its valid-after ({_show(self.valid_after)}) has not come"
        if self.namespaces is not None and NAMESPACE not in self.namespaces:
            return f'its namespaces ({",".join(self.namespaces)}) leave out "{NAMESPACE}"'
        return None


def usable_text(text: str, keys: tuple[SignerKey, ...], now: float) -> str:
    """``text`` with the line of every key ``unusable`` at ``now`` blanked: what git
    is handed, so its verdict cannot rest on a key that may not sign now."""
    dropped = {k.line for k in keys if k.unusable(now) is not None}
    lines = text.splitlines()
    return "".join(
        ("" if number in dropped else line) + "\n" for number, line in enumerate(lines, start=1)
    )


def _show(stamp: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(stamp))


def ssh_fingerprint(blob: bytes) -> str:
    """``SHA256:`` + unpadded base64 of the key blob's SHA-256 (ssh-keygen -l's form)."""
    digest = base64.b64encode(hashlib.sha256(blob).digest()).decode("ascii")
    return "SHA256:" + digest.rstrip("=")


def key_blob(key_type: str, text: str) -> bytes | None:
    """The decoded key if ``text`` is base64 of a key of ``key_type``, else None."""
    try:
        blob = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(blob) < 4:
        return None
    (size,) = struct.unpack(">I", blob[:4])
    return blob if blob[4 : 4 + size] == key_type.encode("ascii") else None


def parse_keyring(text: str, source: str) -> tuple[SignerKey, ...]:
    """Every key line of ``text`` (blank lines and ``#`` comments skipped)."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_KEYRING_BYTES:
        raise KeyringError(
            f"{source}: over the {MAX_KEYRING_BYTES}-byte limit; keep one line per key"
        )
    keys: list[SignerKey] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            keys.append(_parse_line(line, number, source))
    return tuple(keys)


def _fail(source: str, number: int, problem: str) -> KeyringError:
    return KeyringError(
        f"{source} line {number}: {problem}; write it as `EMAIL[,EMAIL…] "
        '[namespaces="git"] KEYTYPE BASE64` (the .pub file\'s first two fields)'
    )


def _parse_line(line: str, number: int, source: str) -> SignerKey:
    tokens = _TOKEN.findall(line)
    if len(tokens) < 3:
        raise _fail(source, number, "needs principals, a key type and a key")
    principals = _principals(tokens[0], number, source)
    at = 1
    options: dict[str, str] = {}
    if _looks_like_options(tokens[1]):
        options = _options(tokens[1], number, source)
        at = 2
    if len(tokens) <= at + 1:
        raise _fail(source, number, "needs a key type and a key after the principals")
    key_type, key_text = tokens[at], tokens[at + 1]
    if key_type not in KEY_TYPES:
        known = ", ".join(sorted(KEY_TYPES))
        raise _fail(source, number, f"unknown key type {key_type[:40]!r} (known: {known})")
    blob = key_blob(key_type, key_text)
    if blob is None:
        raise _fail(source, number, f"the key is not base64 of a {key_type} key")
    after, before = (
        _stamp(options[name], name, number, source) if name in options else None
        for name in ("valid-after", "valid-before")
    )
    spaces = options.get("namespaces")
    names = tuple(n.strip() for n in spaces.split(",")) if spaces is not None else None
    return SignerKey(principals, key_type, ssh_fingerprint(blob), number, after, before, names)


def _stamp(value: str, name: str, number: int, source: str) -> int:
    """ssh-keygen's ``YYYYMMDD[HHMM[SS]][Z]`` as seconds (``Z``: UTC, else local)."""
    found = _STAMP.fullmatch(value)
    if found is None:
        raise _fail(source, number, f"{name} is not YYYYMMDD[HHMM[SS]][Z]")
    day, hm, sec, utc = found.groups()
    try:
        fields = time.strptime(day + (hm or "0000") + (sec or "00"), "%Y%m%d%H%M%S")
    except ValueError:
        raise _fail(source, number, f"{name} is not a real date and time") from None
    return calendar.timegm(fields) if utc else int(time.mktime(fields))


def _principals(token: str, number: int, source: str) -> tuple[str, ...]:
    names = tuple(p.strip() for p in token.strip('"').split(","))
    if not all(names):
        raise _fail(source, number, "an empty principal")
    if any(_PATTERN_CHARS & set(p) for p in names):
        raise _fail(
            source, number, "principal patterns (*, ?, !) are not supported: list each e-mail"
        )
    return names


def _looks_like_options(token: str) -> bool:
    first = token.split(",", 1)[0].split("=", 1)[0].lower()
    return token not in KEY_TYPES and ("=" in token or first in {*_OPTIONS, "cert-authority"})


def _options(token: str, number: int, source: str) -> dict[str, str]:
    """The line's options, name (lower case) to unquoted value."""
    out: dict[str, str] = {}
    for option in (o for o in re.split(r',(?=(?:[^"]*"[^"]*")*[^"]*$)', token) if o):
        name, _, value = option.partition("=")
        name = name.lower()
        if name == "cert-authority":
            raise _fail(
                source,
                number,
                "cert-authority lines are not supported (forest-files binds keys, not "
                "certificates): list each holder's own public key",
            )
        if name not in _OPTIONS:
            known = ", ".join(sorted(_OPTIONS))
            raise _fail(source, number, f"unknown option {name[:40]!r} (known: {known})")
        if name in out:
            raise _fail(source, number, f"option {name} given twice")
        out[name] = value.strip('"')
    return out
