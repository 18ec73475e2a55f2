"""The trust tally: what the suite ran to earn trust (games, invariant checks, fuzz cases,
hostile inputs), printed at the end of a pytest run as the trust report.

`SCALE` multiplies every budget: 1 in CI, 100 for the long run documented in docs/trust.md
(`WONDERFORGE_TRUST_SCALE=100 python -m pytest tests/test_invariants.py tests/test_fuzz.py ...`).
"""

from __future__ import annotations

import collections
import os

SCALE = max(1, int(os.environ.get("WONDERFORGE_TRUST_SCALE", "1")))

TALLY: collections.Counter = collections.Counter()


def budget(n: int) -> int:
    """`n` scaled by `SCALE`: how many cases a trust test runs."""
    return n * SCALE


def count(kind: str, n: int = 1) -> None:
    """Adds `n` to the tally of `kind` (for example "games", "fuzz inputs", "hostile packs")."""
    TALLY[kind] += n
