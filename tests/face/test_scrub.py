"""default_scrub keeps Forest 0.4's exact output; the example scrubs drop reasoning whole."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from forest_files.scrub import ScrubFn, default_scrub

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "scrubs.py"
CLAIM = "The treaty was signed in 1842."

# (raw, what Forest 0.4's default_scrub returns for it)
FOREST_CASES = [
    ("<think>secret</think>claim", "secretclaim"),
    ("  <THINKING foo=1>a</Thinking >  ", "a"),
    ("<system-reminder>x</system-reminder>", "x"),
    ("<scratchpadding/>x", "x"),
    ("<think\nx>a", "a"),
    ("<think>>a", ">a"),
    ("<<think>>", "<>"),
    ("x\n<think>\n", "x"),
    ("\u00a0 x \u00a0", "x"),
    ("<sys>x", "<sys>x"),
    ("a < think>b", "a < think>b"),
    ("</ think>", "</ think>"),
    ("<think", "<think"),
    ("</scratchpad", "</scratchpad"),
    ("<b>bold</b>", "<b>bold</b>"),
    ("", ""),
]


def _load_examples() -> ModuleType:
    spec = importlib.util.spec_from_file_location("example_scrubs", EXAMPLES)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def examples() -> ModuleType:
    return _load_examples()


@pytest.mark.parametrize(("raw", "expected"), FOREST_CASES)
def test_default_scrub_forest_cases_accepted(raw: str, expected: str) -> None:
    assert default_scrub(raw) == expected


def test_default_scrub_tag_contents_kept_accepted() -> None:
    # The weak spot Forest documents: only the tags go, the secret stays.
    assert default_scrub("<think>secret</think>" + CLAIM) == "secret" + CLAIM


def test_default_scrub_matches_published_forest_accepted() -> None:
    forest = pytest.importorskip("forest_memory")
    for raw, _ in FOREST_CASES:
        assert default_scrub(raw) == forest.default_scrub(raw), raw


def test_default_scrub_is_a_scrubfn_accepted() -> None:
    scrub: ScrubFn = default_scrub
    assert scrub("  x  ") == "x"


def test_examples_scrubs_load_without_package_accepted() -> None:
    # -I -S: no site-packages, so an import of forest_files would fail here.
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('s', {str(EXAMPLES)!r})\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "assert 'forest_files' not in sys.modules\n"
        "print(m.cot_marker_scrub('<think>x</think>ok'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_cot_marker_scrub_think_block_dropped_accepted(examples: ModuleType) -> None:
    assert examples.cot_marker_scrub("<think>secret</think>" + CLAIM) == CLAIM


def test_tool_trace_scrub_tool_result_line_dropped_accepted(examples: ModuleType) -> None:
    out = examples.tool_trace_scrub('TOOL_RESULT: {"ok": true}\n' + CLAIM + "\n")
    assert CLAIM in out
    assert "TOOL_RESULT" not in out


@pytest.mark.parametrize(
    "line",
    [
        "TOOL_CALL: search('treaty')",
        "  TOOL_RESULT: 3 hits",
        "FUNCTION_CALL: lookup()",
        "[TOOL_RESULT] done",
        "TOOL_OUTPUT : x",
    ],
)
def test_tool_trace_scrub_marker_lines_detected(examples: ModuleType, line: str) -> None:
    assert examples.tool_trace_scrub(f"Intro.\n{line}\n{CLAIM}") == f"Intro.\n{CLAIM}"


def test_tool_trace_scrub_marker_in_prose_accepted(examples: ModuleType) -> None:
    text = "Tool use: allowed.\nWe logged TOOL_CALL: x mid-sentence."
    assert examples.tool_trace_scrub(text) == text


@pytest.mark.parametrize(
    "raw",
    [
        "<think>plan</think>{claim}",
        "<thinking>plan</think>{claim}",
        "<SCRATCHPAD>notes</scratchpad>{claim}",
        "<reasoning>\nstep 1\nstep 2\n</reasoning>\n{claim}",
        "<system-reminder>injected</system-reminder>{claim}",
        "<tool_call>{{}}</tool_call>{claim}",
        "<think>a<think>b</think>c</think>{claim}",
        "<think>the <system> said</think>{claim}",
    ],
)
def test_tool_trace_scrub_blocks_dropped_with_content_accepted(
    examples: ModuleType, raw: str
) -> None:
    assert examples.tool_trace_scrub(raw.format(claim=CLAIM)) == CLAIM


def test_tool_trace_scrub_stray_markers_removed_accepted(examples: ModuleType) -> None:
    assert examples.tool_trace_scrub(f"</think>{CLAIM}<reasoning>") == CLAIM


def test_tool_trace_scrub_blank_runs_collapsed_accepted(examples: ModuleType) -> None:
    out = examples.tool_trace_scrub(f"A\n\n\n\nB\n \n\t\nC\n\n{CLAIM}")
    assert out == f"A\n\nB\n\nC\n\n{CLAIM}"


@pytest.mark.parametrize("tag", ["thinking", "think", "scratchpad", "reasoning", "Reasoning"])
def test_cot_marker_scrub_fenced_block_dropped_accepted(examples: ModuleType, tag: str) -> None:
    raw = f"Intro.\n\n```{tag}\nsecret plan\n```\n\n\n{CLAIM}"
    out = examples.cot_marker_scrub(raw)
    assert out == f"Intro.\n\n{CLAIM}"
    assert "secret" not in out


def test_cot_marker_scrub_unclosed_fence_dropped_accepted(examples: ModuleType) -> None:
    assert examples.cot_marker_scrub(f"{CLAIM}\n~~~reasoning\ncut off mid-thought") == CLAIM


def test_cot_marker_scrub_longer_fence_kept_whole_accepted(examples: ModuleType) -> None:
    raw = f"````scratchpad\na\n```\nb\n````\n{CLAIM}"
    assert examples.cot_marker_scrub(raw) == CLAIM


def test_cot_marker_scrub_other_fences_kept_accepted(examples: ModuleType) -> None:
    raw = f"```python\nprint('thinking')\n```\n{CLAIM}"
    assert examples.cot_marker_scrub(raw) == raw


def test_cot_marker_scrub_also_tool_lines_dropped_accepted(examples: ModuleType) -> None:
    raw = f"TOOL_CALL: x\n<system>s</system>{CLAIM}"
    assert examples.cot_marker_scrub(raw) == CLAIM


def test_example_scrubs_all_reasoning_empty_accepted(examples: ModuleType) -> None:
    scrubs: list[Callable[[str], str]] = [examples.tool_trace_scrub, examples.cot_marker_scrub]
    for scrub in scrubs:
        assert scrub("<think>only reasoning</think>\n\n") == ""
