"""``forest mcp``: a Model Context Protocol server that reads custody and proposes,
and has no tool that promotes.

Stores: nothing itself; ``propose`` keeps a proposal (custody/proposals.py) and
every call is audited (audit.py). Nothing here writes the ledger.
Refuses: see tools.py (sealed and erased text, forgotten lines) and propose_checks.py
(what a proposal's own arguments may not hold).
Returns: ``serve`` (server.py, over the transport of stdio.py); the answers are
computed in tools.py.
Test: tests/doors/test_mcp_server.py, tests/doors/test_mcp_tools.py,
tests/doors/test_mcp_stdio.py

Nothing of this package is imported by ``forest --help``, the hook or a check:
the ``forest mcp`` command imports it when it runs (the ``mcp`` extra).
"""
