"""The cache's MAC loads no OpenSSL: the light doors that read cache records (a warm
``forest check``, ``forest status``, the pre-commit hook on a clean commit) never
import ``hashlib``, ``hmac`` or ``_hashlib`` (kernel/cache.py), and the MAC is the
keyed BLAKE2b ``hashlib`` computes, byte for byte (no record changes meaning)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

from forest_files.kernel import cache
from tests.helpers.custody import two_bound_files
from tests.helpers.git import git, git_env, write
from tests.helpers.imports import loaded
from tests.helpers.state import local_state

OPENSSL = {"_hashlib", "hashlib", "hmac"}


def _python(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **git_env(), "FOREST_DEBUG_IMPORTS": "1"}
    return subprocess.run(
        [sys.executable, *argv], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )


def test_warm_check_loads_no_openssl_hash_module_accepted(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    cold = _python(root, "-m", "forest_files.doors.fastcheck")
    assert cold.returncode == 0, cold.stderr
    warm = _python(root, "-m", "forest_files.doors.fastcheck")
    assert warm.returncode == 0, warm.stderr
    assert "2 binding(s) checked" in warm.stdout  # the remembered verdict: records read
    assert not loaded(warm.stderr) & OPENSSL


def test_clean_hook_loads_no_openssl_hash_module_accepted(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    assert _python(root, "-m", "forest_files.doors.fastcheck").returncode == 0
    write(root, "notes.txt", "an unbound file\n")
    git(root, "add", "notes.txt")
    script = (
        "import sys\n"
        "from forest_files.doors.hooks.run import _run\n"
        "code = _run('pre-commit')\n"
        f"print(code, sorted(m for m in {sorted(OPENSSL)!r} if m in sys.modules))\n"
    )
    first = _python(root, "-c", script)  # may build and name HEAD's view (a listing hash)
    assert first.returncode == 0, first.stderr
    warm = _python(root, "-c", script)  # finds its view's records: alias, bound paths
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout.splitlines()[-1] == "0 []", warm.stdout
    assert list((local_state(root) / "views").glob("*.alias"))  # records were read


def test_cache_mac_is_hashlib_keyed_blake2b_accepted(tmp_path: Path) -> None:
    root = two_bound_files(tmp_path)
    path = local_state(root) / "cache" / "x.bin"
    assert cache.write(path, "demo", ("clean", 10))
    data = path.read_bytes()
    key = cache._key(str(path))
    assert key is not None
    name = b"demo"
    head = len(cache.MAGIC) + 1 + len(name)
    payload = data[head + 32 :]
    expected = hashlib.blake2b(bytes((len(name),)) + name + payload, key=key, digest_size=32)
    assert data[head : head + 32] == expected.digest()
    assert cache.read(path, "demo") == ("clean", 10)


def test_clean_check_staged_loads_no_openssl_hash_module_accepted(tmp_path: Path) -> None:
    """``forest check --staged`` of a change touching no bound file: the text renderer
    reaches check/commit_route.py, whose digest alone needs ``hashlib``."""
    root = two_bound_files(tmp_path)
    assert _python(root, "-m", "forest_files.doors.fastcheck").returncode == 0
    write(root, "notes.txt", "an unbound file\n")
    git(root, "add", "notes.txt")
    for _ in range(2):  # the view built and named, then HEAD's clean verdict remembered
        first = _python(root, "-m", "forest_files.doors.fastcheck", "--staged")
        assert first.returncode == 0, first.stderr
    warm = _python(root, "-m", "forest_files.doors.fastcheck", "--staged")
    assert warm.returncode == 0, warm.stderr
    assert "HEAD judged clean" in warm.stdout, warm.stdout
    assert not loaded(warm.stderr) & OPENSSL, sorted(loaded(warm.stderr) & OPENSSL)
