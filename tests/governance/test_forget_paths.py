"""``forest forget`` of a secret that arrived by any path: supersede, resolve, proposal adoption.

The README's "Forgetting a pasted secret" block, followed literally after the
secret was committed through ``forest supersede``, passes the installed hook,
``forest verify``, ``forest ci --base`` over the forget commit, ``forest check
--rev HEAD`` and a fresh clone's ``forest status``: an act whose body was
erased replays with an erased body (content id, hash and edges kept).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from forest_files.custody.proposals import ProposalStore
from forest_files.custody.record import adopt_sections
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.doors import hooks as githooks
from forest_files.governance.forget import forget
from forest_files.kernel.hashing import hash_body
from forest_files.ledger.segments import body_path
from forest_files.proposals.adopt import adopt_proposal
from tests.helpers.cli import FOREST, forest, ok
from tests.helpers.custody import BY, MAX, supersede_as_it_stands
from tests.helpers.forgetting import CLEAN, DOC, SECRET, SENTINEL, WORDS
from tests.helpers.git import commit_all, git, make_repo, write
from tests.helpers.template import built_once, copy_repo

# The slow lane (.ci/run runs it; the README's fast command leaves it out):
# the README's forget block end to end, clones and the gate.
pytestmark = pytest.mark.slow


def run(cwd: Path, *cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(cmd), cwd=cwd, env=dict(os.environ), capture_output=True, text=True, check=False
    )


def _pasted_by_supersede(tmp: Path) -> Path:
    """Clean ground adopted and committed; the secret pasted in and recorded with
    ``forest supersede``, committed."""
    root = make_repo(tmp)
    write(root, "doc.md", CLEAN)
    with Repository.init(root, project_id="p") as repo:
        section = read_section(root, "doc.md#Keys", (), max_bytes=MAX)
        adopt_sections(repo, [section], words="ok", by=BY)
    commit_all(root, "adopt")
    write(root, "doc.md", DOC)
    supersede_as_it_stands(root, "doc.md#Keys", words="the new keys note")
    commit_all(root, "paste")
    return root


@pytest.fixture(scope="module")
def pasted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_once(tmp_path_factory, _pasted_by_supersede)


def _secret_id(root: Path) -> str:
    with Repository(root) as repo:
        (cid,) = [g.content_id for g in repo.ground()]
    return cid


def _readme_block(root: Path, secret: str) -> subprocess.CompletedProcess[str]:
    """The README block, literally: take the secret out, supersede, forget, commit."""
    write(root, "doc.md", CLEAN)
    ok(root, "supersede", "doc.md#Keys", "--words", "the token does not belong here")
    ok(root, "forget", secret, "--words", "an API key was pasted here by mistake")
    git(root, "add", "-A", ".forest/ledger", "doc.md")
    return run(root, "git", "commit", "-q", "-m", "forget a pasted key")


def _passes_everywhere(root: Path, clone: Path) -> None:
    """``verify``, ``ci --base`` over the last commit, ``check --rev HEAD``, and a fresh
    clone's ``status`` and ``check``: every one exits 0 and none echoes the secret."""
    for args in (("verify",), ("ci", "--base", "HEAD~1"), ("check", "--rev", "HEAD")):
        result = forest(root, *args)
        assert result.exit_code == 0, (args, result.stdout, result.stderr)
        assert SENTINEL not in result.stdout + result.stderr
    git(clone.parent, "clone", "-q", str(root), str(clone))
    for args in (("status",), ("check",), ("verify",)):
        proc = run(clone, FOREST, *args)
        assert proc.returncode == 0, (args, proc.stdout + proc.stderr)
        assert SENTINEL not in proc.stdout + proc.stderr


def test_forget_after_committed_supersede_readme_block_accepted(
    pasted: Path, tmp_path: Path
) -> None:
    root = copy_repo(pasted, tmp_path / "repo")
    githooks.install(root)
    commit = _readme_block(root, _secret_id(root))
    assert commit.returncode == 0, commit.stdout + commit.stderr
    assert SENTINEL not in commit.stdout + commit.stderr
    _passes_everywhere(root, tmp_path / "clone")
    status = run(tmp_path / "clone", FOREST, "status")
    assert "clean" in status.stdout


def test_forget_uncommitted_supersede_accepted(tmp_path: Path) -> None:
    root = _pasted_by_supersede(tmp_path)
    git(root, "reset", "-q", "--soft", "HEAD~1")  # the paste never committed
    githooks.install(root)
    commit = _readme_block(root, _secret_id(root))
    assert commit.returncode == 0, commit.stdout + commit.stderr
    _passes_everywhere(root, tmp_path / "clone")


def _contest(tmp: Path) -> tuple[Path, str, str]:
    """A repository holding a merged contest of text-only ground: one head holds the
    secret; (repo, that head, the other head)."""
    origin = make_repo(tmp, "origin")
    Repository.init(origin, project_id="p").close()
    with Repository(origin) as r:
        x = r.adopt_text("The shared ground.", words="ok", by=BY)
    commit_all(origin, "ground")
    b, c = tmp / "b", tmp / "c"
    git(tmp, "clone", "-q", str(origin), str(b))
    git(tmp, "clone", "-q", str(origin), str(c))
    with Repository(b) as r:
        y = r.supersede(
            x, "B's version.", words="b", by=BY, expected_body_hash=hash_body("B's version.")
        )
    commit_all(b, "b")
    with Repository(c) as r:
        z = r.supersede(x, SECRET_TEXT, words="c", by=BY, expected_body_hash=hash_body(SECRET_TEXT))
    commit_all(c, "c")
    git(b, "pull", "-q", "--no-rebase", "--no-edit", str(c), "main")
    return b, z, y


SECRET_TEXT = f"C's version.\n{SECRET}"


def test_forget_after_resolve_accepted(tmp_path: Path) -> None:
    root, secret_head, _other = _contest(tmp_path)
    with Repository(root) as r:
        resolved = r.resolve(secret_head, pick=secret_head, words="C's wording", by=BY)
    commit_all(root, "resolve")
    clean = "C's version."
    with Repository(root) as r:
        r.supersede(resolved, clean, words="no token", by=BY, expected_body_hash=hash_body(clean))
        report = forget(r, resolved, words=WORDS, by=BY)
        assert report.body_hash == hash_body(SECRET_TEXT)
    commit_all(root, "forget")
    _passes_everywhere(root, tmp_path / "clone")
    with Repository(tmp_path / "clone") as r:
        assert [g.body_hash for g in r.ground()] == [hash_body(clean)]


def test_forget_after_proposal_adoption_accepted(tmp_path: Path) -> None:
    root = make_repo(tmp_path)
    write(root, "doc.md", CLEAN)
    with Repository.init(root, project_id="p") as repo:
        section = read_section(root, "doc.md#Keys", (), max_bytes=MAX)
        adopt_sections(repo, [section], words="ok", by=BY)
        (ground,) = repo.ground()
        binding = repo.log()[0].act_id
    commit_all(root, "adopt")
    write(root, "doc.md", DOC)  # the section as the proposal would have it
    proposed = read_section(root, "doc.md#Keys", (), max_bytes=MAX).text
    write(root, "doc.md", CLEAN)
    with ProposalStore(root) as local:
        pid = local.propose(
            binding=binding,
            path="doc.md",
            selector="doc.md#Keys",
            derived_from=ground.content_id,
            ground_hash=ground.body_hash,
            text=proposed,
        ).proposal.id
    secret = adopt_proposal(root, pid, words="the agent's note is right", by=BY)
    commit_all(root, "adopt the proposal")
    githooks.install(root)
    commit = _readme_block(root, secret)
    assert commit.returncode == 0, commit.stdout + commit.stderr
    _passes_everywhere(root, tmp_path / "clone")


def test_body_deleted_without_erase_hook_and_verify_agree_refused(
    pasted: Path, tmp_path: Path
) -> None:
    """A body file deleted by hand (no erase act names it): the hook and ``forest
    verify`` both refuse, naming the same act and the same missing body."""
    root = copy_repo(pasted, tmp_path / "repo")
    githooks.install(root)
    with Repository(root) as repo:
        (ground,) = repo.ground()
        (act,) = [e.act_id for e in repo.log() if e.kind == "supersede"]
    git(root, "rm", "-q", body_path(Path(".forest/ledger"), ground.body_hash).as_posix())
    commit = run(root, "git", "commit", "-q", "-m", "lose a body")
    verify = forest(root, "verify")
    assert commit.returncode != 0 and verify.exit_code == 3, verify.stdout
    for said in (commit.stdout + commit.stderr, verify.stdout + verify.stderr):
        assert act in said and ground.body_hash in said and "missing" in said
        assert SENTINEL not in said
