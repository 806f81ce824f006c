"""The growth verdict on known curves: what is flagged, what is not, and the sizes named."""

from __future__ import annotations

import math

import pytest

from foldgraph.bench._growth import fit_exponent, growth

pytestmark = pytest.mark.foldgraph_only("the growth fit of foldgraph's reducer bench")

SIZES = (10, 1_000, 100_000)


def test_the_exponent_of_a_power_law_is_its_power() -> None:
    assert fit_exponent(SIZES, [n**1.0 * 1e-9 for n in SIZES]) == pytest.approx(1.0)
    assert fit_exponent(SIZES, [1e-6] * 3) == pytest.approx(0.0)
    assert fit_exponent((10,), (1.0,)) is None


def test_a_copy_of_the_history_is_flagged_where_it_shows() -> None:
    # 1 us of fixed cost hides the O(n) part at small sizes; it shows at the top.
    times = [1e-6 + 2e-9 * n for n in SIZES]
    g = growth("copy", "foldgraph", 1, SIZES, times)
    assert g.flagged
    assert g.verdict == "grows faster than O(log n)"
    assert g.evidence == (
        "1,000 -> 100,000 items: 67.0x the time per update (O(log n) would allow 1.7x)"
    )


@pytest.mark.parametrize(
    "times",
    [
        [1e-6, 1e-6, 1e-6],
        [1e-6 * math.log(n) for n in SIZES],  # a pure logarithm
        [1.0e-6, 2.1e-6, 1.4e-6],  # a noisy flat cost
        [1.0e-6, 1.5e-6, 3.5e-6],  # HAMT depth and cache misses
    ],
)
def test_flat_and_logarithmic_costs_are_not_flagged(times: list[float]) -> None:
    g = growth("flat", "foldgraph", 1, SIZES, times)
    assert not g.flagged
    assert g.verdict == "flat (O(log n) or better)"


def test_unsorted_sizes_are_sorted_first() -> None:
    g = growth("copy", "foldgraph", 1, (100_000, 10), (1e-4, 1e-8))
    assert g.sizes == (10, 100_000) and g.flagged
