"""Child Python processes of forest-files' own (the body writer, the parallel reader).

A bulk adoption hands work that would otherwise wait for the GIL to a child
interpreter: the same executable, in isolated mode (``-I``: no current
directory on its path, no ``PYTHON*`` variables, no user site), so a file such as
``json.py`` at the root of the repository being adopted is never imported. A
short bootstrap loads ``forest_files`` from this very installation's directory
(whatever comes first on the child's path: a test run from a source tree, say,
beside an installed copy), its dependencies and the standard library as usual,
and exits with ``WRONG_PACKAGE`` when the package cannot be loaded from there;
the caller treats any exit but 0 as "do the work yourself".

Stores: nothing.
Refuses: nothing; ``command`` is None when this process has no interpreter to
start (an embedded or frozen Python): the caller then does the work itself.
Returns: the argv of a child; a child started on a job file and its JSON report;
the CPUs this process may use; ``stop`` kills and reaps a child not reaped yet.
Test: tests/test_early_bodies.py, tests/test_parallel_read.py, tests/test_path_scan.py
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

WRONG_PACKAGE = 97  # the child could not load its parent's forest_files

_BOOT = (
    "import importlib.util, os, runpy, sys\n"
    "here, module = sys.argv[1], sys.argv[2]\n"
    "package = os.path.join(here, 'forest_files')\n"
    "try:\n"
    "    spec = importlib.util.spec_from_file_location('forest_files',"
    " os.path.join(package, '__init__.py'), submodule_search_locations=[package])\n"
    "    found = importlib.util.module_from_spec(spec)\n"
    "    sys.modules['forest_files'] = found\n"
    "    spec.loader.exec_module(found)\n"
    "except Exception:\n"
    f"    sys.exit({WRONG_PACKAGE})\n"
    "sys.argv = [module, *sys.argv[3:]]\n"
    "runpy.run_module(module, run_name='__main__', alter_sys=True)\n"
)


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system says)."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        try:
            return max(1, len(affinity(0)))
        except OSError:
            pass
    return os.cpu_count() or 1


def command(module: str, *args: str) -> list[str] | None:
    """The argv running ``module`` of this installation as ``__main__`` with ``args``
    in an isolated child interpreter, or None when there is no interpreter to start."""
    if not sys.executable:
        return None
    here = str(Path(__file__).resolve().parents[2])
    return [sys.executable, "-I", "-c", _BOOT, here, module, *args]


def start(
    module: str, write_job: Callable[[BinaryIO], None], *, prefix: str
) -> tuple[subprocess.Popen[bytes], Path] | None:
    """A child running ``module`` on a job file (its one argument) that ``write_job``
    fills: a new temp file (``mkstemp``: created exclusively, mode 0600) that the
    child deletes once read, as the caller does when done with the child. Its
    stdout is a pipe, its stdin and stderr nothing. None when no child starts."""
    argv = command(module)
    if argv is None:
        return None
    fd, name = tempfile.mkstemp(prefix=prefix, suffix=".part")
    job = Path(name)
    try:
        with os.fdopen(fd, "wb") as fh:
            write_job(fh)
        proc = subprocess.Popen(
            [*argv, str(job)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        job.unlink(missing_ok=True)
        return None
    except BaseException:
        job.unlink(missing_ok=True)
        raise
    return proc, job


def report(proc: subprocess.Popen[bytes], job: Path) -> object:
    """What a child started by ``start`` printed, decoded as JSON, once it exited 0;
    None for any other exit or output (its job file is removed either way)."""
    out, _ = proc.communicate()
    job.unlink(missing_ok=True)
    if proc.returncode != 0:
        return None
    try:
        return json.loads(out)
    except ValueError:
        return None


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Kill ``proc`` unless it was reaped already, and wait for it (its pipes drained)."""
    if proc.returncode is None:
        with contextlib.suppress(OSError):
            proc.kill()
        proc.communicate()
