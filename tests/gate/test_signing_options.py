"""The keyring's options: valid-after, valid-before, namespaces and cert-authority honoured,
judged at the time of the check (not the date a commit claims); only git's G is good; a
key binds the identity whose e-mail is exactly its principal.

Real ed25519 keys from ssh-keygen and real signed commits (gpg.format=ssh).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from forest_files.custody.keyring import KeyringError, parse_keyring
from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.gate.range import check_range
from tests.helpers.git import git, make_repo, write
from tests.helpers.signing import commit_signed, keygen, supersede

ADA = "Ada Lovelace <ada@example.org>"
AUTHOR = "Test Author <author@example.org>"
KEYRING = ".forest/allowed_signers"
DOC = "# Canon\n\n## Elias\n\nElias keeps the lighthouse.\n"
OLD_DATE = "2019-06-01T12:00:00Z"  # a date the signer is free to claim

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")


def _line(principal: str, key: Path, options: str = 'namespaces="git"') -> str:
    key_type, blob = key.with_name(key.name + ".pub").read_text().split()[:2]
    return f"{principal} {options} {key_type} {blob}\n".replace("  ", " ")


def _setup(tmp_path: Path, line: str, boot: Path) -> Path:
    """main: the keyring holding ``line`` (and the boot key that signs the set-up);
    canon/characters.md#Elias adopted by Ada; HEAD on feature."""
    root = make_repo(tmp_path)
    Repository.init(root, project_id="p-options").close()
    write(
        root,
        "forest.toml",
        f'[project]\nid = "p-options"\n\n[policy]\nallowed_signers = "{KEYRING}"\n'
        f'signed = "required"\n\n[authority]\n"**" = ["{AUTHOR}", "{ADA}"]\n',
    )
    write(root, KEYRING, line + _line("author@example.org", boot))
    write(root, "canon/characters.md", DOC)
    with Repository(root) as r:
        section = read_section(root, "canon/characters.md#Elias", (), max_bytes=1 << 20)
        adopt_sections(r, [section], words="canon", by=AUTHOR)
    commit_signed(root, boot, "canon under custody")
    git(root, "checkout", "-q", "-b", "feature")
    return root


def _ada_amends(root: Path, key: Path, date: str | None = None) -> list[str]:
    path = root / "canon/characters.md"
    path.write_text(path.read_text().replace("lighthouse.", "lighthouse now."))
    supersede(root, "canon/characters.md#Elias", ADA)
    git(root, "add", "-A")
    env = {"GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date} if date else None
    sign = ["-c", "gpg.format=ssh", "-c", f"user.signingkey={key}"]
    git(root, *sign, "commit", "-q", "-S", "-m", "Ada amends Elias", env=env)
    return [f"{f.code}: {f.detail}" for f in check_range(root, "main").faults]


@pytest.fixture
def keys(tmp_path: Path) -> dict[str, Path]:
    return {name: keygen(tmp_path, name) for name in ("ada", "boot")}


def test_keyring_key_valid_now_accepted(tmp_path: Path, keys: dict[str, Path]) -> None:
    options = 'namespaces="git",valid-after="20200101Z",valid-before="29990101"'
    root = _setup(tmp_path, _line("ada@example.org", keys["ada"], options), keys["boot"])
    assert _ada_amends(root, keys["ada"]) == []


def test_keyring_expired_key_backdated_commit_refused(
    tmp_path: Path, keys: dict[str, Path]
) -> None:
    """git alone says G: at the date the commit claims, the key was valid."""
    options = 'namespaces="git",valid-before="20200101Z"'
    root = _setup(tmp_path, _line("ada@example.org", keys["ada"], options), keys["boot"])
    (fault,) = _ada_amends(root, keys["ada"], OLD_DATE)
    assert (
        fault.startswith("signer: ")
        and "valid-before (2020-01-01 00:00:00 UTC) has passed" in fault
    )


def test_keyring_expired_key_commit_now_refused(tmp_path: Path, keys: dict[str, Path]) -> None:
    options = 'valid-before="20200101Z"'
    root = _setup(tmp_path, _line("ada@example.org", keys["ada"], options), keys["boot"])
    (fault,) = _ada_amends(root, keys["ada"])
    assert fault.startswith("signer: ") and "has passed" in fault


def test_keyring_not_yet_valid_key_refused(tmp_path: Path, keys: dict[str, Path]) -> None:
    options = 'namespaces="git",valid-after="29990101Z"'
    root = _setup(tmp_path, _line("ada@example.org", keys["ada"], options), keys["boot"])
    (fault,) = _ada_amends(root, keys["ada"])
    assert fault.startswith("signer: ") and "valid-after (2999-01-01" in fault
    assert "has not come" in fault


def test_keyring_wrong_namespace_key_refused(tmp_path: Path, keys: dict[str, Path]) -> None:
    options = 'namespaces="file,email"'
    root = _setup(tmp_path, _line("ada@example.org", keys["ada"], options), keys["boot"])
    (fault,) = _ada_amends(root, keys["ada"])
    assert fault.startswith("signer: ") and 'leave out "git"' in fault


@pytest.mark.parametrize(
    "principal", ["ADA@example.org", "ada@example.org.evil", "ada@Example.org"]
)
def test_keyring_principal_not_exactly_the_acts_email_refused(
    tmp_path: Path, keys: dict[str, Path], principal: str
) -> None:
    root = _setup(tmp_path, _line(principal, keys["ada"]), keys["boot"])
    (fault,) = _ada_amends(root, keys["ada"])
    assert fault.startswith("signer: ") and f"bound to {principal}, not to {ADA}" in fault


def test_keyring_cert_authority_line_refused(keys: dict[str, Path]) -> None:
    text = _line("ada@example.org", keys["ada"], "cert-authority")
    with pytest.raises(KeyringError, match="cert-authority lines are not supported") as caught:
        parse_keyring(text, KEYRING)
    assert "list each holder's own public key" in str(caught.value)
    assert len(str(caught.value).splitlines()) == 1


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ('valid-before="2020"', "YYYYMMDD"),
        ('valid-after="20201341"', "real date"),
        ('valid-before="20200101",valid-before="20300101"', "twice"),
    ],
)
def test_keyring_bad_validity_option_refused(
    keys: dict[str, Path], options: str, problem: str
) -> None:
    with pytest.raises(KeyringError, match=problem):
        parse_keyring(_line("ada@example.org", keys["ada"], options), KEYRING)
