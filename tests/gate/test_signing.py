"""Authenticated authority: custody acts bound to signed commits, judged at the merge-base.

Real ed25519 keys from ssh-keygen, real signed commits (gpg.format=ssh), a real
allowed-signers file committed in the repository; GPG only where gpg exists.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from forest_files.custody.config import ConfigError, parse_config_text, render_config
from forest_files.custody.keyring import KeyringError, parse_keyring
from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.signing_advice import advise
from forest_files.custody.targets import read_section
from forest_files.doors.hooks.run import check_staged
from forest_files.gate.ci import run_gate
from forest_files.gate.range import check_range
from forest_files.gate.render import render
from forest_files.gitio import ShallowClone
from forest_files.gitio.signatures import SignatureToolMissing
from tests.helpers.cli import forest, typed_beside
from tests.helpers.git import commit_all, git, make_repo, pasted, write
from tests.helpers.signing import commit_signed, keygen, signer_line, supersede

ADA = "Ada Lovelace <ada@example.org>"
BOB = "Bob <bob@example.org>"
AUTHOR = "Test Author <author@example.org>"
PROJECT = "p-signing"
DOC = "# Canon\n\n## Elias\n\nElias keeps the lighthouse.\n\n## Mara\n\nMara sails.\n"
KEYRING = ".forest/allowed_signers"

# The slow lane too (.ci/run runs it): keys made, commits signed and pushed, many processes.
pytestmark = [
    pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen"),
    pytest.mark.slow,
]


def _toml(mode: str = "required", extra: str = "") -> str:
    return (
        f'[project]\nid = "{PROJECT}"\n\n[policy]\nallowed_signers = "{KEYRING}"\n'
        f'signed = "{mode}"\n{extra}\n[authority]\n"**" = ["{AUTHOR}"]\n'
        f'"canon/**" = ["{ADA}", "{BOB}"]\n'
    )


@pytest.fixture
def keys(tmp_path: Path) -> dict[str, Path]:
    return {name: keygen(tmp_path, name) for name in ("ada", "bob", "mallory", "ada2")}


def _setup(tmp_path: Path, keys: dict[str, Path], mode: str = "required", extra: str = "") -> Path:
    """main: canon/characters.md#Elias and #Mara adopted by Ada (signed); HEAD on feature."""
    root = make_repo(tmp_path)
    Repository.init(root, project_id=PROJECT).close()
    write(root, "forest.toml", _toml(mode, extra))
    write(
        root,
        KEYRING,
        signer_line("ada@example.org", keys["ada"]) + signer_line("bob@example.org", keys["bob"]),
    )
    write(root, "canon/characters.md", DOC)
    with Repository(root) as r:
        sections = [
            read_section(root, f"canon/characters.md#{s}", (), max_bytes=1 << 20)
            for s in ("Elias", "Mara")
        ]
        adopt_sections(r, sections, words="canon", by=ADA)
    commit_signed(root, keys["ada"], "canon under custody")
    git(root, "checkout", "-q", "-b", "feature")
    return root


def _edit(root: Path, section: str, by: str, text: str = "now") -> None:
    path = root / "canon/characters.md"
    old = {"Elias": "Elias keeps the lighthouse.", "Mara": "Mara sails."}[section]
    path.write_text(path.read_text().replace(old, f"{old} {text}"))
    supersede(root, f"canon/characters.md#{section}", by)


def _codes(root: Path) -> list[str]:
    return [f.code for f in check_range(root, "main").faults]


# --- the judge -------------------------------------------------------------------------


def test_signing_holder_signed_act_accepted(tmp_path: Path, keys: dict[str, Path]) -> None:
    root = _setup(tmp_path, keys)
    _edit(root, "Elias", ADA)
    commit_signed(root, keys["ada"], "Ada amends Elias")
    report = check_range(root, "main")
    assert report.ok, report.faults
    assert report.warnings == ()


def test_signing_unsigned_act_under_required_refused(tmp_path: Path, keys: dict[str, Path]) -> None:
    root = _setup(tmp_path, keys)
    _edit(root, "Elias", ADA)
    commit = commit_signed(root, None, "unsigned")
    (fault,) = check_range(root, "main").faults
    assert fault.code == "unsigned"
    assert commit[:12] in fault.detail and ADA in fault.detail
    assert "key found: none" in fault.detail and fault.act_id is not None
    assert fault.act_id[:12] in fault.detail and "git commit --amend -S" in fault.detail


def test_signing_user_shows_signatures_in_log_same_verdicts_accepted(
    tmp_path: Path, keys: dict[str, Path]
) -> None:
    """``log.showSignature = true`` (a signer's usual setting) makes ``git log`` print
    each signature's check before the asked format: the gate read "Good" as a commit
    (config-governance faults of a commit named "Good"), and later could not pair its
    diffs at all. Every git forest runs shows no signature; the verdicts are the same."""
    root = _setup(tmp_path, keys)
    _edit(root, "Elias", ADA)
    commit_signed(root, keys["ada"], "Ada amends Elias")
    _edit(root, "Mara", ADA)
    commit_signed(root, None, "unsigned")
    quiet = forest(root, "ci", "--base", "main", "--format", "json")
    git(root, "config", "log.showSignature", "true")
    said = git(root, "log", "-1", "--format=%H", "HEAD~1")  # git itself shows them now
    assert said != git(root, "rev-parse", "HEAD~1") and "signature" in said, said
    shown = forest(root, "ci", "--base", "main", "--format", "json")
    assert (shown.exit_code, shown.stdout) == (quiet.exit_code, quiet.stdout), shown.output
    assert [f.code for f in check_range(root, "main").faults] == ["unsigned"]


def test_signing_unsigned_act_under_warn_accepted_with_warning(
    tmp_path: Path, keys: dict[str, Path]
) -> None:
    root = _setup(tmp_path, keys, mode="warn")
    _edit(root, "Elias", ADA)
    commit_signed(root, None, "unsigned")
    report = check_range(root, "main")
    assert report.ok
    assert [w.code for w in report.warnings] == ["unsigned"]
    assert "commit" in report.warnings[0].detail
    gate = run_gate(root, "main")
    assert gate.ok and gate.exit_code == 0, [(f.kind, f.finding.detail) for f in gate.findings]
    assert "warning: unsigned " in render(gate, "text")
    assert '"level": "warning"' in render(gate, "sarif")


def test_signing_warn_line_printed_by_verify_accepted(
    tmp_path: Path, keys: dict[str, Path]
) -> None:
    root = _setup(tmp_path, keys, mode="warn")
    _edit(root, "Elias", ADA)
    commit_signed(root, None, "unsigned")
    code = "from forest_files.doors.cli.app import main; main()"
    proc = subprocess.run(
        [sys.executable, "-c", code, "verify", "--base", "main", "-C", str(root)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "warning: unsigned: segment" in proc.stdout


def test_signing_mallory_key_claiming_ada_refused(tmp_path: Path, keys: dict[str, Path]) -> None:
    root = _setup(tmp_path, keys)
    write(root, KEYRING, (root / KEYRING).read_text())  # unchanged keyring
    _edit(root, "Elias", ADA)
    commit_signed(root, keys["mallory"], "Mallory, as Ada")
    (fault,) = check_range(root, "main").faults
    assert fault.code == "signer", fault.detail
    assert ADA in fault.detail and "SHA256:" in fault.detail
    assert "not in the keyring" in fault.detail


def test_signing_bob_key_claiming_ada_refused(tmp_path: Path, keys: dict[str, Path]) -> None:
    root = _setup(tmp_path, keys)
    _edit(root, "Elias", ADA)
    commit_signed(root, keys["bob"], "Bob, as Ada")
    (fault,) = check_range(root, "main").faults
    assert fault.code == "signer" and "bound to bob@example.org, not to" in fault.detail


def test_signing_key_added_in_same_range_refused(tmp_path: Path, keys: dict[str, Path]) -> None:
    root = _setup(tmp_path, keys)
    with (root / KEYRING).open("a") as handle:
        handle.write(signer_line("ada@example.org", keys["ada2"]))
    commit_signed(root, keys["ada"], "Ada adds a second key")
    _edit(root, "Elias", ADA)
    commit_signed(root, keys["ada2"], "Ada signs with the new key at once")
    faults = check_range(root, "main").faults
    (fault,) = [f for f in faults if f.code == "signer"]
    assert "not in the keyring" in fault.detail
    # the keyring change itself: its author (who holds '**') did not sign it
    assert [f.code for f in faults if f.code != "signer"] == ["config-governance"]


def test_signing_revoked_key_new_act_refused_old_acts_accepted(
    tmp_path: Path, keys: dict[str, Path]
) -> None:
    root = _setup(tmp_path, keys)
    git(root, "checkout", "-q", "main")
    write(
        root,
        KEYRING,
        signer_line("ada@example.org", keys["ada2"]) + signer_line("bob@example.org", keys["bob"]),
    )
    commit_signed(root, keys["ada2"], "rotate Ada's key: the old one is revoked")
    git(root, "checkout", "-q", "-B", "feature")
    commit_all(root, "nothing new")
    assert check_range(root, "main").ok  # Ada's acts signed by the old key still stand
    _edit(root, "Mara", BOB)
    commit_signed(root, keys["bob"], "Bob amends Mara")
    assert check_range(root, "main").ok
    _edit(root, "Elias", ADA)
    commit_signed(root, keys["ada"], "Ada signs with her revoked key")
    assert _codes(root) == ["signer"]


def test_signing_merge_commit_judged_by_original_signatures_accepted(
    tmp_path: Path, keys: dict[str, Path]
) -> None:
    root = _setup(tmp_path, keys)
    git(root, "checkout", "-q", "-b", "ada-work")
    _edit(root, "Elias", ADA)
    commit_signed(root, keys["ada"], "Ada amends Elias")
    git(root, "checkout", "-q", "feature")
    write(root, "notes.md", "unrelated\n")
    commit_signed(root, None, "an unsigned unrelated commit")
    git(root, "merge", "-q", "--no-ff", "--no-edit", "ada-work")  # the merge is unsigned
    assert check_range(root, "main").ok


def test_signing_merged_unsigned_branch_refused(tmp_path: Path, keys: dict[str, Path]) -> None:
    root = _setup(tmp_path, keys)
    git(root, "checkout", "-q", "-b", "side")
    _edit(root, "Elias", ADA)
    side = commit_signed(root, None, "unsigned on the side branch")
    git(root, "checkout", "-q", "feature")
    write(root, "notes.md", "unrelated\n")
    commit_signed(root, keys["ada"], "signed")
    git(
        root,
        "-c",
        "gpg.format=ssh",
        "-c",
        f"user.signingkey={keys['ada']}",
        "merge",
        "-q",
        "-S",
        "--no-ff",
        "--no-edit",
        "side",
    )
    (fault,) = check_range(root, "main").faults
    assert fault.code == "unsigned" and side[:12] in fault.detail


def test_signing_commit_mixing_two_signers_refused(tmp_path: Path, keys: dict[str, Path]) -> None:
    root = _setup(tmp_path, keys)
    _edit(root, "Elias", ADA)
    _edit(root, "Mara", BOB)
    commit_signed(root, keys["ada"], "two signers in one commit")
    (fault,) = check_range(root, "main").faults
    assert fault.code == "signers-mixed"
    assert "split it" in fault.detail and ADA in fault.detail and BOB in fault.detail


def test_signing_per_glob_off_accepted(tmp_path: Path, keys: dict[str, Path]) -> None:
    root = _setup(tmp_path, keys, extra='\n[signing]\n"canon/**" = "off"\n')
    _edit(root, "Elias", ADA)
    commit_signed(root, None, "unsigned, but canon/** is off")
    assert check_range(root, "main").ok


def test_signing_keyring_changed_by_non_holder_refused(
    tmp_path: Path, keys: dict[str, Path]
) -> None:
    root = _setup(tmp_path, keys)
    with (root / KEYRING).open("a") as handle:
        handle.write(signer_line("ada@example.org", keys["mallory"]))
    git(root, "add", "-A")
    git(root, "commit", "-q", "--author", "Mallory <mallory@example.org>", "-m", "add a key")
    faults = check_range(root, "main").faults
    assert [f.code for f in faults] == ["config-governance"]
    assert KEYRING in faults[0].detail


def _authority_change(root: Path) -> None:
    toml = (root / "forest.toml").read_text()
    write(root, "forest.toml", toml.replace(f'"{ADA}", "{BOB}"', f'"{ADA}"'))


def test_signing_unsigned_governance_change_by_holder_refused(
    tmp_path: Path, keys: dict[str, Path]
) -> None:
    """The author holding '**' is a typed name: under required signing, changing the
    authority map needs that holder's signature too."""
    root = _setup(tmp_path, keys)
    _authority_change(root)
    commit_signed(root, None, "drop Bob, unsigned")
    faults = check_range(root, "main").faults
    assert [f.code for f in faults] == ["config-governance"]
    assert "signing is required" in faults[0].detail and AUTHOR in faults[0].detail


def test_signing_governance_change_signed_by_holder_accepted(
    tmp_path: Path, keys: dict[str, Path]
) -> None:
    root = _setup(tmp_path, keys)
    author_key = keygen(tmp_path, "author")
    git(root, "checkout", "-q", "main")
    with (root / KEYRING).open("a") as handle:
        handle.write(signer_line("author@example.org", author_key))
    commit_signed(root, author_key, "the author's key")
    git(root, "checkout", "-q", "feature")
    git(root, "merge", "-q", "--no-edit", "main")
    _authority_change(root)
    commit_signed(root, author_key, "drop Bob, signed")
    assert check_range(root, "main").faults == ()
    _authority_change(root)  # the same by Mallory's key: refused
    write(root, "forest.toml", (root / "forest.toml").read_text() + "\n")
    write(
        root,
        "forest.toml",
        (root / "forest.toml").read_text().replace(f'"{ADA}"]', f'"{ADA}", "{BOB}"]'),
    )
    commit_signed(root, keys["mallory"], "Bob back, Mallory's key")
    assert [f.code for f in check_range(root, "main").faults] == ["config-governance"]


# --- bad input: one clear line, never a pass under required ------------------------------


def test_signing_malformed_keyring_refused(tmp_path: Path, keys: dict[str, Path]) -> None:
    root = _setup(tmp_path, keys)
    git(root, "checkout", "-q", "main")
    write(root, KEYRING, "ada@example.org ssh-ed25519 not-base64!\n")
    commit_all(root, "break the keyring")
    git(root, "checkout", "-q", "feature")
    git(root, "merge", "-q", "--no-edit", "main")
    _edit(root, "Elias", ADA)
    commit_signed(root, keys["ada"], "act")
    with pytest.raises(KeyringError, match=r"line 1: the key is not base64.*write it as"):
        check_range(root, "main")


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("ada@example.org ssh-dss AAAA", "unknown key type"),
        ("*@example.org ssh-ed25519 AAAA", "patterns"),
        ("ada@example.org cert-authority ssh-ed25519 AAAA", "cert-authority"),
        ('ada@example.org bogus="x" ssh-ed25519 AAAA', "unknown option"),
        ("ada@example.org", "needs principals"),
    ],
)
def test_signing_keyring_line_refused(line: str, problem: str) -> None:
    with pytest.raises(KeyringError, match=problem):
        parse_keyring(f"# comment\n\n{line}\n", "allowed_signers")


def test_signing_keyring_fingerprint_matches_ssh_keygen(keys: dict[str, Path]) -> None:
    (key,) = parse_keyring(signer_line("ada@example.org", keys["ada"]), "k")
    out = subprocess.run(
        ["ssh-keygen", "-lf", f"{keys['ada']}.pub"], capture_output=True, text=True, check=True
    ).stdout
    assert key.fingerprint == out.split()[1]
    assert key.binds(ADA) and not key.binds(BOB)


def test_signing_unknown_signature_format_refused(tmp_path: Path, keys: dict[str, Path]) -> None:
    root = _setup(tmp_path, keys)
    _edit(root, "Elias", ADA)
    commit_signed(root, None, "to be given a foreign signature")
    raw = git(root, "cat-file", "commit", "HEAD")
    head, _, message = raw.partition("\n\n")
    forged = f"{head}\ngpgsig -----BEGIN FOO SIGNATURE-----\n abc\n -----END FOO SIGNATURE-----"
    new = git(
        root,
        "hash-object",
        "-t",
        "commit",
        "-w",
        "--stdin",
        stdin=f"{forged}\n\n{message}\n".encode(),
    )
    git(root, "reset", "-q", "--hard", new)
    (fault,) = check_range(root, "main").faults
    assert fault.code == "unsigned" and "format (unknown)" in fault.detail
    assert "gpg.format ssh" in fault.detail


def test_signing_missing_ssh_keygen_refused(
    tmp_path: Path, keys: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _setup(tmp_path, keys)
    _edit(root, "Elias", ADA)
    commit_signed(root, keys["ada"], "signed")
    bare = tmp_path / "bin-without-ssh-keygen"
    bare.mkdir()
    git_binary = shutil.which("git")
    assert git_binary is not None
    (bare / "git").symlink_to(git_binary)
    monkeypatch.setenv("PATH", str(bare))
    with pytest.raises(SignatureToolMissing, match=r"ssh-keygen is not on PATH.*install it"):
        check_range(root, "main")


def _shallow_clone(tmp_path: Path, keys: dict[str, Path]) -> Path:
    """A clone two commits deep of a range whose act Ada signed: the merge-base in it."""
    root = _setup(tmp_path, keys)
    git(root, "checkout", "-q", "main")
    commit_all(root, "older history")
    commit_all(root, "more older history")
    git(root, "checkout", "-q", "-B", "feature")
    _edit(root, "Elias", ADA)
    commit_signed(root, keys["ada"], "signed")
    clone = tmp_path / "clone"
    git(
        tmp_path,
        "clone",
        "-q",
        "--depth",
        "2",
        "--no-single-branch",
        "-b",
        "feature",
        f"file://{root}",
        str(clone),
    )
    return clone


def test_signing_shallow_clone_refused(tmp_path: Path, keys: dict[str, Path]) -> None:
    clone = _shallow_clone(tmp_path, keys)
    with pytest.raises(ShallowClone, match="fetch-depth: 0"):
        check_range(clone, "origin/main")


def test_signing_shallow_clone_fetch_pasted_where_typed_recovers(
    tmp_path: Path, keys: dict[str, Path]
) -> None:
    """Before, the judge's shallow-clone refusal named a bare `git fetch --unshallow`
    (its own copy of gitio's advice): after ``forest -C ../clone ci`` it found no
    repository where it was pasted. Now gitio's one ``full_history``, from there."""
    clone = _shallow_clone(tmp_path, keys)
    with typed_beside(clone) as beside, pytest.raises(ShallowClone) as told:
        check_range(clone, "origin/main")
    said = str(told.value)
    assert "its signature, cannot be judged" in said, said
    fetch = "git -C ../clone fetch --unshallow"
    assert f"`{fetch}`" in said, said
    assert pasted(beside, fetch).returncode == 0
    assert check_range(clone, "origin/main").ok


def test_signing_missing_keyring_under_warn_accepted_with_warning(
    tmp_path: Path, keys: dict[str, Path]
) -> None:
    root = _setup(tmp_path, keys, mode="warn")
    git(root, "checkout", "-q", "main")
    git(root, "rm", "-q", KEYRING)
    commit_all(root, "drop the keyring")
    git(root, "checkout", "-q", "feature")
    git(root, "merge", "-q", "--no-edit", "main")
    _edit(root, "Elias", ADA)
    commit_signed(root, keys["ada"], "act")
    report = check_range(root, "main")
    assert report.ok and [w.code for w in report.warnings] == ["signing-setup"]


# --- forest.toml -----------------------------------------------------------------------------


def test_signing_config_round_trips_accepted() -> None:
    text = _toml(
        "warn", f'\n[signing]\n"canon/**" = "required"\n\n[gpg]\n"{ADA}" = ["{"ab" * 20}"]\n'
    )
    cfg = parse_config_text(text, "forest.toml")
    assert cfg.signing.signed == "warn" and cfg.signing.rules[0].mode == "required"
    assert cfg.signing.gpg == ((ADA, ("AB" * 20,)),)
    assert parse_config_text(render_config(cfg), "again") == cfg


@pytest.mark.parametrize(
    ("policy", "problem"),
    [
        ('signed = "always"', "not a signing mode"),
        ('signed = "required"', "no keyring is named"),
        ('allowed_signers = ".forest/ledger/keys"\nsigned = "warn"', "inside .forest/ledger"),
        ('allowed_signers = "../keys"', "without '.', '..'"),
    ],
)
def test_signing_config_bad_value_refused(policy: str, problem: str) -> None:
    with pytest.raises(ConfigError, match=problem):
        parse_config_text(f'[project]\nid = "p"\n\n[policy]\n{policy}\n', "forest.toml")


def test_signing_config_bad_gpg_fingerprint_refused() -> None:
    text = f'[project]\nid = "p"\n\n[gpg]\n"{ADA}" = ["1234"]\n'
    with pytest.raises(ConfigError, match=r"\[gpg\].*40- or 64-hex-digit"):
        parse_config_text(text, "forest.toml")


# --- live help -------------------------------------------------------------------------------


def test_signing_default_identity_from_key_accepted(tmp_path: Path, keys: dict[str, Path]) -> None:
    root = _setup(tmp_path, keys)
    git(root, "config", "gpg.format", "ssh")
    git(root, "config", "user.signingkey", str(keys["ada"]))
    advice = advise(root, None)
    assert advice.identity == ADA  # the holder whose e-mail the key signs as
    assert any("must be signed" in line for line in advice.lines)
    mismatch = advise(root, BOB)
    assert any("not bound to your signing key" in line for line in mismatch.lines)


@pytest.mark.parametrize("spelled", ["true", "yes", "1", "on", None], ids=str)
def test_signing_reminder_gpgsign_already_true_accepted(
    tmp_path: Path, keys: dict[str, Path], spelled: str | None
) -> None:
    """Before, every act said "must be signed: `git commit -S`, or `git config
    commit.gpgsign true`" where ``commit.gpgsign`` was true already; now it says git
    signs it, for each way git spells true (``None``: a bare key), and a ``false``
    there, or a value git reads as no boolean, still names both ways."""
    root = _setup(tmp_path, keys)
    git(root, "config", "gpg.format", "ssh")
    git(root, "config", "user.signingkey", str(keys["ada"]))
    config = root / ".git" / "config"
    with config.open("a", encoding="utf-8") as out:
        out.write(
            "[commit]\n\tgpgsign\n" if spelled is None else f"[commit]\n\tgpgsign = {spelled}\n"
        )
    write(root, "canon/more.md", "# More\n\nMore text.\n")
    done = forest(root, "adopt", "canon/more.md", "--words", "more canon")
    assert done.exit_code == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if "must be signed" in line]
    assert said == [
        "forest: the commit that carries this act must be signed; git signs it "
        "(commit.gpgsign is true here)"
    ], done.stderr
    for off in ("false", "maybe"):
        git(root, "config", "--unset-all", "commit.gpgsign")
        git(root, "config", "commit.gpgsign", off)
        hint = [line for line in advise(root, None).lines if "must be signed" in line]
        assert hint == [
            "forest: the commit that carries this act must be signed: `git commit -S`, "
            "or `git config commit.gpgsign true`"
        ], off


def test_signing_hook_warns_unsigned_acts_detected(
    tmp_path: Path, keys: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root = _setup(tmp_path, keys)
    _edit(root, "Elias", ADA)
    git(root, "add", "-A")
    assert check_staged(root) == 0
    assert "commit.gpgsign is off" in capsys.readouterr().err
    git(root, "config", "commit.gpgsign", "true")
    assert check_staged(root) == 0
    assert "commit.gpgsign" not in capsys.readouterr().err


def test_signing_hook_gpgsign_bare_key_accepted(
    tmp_path: Path, keys: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, a bare ``gpgsign`` under ``[commit]`` (true, as git reads it, and git
    signs every commit) left the hook saying "commit.gpgsign is off"."""
    root = _setup(tmp_path, keys)
    _edit(root, "Elias", ADA)
    git(root, "add", "-A")
    with (root / ".git" / "config").open("a", encoding="utf-8") as out:
        out.write("[commit]\n\tgpgsign\n")
    assert git(root, "config", "--type=bool", "commit.gpgsign") == "true"
    assert check_staged(root) == 0
    assert "commit.gpgsign" not in capsys.readouterr().err


# --- OpenPGP -------------------------------------------------------------------------------


@pytest.fixture
def gnupg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    if shutil.which("gpg") is None:
        pytest.skip("gpg is not installed: the OpenPGP path is not exercised")
    home = Path(os.environ.get("TMPDIR", "/tmp")) / f"fgpg-{os.getpid()}-{tmp_path.name[-12:]}"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("GNUPGHOME", str(home))
    yield home
    subprocess.run(["gpgconf", "--kill", "gpg-agent"], capture_output=True, check=False)
    shutil.rmtree(home, ignore_errors=True)


def _gpg_key(uid: str) -> str:
    subprocess.run(
        ["gpg", "--batch", "--passphrase", "", "--quick-gen-key", uid, "ed25519", "sign", "never"],
        capture_output=True,
        check=True,
    )
    out = subprocess.run(
        ["gpg", "--with-colons", "--list-keys", uid], capture_output=True, text=True, check=True
    ).stdout
    return next(line.split(":")[9] for line in out.splitlines() if line.startswith("fpr"))


def test_signing_gpg_pinned_fingerprint_accepted_other_refused(
    tmp_path: Path, keys: dict[str, Path], gnupg: Path
) -> None:
    ada_fp, bob_fp = _gpg_key(ADA), _gpg_key(BOB)
    extra = f'\n[gpg]\n"{ADA}" = ["{ada_fp}"]\n"{BOB}" = ["{bob_fp}"]\n'
    root = _setup(tmp_path, keys, extra=extra)
    _edit(root, "Elias", ADA)
    git(root, "add", "-A")
    git(root, "-c", f"user.signingkey={ada_fp}", "commit", "-q", "-S", "-m", "gpg by Ada")
    assert check_range(root, "main").ok
    _edit(root, "Elias", ADA, text="again")
    git(root, "add", "-A")
    git(root, "-c", f"user.signingkey={bob_fp}", "commit", "-q", "-S", "-m", "Bob as Ada")
    (fault,) = check_range(root, "main").faults
    assert fault.code == "signer" and f"for {BOB}, not for {ADA}" in fault.detail
