"""The CI gate (``forest ci``): one internal model of findings, five renderings.

Stores: nothing. Refuses: see ``gate``. Returns: ``GateReport``, strings.
Test: tests/test_ci_gate.py
"""

from forest_files.ci.gate import GateFinding, GateReport, run_gate
from forest_files.ci.render import FORMATS, render

__all__ = ["FORMATS", "GateFinding", "GateReport", "render", "run_gate"]
