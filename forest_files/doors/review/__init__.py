"""``forest review``: each drifted binding and open proposal, one key each.

Stores: nothing itself: each key runs the command it prints (session.py);
proposals the text left behind are closed and audited first (closing.py).
Refuses: keys not offered for an item, empty words (session.py); no default
answer anywhere (keys.py).
Returns: see run.py (``review_here``) and session.py (``Tally``).
Test: tests/doors/test_review_session.py, tests/doors/test_review_pty.py
"""
