"""The gate: what a range of commits did to custody, judged the way CI judges it.

Modules: ``ci`` (``forest ci``: verify the ledger, check HEAD, judge every
commit of the range), ``render`` (one report, five formats), ``range`` and
``growth`` (the ledger's rules over a range), ``signing`` (signed authority).
Nothing is imported here, so a module below the gate may read ``gate.signing``
settings without loading the gate.
"""
