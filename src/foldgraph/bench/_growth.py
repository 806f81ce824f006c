"""The growth verdict: how time per update grows with the length of the history.

Two numbers per reducer. The *exponent* is the least-squares slope of log(time
per update) against log(history): ~0 for a reducer whose cost does not depend on
the history, 1 for one that copies it. The *flag* says the cost grows faster
than O(log n): between two measured sizes n1 < n2 the time per update rose by
more than `NOISE` times what a logarithm allows (ln n2 / ln n1). A persistent
structure is allowed its log-depth and its cache misses; a copy of the history is
not. Every pair of consecutive sizes is checked, so an O(n) cost that a fixed
overhead hides at small sizes is still caught where it shows, and the pair that
shows it is named.

Measurements are CPU-time medians over every value of every worker process, so a
noisy machine moves them by tens of percent, not by the factors checked here;
sizes ten or more times apart make the verdict meaningful.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import attrs

NOISE = 2.0
"""How much slower than logarithmic growth a pair of sizes may look before it is flagged."""


@attrs.frozen
class Growth:
    """The growth of one reducer's time per update (one side, one batch size)."""

    reducer: str
    side: str
    batch: int
    sizes: tuple[int, ...]
    exponent: float | None
    flagged: bool
    evidence: str
    """Why it is flagged (or the steepest step when it is not): sizes and factors."""

    @property
    def verdict(self) -> str:
        if self.exponent is None:
            return "not enough sizes"
        return "grows faster than O(log n)" if self.flagged else "flat (O(log n) or better)"


def fit_exponent(sizes: Sequence[int], times: Sequence[float]) -> float | None:
    """Least-squares slope of log(time) against log(size); None with fewer than 2 sizes."""
    points = [
        (math.log(n), math.log(t)) for n, t in zip(sizes, times, strict=True) if n > 0 and t > 0
    ]
    if len(points) < 2:
        return None
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in points) / sxx


def log_allowance(n1: int, n2: int) -> float:
    """How much an O(log n) cost may grow from n1 to n2 (sizes below 2 count as 2)."""
    return math.log(max(n2, 2)) / math.log(max(n1, 2))


def growth(
    reducer: str, side: str, batch: int, sizes: Sequence[int], times: Sequence[float]
) -> Growth:
    """The verdict for time per update `times` measured at history lengths `sizes`."""
    pairs = sorted(zip(sizes, times, strict=True))
    sizes_sorted = tuple(n for n, _ in pairs)
    exponent = fit_exponent(sizes_sorted, [t for _, t in pairs])
    worst: tuple[float, str] | None = None
    flagged = False
    for (n1, t1), (n2, t2) in itertools.pairwise(pairs):
        if t1 <= 0 or n2 <= n1:
            continue
        factor, allowed = t2 / t1, log_allowance(n1, n2)
        excess = factor / allowed
        text = (
            f"{n1:,} -> {n2:,} items: {factor:.1f}x the time per update "
            f"(O(log n) would allow {allowed:.1f}x)"
        )
        if worst is None or excess > worst[0]:
            worst = (excess, text)
        if excess > NOISE:
            flagged = True
    return Growth(
        reducer=reducer,
        side=side,
        batch=batch,
        sizes=sizes_sorted,
        exponent=exponent,
        flagged=flagged,
        evidence=worst[1] if worst else "",
    )
