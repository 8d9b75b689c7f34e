"""The typed input of each MCP tool (pydantic) and the bounds of every answer.

Stores: nothing.
Refuses: (``ArgumentsRefused``, one line naming the argument, never its value) an
unknown argument, a value of the wrong type, a string or number outside its bound.
Returns: validated models; ``json_schema`` for a tool's ``inputSchema``.
Test: tests/doors/test_mcp_tools.py
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from forest_files.kernel.bounds import (
    MAX_EXCERPT_LEN,
    MAX_PROPOSED_CHARS,
    MAX_SELECTOR_CHARS,
    MAX_SIGNATURE_CHARS,
    MAX_WORDS_CHARS,
)
from forest_files.kernel.errors import ForestError

MAX_PAGE = 200  # rows of one ground, check or proposals page
DEFAULT_PAGE = 50
MAX_READ_CHARS = 16_000  # characters of ground text one read_ground answer carries
MAX_RECALL = 50  # packets of one recall
MAX_QUERY_CHARS = 512
MAX_CURSOR = 10_000_000
_UNSAFE = re.compile(r"[^\w.\-]")


class ArgumentsRefused(ForestError):
    """A tool's arguments do not fit its input schema."""


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Page(_Input):
    cursor: int = Field(0, ge=0, le=MAX_CURSOR, description="Where this page starts.")
    limit: int = Field(DEFAULT_PAGE, ge=1, le=MAX_PAGE, description="Rows on this page.")


class GroundIn(Page):
    """The bindings with their status, paged (``next_cursor`` continues)."""


class CheckIn(Page):
    """The findings of the working tree, body-free, paged."""


class ProposalsIn(Page):
    """The open proposals (ids, selectors, hashes; never their text), paged."""


class ReadGroundIn(_Input):
    binding: str = Field(
        min_length=1,
        max_length=MAX_SELECTOR_CHARS,
        description="A binding id or its selector (path#section), as `ground` lists it.",
    )
    offset: int = Field(0, ge=0, le=1 << 40, description="First character to return.")
    max_chars: int = Field(MAX_READ_CHARS, ge=1, le=MAX_READ_CHARS)


class RecallIn(_Input):
    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS, description="Plain words.")
    limit: int = Field(10, ge=1, le=MAX_RECALL)
    excerpt_len: int = Field(160, ge=1, le=min(MAX_EXCERPT_LEN, 1000))


class ProposeIn(_Input):
    selector: str = Field(
        min_length=1, max_length=MAX_SELECTOR_CHARS, description="A bound path#section."
    )
    text: str = Field(
        min_length=1,
        max_length=MAX_PROPOSED_CHARS,
        description="The whole new section, heading included, as read_ground returns it.",
    )
    signature: str = Field(
        min_length=1,
        max_length=MAX_SIGNATURE_CHARS,
        description="Who proposes (a claim, e.g. 'Claude (agent) <agent@example.org>').",
    )
    reason: str = Field(min_length=1, max_length=MAX_WORDS_CHARS, description="Why, in a line.")


def json_schema(model: type[_Input]) -> dict[str, Any]:
    return model.model_json_schema()


def parse(tool: str, model: type[_Input], arguments: object) -> Any:
    """``arguments`` as ``model``, or ArgumentsRefused naming the first bad argument."""
    try:
        return model.model_validate(arguments if arguments is not None else {})
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(_UNSAFE.sub("?", str(part))[:64] for part in first["loc"]) or "input"
        raise ArgumentsRefused(
            f"{tool}: argument {where}: {first['msg'][:200]}; "
            f"see the tool's input schema ({len(exc.errors())} problem(s))"
        ) from None
