"""The hostile-case matrix names real tests, and every row names one.

tests/HOSTILE_CASES.md holds one markdown table per layer. Any table whose
last header cell is ``test`` is a matrix table: each of its rows must name at
least one pytest node id (``path::name`` or ``path::Class::name``, with an
optional ``[param]``), and every named test must exist, checked with ``ast``
so nothing is imported or run. Node ids in the last cell of rows of other
tables are checked too.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parents[1]
REPO = TESTS_DIR.parent
MATRIX = TESTS_DIR / "HOSTILE_CASES.md"
# Test files whose every test must appear in the matrix (one row per refusal).
FULLY_LISTED = ("tests/store/test_store_hostile.py",)

NODE_ID = re.compile(r"(?P<path>[\w./-]+\.py)(?P<names>(?:::[A-Za-z_]\w*)+)(?:\[[^\]\s]*\])?")
CELL_SPLIT = re.compile(r"(?<!\\)\|")
SEPARATOR = re.compile(r"^:?-+:?$")


@dataclass(frozen=True)
class Row:
    line: int
    cells: tuple[str, ...]
    is_matrix: bool

    @property
    def node_ids(self) -> list[tuple[str, tuple[str, ...]]]:
        last = self.cells[-1] if self.cells else ""
        return [(m["path"], tuple(m["names"].split("::")[1:])) for m in NODE_ID.finditer(last)]


def _cells(line: str) -> tuple[str, ...]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return tuple(c.strip() for c in CELL_SPLIT.split(inner))


def parse_tables(text: str) -> list[Row]:
    """Data rows of every markdown table in ``text`` (header and separator skipped)."""
    rows: list[Row] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        is_table = lines[i].lstrip().startswith("|") and i + 1 < len(lines)
        if not (is_table and all(SEPARATOR.match(c) for c in _cells(lines[i + 1]))):
            i += 1
            continue
        header = _cells(lines[i])
        is_matrix = header[-1].strip("`* ").lower() == "test"
        i += 2
        while i < len(lines) and lines[i].lstrip().startswith("|"):
            rows.append(Row(line=i + 1, cells=_cells(lines[i]), is_matrix=is_matrix))
            i += 1
    return rows


def _defines(body: list[ast.stmt], name: str) -> ast.stmt | None:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == name:
                return node
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return node
    return None


def missing_tests(rows: list[Row], root: Path) -> list[str]:
    """Problems with the node ids named in ``rows``: absent files or undefined names."""
    problems: list[str] = []
    trees: dict[Path, ast.Module] = {}
    for row in rows:
        for path, names in row.node_ids:
            file = root / path
            if not file.is_file():
                problems.append(f"line {row.line}: no file {path}")
                continue
            if file not in trees:  # parsed once (setdefault would parse it every time)
                trees[file] = ast.parse(file.read_text(encoding="utf-8"))
            tree = trees[file]
            body: list[ast.stmt] = tree.body
            for depth, name in enumerate(names):
                node = _defines(body, name)
                if node is None:
                    problems.append(f"line {row.line}: {path}::{'::'.join(names[: depth + 1])}")
                    break
                body = node.body if isinstance(node, ast.ClassDef) else []
    return problems


def rows_without_test(rows: list[Row]) -> list[str]:
    return [f"line {r.line}: {r.cells[0]}" for r in rows if r.is_matrix and not r.node_ids]


def _test_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        n.name
        for n in tree.body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name.startswith("test_")
    }


@pytest.fixture(scope="module")
def matrix_rows() -> list[Row]:
    return parse_tables(MATRIX.read_text(encoding="utf-8"))


# --- the real matrix -----------------------------------------------------------------


def test_hostile_matrix_has_rows_accepted(matrix_rows):
    assert sum(r.is_matrix for r in matrix_rows) >= 50


def test_hostile_matrix_row_without_test_refused(matrix_rows):
    assert rows_without_test(matrix_rows) == []


def test_hostile_matrix_unknown_test_refused(matrix_rows):
    assert missing_tests(matrix_rows, REPO) == []


@pytest.mark.parametrize("path", FULLY_LISTED)
def test_hostile_matrix_unlisted_hostile_test_refused(matrix_rows, path):
    listed = {names[-1] for r in matrix_rows for p, names in r.node_ids if p == path}
    assert sorted(_test_functions(REPO / path) - listed) == []


# --- the parser itself ---------------------------------------------------------------

SAMPLE = """
# Matrix

| act | expected | layer | test |
|---|---|---|---|
| a thing | refused (`a\\|b`) | store | tests/t_sample.py::test_real |
| a class case | refused | store | tests/t_sample.py::TestMachine::test_inner[p-1] |
| an alias | refused | store | tests/t_sample.py::TestAlias, tests/t_sample.py::test_real |
| forgotten | refused | hook | |

Some prose | with a pipe.

| word | meaning |
|---|---|
| bees | not a matrix table, so no test is required |

| act | layer | test |
|:--|:--|--:|
| gone | files | tests/t_sample.py::test_vanished |
| elsewhere | files | tests/t_missing.py::test_any |
"""

SAMPLE_CODE = """
def test_real():
    pass

class TestMachine:
    def test_inner(self):
        pass

TestAlias = object()
"""


@pytest.fixture
def sample(tmp_path: Path) -> list[Row]:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t_sample.py").write_text(SAMPLE_CODE, encoding="utf-8")
    return parse_tables(SAMPLE)


def test_matrix_parser_row_without_test_detected(sample):
    assert rows_without_test(sample) == ["line 9: forgotten"]


def test_matrix_parser_unknown_test_detected(sample, tmp_path):
    assert missing_tests(sample, tmp_path) == [
        "line 19: tests/t_sample.py::test_vanished",
        "line 20: no file tests/t_missing.py",
    ]


def test_matrix_parser_escaped_pipe_and_params_accepted(sample):
    first, second, third = sample[:3]
    assert first.cells[1] == "refused (`a\\|b`)"
    assert second.node_ids == [("tests/t_sample.py", ("TestMachine", "test_inner"))]
    assert [n for _, n in third.node_ids] == [("TestAlias",), ("test_real",)]
    assert not sample[4].is_matrix
