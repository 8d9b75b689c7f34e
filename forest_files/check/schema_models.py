"""The JSON every door prints, written down once: pydantic models, to generate its schema.

``forest check --json`` (``--staged``, ``--rev`` too), ``forest status --json`` and
``forest ci --format json`` print one document of this shape (findings.py builds
it, ``CheckReport.as_dict``); docs/findings.schema.json is these models as JSON
Schema. This module is only for generating and testing that file: no door
imports it (pydantic stays off the hook's and the warm check's path).

Stores: nothing (``main`` prints the schema; redirect it into the file).
Refuses: nothing.
Returns: ``schema()``, the JSON Schema as a dict.
Test: tests/check/test_findings_schema.py (the committed file is what ``schema()`` makes;
every door's real output validates against it)

Regenerate: ``python -m forest_files.check.schema_models > docs/findings.schema.json``
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from forest_files.check.findings import SCHEMA_VERSION
from forest_files.check.kinds import KINDS

SCHEMA_ID = "https://pypi.org/project/forest-files/findings.schema.json"

Kind = Annotated[
    str,
    Field(
        description="The finding kind (README.md, Findings). Every kind but `clean` fails.",
        json_schema_extra={"enum": list(KINDS)},
    ),
]
ContentId = Annotated[
    str | None,
    Field(
        description="The ground: a content id (64 hex digits) that `forest show ID` accepts; "
        "null when there is no single ground (a contest, a sealed ground, no binding).",
        pattern="^[0-9a-f]{64}$",
    ),
]
SectionHash = Annotated[
    str | None,
    Field(description="A section hash: the hash of normalised section text, not an entry."),
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RouteModel(_Strict):
    """One way out of a finding."""

    label: str = Field(description="What the route does, e.g. `restore ground`.")
    command: str | None = Field(
        description="The steps as one line a POSIX shell runs as printed (every word "
        "quoted); null for advice that is no command."
    )
    argv: list[list[str]] = Field(description="The steps: argument lists, run in order.")
    note: str = Field(description="Advice beside the command, or the advice itself.")


class FindingModel(_Strict):
    """One finding: a binding's verdict, or a finding of no binding."""

    kind: Kind
    path: str = Field(description="Repository path; empty for a contest bound to no file.")
    selector: str = Field(
        description="The full selector (PATH#Heading/…, PATH::symbol, PATH@marker, PATH); "
        "a path for findings of a file; the contest's id for a contest bound to no file."
    )
    start_line: int | None = Field(
        description="First line of the section (1-based); `moved`: of the place `moved_to` "
        "names, where the text stands now."
    )
    end_line: int | None = Field(description="Last line of the section (`moved`: likewise).")
    binding: str | None = Field(description="The bind act's id; null for no binding.")
    act: str | None = Field(description="The ledger act a gate finding names.")
    ground: ContentId
    section_hash: SectionHash
    ground_section_hash: SectionHash
    detail: str = Field(description="Why, in one body-free phrase.")
    moved_to: str | None = Field(description="`moved`: the selector where the text stands.")
    candidates: list[str] = Field(
        description="`contested`: the heads (content ids) or the bindings; `unresolved`: "
        "where a renamed section may stand, or each place a copy of its unchanged text "
        "stands."
    )
    candidate_lines: list[int] = Field(description="The first line of each candidate place.")
    commit: str | None = Field(description="`forest ci`: the commit of the range it was found at.")
    introduced: str | None = Field(
        description="`forest ci`: the commit of the range that brought a finding HEAD shows."
    )
    adopted_by: str | None = Field(description="Who adopted the ground (a signature).")
    hints: list[str] = Field(description="Facts that help choose a route.")
    routes: list[RouteModel] = Field(description="Every way out, built from the repository.")
    fingerprint: str | None = Field(
        description="Stable id of a failing finding across runs and doors; null when clean."
    )


class RangeModel(_Strict):
    """What `forest ci --base REF` judged."""

    head: str
    base: str | None
    merge_base: str | None
    commits: list[str] = Field(description="merge-base..HEAD, oldest first.")
    judged: list[str] = Field(description="The commits whose bindings were checked.")
    folder_routes: list[RouteModel] = Field(
        description="Routes that settle several findings at once, said once here (each "
        "finding keeps its own): a folder HEAD moved whole, one `forest rebind OLD/ NEW/` "
        "amending HEAD (committed on top without `--base`); empty when there is none."
    )


class ReportModel(_Strict):
    """One door's report: `forest check --json`, `forest status --json`, `forest ci
    --format json`."""

    model_config = ConfigDict(extra="forbid", title="forest-files findings")

    schema_version: Literal[1] = Field(description="Raised when a field's meaning changes.")
    door: Literal["check", "status", "ci"]
    source: str = Field(
        description="`worktree`, `index`, the revision `--rev` was given (as typed), "
        "or `forest ci`'s HEAD commit id."
    )
    where: str = Field(description="The source in words, e.g. `git index`.")
    ok: bool = Field(description="No finding fails.")
    exit_code: int = Field(description="The door's exit code (status always exits 0).")
    summary: str
    findings: list[FindingModel] = Field(
        description="Every binding judged (clean ones too), then findings of no binding."
    )
    warnings: list[FindingModel] = Field(description="Findings that fail nothing.")
    notes: list[str] = Field(description="Advice that fails nothing.")
    commit_route: RouteModel | None = Field(
        description=(
            "At the git index (`forest check --staged`, the hook): the one route that "
            "records every drifted and single-place moved binding of the commit "
            "(`forest supersede --staged --expect DIGEST`), when it saves commands; "
            "null elsewhere."
        )
    )
    range: RangeModel | None = Field(description="`forest ci`: the range; null elsewhere.")


def schema() -> dict[str, object]:
    """The JSON Schema of ``ReportModel``, as committed in docs/findings.schema.json."""
    assert SCHEMA_VERSION == 1, "bump Literal[...] in ReportModel.schema_version too"
    out: dict[str, object] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
    }
    out.update(ReportModel.model_json_schema())
    return out


def main() -> None:
    print(json.dumps(schema(), indent=2, sort_keys=True, ensure_ascii=False))


if __name__ == "__main__":
    main()
