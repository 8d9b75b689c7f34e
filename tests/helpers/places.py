"""A module's place: one repository set up for all its tests, in a folder the
unprivileged user reaches (``adopted_place``), copied per test (``handed_copy``).

``module_place`` makes the module fixture the tests that run forest as another user
(or in another user's repository) share, so that each module names only its files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.helpers.unprivileged import adopted_place, as_root


def module_place(
    files: dict[str, str], *adopt: str, words: str = "the doc", only_root: str = ""
) -> Callable[[], Iterator[tuple[Path, Path]]]:
    """A module fixture (assign it to ``place``): ``adopted_place`` of ``files`` with
    ``adopt`` adopted (``words``), made once for the module's tests; given
    ``only_root``, the reason, skipped unless root runs them."""

    @pytest.fixture(scope="module")
    def place() -> Iterator[tuple[Path, Path]]:
        if only_root and not as_root():
            pytest.skip(only_root)
        with adopted_place(files, *adopt, words=words) as made:
            yield made

    return place
