"""A variable steering git's search for its repository that git cannot read, said.

``GIT_DISCOVERY_ACROSS_FILESYSTEM`` (a shell's or CI image's export) is read by git
as a boolean each time it looks for its repository; a value it cannot read
(``yes-please``) stops every git command at once, the user's own and each one a door
runs. git's line names the variable but not the fix; this one does.

Stores: nothing. Refuses: nothing (gitio/_run.py raises the line as GitFailed).
Returns: the one line naming the variable, its value and its ``unset``, or None when
git's words name a config key (``core.bare``), not an exported variable.
Test: tests/gitio/test_discovery_not_boolean.py
"""

from __future__ import annotations

import os
import re

# git's words: "config value" up to git 2.42, "environment value" since 2.43
_NOT_BOOLEAN = re.compile(r"bad boolean (?:config|environment) value '(.*)' for '(\w+)'")


def unreadable_boolean(err: str) -> str | None:
    """The line for git's ``err`` when it names an exported variable it reads as a
    boolean and cannot read."""
    found = _NOT_BOOLEAN.search(err)
    if found is None or os.environ.get(found[2]) != found[1]:
        return None
    from forest_files.kernel.shellword import printable

    name, value = found[2], found[1]
    return (
        f"{name} is exported as '{printable(value)}', which git reads as neither true nor "
        f"false, so git refuses to run; run `unset {name}` (or export it as 1 or 0), then "
        "the command again"
    )
